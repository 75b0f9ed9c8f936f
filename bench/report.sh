#!/usr/bin/env bash
# `cloudspec run` as users run it, side by side with Regorus on the same rules (issue 22).
#
#   bench/report.sh INVENTORY [ROUNDS]
#
# Each round runs, one process each and in turn:
#   cloudspec run bench/rules/typical.cloudspec --inventory INVENTORY --format json=report.json
#   regorus eval -d bench/rules/typical.rego -i INVENTORY data.bench.results > regorus.json
# and prints wall, user and system time and peak memory of each; then the verdicts of the
# two are compared rule by rule (bench/compare_verdicts.py: resources in scope and failing
# ids), and the run is repeated on 1, 2, ... cores (`taskset`) for the scaling curve.
#
# Environment:
#   CLOUDSPEC  the binary (default: target/release/cloudspec, `cargo build --release`)
#   REGORUS    the binary (default: `regorus` on PATH; `cargo install regorus --version
#              0.14.1 --example regorus`); REGORUS=none skips it
#   CORES      core counts of the scaling curve (default: 1 up to every core, at most 8)
#   FORMATS    further formats to time once each (default: "junit sarif console")
#   ARGS       more arguments for `cloudspec run` (e.g. "--waivers waivers.yaml")
# Report files go to a temporary directory, removed at the end. Needs python3 and
# /usr/bin/time. Never a timed test: figures go to bench/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
inventory=${1:?usage: bench/report.sh INVENTORY [ROUNDS]}
rounds=${2:-3}
cloudspec=${CLOUDSPEC:-${CARGO_TARGET_DIR:-$here/../target}/release/cloudspec}
regorus=${REGORUS:-regorus}
ncpu=$(nproc)
cores=${CORES:-$(seq -s ' ' 1 $((ncpu < 8 ? ncpu : 8)))}
formats=${FORMATS:-junit sarif console}
read -r -a extra <<<"${ARGS:-}"
spec=$here/rules/typical.cloudspec
rego=$here/rules/typical.rego
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$cloudspec" ] || { echo "no cloudspec binary at $cloudspec (cargo build --release)" >&2; exit 2; }
size=$(stat -c %s "$inventory")
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
echo "inventory $inventory: $(mb "$size") MB; $(nproc) cores; $(uname -r)"
echo "cloudspec: $cloudspec"

# measure LABEL OUTFILE CMD...: runs CMD with stdout to OUTFILE, prints one line of figures
# and leaves the wall time in $wall.
measure() {
  local label=$1 out=$2
  shift 2
  /usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >"$out" 2>"$tmp/stderr" || {
    local rc=$?
    # cloudspec exits 1 when a rule fails: that is the benchmark's normal outcome.
    [ "$rc" -eq 1 ] && [ "$label" != regorus ] || { cat "$tmp/stderr" >&2; exit "$rc"; }
  }
  read -r wall user sys kb < <(tail -n 1 "$tmp/time")
  printf '  %-22s %6.2f s wall  %6.2f s user  %5.2f s system  peak %6.0f MB (%.2fx the inventory)\n' \
    "$label" "$wall" "$user" "$sys" "$(awk -v k="$kb" 'BEGIN { print k * 1024 / 1e6 }')" \
    "$(awk -v k="$kb" -v s="$size" 'BEGIN { print k * 1024 / s }')"
}

# cs FORMAT FILE: the cloudspec command line, in $cmd.
cs() { cmd=("$cloudspec" run "$spec" --inventory "$inventory" --format "$1=$2" ${extra[@]+"${extra[@]}"}); }

echo
echo "side by side, $rounds rounds (the report or answer written to a file):"
cs_walls=() rg_walls=()
for round in $(seq "$rounds"); do
  cs json "$tmp/report.json"
  measure "cloudspec --format json" /dev/null "${cmd[@]}"
  cs_walls+=("$wall")
  if [ "$regorus" != none ]; then
    measure regorus "$tmp/regorus.json" "$regorus" eval -d "$rego" -i "$inventory" data.bench.results
    rg_walls+=("$wall")
  fi
done
best() { printf '%s\n' "$@" | sort -g | head -1; }
echo "  JSON report: $(mb "$(stat -c %s "$tmp/report.json")") MB"
if [ "$regorus" != none ]; then
  printf '  best of each: cloudspec %s s, Regorus %s s: %.1fx\n' "$(best "${cs_walls[@]}")" \
    "$(best "${rg_walls[@]}")" "$(awk -v a="$(best "${cs_walls[@]}")" -v b="$(best "${rg_walls[@]}")" 'BEGIN { print b / a }')"
  python3 "$here/compare_verdicts.py" "$tmp/report.json" "$tmp/regorus.json"
fi

echo
echo "other formats, once each:"
for format in $formats; do
  cs "$format" "$tmp/report.$format"
  measure "cloudspec --format $format" /dev/null "${cmd[@]}"
  echo "    $(mb "$(stat -c %s "$tmp/report.$format")") MB"
done

echo
echo "cores (taskset), --format json, best of $rounds:"
one=
for n in $cores; do
  walls=()
  for _ in $(seq "$rounds"); do
    cs json "$tmp/report.json"
    measure "$n core(s)" /dev/null taskset -c "0-$((n - 1))" "${cmd[@]}"
    walls+=("$wall")
  done
  b=$(best "${walls[@]}")
  one=${one:-$b}
  printf '  %d core(s): best %s s, %.2fx one core (target %.1fx)\n' "$n" "$b" \
    "$(awk -v a="$one" -v b="$b" 'BEGIN { print a / b }')" "$(awk -v n="$n" 'BEGIN { print 0.6 * n }')"
done
