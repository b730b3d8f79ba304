"""Positions per second of `xiangqi datagen --threads 2` and of the same number of positions in shards on Ray
(a local cluster of `--cpus` CPUs), alternated `--rounds` times in one run (on a machine shared with other work the
load changes from minute to minute, so each Ray figure is set beside the direct one just before it), then the
medians.

    python distributed/bench/datagen_speed.py --binary target/release/xiangqi --positions 20000 --shards 16
"""

import argparse
import statistics
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
    p.add_argument("--rounds", type=int, default=1)
    a = p.parse_args()
    common = ["--positions", str(a.positions), "--nodes", str(a.nodes), "--seed", "3", "--quiet"]
    ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False)
    ratios, directs, rays = [], [], []
    for k in range(a.rounds):
        with tempfile.TemporaryDirectory() as d:
            start = time.monotonic()
            subprocess.run([a.binary, "datagen", *common, "--threads", str(a.cpus), "--out", f"{d}/direct.bin"],
                           check=True, capture_output=True)
            direct = a.positions / (time.monotonic() - start)
            r = run("datagen", a.binary, common, f"{d}/shards", a.shards, max_in_flight=a.cpus,
                    merged=f"{d}/merged.bin", progress=lambda line: None)
            on_ray = a.positions / r.seconds
        directs.append(direct)
        rays.append(on_ray)
        ratios.append(on_ray / direct)
        print(f"round {k + 1}: xiangqi datagen --threads {a.cpus}: {direct:.0f} positions/s; Ray, {a.shards} shards "
              f"on {a.cpus} CPUs: {on_ray:.0f} positions/s ({a.shards / r.seconds:.2f} shards/s); "
              f"{on_ray / direct:.1%}", flush=True)
    print(f"medians: direct {statistics.median(directs):.0f} positions/s, Ray {statistics.median(rays):.0f} "
          f"positions/s, Ray/direct {statistics.median(ratios):.1%}")

if __name__ == "__main__":
    main()
