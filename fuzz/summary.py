#!/usr/bin/env python3
"""The campaign table of docs/fuzzing.md from fuzz/.logs/summary.tsv (campaign.sh's log):
per target the runs, executions (summed), seconds, exec/s (executions ÷ seconds), libFuzzer's
cov and ft after the last run, the results and the load averages seen.
Usage: summary.py [summary.tsv]"""
import os, sys
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".logs", "summary.tsv")
rows = {}
for line in open(path):
    f = line.rstrip("\n").split("\t")
    if len(f) < 7: continue
    t, execs, secs, rate, cov, ft, result = f[:7]
    load = f[7] if len(f) > 7 else "?"
    r = rows.setdefault(t, {"runs": 0, "execs": 0, "secs": 0, "cov": "?", "ft": "?", "results": set(), "load": []})
    r["runs"] += 1
    r["execs"] += int(execs) if execs.isdigit() else 0
    r["secs"] += int(secs) if secs.isdigit() else 0
    r["cov"], r["ft"] = cov, ft
    r["results"].add(result)
    r["load"].append(load.split()[0] if load != "?" else "?")
print("| target | runs | executions | seconds | exec/s | cov | ft | result | load (1 min) at the ends |")
print("|---|---|---|---|---|---|---|---|---|")
for t, r in rows.items():
    rate = r["execs"] // r["secs"] if r["secs"] else 0
    print(f"| `{t}` | {r['runs']} | {r['execs']:,} | {r['secs']:,} | {rate:,} | {r['cov']} | {r['ft']} | {', '.join(sorted(r['results']))} | {', '.join(r['load'])} |")
