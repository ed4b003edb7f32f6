#!/usr/bin/env bash
# Whole-process time of the CrossPL-IPC pipeline (issue 3's acceptance):
#   (a) the reference Python procedure (scripts/reference_fsm.py: load the
#       tasks, FSM catalog and recorded generations, score, print a report),
#   (b) polyeval `import crosspl-results` + `evaluate` + `report` (Markdown,
#       5,000-resample bootstrap CIs) in a fresh run directory each time,
# both over the recorded greedy generations of GPT-4o and
# Qwen2.5-coder-7b-instruct (3,964 generations), and prints the ratio.
#
# Usage: scripts/bench-pipeline.sh [DATA_DIR]   (default: $POLYEVAL_TEST_DATA or ../shared/data)
# Env:   BENCH_RUNS (timed runs per command, default 10), CARGO_TARGET_DIR,
#        POLYEVAL_BIN (measure this binary instead of building one).
# Uses hyperfine when installed, else a `date +%s%N` loop (median).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${1:-${POLYEVAL_TEST_DATA:-$(cd .. && pwd)/shared/data}}"
CROSSPL="$DATA/crosspl"
[ -d "$CROSSPL/results" ] || CROSSPL="$DATA"
PY=/usr/bin/python3
RUNS="${BENCH_RUNS:-10}"
MODELS=(GPT-4o Qwen2.5-coder-7b-instruct)

if [ -n "${POLYEVAL_BIN:-}" ]; then
  BIN="$POLYEVAL_BIN" # e.g. an older build, for before/after figures
else
  echo "== building polyeval (release)"
  cargo build -q --release -p polyeval
  BIN="${CARGO_TARGET_DIR:-target}/release/polyeval"
fi
echo "== polyeval binary: $BIN"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One full polyeval pipeline for both models in a fresh directory.
cat >"$WORK/polyeval.sh" <<EOF
set -e
rm -rf "$WORK/runs"
for m in ${MODELS[*]}; do
  "$BIN" import crosspl-results "$CROSSPL/results" --model "\$m" --data "$CROSSPL" --out "$WORK/runs/\$m" >/dev/null 2>&1
  "$BIN" evaluate "$WORK/runs/\$m" >/dev/null 2>&1
  "$BIN" report "$WORK/runs/\$m" >"$WORK/report-\$m.md" 2>/dev/null
done
EOF
PY_CMD="$PY scripts/reference_fsm.py --data $CROSSPL --models $(IFS=,; echo "${MODELS[*]}") >/dev/null 2>&1"
RS_CMD="bash $WORK/polyeval.sh"

echo "== machine: $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Sanity: both produce their results once before timing.
bash "$WORK/polyeval.sh"
grep -m1 "Overall (pooled" "$WORK/report-GPT-4o.md" | sed 's/^/  polyeval GPT-4o: /'

median_ms() { # command → median wall milliseconds over $RUNS runs
  local times=() t0 t1
  for _ in $(seq "$RUNS"); do
    t0=$(date +%s%N); bash -c "$1"; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs "$RUNS" --export-json "$WORK/hf.json" \
    -n python-reference "$PY_CMD" -n polyeval-pipeline "$RS_CMD"
  read -r PY_MS RS_MS < <($PY -c "
import json, sys
r = {x['command']: x for x in json.load(open('$WORK/hf.json'))['results']}
print(r['python-reference']['median'] * 1000, r['polyeval-pipeline']['median'] * 1000)")
else
  PY_MS=$(median_ms "$PY_CMD")
  RS_MS=$(median_ms "$RS_CMD")
fi

echo "== per step, one run each (polyeval, ms)"
rm -rf "$WORK/runs"
for m in "${MODELS[@]}"; do
  for step in import evaluate report; do
    case $step in
      import) args=(import crosspl-results "$CROSSPL/results" --model "$m" --data "$CROSSPL" --out "$WORK/runs/$m") ;;
      evaluate) args=(evaluate "$WORK/runs/$m") ;;
      report) args=(report "$WORK/runs/$m") ;;
    esac
    t0=$(date +%s%N); "$BIN" "${args[@]}" >/dev/null 2>&1; t1=$(date +%s%N)
    printf '  %-28s %-8s %6d\n' "$m" "$step" $(( (t1 - t0) / 1000000 ))
  done
done

$PY -c "
py, rs = float('$PY_MS'), float('$RS_MS')
print(f'== median wall time over $RUNS runs: Python reference {py:.0f} ms, polyeval import+evaluate+report {rs:.0f} ms')
print(f'== speed-up: {py / rs:.2f}x (target: >= 10x)')"
