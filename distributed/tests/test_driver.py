"""The driver on a local Ray cluster (a head and two worker nodes of one CPU each), against the shards run one by one
without Ray."""

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import ray
from ray.cluster_utils import Cluster

from xiangqi_shards import ShardError, check_manifest, run

REPO = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("XIANGQI_BIN", str(REPO / "target" / "release" / "xiangqi"))
SHARDS = 8
DATAGEN = ["--positions", "2400", "--nodes", "200", "--seed", "21", "--quiet"]
# A longer run for the driver that is killed: it must still be going when the test kills it.
DATAGEN_LONG = ["--positions", "6400", "--nodes", "300", "--seed", "22", "--quiet"]


def quiet(_line):
    pass


@pytest.fixture(scope="module")
def cluster():
    if not os.access(BINARY, os.X_OK):
        pytest.fail(f"no xiangqi binary at {BINARY}: cargo build --release -p xiangqi-cli (or set XIANGQI_BIN)")
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    yield c, workers
    ray.shutdown()
    c.shutdown()


_serial = {}


def serial(tmp_path_factory, args):
    """The merged bytes of the shards run one after the other with the binary, without Ray."""
    key = tuple(args)
    if key not in _serial:
        d = tmp_path_factory.mktemp("serial")
        for i in range(SHARDS):
            subprocess.run([BINARY, "datagen", *args, "--shard", str(i), "--shards", str(SHARDS), "--out", str(d)],
                           check=True, capture_output=True)
        subprocess.run([BINARY, "merge", "--dir", str(d), "--shards", str(SHARDS), "--out", str(d / "all.bin")],
                       check=True, capture_output=True)
        _serial[key] = (d / "all.bin").read_bytes()
    return _serial[key]


def test_datagen_on_ray_gives_the_bytes_of_the_serial_shards(cluster, tmp_path, tmp_path_factory):
    merged = tmp_path / "all.bin"
    r = run("datagen", BINARY, DATAGEN, str(tmp_path / "d"), SHARDS, max_in_flight=2, merged=str(merged),
            progress=quiet)
    assert (sorted(r.ran), r.failed) == (list(range(SHARDS)), {})
    assert r.merged["records"] == 2400
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN)


def attempts(log):
    """The attempts recorded in the driver's attempt log: dicts of shard, node, node_id, attempt, pid."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def temporaries(out):
    """The temporary files in a shards' directory (`.datagen-IIIII.bin.tmp.PID` and the manifests')."""
    return sorted(p.name for p in out.glob(".*.tmp.*"))


def test_a_worker_node_removed_mid_write_loses_its_shard_to_another_node(cluster, tmp_path, tmp_path_factory):
    c, workers = cluster
    out = tmp_path / "d"
    log = tmp_path / "attempts.jsonl"
    target = 2  # the third shard: it starts when a first one has finished and freed a node
    removed = {}

    def remove_mid_write():
        # Once the first attempt of shard `target` has written part of its temporary data file, remove its node
        # (its process dies without grace). The fresh node is added on the main thread (Ray sets signal handlers).
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and not removed:
            first = next((a for a in attempts(log) if a["shard"] == target), None)
            if first is not None:
                for t in out.glob(f".datagen-{target:05}.bin.tmp.*"):
                    try:
                        size = t.stat().st_size
                    except FileNotFoundError:
                        continue
                    if size > 8:
                        victim = next(w for w in workers if w.node_id == first["node_id"])
                        workers.remove(victim)
                        c.remove_node(victim)
                        removed.update(node_id=victim.node_id, temporary=t.name, size=size)
                        return
            time.sleep(0.005)

    finished = {}

    def done(i, res):
        finished[i] = res
        if removed and len(workers) < 2:
            workers.append(c.add_node(num_cpus=1))

    watcher = threading.Thread(target=remove_mid_write, daemon=True)
    watcher.start()
    merged = tmp_path / "all.bin"
    r = run("datagen", BINARY, DATAGEN_LONG, str(out), SHARDS, max_in_flight=2, merged=str(merged),
            attempt_log=str(log), progress=quiet, on_done=done)
    watcher.join(timeout=5)
    if len(workers) < 2:
        workers.append(c.add_node(num_cpus=1))
    tried = attempts(log)
    assert removed, f"shard {target} was never caught mid-write: {tried}"
    # The shard first started on the removed node ran again, and finished, on another node.
    first = [a for a in tried if a["shard"] == target and a["attempt"] == 1]
    assert len(first) == 1 and first[0]["node_id"] == removed["node_id"], tried
    assert finished[target]["node_id"] != removed["node_id"], (finished[target], removed)
    assert finished[target]["attempt"] >= 2, (finished[target], tried)
    assert [a["attempt"] for a in tried if a["shard"] == target] == list(range(1, finished[target]["attempt"] + 1))
    # Every shard finished once, on its last attempt; nothing lost or duplicated.
    assert r.failed == {}
    assert sorted(r.ran) == list(range(SHARDS)) and len(r.ran) == SHARDS
    for i in range(SHARDS):
        assert finished[i]["attempt"] == max(a["attempt"] for a in tried if a["shard"] == i), i
    assert r.merged["records"] == 6400
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN_LONG)
    # The temporary file the killed process left is gone, and no other is left.
    assert temporaries(out) == [], (removed, temporaries(out))


def shard_processes(out):
    """The ids of the processes whose command line names `out` (the shards of a driver writing there)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if str(out).encode() in cmdline and b"--shard" in cmdline:
            pids.append(int(proc.name))
    return pids


def wait_until(condition, timeout, what):
    """Polls `condition` every 50 ms until it holds; fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


def test_a_killed_driver_started_again_resumes(cluster, tmp_path, tmp_path_factory):
    c, _ = cluster
    out = tmp_path / "d"
    cmd = [sys.executable, "-m", "xiangqi_shards", "datagen", "--binary", BINARY, "--out", str(out), "--shards",
           str(SHARDS), "--address", c.address, "--max-in-flight", "2", "--", *DATAGEN_LONG]
    driver = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    seen = []
    for line in driver.stderr:
        seen.append(line)
        if line.startswith("[2/"):
            driver.kill()
            break
    driver.wait()
    # A shard of the dead driver may finish in the moment before Ray ends its job's workers: wait until none runs.
    wait_until(lambda: not shard_processes(out), 120, f"the dead driver's shards to end: {shard_processes(out)}")
    valid = {}
    for i in range(SHARDS):
        try:
            check_manifest(BINARY, out, "datagen", i, SHARDS)
            valid[i] = (out / f"datagen-{i:05}.bin").stat().st_mtime_ns
        except ShardError:
            pass
    assert 2 <= len(valid) < SHARDS, f"the driver was killed after {len(valid)} shards: {seen}"
    merged = tmp_path / "all.bin"
    r = run("datagen", BINARY, DATAGEN_LONG, str(out), SHARDS, max_in_flight=2, merged=str(merged), progress=quiet)
    assert set(valid) <= set(r.skipped), "no shard with a valid manifest runs again"
    assert sorted(r.ran + r.skipped) == list(range(SHARDS)), "every shard once"
    assert r.ran, "the restarted driver had shards left to run"
    for i, mtime in valid.items():
        assert (out / f"datagen-{i:05}.bin").stat().st_mtime_ns == mtime, f"shard {i} was run again"
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN_LONG)


def engines(weak_variant):
    return ["--engine", f"cmd={BINARY}", "name=a", "--engine", f"cmd={BINARY}", "name=b",
            f"option.Variant={weak_variant}", "--nodes", "300"]


def test_match_shards_sum_to_the_serial_match(cluster, tmp_path):
    args = engines("pvs+nmp+qs") + ["--games", "16"]
    whole = json.loads(subprocess.run([BINARY, "match", *args, "--json"], check=True, capture_output=True,
                                      text=True).stdout)
    r = run("match", BINARY, args, str(tmp_path / "m"), 4, max_in_flight=2, progress=quiet)
    assert r.failed == {}
    for key in ("games", "wins", "draws", "losses", "pentanomial"):
        assert r.merged[key] == whole[key], key
    assert r.merged["games"] == 16


def test_an_sprt_stops_when_decided_and_cancels_the_rest(cluster, tmp_path):
    shards = 20  # one game pair a shard
    args = engines("minimax") + ["--games", str(2 * shards)]
    lines = []
    sprt = ["elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"]
    r = run("match", BINARY, args, str(tmp_path / "m"), shards, max_in_flight=2, sprt=sprt, progress=lines.append)
    assert r.sprt is not None and r.sprt["sprt"]["result"] in ("H0", "H1")
    k = r.sprt_prefix
    assert 0 < k < shards
    assert r.cancelled, "the shards left were cancelled"
    assert set(r.cancelled).isdisjoint(range(k))
    # The decision is the one `xiangqi merge` gives over the same prefix.
    again = subprocess.run([BINARY, "merge", "--dir", str(tmp_path / "m"), "--shards", str(shards), "--first",
                            str(k), "--sprt", *sprt], check=True, capture_output=True, text=True).stdout
    assert json.loads(again)["sprt"] == r.sprt["sprt"]
    finished = [i for i in range(shards) if (tmp_path / "m" / f"match-{i:05}.json").exists()]
    assert len(finished) < shards
    assert any("SPRT decided" in line for line in lines)


def test_bad_inputs_name_the_shard_and_keep_the_good_ones(cluster, tmp_path, tmp_path_factory):
    out = tmp_path / "d"
    # A shard index out of range.
    r = run("datagen", BINARY, DATAGEN, str(out), SHARDS, indices=[SHARDS], progress=quiet)
    assert "shard 8" in r.failed[SHARDS] and "out of range" in r.failed[SHARDS], r.failed
    r = run("datagen", BINARY, DATAGEN, str(out), SHARDS, max_in_flight=2, progress=quiet)
    assert r.failed == {}
    # Shard 2 truncated, shard 5's manifest with another checksum, shard 6's data corrupt.
    f2 = out / "datagen-00002.bin"
    f2.write_bytes(f2.read_bytes()[:-7])
    m5 = out / "datagen-00005.json"
    j = json.loads(m5.read_text())
    j["sha256"] = "0" * 64
    m5.write_text(json.dumps(j))
    f6 = out / "datagen-00006.bin"
    data = bytearray(f6.read_bytes())
    data[30] ^= 0xFF
    f6.write_bytes(bytes(data))
    with pytest.raises(ShardError, match="shard 2: .* \\(truncated or corrupt\\)"):
        check_manifest(BINARY, out, "datagen", 2, SHARDS)
    with pytest.raises(ShardError, match="shard 5: checksum mismatch"):
        check_manifest(BINARY, out, "datagen", 5, SHARDS)
    merge = subprocess.run([BINARY, "merge", "--dir", str(out), "--shards", str(SHARDS), "--out",
                            str(tmp_path / "x.bin")], capture_output=True, text=True)
    assert merge.returncode != 0
    assert "shard 2:" in merge.stderr and "shard 5: checksum mismatch" in merge.stderr
    assert "shard 6: checksum mismatch" in merge.stderr and "shard 0:" not in merge.stderr
    good = {i: (out / f"datagen-{i:05}.bin").stat().st_mtime_ns for i in (0, 1, 3, 4, 7)}
    # A binary missing on the workers: every shard to run fails with its name, the good shards are kept.
    r = run("datagen", "/nonexistent/xiangqi", DATAGEN, str(out), SHARDS, local_binary=BINARY, progress=quiet)
    assert sorted(r.failed) == [2, 5, 6] and r.merged is None
    for i, msg in r.failed.items():
        assert msg.startswith(f"shard {i}: the xiangqi binary /nonexistent/xiangqi is missing"), msg
    assert r.skipped == sorted(good)
    # The driver again, with the binary: only the bad shards run, and the whole is right.
    merged = tmp_path / "all.bin"
    r = run("datagen", BINARY, DATAGEN, str(out), SHARDS, max_in_flight=2, merged=str(merged), progress=quiet)
    assert sorted(r.ran) == [2, 5, 6] and sorted(r.invalid) == [2, 5, 6]
    for i, mtime in good.items():
        assert (out / f"datagen-{i:05}.bin").stat().st_mtime_ns == mtime
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN)
    shutil.rmtree(out)


def driver(c, *args):
    """The driver's command line, `python -m xiangqi_shards ARGS` on the test cluster: its exit code, its JSON line
    (None when it printed none) and its standard error."""
    proc = subprocess.run([sys.executable, "-m", "xiangqi_shards", *args[:1], "--address", c.address, *args[1:]],
                          capture_output=True, text=True, timeout=900)
    lines = proc.stdout.strip().splitlines()
    return proc.returncode, (json.loads(lines[-1]) if lines else None), proc.stderr


def test_the_command_line_merges_into_the_merged_file(cluster, tmp_path, tmp_path_factory):
    c, _ = cluster
    merged = tmp_path / "all.bin"
    code, j, err = driver(c, "datagen", "--binary", BINARY, "--out", str(tmp_path / "d"), "--shards", str(SHARDS),
                          "--max-in-flight", "2", "--merged", str(merged), "--", *DATAGEN)
    assert code == 0, err
    assert sorted(j["ran"]) == list(range(SHARDS)) and j["failed"] == {} and j["skipped"] == []
    assert j["merged"]["records"] == 2400 and j["merged"]["out"] == str(merged)
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN)
    # Run again: every shard is skipped, and the merged file is the same.
    code, j, err = driver(c, "datagen", "--binary", BINARY, "--out", str(tmp_path / "d"), "--shards", str(SHARDS),
                          "--merged", str(merged), "--", *DATAGEN)
    assert code == 0, err
    assert (j["ran"], j["skipped"]) == ([], list(range(SHARDS)))
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN)


def test_the_command_line_stops_a_match_when_its_sprt_decides(cluster, tmp_path):
    c, _ = cluster
    shards = 20
    sprt = ["elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"]
    out = tmp_path / "m"
    code, j, err = driver(c, "match", "--binary", BINARY, "--out", str(out), "--shards", str(shards),
                          "--max-in-flight", "2", "--sprt", *sprt, "--", *engines("minimax"), "--games",
                          str(2 * shards))
    assert code == 0, err
    assert j["merged"]["sprt"]["result"] in ("H0", "H1"), j
    k = j["merged"]["shards"]
    assert 0 < k < shards and j["cancelled"] and min(j["cancelled"]) >= k, j
    again = subprocess.run([BINARY, "merge", "--dir", str(out), "--shards", str(shards), "--first", str(k),
                            "--sprt", *sprt], check=True, capture_output=True, text=True).stdout
    assert json.loads(again)["sprt"] == j["merged"]["sprt"]
    assert "SPRT decided" in err


def test_the_command_line_exits_1_when_a_shard_fails_and_2_on_bad_flags(cluster, tmp_path):
    c, _ = cluster
    code, j, err = driver(c, "datagen", "--binary", "/nonexistent/xiangqi", "--out", str(tmp_path / "d"),
                          "--shards", "3", "--", *DATAGEN)
    assert code == 1, err
    assert sorted(j["failed"]) == ["0", "1", "2"] and j["merged"] is None, j
    for i, msg in j["failed"].items():
        assert msg.startswith(f"shard {i}: the xiangqi binary /nonexistent/xiangqi is missing"), msg
    for args, says in [
        (["datagen", "--binary", BINARY, "--out", str(tmp_path / "e"), "--shards", "0"], "--shards must be at least 1"),
        (["datagen", "--binary", BINARY, "--out", str(tmp_path / "e"), "--shards", "2", "--sprt", "elo0=0"],
         "--sprt is for a match"),
        (["datagen", "--out", str(tmp_path / "e"), "--shards", "2"], "--binary"),
    ]:
        code, j, err = driver(c, *args)
        assert (code, j) == (2, None), (args, err)
        assert says in err, (args, err)
