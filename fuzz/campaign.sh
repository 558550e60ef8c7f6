#!/usr/bin/env bash
# The fuzz campaign of docs/fuzzing.md: each target in turn for its number of executions
# (10 million for the container parsers, 1 million for the others), one process at a time
# under nice -n 19, on the working corpus fuzz/.corpus/TARGET (kept between runs, so running
# it again goes on from there). Logs: $FUZZ_LOGS (default fuzz/.logs)/TARGET-<time>.log; one
# line per finished run in summary.tsv: target, executions, seconds, exec/s, cov, ft, result.
# FUZZ_SECONDS=N caps each run at N seconds (whichever comes first: the executions or the time).
#   fuzz/campaign.sh [TARGET[=RUNS]...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${FUZZ_LOGS:-$here/.logs}; mkdir -p "$logs"
default=(jpeg=10000000 jumbf=10000000 bmff=10000000 cbor=10000000 cose=1000000 claim=1000000
         record=1000000 ring=1000000 bundle=1000000 x509=1000000 tst=1000000 manifest=1000000 caf=1000000
         png=10000000 riff=10000000 tiff=10000000 gif=10000000 svg=10000000 jxl=10000000 id3=10000000
         pdf=10000000 inflate=1000000)
[ $# -gt 0 ] && default=("$@")
"$here/run.sh" --build-all
for spec in "${default[@]}"; do
    t=${spec%%=*}; runs=${spec#*=}; [ "$runs" = "$spec" ] && runs=1000000
    log=$logs/$t-$(date -u +%Y%m%dT%H%M%S).log
    start=$(date +%s)
    "$here/run.sh" "$t" "${FUZZ_SECONDS:-0}" -runs="$runs" >"$log" 2>&1; rc=$?
    secs=$(( $(date +%s) - start ))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    result=ok; [ $rc -ne 0 ] && result="exit $rc (see $log)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${execs:-?}" "$secs" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$result" "$(cat /proc/loadavg | cut -d' ' -f1-3)" >>"$logs/summary.tsv"
done
