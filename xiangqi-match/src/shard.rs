//! Shards of a run: a `xiangqi datagen` or `xiangqi match` run cut into `N` pure commands, their manifests, and
//! their merge.
//!
//! Shard `I` of `N` does the part `[T*I/N, T*(I+1)/N)` of the run's total `T` ([`Shard::part`]: positions for
//! datagen, colour-reversed game pairs for a match), with its own seed derived from the run's seed and its index
//! ([`shard_seed`]). At a fixed node count and one search thread per game a shard writes the same bytes every time,
//! wherever it runs.
//!
//! A shard writes into its directory its data (`datagen-IIIII.bin`, or `match-IIIII.pgn`) under a temporary name
//! that holds the process id ([`temp_path`]), renamed when complete, then its manifest (`datagen-IIIII.json` or
//! `match-IIIII.json`, a [`Manifest`]: counts, the data's SHA-256, for a match W/D/L and the pentanomial pairs),
//! also written under a temporary name and renamed ([`finish`]). A run killed mid-write leaves its temporary file;
//! the shard's next run, and a merge once the shard is finished, remove it ([`remove_temporaries`]). A shard with a
//! manifest is finished; a shard without one is not, and running it again is always safe.
//!
//! [`check_shards`] checks every manifest against its data file; [`Checks::into_run`] accepts the run only when
//! every shard is good and all are of one kind and one run; [`merge_match`] and [`merge_datagen`] join them in shard
//! order (datagen files concatenated under one header, match results summed). Nothing but stale temporaries is
//! deleted, so the good shards are kept and only the bad ones need running again.
//!
//! ```
//! use xiangqi_match::shard::{check_shards, finish, shard_seed, temp_path, Manifest, Shard, FORMAT};
//!
//! let dir = std::env::temp_dir().join(format!("xiangqi-shard-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let shard = Shard::new(1, 4).unwrap();
//! assert_eq!(shard.part(10), 2..5);
//! // A shard's data, written under a temporary name, then renamed in place with its manifest.
//! let tmp = temp_path(&dir, shard, "match");
//! std::fs::write(&tmp, "").unwrap();
//! let counts = Default::default();
//! let m = Manifest::new("match", shard, 7, shard_seed(7, 1), None, Some(counts));
//! let m = finish(&dir, &tmp, m).unwrap();
//! assert_eq!((m.format.as_str(), m.file.as_str(), m.bytes), (FORMAT, "match-00001.pgn", 0));
//! // Shard 1 is finished and good; shards 0, 2 and 3 have no manifest.
//! let checks = check_shards(&dir, 4, 4);
//! assert_eq!(checks.good.len(), 1);
//! assert_eq!(checks.bad.iter().map(|b| b.shard).collect::<Vec<_>>(), [0, 2, 3]);
//! assert!(checks.into_run(&dir, 4).is_err());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::elo::Pentanomial;
use crate::runner::MatchSettings;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi_eval::nnue::data::{DATA_MAGIC, RECORD_BYTES};

/// What is wrong with a shard or a run of shards; the message names the shard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShardError(pub String);

impl From<String> for ShardError {
    fn from(message: String) -> ShardError {
        ShardError(message)
    }
}

fn err<T>(message: String) -> Result<T, ShardError> {
    Err(ShardError(message))
}

/// The format tag of every manifest.
pub const FORMAT: &str = "xiangqi-shard/1";

/// One shard of a run, its index checked against the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// The index, from 0.
    pub index: u64,
    /// The number of shards of the run.
    pub count: u64,
}

impl Shard {
    /// Shard `index` of `count`, refused unless `count` is from 1 to 1,000,000 and `index` below it.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if !(1..=1_000_000).contains(&count) {
            return err(format!("--shards {count}: must be from 1 to 1000000"));
        }
        if index >= count {
            return err(format!("shard {index} is out of range: --shards {count} has shards 0 to {}", count - 1));
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

impl Manifest {
    /// The manifest of `shard` of a run of `kind` (`datagen` or `match`) before [`finish`] fills in its file, length
    /// and checksum.
    pub fn new(
        kind: &str,
        shard: Shard,
        run_seed: u64,
        shard_seed: u64,
        records: Option<u64>,
        results: Option<MatchCounts>,
    ) -> Manifest {
        Manifest {
            format: FORMAT.to_owned(),
            kind: kind.to_owned(),
            shard: shard.index,
            shards: shard.count,
            run_seed,
            shard_seed,
            file: String::new(),
            bytes: 0,
            sha256: String::new(),
            records,
            results,
        }
    }
}

/// Writes `bytes` to `dir/name` under a temporary name (with the process id) renamed when complete and synced.
pub fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), ShardError> {
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, dir.join(name))
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        ShardError(format!("{}: {e}", dir.join(name).display()))
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
pub fn finish(dir: &Path, tmp: &Path, mut manifest: Manifest) -> Result<Manifest, ShardError> {
    let bytes = std::fs::read(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    manifest.bytes = bytes.len() as u64;
    manifest.sha256 = sha256_hex(&bytes);
    let shard = Shard { index: manifest.shard, count: manifest.shards };
    manifest.file = shard.data_name(&manifest.kind);
    std::fs::rename(tmp, dir.join(&manifest.file))
        .map_err(|e| format!("{}: {e}", dir.join(&manifest.file).display()))?;
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| ShardError(e.to_string()))? + "\n";
    write_atomically(dir, &shard.manifest_name(&manifest.kind), text.as_bytes())?;
    Ok(manifest)
}

/// Creates the shard directory `dir` if missing.
pub fn make_dir(dir: &Path) -> Result<(), ShardError> {
    std::fs::create_dir_all(dir).map_err(|e| ShardError(format!("--out {}: {e}", dir.display())))
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
pub fn check(dir: &Path, index: u64, count: u64) -> Result<Checked, ShardError> {
    let shard = Shard { index, count };
    let found: Vec<&str> =
        ["datagen", "match"].into_iter().filter(|k| dir.join(shard.manifest_name(k)).exists()).collect();
    let kind = match found[..] {
        [k] => k,
        [] => return err(format!("shard {index}: no manifest in {} (not run, or not finished)", dir.display())),
        _ => return err(format!("shard {index}: both a datagen and a match manifest in {}", dir.display())),
    };
    let path = dir.join(shard.manifest_name(kind));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("shard {index}: {}: {e}", path.display()))?;
    let m: Manifest = serde_json::from_str(&text)
        .map_err(|e| format!("shard {index}: manifest {} is corrupt: {e}", path.display()))?;
    if m.format != FORMAT || m.kind != kind {
        return err(format!("shard {index}: manifest {} is not a {kind} shard of format {FORMAT}", path.display()));
    }
    if m.shard != index || m.shards != count {
        return err(format!(
            "shard {index}: manifest {} says shard {} of {}, expected shard {index} of {count}",
            path.display(),
            m.shard,
            m.shards
        ));
    }
    if m.file != shard.data_name(kind) {
        return err(format!("shard {index}: manifest {} names the file {:?}", path.display(), m.file));
    }
    let file = dir.join(&m.file);
    let data = std::fs::read(&file).map_err(|e| format!("shard {index}: {}: {e}", file.display()))?;
    if data.len() as u64 != m.bytes {
        return err(format!(
            "shard {index}: {} has {} bytes, its manifest says {} (truncated or corrupt)",
            file.display(),
            data.len(),
            m.bytes
        ));
    }
    let sum = sha256_hex(&data);
    if sum != m.sha256 {
        return err(format!(
            "shard {index}: checksum mismatch: {} has SHA-256 {sum}, its manifest says {}",
            file.display(),
            m.sha256
        ));
    }
    match kind {
        "datagen" => {
            let whole = data.len() >= DATA_MAGIC.len() && (data.len() - DATA_MAGIC.len()) % RECORD_BYTES == 0;
            if !whole || &data[..DATA_MAGIC.len()] != DATA_MAGIC {
                return err(format!("shard {index}: {} is not a whole datagen file", file.display()));
            }
            let records = ((data.len() - DATA_MAGIC.len()) / RECORD_BYTES) as u64;
            if m.records != Some(records) {
                return err(format!(
                    "shard {index}: {} holds {records} records, its manifest says {:?}",
                    file.display(),
                    m.records
                ));
            }
        }
        _ => {
            let Some(r) = &m.results else {
                return err(format!("shard {index}: manifest {} has no match results", path.display()));
            };
            if r.wins + r.draws + r.losses != r.games || 2 * r.pentanomial.iter().sum::<u64>() != r.games {
                return err(format!("shard {index}: manifest {} has results that do not add up", path.display()));
            }
        }
    }
    Ok(Checked { manifest: m, data })
}

/// A shard that did not pass [`check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadShard {
    /// Its index.
    pub shard: u64,
    /// Whether it has a manifest (without one it was not run, or not finished).
    pub manifest: bool,
    /// What is wrong, naming the shard.
    pub error: ShardError,
}

/// The shards of a run, checked one by one ([`check_shards`]).
pub struct Checks {
    /// The good shards, in shard order.
    pub good: Vec<Checked>,
    /// The bad ones, in shard order.
    pub bad: Vec<BadShard>,
}

/// Checks shards `0..upto` of a run of `count` in `dir` with [`check`].
pub fn check_shards(dir: &Path, count: u64, upto: u64) -> Checks {
    let mut checks = Checks { good: Vec::new(), bad: Vec::new() };
    for index in 0..upto {
        match check(dir, index, count) {
            Ok(c) => checks.good.push(c),
            Err(error) => {
                let shard = Shard { index, count };
                let manifest = ["datagen", "match"].iter().any(|k| dir.join(shard.manifest_name(k)).exists());
                checks.bad.push(BadShard { shard: index, manifest, error });
            }
        }
    }
    checks
}

impl Checks {
    /// The kind of the good shards (`datagen` or `match`), if they have one kind.
    pub fn kind(&self) -> Option<&str> {
        let first = self.good.first()?.manifest.kind.as_str();
        self.good.iter().all(|c| c.manifest.kind == first).then_some(first)
    }

    /// What keeps shards `0..upto` from being merged as one run, if anything: bad shards, shards of different kinds
    /// or of different runs (another run seed).
    pub fn run_error(&self, upto: u64) -> Option<ShardError> {
        let good = &self.good;
        if !self.bad.is_empty() {
            let list: Vec<String> = self.bad.iter().map(|b| b.shard.to_string()).collect();
            return Some(ShardError(format!(
                "{} of {upto} shards are bad ({}); nothing merged, the {} good shards are kept: run the bad ones again",
                self.bad.len(),
                list.join(", "),
                good.len()
            )));
        }
        if good.iter().any(|c| c.manifest.kind != good[0].manifest.kind) {
            return Some(ShardError("the shards are of different kinds (datagen and match)".to_owned()));
        }
        let c = good.iter().find(|c| c.manifest.run_seed != good[0].manifest.run_seed)?;
        Some(ShardError(format!(
            "shard {}: run seed {} differs from shard 0's {}: shards of different runs",
            c.manifest.shard, c.manifest.run_seed, good[0].manifest.run_seed
        )))
    }

    /// Every shard's state as JSON (what `xiangqi merge --check --json` prints and the Ray driver reads): the good
    /// ones with their kind, the bad ones with their error and whether they have a manifest, and what keeps shards
    /// `0..upto` from being merged as one run (`error`, `null` when nothing does).
    pub fn to_json(&self, upto: u64) -> serde_json::Value {
        let good: Vec<serde_json::Value> =
            self.good.iter().map(|c| serde_json::json!({"shard": c.manifest.shard, "kind": c.manifest.kind})).collect();
        let bad: Vec<serde_json::Value> = self
            .bad
            .iter()
            .map(|b| serde_json::json!({"shard": b.shard, "manifest": b.manifest, "error": b.error.to_string()}))
            .collect();
        let error = self.run_error(upto).map(|e| e.to_string());
        serde_json::json!({"kind": self.kind(), "shards": upto, "good": good, "bad": bad, "error": error})
    }

    /// The shards of a run of `upto` shards, when [`Checks::run_error`] finds nothing; the temporaries left by killed
    /// runs of these finished shards are removed from `dir`.
    ///
    /// # Errors
    /// [`Checks::run_error`]'s.
    pub fn into_run(self, dir: &Path, upto: u64) -> Result<Vec<Checked>, ShardError> {
        if let Some(e) = self.run_error(upto) {
            return Err(e);
        }
        // Every shard merged is finished: a temporary of it is what a run killed mid-write left behind.
        for c in &self.good {
            remove_temporaries(dir, Shard { index: c.manifest.shard, count: c.manifest.shards }, &c.manifest.kind);
        }
        Ok(self.good)
    }
}

/// The summed results of match shards and their games' PGN, in shard order.
pub fn merge_match(shards: &[Checked]) -> (MatchCounts, Vec<u8>) {
    let mut total = MatchCounts::default();
    let mut pgn = Vec::new();
    for c in shards {
        if let Some(r) = &c.manifest.results {
            total.games += r.games;
            total.wins += r.wins;
            total.draws += r.draws;
            total.losses += r.losses;
            for (t, x) in total.pentanomial.iter_mut().zip(r.pentanomial) {
                *t += x;
            }
        }
        pgn.extend_from_slice(&c.data);
    }
    (total, pgn)
}

/// The records of datagen shards under one header, and their count, in shard order.
pub fn merge_datagen(shards: &[Checked]) -> (u64, Vec<u8>) {
    let mut data = DATA_MAGIC.to_vec();
    let mut records = 0;
    for c in shards {
        data.extend_from_slice(&c.data[DATA_MAGIC.len()..]);
        records += c.manifest.records.unwrap_or(0);
    }
    (records, data)
}

impl MatchCounts {
    /// The first engine's colour-reversed pairs.
    pub fn pairs(&self) -> Pentanomial {
        Pentanomial { counts: self.pentanomial }
    }
}

/// Writes a merged file to `path` under a temporary name, renamed when complete.
///
/// # Errors
/// When the path names no file, or the file cannot be written.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ShardError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| format!("--out {}: not a file name", path.display()))?;
    write_atomically(dir, &name.to_string_lossy(), bytes)
}

/// Plays shard `shard` of the match `settings` into `dir` (created if missing): its game pairs
/// ([`crate::run_range`]), their games into a temporary PGN file renamed when complete, then the manifest with W/D/L
/// and the pentanomial pairs ([`finish`]), which it returns.
///
/// # Errors
/// When the directory or a file cannot be written.
pub fn play_match(settings: &MatchSettings, shard: Shard, dir: &Path) -> Result<Manifest, ShardError> {
    make_dir(dir)?;
    let pairs = shard.part(settings.games as u64 / 2);
    let games = (2 * pairs.start) as usize..(2 * pairs.end) as usize;
    let tmp = temp_path(dir, shard, "match");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?);
    let mut write_error = None;
    let summary = crate::run_range(settings, games.clone(), |record, _| {
        if let Err(e) = file.write_all(record.pgn(&settings.event).as_bytes()) {
            write_error.get_or_insert(e);
        }
    });
    let done = file.into_inner().map_err(|e| e.into_error()).and_then(|f| f.sync_all());
    if let Some(e) = write_error.map(Err).unwrap_or(done).err() {
        let _ = std::fs::remove_file(&tmp);
        return err(format!("{}: {e}", tmp.display()));
    }
    let results = MatchCounts {
        first_game: games.start as u64,
        games: summary.first.games(),
        wins: summary.first.wins,
        draws: summary.first.draws,
        losses: summary.first.losses,
        pentanomial: summary.pairs.counts,
    };
    finish(dir, &tmp, Manifest::new("match", shard, 0, 0, None, Some(results)))
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
        assert!(Shard::new(8, 8).unwrap_err().0.contains("shard 8 is out of range"));
        assert!(Shard::new(0, 0).is_err());
        assert_ne!(shard_seed(1, 0), shard_seed(1, 1));
        assert_ne!(shard_seed(1, 0), shard_seed(2, 0));
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
