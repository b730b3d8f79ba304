"""The driver on a local Ray cluster (a head and two worker nodes of one CPU each), against the shards run one by one
without Ray."""

import json
import os
import shutil
import subprocess
import sys
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


def test_a_worker_node_removed_mid_run_loses_and_duplicates_nothing(cluster, tmp_path, tmp_path_factory):
    c, workers = cluster
    removed = []

    def remove_one(i, r):
        if not removed:
            # Remove the worker node other than the one that just finished a shard: the one running the other shard
            # in flight, which is then lost and retried; and give the cluster a fresh node.
            victim = next(w for w in workers if w.node_id != r["node_id"])
            workers.remove(victim)
            c.remove_node(victim)
            removed.append(victim)
            workers.append(c.add_node(num_cpus=1))

    merged = tmp_path / "all.bin"
    r = run("datagen", BINARY, DATAGEN, str(tmp_path / "d"), SHARDS, max_in_flight=2, merged=str(merged),
            progress=quiet, on_done=remove_one)
    assert removed
    assert r.failed == {}
    assert sorted(r.ran) == list(range(SHARDS)) and len(r.ran) == SHARDS
    assert r.merged["records"] == 2400
    assert merged.read_bytes() == serial(tmp_path_factory, DATAGEN)


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
    # A shard of the dead driver may finish in the moment before Ray ends its job's workers: let them end first.
    time.sleep(2)
    valid = {}
    for i in range(SHARDS):
        try:
            check_manifest(out, "datagen", i, SHARDS)
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
        check_manifest(out, "datagen", 2, SHARDS)
    with pytest.raises(ShardError, match="shard 5: checksum mismatch"):
        check_manifest(out, "datagen", 5, SHARDS)
    merge = subprocess.run([BINARY, "merge", "--dir", str(out), "--shards", str(SHARDS), "--out",
                            str(tmp_path / "x.bin")], capture_output=True, text=True)
    assert merge.returncode != 0
    assert "shard 2:" in merge.stderr and "shard 5: checksum mismatch" in merge.stderr
    assert "shard 6: checksum mismatch" in merge.stderr and "shard 0:" not in merge.stderr
    good = {i: (out / f"datagen-{i:05}.bin").stat().st_mtime_ns for i in (0, 1, 3, 4, 7)}
    # A binary missing on the workers: every shard to run fails with its name, the good shards are kept.
    r = run("datagen", "/nonexistent/xiangqi", DATAGEN, str(out), SHARDS, progress=quiet)
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
