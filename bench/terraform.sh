#!/usr/bin/env bash
# The Terraform benchmark (issue #18): cloudspec and Checkov on the same generated
# configurations, in the same run, with the same machine state.
#
# For each size it generates a configuration (`gen-terraform`: N local modules of M groups of
# resources, ~120 lines a group, with variables, count, for_each, dynamic blocks and split S3
# settings), then times
#   cloudspec run rules/aws-cis rules/aws-foundational --terraform DIR --format json
# (load, evaluation and the report; best and median of RUNS) and
#   checkov -d DIR --framework terraform -o json --quiet
# (once: it takes minutes), and prints both with the ratio and peak memory (GNU time).
#
# Environment:
#   SIZES        "MODULES:GROUPS ..." (default "1:8 10:8 50:10": ~1k, ~10k, ~60k lines)
#   RUNS         cloudspec runs per size (default 5)
#   CHECKOV      0 to skip Checkov (default 1); it is installed with pip into
#                ~/.cache/cloudspec/checkov-venv on first use
#   CHECKOV_MAX_LINES  skip Checkov above this many lines (default 70000)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES="${SIZES:-1:8 10:8 50:10}"
RUNS="${RUNS:-5}"
CHECKOV="${CHECKOV:-1}"
CHECKOV_MAX_LINES="${CHECKOV_MAX_LINES:-70000}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/cloudspec"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cargo build --quiet --release --bin cloudspec -p cloudspec --no-default-features
cargo build --quiet --release -p cloudspec-bench --bin gen-terraform
TARGET="${CARGO_TARGET_DIR:-target}/release"

if [ "$CHECKOV" = 1 ]; then
  if [ ! -x "$CACHE/checkov-venv/bin/checkov" ]; then
    python3 -m venv "$CACHE/checkov-venv"
    "$CACHE/checkov-venv/bin/pip" install --quiet checkov
  fi
  CHECKOV_VERSION="$("$CACHE/checkov-venv/bin/checkov" --version 2>/dev/null | tail -1)"
fi

# Seconds and peak RSS (MiB) of a command, from GNU time.
measure() {
  local out="$WORK/time"
  /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>&1 || true
  tail -1 "$out" | awk '{ printf "%s %.0f\n", $1, $2 / 1024 }'
}

echo "| lines | resources (cloudspec) | cloudspec best / median | peak | Checkov ${CHECKOV_VERSION:-} | peak | ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for size in $SIZES; do
  modules="${size%%:*}"
  groups="${size##*:}"
  dir="$WORK/tf-$modules-$groups"
  lines="$("$TARGET/gen-terraform" --modules "$modules" --groups "$groups" --out "$dir")"
  run=("$TARGET/cloudspec" run rules/aws-cis rules/aws-foundational --terraform "$dir" --format json)
  resources="$( ("${run[@]}" 2>/dev/null || true) | python3 -c 'import json,sys; r=json.load(sys.stdin); print(len({(x["type"], x["id"]) for g in r.get("groups", []) for rule in g.get("rules", []) for x in rule.get("resources", [])}))' 2>/dev/null || echo "?")"
  times=()
  peak=0
  for _ in $(seq "$RUNS"); do
    read -r t m < <(measure "${run[@]}")
    times+=("$t")
    [ "$m" -gt "$peak" ] && peak="$m"
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  best="${sorted[0]}"
  median="${sorted[$(( ${#sorted[@]} / 2 ))]}"
  if [ "$CHECKOV" = 1 ] && [ "$lines" -le "$CHECKOV_MAX_LINES" ]; then
    read -r ct cm < <(measure "$CACHE/checkov-venv/bin/checkov" -d "$dir" --framework terraform -o json --quiet)
    ratio="$(awk -v c="$ct" -v s="$median" 'BEGIN { if (s > 0) printf "%.0fx", c / s; else print "-" }')"
    echo "| $lines | $resources | ${best} s / ${median} s | ${peak} MiB | ${ct} s | ${cm} MiB | $ratio |"
  else
    echo "| $lines | $resources | ${best} s / ${median} s | ${peak} MiB | (skipped) | | |"
  fi
done
