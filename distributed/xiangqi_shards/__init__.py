"""Shards of xiangqi datagen and match runs on Ray: see `xiangqi_shards.driver`."""

from .driver import RunResult, ShardError, check_manifest, check_shards, merge, run

__all__ = ["RunResult", "ShardError", "check_manifest", "check_shards", "merge", "run"]
