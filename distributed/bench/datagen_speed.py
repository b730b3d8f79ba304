"""Positions per second of `xiangqi datagen --threads 2` and of the same number of positions in shards on Ray
(a local cluster of `--cpus` CPUs), one after the other in one run.

    python distributed/bench/datagen_speed.py --binary target/release/xiangqi --positions 20000 --shards 16
"""

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path

import ray

from xiangqi_shards import run


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--positions", type=int, default=20000)
    p.add_argument("--nodes", type=int, default=4000)
    p.add_argument("--shards", type=int, default=16)
    p.add_argument("--cpus", type=int, default=2)
    a = p.parse_args()
    common = ["--positions", str(a.positions), "--nodes", str(a.nodes), "--seed", "3", "--quiet"]
    with tempfile.TemporaryDirectory() as d:
        start = time.monotonic()
        subprocess.run([a.binary, "datagen", *common, "--threads", str(a.cpus), "--out", f"{d}/direct.bin"],
                       check=True, capture_output=True)
        direct = a.positions / (time.monotonic() - start)
        print(f"xiangqi datagen --threads {a.cpus}: {direct:.0f} positions/s", flush=True)
        ray.init(num_cpus=a.cpus, log_to_driver=False)
        r = run("datagen", a.binary, common, f"{d}/shards", a.shards, max_in_flight=a.cpus,
                merged=f"{d}/merged.bin", progress=lambda line: None)
        shards = a.positions / r.seconds
        print(f"Ray, {a.shards} shards on {a.cpus} CPUs: {shards:.0f} positions/s "
              f"({r.seconds:.1f} s from the first task to the merged file; {shards / direct:.1%} of direct)")


if __name__ == "__main__":
    main()
