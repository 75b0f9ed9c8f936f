#!/usr/bin/env bash
# The whole CIS pack against a seeded moto account (no AWS account needed):
#   bench/aws/cis.sh [path/to/cloudspec] [instances per region]
# Seeds two regions (instances, security groups, VPCs), S3 buckets, IAM users with keys and
# MFA, roles, a group, a server certificate, trails, a Config recorder, Security Hub, RDS,
# EFS, KMS keys, log groups with metric filters, alarms and SNS topics,
# runs `cloudspec run rules/aws-cis` and prints, per API operation, the calls made next to
# the fewest the APIs allow for the same data (one call per listing page and region, or per
# account for global services, plus one per resource for per-resource calls), then the
# wall time at --concurrency 1 and the default, directly and behind a proxy adding 200 ms
# per request (AWS-like latency). With PROWLER=path/to/prowler, Prowler runs its CIS 6.0
# compliance checks on the same account first, for requests, wall time and peak memory
# side by side. Needs moto: CLOUDSPEC_MOTO_SERVER / CLOUDSPEC_PYTHON (as .ci/run sets),
# else PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:-${CARGO_TARGET_DIR:-target}/release/cloudspec}"
INSTANCES="${2:-50}"
MOTO="${CLOUDSPEC_MOTO_SERVER:-moto_server}"
PY="${CLOUDSPEC_PYTHON:-python3}"
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() { until "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $1), 1)" 2>/dev/null; do sleep 0.2; done; }
PORT=$(free_port)
TMP=$(mktemp -d)
# moto logs one line per request: the requests a tool made are the lines it added.
MOTO_IAM_LOAD_MANAGED_POLICIES=true "$MOTO" -H 127.0.0.1 -p "$PORT" >"$TMP/moto.log" 2>&1 &
MOTO_PID=$!
PROXY_PID=""
trap 'kill $MOTO_PID $PROXY_PID 2>/dev/null || true' EXIT
wait_port "$PORT"
"$PY" tests/fixtures/aws/seed.py "http://127.0.0.1:$PORT" --instances "$INSTANCES" --batch 10 \
  --iam --logging --services --region us-east-1 --region eu-west-1 >/dev/null
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_EC2_METADATA_DISABLED=true

requests() { grep -c 'HTTP/1.1' "$TMP/moto.log" || true; }
# side TOOL ARGS...: requests, wall time and peak memory of one run against moto
side() {
  local before after; before=$(requests)
  AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_DEFAULT_REGION=us-east-1 /usr/bin/time -f '%e s, %M KiB peak' \
    "$@" >"$TMP/side.out" 2>"$TMP/side.err" || true
  after=$(requests)
  printf '%s requests, %s\n' "$((after - before))" "$(tail -n 1 "$TMP/side.err")"
}
if [ -n "${PROWLER:-}" ]; then
  echo "== side by side on the same account (2 regions)"
  printf 'prowler --compliance cis_6.0_aws: '
  side "$PROWLER" aws --compliance cis_6.0_aws -f us-east-1 eu-west-1 --output-formats csv -o "$TMP/prowler" --no-banner
  printf 'cloudspec run rules/aws-cis:    '
  side "$BIN" run rules/aws-cis --region us-east-1 --region eu-west-1 --format json -o "$TMP/side.json"
fi

# run ENDPOINT CONCURRENCY: the closing line of the run; the debug log in $TMP/log
run() {
  AWS_ENDPOINT_URL="$1" CLOUDSPEC_LOG=debug "$BIN" run rules/aws-cis --region us-east-1 --region eu-west-1 \
    --concurrency "$2" --format json -o "$TMP/report.json" --save-inventory "$TMP/inventory.json" 2>"$TMP/log" || true
  grep '^info: collected' "$TMP/log" | sed 's/^info: //'
}

echo "== API calls of the whole CIS pack (concurrency 16)"
run "http://127.0.0.1:$PORT" 16 >/dev/null
"$PY" - "$TMP/log" "$TMP/inventory.json" <<'PYEOF'
import collections, json, re, sys
log, inventory = sys.argv[1], json.load(open(sys.argv[2]))
calls = collections.Counter(re.findall(r'operation="(\w+)" region="([\w-]+)"', open(log).read()))
per_op = collections.Counter()
for (op, _), n in calls.items():
    per_op[op] += n
res = collections.Counter(r["type"] for r in inventory["resources"])
keys = sum(len(r["properties"].get("access_keys") or []) for r in inventory["resources"]
           if r["type"] == "aws:iam:user")
policies_with_document = sum(1 for r in inventory["resources"]
                             if r["type"] == "aws:iam:policy" and "document" in r["properties"])
regions = len({region for (_, region) in calls if region != "global"})
# The fewest calls for the same data: one per region (or account) for a listing that fits
# one page, one per resource (or key) for a per-resource call.
per_resource = {
    "ListAccessKeys": res["aws:iam:user"], "ListMFADevices": res["aws:iam:user"],
    "GetLoginProfile": res["aws:iam:user"], "ListAttachedUserPolicies": res["aws:iam:user"],
    "ListUserPolicies": res["aws:iam:user"], "ListGroupsForUser": res["aws:iam:user"],
    "GetAccessKeyLastUsed": keys, "GetPolicy": policies_with_document,
    "GetPolicyVersion": policies_with_document,
    "GetTrailStatus": res["aws:cloudtrail:trail"], "GetEventSelectors": res["aws:cloudtrail:trail"],
    "DescribeKey": res["aws:kms:key"], "GetKeyRotationStatus": res["aws:kms:key"],
    "DescribeMetricFilters": res["aws:logs:log_group"],
    "ListSubscriptionsByTopic": res["aws:sns:topic"],
    "GetBucketPolicy": res["aws:s3:bucket"], "GetBucketVersioning": res["aws:s3:bucket"],
    # The buckets' and the account's (S3 Control) public access blocks.
    "GetPublicAccessBlock": res["aws:s3:bucket"] + 1,
    # Per bucket when ListBuckets does not name its region (moto 5.1 does not).
    "GetBucketLocation": res["aws:s3:bucket"],
    "DescribeConfigurationRecorderStatus": len({r["region"] for r in inventory["resources"]
                                                if r["type"] == "aws:config:configuration_recorder"}),
    "ListServerCertificates": 1,
    "GetEbsEncryptionByDefault": res["aws:ec2:region"],
    "GetAccountSummary": 1, "GetAccountPasswordPolicy": 1, "ListEntitiesForPolicy": 1,
    "GetCallerIdentity": 1, "ListBuckets": 1, "ListUsers": 1, "ListPolicies": 2,
}
total = minimum = 0
print(f"{'operation':38} {'calls':>6} {'fewest':>6}")
for op in sorted(per_op):
    fewest = per_resource.get(op, regions)
    total += per_op[op]; minimum += fewest
    print(f"{op:38} {per_op[op]:6} {fewest:6}")
print(f"{'all':38} {total:6} {minimum:6}")
print(f"resources: {sum(res.values())} ({dict(sorted(res.items()))})")
PYEOF

echo "== wall time, direct: concurrency 1, then 16"
run "http://127.0.0.1:$PORT" 1
run "http://127.0.0.1:$PORT" 16
PROXY_PORT=$(free_port)
"$PY" bench/aws/latency_proxy.py "$PROXY_PORT" "http://127.0.0.1:$PORT" 0.2 &
PROXY_PID=$!
wait_port "$PROXY_PORT"
echo "== wall time through a proxy adding 200 ms per request: concurrency 1, then 16"
run "http://127.0.0.1:$PROXY_PORT" 1
run "http://127.0.0.1:$PROXY_PORT" 16
