//! Shards of a run: `xiangqi datagen` and `xiangqi match` with `--shard I --shards N`, and `xiangqi merge`.
//!
//! A run of `N` shards is cut into `N` pure commands: shard `I` does the part `[T*I/N, T*(I+1)/N)` of the run's total
//! `T` (positions for datagen, colour-reversed game pairs for a match), with its own seed derived from the run's seed
//! and its index ([`shard_seed`]). At a fixed node count and one search thread per game a shard writes the same bytes
//! every time, wherever it runs.
//!
//! A shard writes into the directory `--out DIR`: its data (`datagen-IIIII.bin`, or `match-IIIII.pgn`) under a
//! temporary name that holds the process id, renamed when complete, then its manifest (`datagen-IIIII.json` or
//! `match-IIIII.json`, a [`Manifest`]: counts, the data's SHA-256, for a match W/D/L and the pentanomial pairs), also
//! written under a temporary name and renamed. A run killed mid-write leaves its temporary file; the shard's next
//! run, and `xiangqi merge` once the shard is finished, remove it. A shard with a manifest is finished; a shard without one is not, and
//! running it again is always safe (two runs of the same shard write the same bytes, and each renames its own
//! temporary file).
//!
//! `xiangqi merge --dir DIR --shards N` checks every manifest against its data file and joins them in shard order:
//! datagen files concatenated under one header, match results summed. A bad shard (no manifest, a data file truncated
//! or corrupt, a checksum that does not match, an index out of range) is an error naming the shard; nothing but
//! stale temporaries is deleted, so the good shards are kept and only the bad ones need running again.

use crate::CmdResult;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi_eval::nnue::data::{DATA_MAGIC, RECORD_BYTES};
use xiangqi_match::elo::{Sprt, SprtState};
use xiangqi_match::{Pentanomial, Trinomial};

/// The format tag of every manifest.
pub const FORMAT: &str = "xiangqi-shard/1";

/// `--shard I --shards N`: which part of a run a command does.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ShardOpts {
    /// Do only shard I (from 0) of the run, into the directory of --out, with a manifest (needs --shards).
    #[arg(long, value_name = "I", requires = "shards")]
    pub shard: Option<u64>,
    /// The number of shards the run is cut into (needs --shard).
    #[arg(long, value_name = "N", requires = "shard")]
    pub shards: Option<u64>,
}

/// One shard of a run, its index checked against the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// The index, from 0.
    pub index: u64,
    /// The number of shards of the run.
    pub count: u64,
}

impl ShardOpts {
    /// The shard asked for, if any; an index out of range or no shard at all is an error that names it.
    pub fn shard(&self) -> Result<Option<Shard>, String> {
        match (self.shard, self.shards) {
            (Some(index), Some(count)) => Shard::new(index, count).map(Some),
            (None, None) => Ok(None),
            _ => Err("--shard and --shards go together".to_owned()),
        }
    }
}

impl Shard {
    /// Shard `index` of `count`, refused unless `count` is from 1 to 1,000,000 and `index` below it.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if !(1..=1_000_000).contains(&count) {
            return Err(format!("--shards {count}: must be from 1 to 1000000"));
        }
        if index >= count {
            return Err(format!("shard {index} is out of range: --shards {count} has shards 0 to {}", count - 1));
        }
        Ok(Shard { index, count })
    }

    /// This shard's part `[T*I/N, T*(I+1)/N)` of a run of `total` units.
    pub fn part(&self, total: u64) -> std::ops::Range<u64> {
        let at = |i: u64| ((total as u128 * i as u128) / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }

    /// The file name of this shard's manifest for a run of `kind` (`datagen` or `match`).
    pub fn manifest_name(&self, kind: &str) -> String {
        format!("{kind}-{:05}.json", self.index)
    }

    /// The file name of this shard's data for a run of `kind` (`datagen-IIIII.bin`, `match-IIIII.pgn`).
    pub fn data_name(&self, kind: &str) -> String {
        let ext = if kind == "match" { "pgn" } else { "bin" };
        format!("{kind}-{:05}.{ext}", self.index)
    }
}

/// The seed of shard `index` of a run seeded `run_seed` (SplitMix64 of the two, so neighbouring shards and runs get
/// unrelated streams).
pub fn shard_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A match shard's results, from the first engine's side.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchCounts {
    /// The first game index of the shard.
    pub first_game: u64,
    /// Games played.
    pub games: u64,
    /// The first engine's wins.
    pub wins: u64,
    /// The first engine's draws.
    pub draws: u64,
    /// The first engine's losses.
    pub losses: u64,
    /// The first engine's colour-reversed pairs by score 0, ½, 1, 1½, 2.
    pub pentanomial: [u64; 5],
}

/// The manifest of one finished shard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: String,
    /// `datagen` or `match`.
    pub kind: String,
    /// The shard's index.
    pub shard: u64,
    /// The run's shard count.
    pub shards: u64,
    /// The run's seed.
    pub run_seed: u64,
    /// The shard's own seed ([`shard_seed`]).
    pub shard_seed: u64,
    /// The data file's name, in the manifest's directory.
    pub file: String,
    /// The data file's length in bytes.
    pub bytes: u64,
    /// The data file's SHA-256, lower-case hex.
    pub sha256: String,
    /// Datagen: the records in the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<u64>,
    /// A match: its results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<MatchCounts>,
}

/// Writes `bytes` to `dir/name` under a temporary name (with the process id) renamed when complete and synced.
pub fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, dir.join(name))
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", dir.join(name).display())
    })
}

/// The temporary name a shard's data is written under in `dir` before [`finish`] renames it. The temporaries of
/// the same shard left by an earlier run (a process killed mid-write: another process id) are removed first.
pub fn temp_path(dir: &Path, shard: Shard, kind: &str) -> PathBuf {
    remove_temporaries(dir, shard, kind);
    dir.join(format!(".{}.tmp.{}", shard.data_name(kind), std::process::id()))
}

/// Removes the temporary files of `shard` in `dir` (its data's and its manifest's, `.NAME.tmp.PID`) written by
/// other processes than this one: what a run killed mid-write leaves behind. Errors are ignored (another run of
/// the same shard may have removed them first).
pub fn remove_temporaries(dir: &Path, shard: Shard, kind: &str) {
    let prefixes = [format!(".{}.tmp.", shard.data_name(kind)), format!(".{}.tmp.", shard.manifest_name(kind))];
    let own = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let stale = prefixes.iter().any(|p| name.strip_prefix(p.as_str()).is_some_and(|pid| pid != own));
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Renames a shard's complete temporary data file into place and writes its manifest (the data first, so a manifest
/// always names a complete file).
pub fn finish(dir: &Path, tmp: &Path, mut manifest: Manifest) -> Result<Manifest, String> {
    let bytes = std::fs::read(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    manifest.bytes = bytes.len() as u64;
    manifest.sha256 = sha256_hex(&bytes);
    let shard = Shard { index: manifest.shard, count: manifest.shards };
    manifest.file = shard.data_name(&manifest.kind);
    std::fs::rename(tmp, dir.join(&manifest.file))
        .map_err(|e| format!("{}: {e}", dir.join(&manifest.file).display()))?;
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())? + "\n";
    write_atomically(dir, &shard.manifest_name(&manifest.kind), text.as_bytes())?;
    Ok(manifest)
}

/// Creates the shard directory `dir` if missing.
pub fn make_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))
}

/// A checked shard: its manifest and its data.
pub struct Checked {
    /// The manifest.
    pub manifest: Manifest,
    /// The data file's bytes.
    pub data: Vec<u8>,
}

/// Reads shard `index` of `count` in `dir` and checks it: the manifest there and readable, its shard, count and kind
/// those expected, the data file of the length and checksum it gives, and for datagen whole records under the header.
/// The error names the shard.
pub fn check(dir: &Path, index: u64, count: u64) -> Result<Checked, String> {
    let shard = Shard { index, count };
    let found: Vec<&str> =
        ["datagen", "match"].into_iter().filter(|k| dir.join(shard.manifest_name(k)).exists()).collect();
    let kind = match found[..] {
        [k] => k,
        [] => return Err(format!("shard {index}: no manifest in {} (not run, or not finished)", dir.display())),
        _ => return Err(format!("shard {index}: both a datagen and a match manifest in {}", dir.display())),
    };
    let path = dir.join(shard.manifest_name(kind));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("shard {index}: {}: {e}", path.display()))?;
    let m: Manifest = serde_json::from_str(&text)
        .map_err(|e| format!("shard {index}: manifest {} is corrupt: {e}", path.display()))?;
    if m.format != FORMAT || m.kind != kind {
        return Err(format!("shard {index}: manifest {} is not a {kind} shard of format {FORMAT}", path.display()));
    }
    if m.shard != index || m.shards != count {
        return Err(format!(
            "shard {index}: manifest {} says shard {} of {}, expected shard {index} of {count}",
            path.display(),
            m.shard,
            m.shards
        ));
    }
    if m.file != shard.data_name(kind) {
        return Err(format!("shard {index}: manifest {} names the file {:?}", path.display(), m.file));
    }
    let file = dir.join(&m.file);
    let data = std::fs::read(&file).map_err(|e| format!("shard {index}: {}: {e}", file.display()))?;
    if data.len() as u64 != m.bytes {
        return Err(format!(
            "shard {index}: {} has {} bytes, its manifest says {} (truncated or corrupt)",
            file.display(),
            data.len(),
            m.bytes
        ));
    }
    let sum = sha256_hex(&data);
    if sum != m.sha256 {
        return Err(format!(
            "shard {index}: checksum mismatch: {} has SHA-256 {sum}, its manifest says {}",
            file.display(),
            m.sha256
        ));
    }
    match kind {
        "datagen" => {
            let whole = data.len() >= DATA_MAGIC.len() && (data.len() - DATA_MAGIC.len()) % RECORD_BYTES == 0;
            if !whole || &data[..DATA_MAGIC.len()] != DATA_MAGIC {
                return Err(format!("shard {index}: {} is not a whole datagen file", file.display()));
            }
            let records = ((data.len() - DATA_MAGIC.len()) / RECORD_BYTES) as u64;
            if m.records != Some(records) {
                return Err(format!(
                    "shard {index}: {} holds {records} records, its manifest says {:?}",
                    file.display(),
                    m.records
                ));
            }
        }
        _ => {
            let Some(r) = &m.results else {
                return Err(format!("shard {index}: manifest {} has no match results", path.display()));
            };
            if r.wins + r.draws + r.losses != r.games || 2 * r.pentanomial.iter().sum::<u64>() != r.games {
                return Err(format!("shard {index}: manifest {} has results that do not add up", path.display()));
            }
        }
    }
    Ok(Checked { manifest: m, data })
}

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
}

/// The summed results of match shards as JSON: W/D/L, the pentanomial pairs, Elo, and the SPRT when asked.
pub fn match_json(total: &MatchCounts, shards: u64, sprt: Option<&Sprt>) -> serde_json::Value {
    let tri = Trinomial { wins: total.wins, draws: total.draws, losses: total.losses };
    let penta = Pentanomial { counts: total.pentanomial };
    let (elo, err) = penta.elo();
    let mut j = serde_json::json!({
        "kind": "match", "shards": shards, "games": total.games, "wins": tri.wins, "draws": tri.draws,
        "losses": tri.losses, "pentanomial": total.pentanomial, "score": crate::matches::json_number(tri.score()),
        "elo_pentanomial": crate::matches::json_number(elo), "elo_error_pentanomial": crate::matches::json_number(err),
    });
    if let Some(s) = sprt {
        let llr = penta.llr(s.elo0, s.elo1);
        let (lo, hi) = s.bounds();
        let state = match s.state(llr) {
            SprtState::AcceptH0 => "H0",
            SprtState::AcceptH1 => "H1",
            SprtState::Continue => "continue",
        };
        j["sprt"] = serde_json::json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": crate::matches::json_number(llr), "lower_bound": lo, "upper_bound": hi, "result": state,
        });
    }
    j
}

/// `xiangqi merge`.
pub fn merge(a: &MergeArgs) -> CmdResult {
    Shard::new(0, a.shards)?;
    let upto = a.first.unwrap_or(a.shards);
    if upto > a.shards {
        return Err(format!("--first {upto}: the run has {} shards", a.shards).into());
    }
    let sprt = a.sprt.as_deref().map(crate::matches::parse_sprt).transpose()?;
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for i in 0..upto {
        match check(&a.dir, i, a.shards) {
            Ok(c) => good.push(c),
            Err(e) => {
                eprintln!("{e}");
                bad.push(i);
            }
        }
    }
    if !bad.is_empty() {
        let list: Vec<String> = bad.iter().map(|i| i.to_string()).collect();
        return Err(format!(
            "{} of {upto} shards are bad ({}); nothing merged, the {} good shards are kept: run the bad ones again",
            bad.len(),
            list.join(", "),
            good.len()
        )
        .into());
    }
    let kinds: Vec<&str> = good.iter().map(|c| c.manifest.kind.as_str()).collect();
    if kinds.iter().any(|k| *k != kinds[0]) {
        return Err("the shards are of different kinds (datagen and match)".into());
    }
    if let Some(c) = good.iter().find(|c| c.manifest.run_seed != good[0].manifest.run_seed) {
        return Err(format!(
            "shard {}: run seed {} differs from shard 0's {}: shards of different runs",
            c.manifest.shard, c.manifest.run_seed, good[0].manifest.run_seed
        )
        .into());
    }
    // Every shard merged is finished: a temporary of it is what a run killed mid-write left behind.
    for c in &good {
        let kind = &c.manifest.kind;
        remove_temporaries(&a.dir, Shard { index: c.manifest.shard, count: c.manifest.shards }, kind);
    }
    if a.check {
        println!("{}", serde_json::json!({"kind": kinds.first(), "shards": upto, "checked": "all good"}));
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    if kinds.first() == Some(&"match") {
        let mut total = MatchCounts::default();
        let mut pgn = Vec::new();
        for c in &good {
            let r = c.manifest.results.as_ref().expect("checked");
            total.games += r.games;
            total.wins += r.wins;
            total.draws += r.draws;
            total.losses += r.losses;
            for (t, x) in total.pentanomial.iter_mut().zip(r.pentanomial) {
                *t += x;
            }
            pgn.extend_from_slice(&c.data);
        }
        if let Some(path) = &a.out {
            write_file(path, &pgn)?;
        }
        writeln!(out, "{}", match_json(&total, upto, sprt.as_ref()))?;
    } else {
        let Some(path) = &a.out else {
            return Err("merging datagen shards needs --out FILE".into());
        };
        let mut data = DATA_MAGIC.to_vec();
        let mut records = 0;
        for c in &good {
            data.extend_from_slice(&c.data[DATA_MAGIC.len()..]);
            records += c.manifest.records.unwrap_or(0);
        }
        write_file(path, &data)?;
        let j = serde_json::json!({"kind": "datagen", "shards": upto, "records": records, "bytes": data.len(),
            "sha256": sha256_hex(&data), "out": path.display().to_string()});
        writeln!(out, "{j}")?;
    }
    Ok(())
}

/// Writes a merged file under a temporary name, renamed when complete.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| format!("--out {}: not a file name", path.display()))?;
    write_atomically(dir, &name.to_string_lossy(), bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_run_once() {
        for (total, count) in [(0, 1), (7, 3), (1000, 8), (5, 8), (u64::MAX, 7)] {
            let mut next = 0;
            for i in 0..count {
                let p = Shard::new(i, count).unwrap().part(total);
                assert_eq!(p.start, next);
                next = p.end;
            }
            assert_eq!(next, total);
        }
        assert!(Shard::new(8, 8).unwrap_err().contains("shard 8 is out of range"));
        assert!(Shard::new(0, 0).is_err());
        assert_ne!(shard_seed(1, 0), shard_seed(1, 1));
        assert_ne!(shard_seed(1, 0), shard_seed(2, 0));
        assert_eq!(shard_seed(1, 3), shard_seed(1, 3));
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
