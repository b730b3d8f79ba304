"""Runs the shards of a `xiangqi datagen` or `xiangqi match` run as Ray tasks, then merges them.

Each shard is one Ray task that runs the `xiangqi` binary on its node as
`xiangqi KIND ARGS... --shard I --shards N --out DIR`. The binary, any network
file, and DIR are paths that every node sees (a shared file system, or the same
path baked into every node's image): nothing large goes through Ray's object
store, only each shard's small manifest comes back.

The driver skips a shard whose manifest is already valid (its data file of the
length and SHA-256 the manifest gives, as `xiangqi merge --check --json` reports:
the driver never reads the data format itself), so a driver that was killed and started
again finishes the run without redoing finished shards. A task whose worker or
node dies is retried by Ray (`max_retries`); a shard whose command fails is
reported with its index, and the other shards are kept. For a match with an
SPRT, the test is decided over the contiguous prefix of finished shards 0..k-1
(so the decision does not depend on which shards finished first), and when it
decides the shards still running are cancelled and the rest never started.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional

import ray

class ShardError(Exception):
    """A shard that failed, its index in the message."""


def check_shards(binary: str, out_dir: str, shards: int) -> dict:
    """Every shard's state as the binary checks it (`xiangqi merge --check --json`): `good`, a list of
    `{"shard", "kind"}`, and `bad`, a list of `{"shard", "manifest", "error"}` (the error names the shard; `manifest`
    says whether the shard has one). The data file's format is the binary's to know, not the driver's."""
    cmd = [binary, "merge", "--dir", str(out_dir), "--shards", str(shards), "--check", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ShardError(proc.stderr.strip())
    return json.loads(proc.stdout.strip().splitlines()[-1])


def check_manifest(binary: str, out_dir: str, kind: str, index: int, shards: int) -> None:
    """Returns if shard `index` of a `kind` run is finished and valid (its manifest, and its data file of the length
    and SHA-256 the manifest gives), as `check_shards` reports; raises a ShardError naming the shard if not."""
    report = check_shards(binary, out_dir, shards)
    for b in report["bad"]:
        if b["shard"] == index:
            raise ShardError(b["error"])
    for g in report["good"]:
        if g["shard"] == index and g["kind"] != kind:
            raise ShardError(f"shard {index}: a {g['kind']} shard, not a {kind} shard")


def _prepare_child(niceness: Optional[int]) -> Callable[[], None]:
    """What the shard's process does before it runs the binary: ask Linux to kill it when the Ray worker that started
    it dies (a cancelled task, a lost node), so no orphan keeps computing; and take the niceness `niceness` (Ray starts
    its workers at niceness 15, which on a node shared with other work gives the shard a fraction of a core; a process
    without the right to lower its niceness keeps Ray's)."""

    def prepare() -> None:
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass
        if niceness is not None:
            try:
                os.setpriority(os.PRIO_PROCESS, 0, niceness)
            except OSError:
                pass

    return prepare


def record_attempt(attempt_log: str, index: int, node: str, node_id: str) -> int:
    """Appends this attempt of shard `index` (on `node`, Ray node `node_id`) to the JSON-lines file `attempt_log` and
    returns its number, from 1 (one more than the lines of that shard already there: a shard's attempts follow one
    another)."""
    path = Path(attempt_log)
    before = 0
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                before += json.loads(line).get("shard") == index
            except ValueError:
                pass
    attempt = before + 1
    line = json.dumps({"shard": index, "node": node, "node_id": node_id, "attempt": attempt, "pid": os.getpid()})
    with open(path, "a") as f:  # one short write in append mode: lines of concurrent shards do not interleave
        f.write(line + "\n")
    return attempt


def run_shard_command(binary: str, kind: str, args: List[str], out_dir: str, index: int, shards: int,
                      niceness: Optional[int] = 0, attempt_log: Optional[str] = None) -> dict:
    """Runs one shard with the binary on this node and returns its manifest, the node and the seconds it took; with
    `attempt_log`, each attempt is first recorded there (see `record_attempt`)."""
    node = socket.gethostname()
    node_id = ray.get_runtime_context().get_node_id()
    attempt = record_attempt(attempt_log, index, node, node_id) if attempt_log else None
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        raise ShardError(f"shard {index}: the xiangqi binary {binary} is missing (or not executable) on node {node}")
    cmd = [binary, kind, *args, "--shard", str(index), "--shards", str(shards), "--out", out_dir]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=_prepare_child(niceness))
    if proc.returncode != 0:
        tail = " ".join(proc.stderr.strip().splitlines()[-3:])
        raise ShardError(f"shard {index}: `xiangqi {kind}` exited with {proc.returncode} on node {node}: {tail}")
    manifest = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"shard": index, "manifest": manifest, "node": node, "node_id": node_id, "attempt": attempt,
            "seconds": time.monotonic() - start}


_remote_shard = ray.remote(num_cpus=1)(run_shard_command)


@dataclass
class RunResult:
    """What a driver run did."""

    ran: List[int] = field(default_factory=list)
    skipped: List[int] = field(default_factory=list)
    failed: Dict[int, str] = field(default_factory=dict)
    invalid: Dict[int, str] = field(default_factory=dict)
    cancelled: List[int] = field(default_factory=list)
    merged: Optional[dict] = None
    sprt: Optional[dict] = None
    sprt_prefix: int = 0
    seconds: float = 0.0


def merge(binary: str, out_dir: str, shards: int, first: Optional[int] = None, out: Optional[str] = None,
          sprt: Optional[List[str]] = None, check: bool = False) -> dict:
    """Runs `xiangqi merge` on this machine and returns its JSON (with `check`, only checks every shard)."""
    cmd = [binary, "merge", "--dir", out_dir, "--shards", str(shards)]
    if first is not None:
        cmd += ["--first", str(first)]
    if out:
        cmd += ["--out", out]
    if check:
        cmd += ["--check"]
    if sprt:
        cmd += ["--sprt", *sprt]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ShardError(proc.stderr.strip())
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run(kind: str, binary: str, args: List[str], out_dir: str, shards: int, *, indices: Optional[List[int]] = None,
        max_in_flight: int = 4, max_retries: int = 3, sprt: Optional[List[str]] = None, merged: Optional[str] = None,
        niceness: Optional[int] = 0, attempt_log: Optional[str] = None, local_binary: Optional[str] = None,
        progress: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
        on_done: Optional[Callable[[int, dict], None]] = None) -> RunResult:
    """Runs the shards `indices` (default all) of a run of `shards` shards through Ray (already initialised).

    Returns what was run, skipped, failed and cancelled; when every shard is valid, `merged` holds the JSON of
    `xiangqi merge` (with `--out merged`). With `sprt` (a match), the run stops when the SPRT over the finished
    prefix of shards decides. Each shard's process runs at `niceness` (None: Ray's worker niceness, 15).
    With `attempt_log` (a path every node sees), each attempt of a shard appends a line there (shard, node, Ray node
    id, attempt number, process id) before it runs: the record of what ran where, retries included.
    `on_done(i, r)` is called as shard `i` finishes, with its manifest, node name, node id, attempt and seconds.
    The driver checks and merges the shards with `local_binary` on its own machine (default `binary`).
    """
    if kind not in ("datagen", "match"):
        raise ValueError(f"kind {kind!r}: datagen or match")
    if sprt and kind != "match":
        raise ValueError("an SPRT is for a match")
    out_dir = str(Path(out_dir).resolve())
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    result = RunResult()
    start = time.monotonic()
    wanted = list(range(shards)) if indices is None else list(indices)
    todo = []
    local = local_binary or binary
    if os.path.isfile(local) and os.access(local, os.X_OK):
        report = check_shards(local, out_dir, shards)
    else:
        # No binary here to check with: no shard counts as finished, and each runs (a worker without the binary
        # reports it).
        progress(f"no xiangqi binary {local} on this machine to check the shards with: every shard runs")
        report = {"good": [], "bad": []}
    good = {g["shard"] for g in report["good"] if g["kind"] == kind}
    other = {g["shard"] for g in report["good"] if g["kind"] != kind}
    bad = {b["shard"]: b for b in report["bad"]}
    for i in wanted:
        if i in good:
            result.skipped.append(i)
            continue
        b = bad.get(i)
        if b is not None and b["manifest"]:
            result.invalid[i] = b["error"]
            progress(f"{b['error']}; running it again")
        elif i in other:
            result.invalid[i] = f"shard {i}: not a {kind} shard"
            progress(f"shard {i}: not a {kind} shard; running it again")
        todo.append(i)
    if result.skipped:
        progress(f"skipping {len(result.skipped)} shards with a valid manifest: {result.skipped}")
    done = set(result.skipped)
    task = _remote_shard.options(max_retries=max_retries)
    in_flight: Dict[ray.ObjectRef, int] = {}
    queue = list(todo)
    positions = 0

    def prefix() -> int:
        k = 0
        while k in done:
            k += 1
        return k

    def decide() -> bool:
        k = prefix()
        if not sprt or k == 0 or k == result.sprt_prefix:
            return False
        j = merge(local, out_dir, shards, first=k, sprt=sprt)
        result.sprt, result.sprt_prefix = j, k
        state = j["sprt"]["result"]
        progress(f"SPRT over shards 0..{k - 1}: {j['games']} games, LLR {j['sprt']['llr']:.3f} "
                 f"({j['sprt']['lower_bound']:.3f}, {j['sprt']['upper_bound']:.3f}): {state}")
        return state != "continue"

    decided = decide()
    while (queue or in_flight) and not decided:
        while queue and len(in_flight) < max_in_flight:
            i = queue.pop(0)
            in_flight[task.remote(binary, kind, args, out_dir, i, shards, niceness, attempt_log)] = i
        ready, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in ready:
            i = in_flight.pop(ref)
            try:
                r = ray.get(ref)
            except Exception as e:  # a RayTaskError wrapping the ShardError, or a task out of retries
                cause = getattr(e, "cause", None) or e
                msg = str(cause).strip().splitlines()[-1] if str(cause).strip() else repr(cause)
                if f"shard {i}" not in msg:
                    msg = f"shard {i}: {msg}"
                result.failed[i] = msg
                progress(f"FAILED {msg}")
                continue
            done.add(i)
            result.ran.append(i)
            m = r["manifest"]
            positions += m.get("records") or 0
            secs = time.monotonic() - start
            what = f"{m['records']} positions" if kind == "datagen" else f"{m['results']['games']} games"
            rate = f", {positions / secs:.0f} positions/s overall" if kind == "datagen" else ""
            progress(f"[{len(done)}/{len(wanted)}] shard {i} done on {r['node']} in {r['seconds']:.1f} s: "
                     f"{what}{rate}")
            if on_done:
                on_done(i, r)
        decided = decide()
    if decided:
        for ref, i in in_flight.items():
            ray.cancel(ref, force=True)
            result.cancelled.append(i)
        result.cancelled += queue
        result.cancelled.sort()
        progress(f"SPRT decided after shards 0..{result.sprt_prefix - 1}; cancelled shards {result.cancelled}")
        result.merged = result.sprt
    elif not result.failed and indices is None:
        check = kind == "datagen" and not merged  # no merged file asked: check every shard, write nothing
        result.merged = merge(local, out_dir, shards, out=merged, sprt=sprt, check=check)
        progress(f"merged: {json.dumps(result.merged)}")
    elif result.failed:
        progress(f"{len(result.failed)} shards failed ({sorted(result.failed)}); the other shards are kept: "
                 "run the driver again to retry them")
    result.seconds = time.monotonic() - start
    return result


def main(argv: Optional[List[str]] = None) -> int:
    """The command line: `xiangqi-shards KIND --binary B --out DIR --shards N [...] -- ARGS FOR xiangqi KIND`."""
    p = argparse.ArgumentParser(prog="xiangqi-shards", description=__doc__.split("\n\n")[0])
    p.add_argument("kind", choices=["datagen", "match"])
    p.add_argument("--binary", required=True, help="the xiangqi binary, a path every node sees")
    p.add_argument("--out", required=True, help="the shards' directory, a path every node sees")
    p.add_argument("--shards", type=int, required=True)
    p.add_argument("--address", default=None, help="the Ray cluster (default: start a local one)")
    p.add_argument("--max-in-flight", type=int, default=None, help="shards running at once (default: the cluster's CPUs)")
    p.add_argument("--max-retries", type=int, default=3, help="Ray's retries of a shard whose worker or node died")
    p.add_argument("--sprt", nargs="+", default=None, metavar="KEY=VALUE", help="a match's SPRT: elo0=.. elo1=..")
    p.add_argument("--merged", default=None, help="the merged file (datagen data, or a match's PGN)")
    p.add_argument("--niceness", type=int, default=0, help="the shards' niceness (Ray's workers run at 15)")
    p.add_argument("--local-binary", default=None, metavar="PATH",
                   help="the xiangqi binary on this machine that checks and merges the shards (default: --binary)")
    p.add_argument("--attempt-log", default=None, metavar="FILE",
                   help="append each attempt of a shard (shard, node, attempt number) to FILE, a path every node sees")
    p.epilog = "After --, the arguments of `xiangqi KIND` (all but --shard, --shards and --out)."
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    a = p.parse_args(argv[:cut])
    rest = argv[cut + 1:]
    if a.shards < 1:
        p.error("--shards must be at least 1")
    if a.sprt and a.kind != "match":
        p.error("--sprt is for a match")
    ray.init(address=a.address, log_to_driver=False, include_dashboard=False if a.address is None else None)
    in_flight = a.max_in_flight or max(1, int(ray.cluster_resources().get("CPU", 1)))
    r = run(a.kind, a.binary, rest, a.out, a.shards, max_in_flight=in_flight, max_retries=a.max_retries,
            sprt=a.sprt, merged=a.merged, niceness=a.niceness, attempt_log=a.attempt_log,
            local_binary=a.local_binary)
    print(json.dumps({"ran": r.ran, "skipped": r.skipped, "failed": r.failed, "cancelled": r.cancelled,
                      "merged": r.merged, "seconds": round(r.seconds, 3)}), flush=True)
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
