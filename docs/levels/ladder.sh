#!/bin/bash
# Usage: BIN=path/to/xiangqi ladder.sh 9 8 7 6 5 4 3 2 1 hc   (pairs X-(X+1), and hc: level 1 against the handcrafted evaluator)
# The levels' ladder: neighbouring levels, level 1 against the handcrafted evaluator at depth 1, level 9 against
# level 10. Resumable: a shard that completed (its done-I marker beside its games) is skipped. Each pair: 200 games in 4 shards of 50.
BIN=${BIN:-xiangqi}
OUT=${OUT:-ladder}
NODES=${NODES:-24000}
SHARDS=4
GAMES=200
mkdir -p "$OUT"
common=(--games $GAMES --random-plies 6 --shards $SHARDS
        --resign movecount=4 score=1000 --draw movenumber=40 movecount=8 score=15 --timeout 120)
run_pair() { # name, limit args..., -- engineA words -- engineB words
  local name=$1; shift
  local limit=(); while [ "$1" != "--" ]; do limit+=("$1"); shift; done; shift
  local a=(); while [ "$1" != "--" ]; do a+=("$1"); shift; done; shift
  local b=("$@")
  for ((i = 0; i < SHARDS; i++)); do
    if [ -e "$OUT/$name/done-$i" ]; then continue; fi
    echo "$(date -u +%FT%TZ) $name shard $i" >> "$OUT/progress.log"
    "$BIN" match "${limit[@]}" "${common[@]}" --shard $i --out "$OUT/$name" --event "levels $name" \
      --engine "${a[@]}" --engine "${b[@]}" > "$OUT/$name.shard$i.log" 2>&1 && touch "$OUT/$name/done-$i"
  done
}
pairs=("$@")
for p in "${pairs[@]}"; do
  case $p in
    hc)
        run_pair L1-HC1 --depth 1 -- "cmd=$BIN uci" name=L1 "option.Skill Level=1" option.Seed=101 -- \
          "cmd=$BIN uci" name=HC1 "option.Use NNUE=false" ;;
    *) x=$p; y=$((p + 1))
       run_pair "L$x-L$y" --nodes "$NODES" -- "cmd=$BIN uci" "name=L$x" "option.Skill Level=$x" "option.Seed=$((100 + x))" -- \
         "cmd=$BIN uci" "name=L$y" "option.Skill Level=$y" "option.Seed=$((100 + y))" ;;
  esac
done
echo "$(date -u +%FT%TZ) finished: $*" >> "$OUT/progress.log"
