#!/usr/bin/env bash
# Alternates full and projected loads of one inventory, one run per process, and prints
# load, evaluation and peak memory for each (bench/README.md, fifth session).
#   bench/ab.sh INVENTORY [ROUNDS] [bench-eval arguments...]
# Needs `cargo build --release -p cloudspec-bench`; BENCH_EVAL overrides the binary.
set -euo pipefail
file=${1:?usage: bench/ab.sh INVENTORY [ROUNDS] [bench-eval arguments...]}
rounds=${2:-6}
shift $(($# < 2 ? $# : 2))
bin=${BENCH_EVAL:-$(dirname "$0")/../target/release/bench-eval}
# The Nth word of the line whose first words are KEY ("load best", "peak memory"...).
field() { awk -v key="$1" -v n="$2" 'index($0 " ", key " ") == 1 || $1 " " $2 == key { print $n; exit }'; }
for _ in $(seq "$rounds"); do
  for mode in full projected; do
    flag=()
    [ "$mode" = full ] && flag=(--full)
    out=$(/usr/bin/time -f "process %e s wall, %U s user, %S s system" \
      "$bin" "$file" --runs 1 "${flag[@]}" "$@" 2>&1)
    printf '%-9s load %s s  evaluate %s s  total %s s  peak %s MB  (%s)\n' "$mode" \
      "$(field 'load best' 3 <<<"$out")" "$(field 'evaluate best' 3 <<<"$out")" \
      "$(field 'load +' 5 <<<"$out")" "$(field 'peak memory' 3 <<<"$out")" \
      "$(grep '^process' <<<"$out")"
  done
done
