#!/usr/bin/env bash
# Counts the instructions of a one-thread load (cachegrind's `I refs`): a figure that does not
# move with the VM's noise, for changes to the reader too small to time (bench/README.md,
# issue #22, sixth session). One line per binary given, so two builds compare side by side.
#   bench/instructions.sh INVENTORY [SPEC] [BENCH_EVAL...]
# Needs valgrind; BENCH_EVAL defaults to $CARGO_TARGET_DIR (or target)/release/bench-eval. A 10k-instance inventory
# (gen-inventory --instances 10000) takes a few seconds.
set -euo pipefail
inventory=${1:?usage: bench/instructions.sh INVENTORY [SPEC] [BENCH_EVAL...]}
spec=${2:-$(dirname "$0")/rules/typical.cloudspec}
shift $(($# < 2 ? $# : 2))
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("${CARGO_TARGET_DIR:-$(dirname "$0")/../target}/release/bench-eval")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for bin in "${bins[@]}"; do
  refs=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
    "$bin" "$inventory" "$spec" --runs 1 --threads 1 --load-only 2>&1 |
    awk '/I +refs:/ { gsub(",", "", $NF); print $NF }')
  printf '%-60s %15s instructions\n' "$bin" "$refs"
done
