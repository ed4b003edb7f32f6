#!/usr/bin/env bash
# Throughput of polyeval's FSM engine vs the Python reference procedure
# (scripts/reference_fsm.py) on the same files: the recorded greedy
# generations of GPT-4o and Qwen2.5-coder-7b-instruct (3,964 generations).
#
# Usage: scripts/bench-fsm.sh [DATA_DIR]   (default: $POLYEVAL_TEST_DATA or ../shared/data)
# Env:   FSM_BENCH_REPEAT (rounds per measurement, default 20), CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${1:-${POLYEVAL_TEST_DATA:-$(cd .. && pwd)/shared/data}}"
PY=/usr/bin/python3
REPEAT="${FSM_BENCH_REPEAT:-20}"
export POLYEVAL_TEST_DATA="$DATA" FSM_BENCH_REPEAT="$REPEAT"

echo "== machine: $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== Python reference procedure (single process), $REPEAT rounds"
$PY scripts/reference_fsm.py --data "$DATA" --repeat "$REPEAT" | sed 's/^/  /'
echo "== Python reference, whole process once (start, load JSON, score, report)"
/usr/bin/env time -f "  wall %e s, user %U s, max RSS %M KiB" $PY scripts/reference_fsm.py --data "$DATA" >/dev/null

echo "== polyeval-fsm (cargo bench --bench rescore), $REPEAT rounds"
cargo bench -q -p polyeval-fsm --bench rescore 2>/dev/null | sed 's/^/  /'
BIN=$(ls -t "${CARGO_TARGET_DIR:-target}"/release/deps/rescore-* | grep -v '\.d$' | head -1)
echo "== polyeval-fsm whole process once (start, compile catalog, load JSON, score compat+strict)"
FSM_BENCH_REPEAT=1 /usr/bin/env time -f "  wall %e s, user %U s, max RSS %M KiB" "$BIN" >/dev/null
