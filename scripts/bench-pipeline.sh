#!/usr/bin/env bash
# Whole-process time of the CrossPL-IPC pipeline (issue 3's acceptance):
#   the reference Python procedure (scripts/reference_fsm.py: load the tasks,
#   the FSM catalog and the recorded generations, score, print pass rates)
# against polyeval importing, evaluating and reporting the same recorded
# greedy generations of GPT-4o and Qwen2.5-coder-7b-instruct (3,964
# generations, Markdown report with 5,000-resample bootstrap CIs), each in a
# fresh run directory, three ways a user can run it:
#   per-run      import, evaluate, report for one model, then the other (6 processes)
#   side-by-side import A; import B; evaluate A B; report A B           (4 processes)
#   one-import   import --model A,B --evaluate; report A B              (2 processes)
# All timed in one hyperfine session (same machine state), medians compared.
#
# Usage: scripts/bench-pipeline.sh [DATA_DIR]   (default: $POLYEVAL_TEST_DATA or ../shared/data)
# Env:   BENCH_RUNS (timed runs per command, default 10), CARGO_TARGET_DIR,
#        POLYEVAL_BIN (measure this binary instead of building one).
# Needs hyperfine (apt-get install hyperfine).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${1:-${POLYEVAL_TEST_DATA:-$(cd .. && pwd)/shared/data}}"
CROSSPL="$DATA/crosspl"
[ -d "$CROSSPL/results" ] || CROSSPL="$DATA"
PY=/usr/bin/python3
RUNS="${BENCH_RUNS:-10}"
A=GPT-4o
B=Qwen2.5-coder-7b-instruct
command -v hyperfine >/dev/null || { echo "bench-pipeline: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }

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
IMPORT="$BIN import crosspl-results $CROSSPL/results --data $CROSSPL"

cat >"$WORK/per-run.sh" <<SH
set -e; rm -rf "$WORK/runs"
for m in $A $B; do
  $IMPORT --model "\$m" --out "$WORK/runs/\$m" >/dev/null
  "$BIN" evaluate "$WORK/runs/\$m" --no-progress >/dev/null
  "$BIN" report "$WORK/runs/\$m" >"$WORK/report-\$m.md"
done
SH
cat >"$WORK/side-by-side.sh" <<SH
set -e; rm -rf "$WORK/runs"
$IMPORT --model $A --out "$WORK/runs/$A" >/dev/null
$IMPORT --model $B --out "$WORK/runs/$B" >/dev/null
"$BIN" evaluate "$WORK/runs/$A" "$WORK/runs/$B" --no-progress >/dev/null
"$BIN" report "$WORK/runs/$A" "$WORK/runs/$B" >"$WORK/report-both.md"
SH
cat >"$WORK/one-import.sh" <<SH
set -e; rm -rf "$WORK/runs"
$IMPORT --model $A,$B --out "$WORK/runs" --evaluate --no-progress >/dev/null
"$BIN" report "$WORK/runs/$A" "$WORK/runs/$B" >"$WORK/report-both.md"
SH

echo "== machine: $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Sanity: every pipeline produces the paper's numbers once before timing.
for p in per-run side-by-side one-import; do
  bash "$WORK/$p.sh"
done
grep -m1 "Overall (pooled" "$WORK/report-$A.md" | sed 's/^/  polyeval GPT-4o: /'
"$PY" scripts/reference_fsm.py --data "$CROSSPL" | sed 's/^/  python: /'

hyperfine --warmup 1 --runs "$RUNS" --export-json "$WORK/hf.json" \
  -n python-reference "$PY scripts/reference_fsm.py --data $CROSSPL" \
  -n per-run "bash $WORK/per-run.sh" \
  -n side-by-side "bash $WORK/side-by-side.sh" \
  -n one-import "bash $WORK/one-import.sh"

echo "== per step, one run each (polyeval, ms)"
rm -rf "$WORK/runs"
step() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )); }
for m in $A $B; do
  printf '  %-28s import %5s  evaluate %5s  report %5s\n' "$m" \
    "$(step $IMPORT --model "$m" --out "$WORK/runs/$m")" \
    "$(step "$BIN" evaluate "$WORK/runs/$m" --no-progress)" \
    "$(step "$BIN" report "$WORK/runs/$m")"
done

"$PY" - "$WORK/hf.json" <<'PYEOF'
import json, sys
r = {x["command"]: x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]}
py = r.pop("python-reference")
print(f"== median wall time: Python reference {py:.0f} ms")
for name, ms in r.items():
    print(f"   {name:<13} {ms:6.0f} ms   speed-up {py / ms:5.2f}x (target >= 10x)")
PYEOF
