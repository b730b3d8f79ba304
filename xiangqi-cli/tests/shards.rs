//! The shards of a run (`--shard I --shards N`) and `xiangqi merge`: the same bytes every run, merges equal to the
//! whole, and a clear error naming each bad shard.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(args).output().expect("the xiangqi binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = xiangqi(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = xiangqi(args);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-shards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen_shard(dir: &Path, i: u64, n: u64) {
    let (i, n) = (i.to_string(), n.to_string());
    let d = dir.to_str().unwrap();
    ok(&["datagen", "--shard", &i, "--shards", &n, "--positions", "90", "--nodes", "200", "--seed", "11"]
        .into_iter()
        .chain(["--out", d, "--quiet"])
        .collect::<Vec<_>>());
}

#[test]
fn datagen_shards_repeat_their_bytes_and_merge_in_order() {
    let (a, b) = (temp("a"), temp("b"));
    for i in 0..3 {
        datagen_shard(&a, i, 3);
    }
    datagen_shard(&b, 1, 3);
    let one = std::fs::read(a.join("datagen-00001.bin")).unwrap();
    assert_eq!(one, std::fs::read(b.join("datagen-00001.bin")).unwrap(), "a shard gives the same bytes every run");
    assert_eq!(
        std::fs::read_to_string(a.join("datagen-00001.json")).unwrap(),
        std::fs::read_to_string(b.join("datagen-00001.json")).unwrap()
    );
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(&a).unwrap().count(), 6);
    let merged = a.join("merged.bin");
    let out = ok(&["merge", "--dir", a.to_str().unwrap(), "--shards", "3", "--out", merged.to_str().unwrap()]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["records"], 90);
    let mut expected = std::fs::read(a.join("datagen-00000.bin")).unwrap();
    for i in 1..3 {
        expected.extend_from_slice(&std::fs::read(a.join(format!("datagen-0000{i}.bin"))).unwrap()[8..]);
    }
    assert_eq!(std::fs::read(&merged).unwrap(), expected);
    // Shards 0 and 2 differ from each other (their seeds differ).
    assert_ne!(
        std::fs::read(a.join("datagen-00000.bin")).unwrap()[8..],
        std::fs::read(a.join("datagen-00002.bin")).unwrap()[8..]
    );
    for d in [a, b] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn bad_shards_are_named_and_the_good_ones_kept() {
    let dir = temp("bad");
    let d = dir.to_str().unwrap();
    for i in 0..4 {
        datagen_shard(&dir, i, 4);
    }
    // An index out of range.
    let e = fails(&["datagen", "--shard", "4", "--shards", "4", "--out", d, "--positions", "10"]);
    assert!(e.contains("shard 4 is out of range: --shards 4 has shards 0 to 3"), "{e}");
    // Shard 1 truncated, shard 2 corrupt (same length), shard 3's manifest with another checksum.
    let f1 = dir.join("datagen-00001.bin");
    let bytes = std::fs::read(&f1).unwrap();
    std::fs::write(&f1, &bytes[..bytes.len() - 10]).unwrap();
    let f2 = dir.join("datagen-00002.bin");
    let mut bytes = std::fs::read(&f2).unwrap();
    bytes[20] ^= 0x55;
    std::fs::write(&f2, &bytes).unwrap();
    let m3 = dir.join("datagen-00003.json");
    let text = std::fs::read_to_string(&m3).unwrap();
    let mut j: serde_json::Value = serde_json::from_str(&text).unwrap();
    j["sha256"] = serde_json::json!("0".repeat(64));
    std::fs::write(&m3, j.to_string()).unwrap();
    let merged = dir.join("merged.bin");
    let e = fails(&["merge", "--dir", d, "--shards", "4", "--out", merged.to_str().unwrap()]);
    assert!(e.contains("shard 1: ") && e.contains("(truncated or corrupt)"), "{e}");
    assert!(e.contains("shard 2: checksum mismatch"), "{e}");
    assert!(e.contains("shard 3: checksum mismatch"), "{e}");
    assert!(e.contains("3 of 4 shards are bad (1, 2, 3)"), "{e}");
    assert!(!e.contains("shard 0:"), "{e}");
    assert!(!merged.exists());
    assert!(dir.join("datagen-00000.bin").exists() && dir.join("datagen-00000.json").exists(), "good shards kept");
    // Shards of a run of another count, a missing shard, and a corrupt manifest.
    let e = fails(&["merge", "--dir", d, "--shards", "5", "--check"]);
    assert!(e.contains("shard 0: manifest") && e.contains("says shard 0 of 4, expected shard 0 of 5"), "{e}");
    assert!(e.contains("shard 4: no manifest"), "{e}");
    std::fs::write(&m3, "{ not json").unwrap();
    let e = fails(&["merge", "--dir", d, "--shards", "4", "--check"]);
    assert!(e.contains("shard 3: manifest") && e.contains("is corrupt"), "{e}");
    // Running the bad shards again mends the run.
    for i in 1..4 {
        datagen_shard(&dir, i, 4);
    }
    assert!(ok(&["merge", "--dir", d, "--shards", "4", "--check"]).contains(r#""checked":"all good""#));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_shards_sum_to_the_whole_match() {
    let dir = temp("match");
    let x = env!("CARGO_BIN_EXE_xiangqi");
    let (a, b) = (format!("cmd={x}"), format!("cmd={x}"));
    let engines = ["--engine", &a, "name=a", "--engine", &b, "name=b", "option.Variant=pvs+nmp+qs"];
    let common: Vec<&str> = engines.into_iter().chain(["--nodes", "300", "--games", "10"]).collect();
    let serial: serde_json::Value =
        serde_json::from_str(&ok(&[&["match"][..], &common, &["--json"]].concat())).unwrap();
    let d = dir.to_str().unwrap();
    for i in ["0", "1", "2"] {
        ok(&[&["match"][..], &common, &["--shard", i, "--shards", "3", "--out", d]].concat());
    }
    let merged: serde_json::Value =
        serde_json::from_str(&ok(&["merge", "--dir", d, "--shards", "3", "--sprt", "elo0=0", "elo1=10"])).unwrap();
    for key in ["games", "wins", "draws", "losses", "pentanomial"] {
        assert_eq!(merged[key], serial[key], "{key}: {merged} against {serial}");
    }
    assert_eq!(merged["games"], 10);
    assert!(merged["sprt"]["llr"].is_number());
    // A shard of an odd number of games, or with --sprt, is refused.
    let e = fails(
        &[&["match"][..], &engines, &["--nodes", "300", "--games", "9", "--shard", "0", "--shards", "2", "--out", d]]
            .concat(),
    );
    assert!(e.contains("--games must be even"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shard whose process was killed mid-write leaves `.datagen-IIIII.bin.tmp.PID` (and perhaps its manifest's
/// temporary): the shard's next run removes its own, `xiangqi merge` those of every finished shard; and a shard
/// reports its data under its final name, never the temporary one.
#[test]
fn stale_temporaries_are_removed_and_the_final_name_reported() {
    let dir = temp("stale");
    let d = dir.to_str().unwrap();
    let stale = |i: u64| {
        let data = dir.join(format!(".datagen-0000{i}.bin.tmp.4242424"));
        let manifest = dir.join(format!(".datagen-0000{i}.json.tmp.4242425"));
        std::fs::write(&data, b"XQDATA01partial").unwrap();
        std::fs::write(&manifest, b"{").unwrap();
        [data, manifest]
    };
    let temporaries = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp."))
            .collect();
        names.sort();
        names
    };
    // The shard's next run removes its own temporaries, not another shard's.
    let [data1, manifest1] = stale(1);
    let [data2, manifest2] = stale(2);
    let out = xiangqi(
        &["datagen", "--shard", "1", "--shards", "3", "--positions", "90", "--nodes", "200"]
            .into_iter()
            .chain(["--seed", "11", "--out", d])
            .collect::<Vec<_>>(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!data1.exists() && !manifest1.exists(), "shard 1's run removes its stale temporaries");
    assert!(data2.exists() && manifest2.exists(), "another shard's temporaries are its own run's business");
    let err = String::from_utf8_lossy(&out.stderr);
    let done = err.lines().find(|l| l.starts_with("datagen: done")).expect("the closing line");
    assert!(done.contains(&format!("in {}", dir.join("datagen-00001.bin").display())), "{done}");
    assert!(!err.contains(".tmp."), "the temporary name is not reported: {err}");
    // Merge removes the temporaries of every finished shard.
    for i in [0, 2] {
        datagen_shard(&dir, i, 3);
    }
    stale(0);
    stale(1);
    assert_eq!(temporaries().len(), 4, "{:?}", temporaries());
    let merged = dir.join("merged.bin");
    ok(&["merge", "--dir", d, "--shards", "3", "--out", merged.to_str().unwrap()]);
    assert_eq!(temporaries(), Vec::<String>::new());
    std::fs::remove_dir_all(dir).unwrap();
}
