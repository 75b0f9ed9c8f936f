#!/usr/bin/env python3
"""Compares cloudspec's JSON report with Regorus's answer for bench/rules/typical.rego.

    compare_verdicts.py REPORT.json REGORUS.json

For each rule: the resources in scope (a count) and the ids that fail must be equal.
Prints one line per rule and exits 1 on any difference (bench/report.sh).
"""
import json
import sys


def cloudspec_verdicts(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out = {}
    for group in report["groups"]:
        for rule in group["rules"]:
            statuses = {r["status"] for r in rule["resources"]}
            odd = statuses - {"pass", "fail"}
            if odd:
                raise SystemExit(f"{rule['name']}: statuses {sorted(odd)} have no Rego counterpart")
            out[rule["name"]] = {
                "scope": len(rule["resources"]),
                "fail": sorted(r["id"] for r in rule["resources"] if r["status"] == "fail"),
            }
    return out


def regorus_verdicts(path):
    with open(path, encoding="utf-8") as f:
        answer = json.load(f)
    value = answer["result"][0]["expressions"][0]["value"]
    return {name: {"scope": v["scope"], "fail": sorted(v["fail"])} for name, v in value.items()}


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    ours = cloudspec_verdicts(sys.argv[1])
    theirs = regorus_verdicts(sys.argv[2])
    same = True
    for name in sorted(set(ours) | set(theirs)):
        a, b = ours.get(name), theirs.get(name)
        if a == b:
            print(f"  same   {a['scope']:>7} in scope, {len(a['fail']):>7} fail  {name}")
            continue
        same = False
        if a is None or b is None:
            print(f"  DIFFER {name}: only in {'Regorus' if a is None else 'cloudspec'}")
            continue
        only_a = sorted(set(a["fail"]) - set(b["fail"]))[:5]
        only_b = sorted(set(b["fail"]) - set(a["fail"]))[:5]
        print(
            f"  DIFFER {name}: scope {a['scope']} vs {b['scope']}, "
            f"failing only in cloudspec {only_a}, only in Regorus {only_b}"
        )
    print("verdicts: " + ("identical" if same else "DIFFERENT"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
