#!/usr/bin/env bash
# Compare two builds of the sandbox benchmark in one run: the baseline and
# the new binary alternate, ROUNDS times each, so load changes on a shared
# machine hit both alike. Prints each run's overhead section and the CPU time
# of its whole process tree (perf stat task-clock, when perf is installed):
# CPU time is the steadier figure where wall-clock time depends on the load.
#
#   # build each benchmark binary, e.g. on the baseline branch and on yours:
#   cargo bench --profile dev -p polyeval-sandbox --bench sandbox --no-run
#   # (it prints "Executable benches/sandbox.rs (PATH)"; copy PATH away)
#   scripts/bench-sandbox-compare.sh BASELINE_BIN NEW_BIN [ROUNDS]
#
# POLYEVAL_BENCH_ONLY=overhead (the default here) measures the per-sample
# overhead only; set POLYEVAL_BENCH_ONLY= for the full benchmark.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,15p' "$0"
    exit 2
fi
base=$(realpath "$1")
new=$(realpath "$2")
rounds=${3:-5}
cd "$(dirname "$0")/../crates/sandbox"
export POLYEVAL_BENCH_ONLY=${POLYEVAL_BENCH_ONLY-overhead}
export POLYEVAL_BENCH_N=${POLYEVAL_BENCH_N:-20}
caches=$(mktemp -d)
# Sandboxed uids must reach the assets inside.
chmod 755 "$caches"
trap 'rm -rf "$caches"' EXIT
for round in $(seq "$rounds"); do
    for which in base new; do
        bin=$base
        [ "$which" = new ] && bin=$new
        echo "=== $which (round $round, load $(cut -d' ' -f1 /proc/loadavg))"
        # Separate asset caches: the two builds may lay them out differently.
        export POLYEVAL_SANDBOX_CACHE=$caches/$which
        if command -v perf >/dev/null; then
            perf stat -x, -e task-clock -o "$caches/stat" "$bin" --bench | grep -v '^memory limit'
            echo "CPU of the process tree: $(cut -d, -f1 "$caches/stat" | grep -E '^[0-9.]+$') ms"
        else
            "$bin" --bench | grep -v '^memory limit'
        fi
    done
done
