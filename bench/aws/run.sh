#!/usr/bin/env bash
# Live-collection benchmark against moto (no AWS account needed):
#   bench/aws/run.sh [path/to/cloudspec]
# Seeds 2,000 instances (200 reservations of 10; moto gives each a root volume) and 2,000
# more volumes (4,000 in all), then measures API calls and wall time of collection with
# --concurrency 1 and the default, and each type alone versus all types together.
# Needs moto: CLOUDSPEC_MOTO_SERVER / CLOUDSPEC_PYTHON (as .ci/run sets), else PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:-${CARGO_TARGET_DIR:-target}/release/cloudspec}"
MOTO="${CLOUDSPEC_MOTO_SERVER:-moto_server}"
PY="${CLOUDSPEC_PYTHON:-python3}"
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$MOTO" -H 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
MOTO_PID=$!
trap 'kill "$MOTO_PID" 2>/dev/null || true' EXIT
until "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" 2>/dev/null; do sleep 0.2; done
TMP=$(mktemp -d)
start=$(date +%s.%N)
"$PY" tests/fixtures/aws/seed.py "http://127.0.0.1:$PORT" --instances 2000 --batch 10 --volumes 2000 --no-s3 >/dev/null
echo "seeded in $(echo "$(date +%s.%N) - $start" | bc) s"

export AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
export AWS_REGION=us-east-1 AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_EC2_METADATA_DISABLED=true

spec() { # spec NAME TYPE MEMBER-ASSERTION
  printf 'Spec "bench"\nGroup "g"\n  Rule "r"\n    On %s\n    Assert %s\n' "$2" "$3" > "$TMP/$1.cloudspec"
}
spec instances aws:ec2:instance 'metadata_options ( http_tokens equal to "required" )'
spec volumes aws:ec2:volume 'encrypted is true'
spec security_groups aws:ec2:security_group 'group_name is not null'
spec subnets aws:ec2:subnet 'map_public_ip_on_launch is false'
spec network_interfaces aws:ec2:network_interface 'source_dest_check is true'
cat "$TMP"/instances.cloudspec > "$TMP/all.cloudspec"
for t in volumes security_groups subnets network_interfaces; do tail -n 3 "$TMP/$t.cloudspec" | sed "s/Rule \"r\"/Rule \"$t\"/" >> "$TMP/all.cloudspec"; done

# run SPEC CONCURRENCY -> prints the closing line (calls, retries, errors, wall time)
run() {
  CLOUDSPEC_LOG=debug "$BIN" run "$TMP/$1.cloudspec" --concurrency "$2" --format json -o "$TMP/report.json" 2>"$TMP/log" || true
  local line; line=$(grep '^collected' "$TMP/log")
  local per_op; per_op=$(grep -o 'operation="[A-Za-z]*"' "$TMP/log" | sort | uniq -c | awk '{printf "%s %s; ", $2, $1}' | sed 's/operation=//g; s/"//g')
  printf '%-20s c=%-3s %s [%s]\n' "$1" "$2" "$line" "$per_op"
}

echo "== instances + volumes (one rule each), concurrency 1 vs 16"
spec both aws:ec2:instance 'block_device_mappings ( ebs ( > volume ( encrypted is true ) ) )'
run both 1
run both 16
echo "== each type alone (concurrency 16), then all five together"
for t in instances volumes security_groups subnets network_interfaces; do run "$t" 16; done
run all 16
run all 1

echo "== through a proxy adding 500 ms per request (AWS-like latency; small account)"
kill "$MOTO_PID"; wait "$MOTO_PID" 2>/dev/null || true
"$MOTO" -H 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
MOTO_PID=$!
until "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" 2>/dev/null; do sleep 0.2; done
"$PY" tests/fixtures/aws/seed.py "http://127.0.0.1:$PORT" --instances 20 --batch 10 --no-s3 >/dev/null
PROXY_PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PY" bench/aws/latency_proxy.py "$PROXY_PORT" "http://127.0.0.1:$PORT" 0.5 &
PROXY_PID=$!
trap 'kill "$MOTO_PID" "$PROXY_PID" 2>/dev/null || true' EXIT
until "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PROXY_PORT), 1)" 2>/dev/null; do sleep 0.2; done
export AWS_ENDPOINT_URL="http://127.0.0.1:$PROXY_PORT"
for t in instances volumes security_groups subnets network_interfaces; do run "$t" 16; done
run all 16
run all 1
