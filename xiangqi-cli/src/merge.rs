//! `xiangqi merge` and the `--shard I --shards N` flags of `xiangqi datagen` and `xiangqi match`: a front end over
//! [`xiangqi_match::shard`], which defines the shards, their manifests, their checks and their merge.
//!
//! `xiangqi merge --dir DIR --shards N` checks every manifest against its data file and joins them in shard order:
//! datagen files concatenated under one header, match results summed. A bad shard (no manifest, a data file truncated
//! or corrupt, a checksum that does not match, an index out of range) is an error naming the shard; nothing but
//! stale temporaries is deleted, so the good shards are kept and only the bad ones need running again. `--check`
//! only checks; `--check --json` prints every shard's state as one JSON object (what the Ray driver reads).

use crate::CmdResult;
use std::io::Write;
use std::path::PathBuf;
use xiangqi_match::report::match_json;
use xiangqi_match::shard::{self, Shard};

/// The arguments of `xiangqi merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The directory the shards wrote into (their --out).
    #[arg(long)]
    dir: PathBuf,
    /// The number of shards of the run.
    #[arg(long)]
    shards: u64,
    /// Merge only shards 0 to K-1 (the finished prefix of a run still going).
    #[arg(long, value_name = "K")]
    first: Option<u64>,
    /// The merged file: datagen records under one header, or a match's games in PGN (optional for a match).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The SPRT to decide over the merged pairs of a match: elo0=ELO elo1=ELO [alpha=0.05] [beta=0.05].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Only check every shard; write nothing.
    #[arg(long)]
    check: bool,
    /// With --check: every shard's state as one JSON object (good, bad with the error), exit status 0 either way.
    #[arg(long, requires = "check")]
    json: bool,
}

/// `xiangqi merge`.
pub fn merge(a: &MergeArgs) -> CmdResult {
    Shard::new(0, a.shards)?;
    let upto = a.first.unwrap_or(a.shards);
    if upto > a.shards {
        return Err(format!("--first {upto}: the run has {} shards", a.shards).into());
    }
    let sprt = a.sprt.as_deref().map(crate::args::parse_sprt).transpose()?;
    let checks = shard::check_shards(&a.dir, a.shards, upto);
    if a.check && a.json {
        println!("{}", checks.to_json(upto));
        return Ok(());
    }
    for b in &checks.bad {
        eprintln!("{}", b.error);
    }
    let good = checks.into_run(&a.dir, upto)?;
    let kind = good.first().map(|c| c.manifest.kind.as_str());
    if a.check {
        println!("{}", serde_json::json!({"kind": kind, "shards": upto, "checked": "all good"}));
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    if kind == Some("match") {
        let (total, pgn) = shard::merge_match(&good);
        if let Some(path) = &a.out {
            shard::write_file(path, &pgn)?;
        }
        writeln!(out, "{}", match_json(&total, upto, sprt.as_ref()))?;
    } else {
        let Some(path) = &a.out else {
            return Err("merging datagen shards needs --out FILE".into());
        };
        let (records, data) = shard::merge_datagen(&good);
        shard::write_file(path, &data)?;
        let j = serde_json::json!({"kind": "datagen", "shards": upto, "records": records, "bytes": data.len(),
            "sha256": shard::sha256_hex(&data), "out": path.display().to_string()});
        writeln!(out, "{j}")?;
    }
    Ok(())
}
