#!/usr/bin/env bash
# Re-scoring every recorded CrossPL-IPC generation of every model and variant
# (issue 14, item 6), whole process, three ways interleaved round by round so
# the machine's load weighs on each alike:
#   python    the published procedure in plain Python (scripts/reference_fsm.py
#             --models all: load tasks, FSM catalog and recorded generations, score)
#   polyeval  polyeval import crosspl-results --all-models --evaluate into a
#             fresh directory (durable run stores: samples, recorded and compat
#             verdicts)
#   floor     crates/runner/examples/ipc_floor.rs: read + parse the same files
#             and write the same rows polyeval stored, nothing else (in-process)
# then prints medians (wall, and CPU time where the load distorts wall time),
# polyeval's speed-up over Python and its ratio to the floor, and one run's
# phase timings (POLYEVAL_LOG=debug). Needs GNU time (/usr/bin/time).
#
# Usage: scripts/bench-ipc-rescore.sh [DATA_DIR [RESULTS_DIR]]
#   DATA_DIR    benchmark data root (default: $POLYEVAL_TEST_DATA or ../shared/data)
#   RESULTS_DIR recorded results (default: DATA_DIR/crosspl/results)
# Env: BENCH_ROUNDS (default 10), CARGO_TARGET_DIR,
#      POLYEVAL_BIN (measure this binary instead of building one).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${1:-${POLYEVAL_TEST_DATA:-$(cd .. && pwd)/shared/data}}"
CROSSPL="$DATA/crosspl"
[ -d "$CROSSPL/PolyBench" ] || CROSSPL="$DATA"
RESULTS="${2:-$CROSSPL/results}"
PY=/usr/bin/python3
ROUNDS="${BENCH_ROUNDS:-10}"
TGT="${CARGO_TARGET_DIR:-target}"

echo "== building polyeval and the floor example (release)"
if [ -z "${POLYEVAL_BIN:-}" ]; then
  cargo build -q --release -p polyeval
fi
cargo build -q --release -p polyeval-runner --example ipc_floor
BIN="${POLYEVAL_BIN:-$TGT/release/polyeval}"
FLOOR="$TGT/release/examples/ipc_floor"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
IMPORT=("$BIN" import crosspl-results "$RESULTS" --data "$CROSSPL" --all-models --evaluate --no-progress)

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "== machine: $(nproc) cores; load average: $(load)"
echo "== polyeval: $BIN"

# Once before timing: both sides score the same generations alike.
"${IMPORT[@]}" --out "$WORK/runs" >"$WORK/import.txt"
grep -E '^(== |imported|compat)' "$WORK/import.txt" | sed 's/^/  polyeval: /' || true
"$PY" scripts/reference_fsm.py --data "$CROSSPL" --results "$RESULTS" --models all \
  --verdicts-out "$WORK/py.json" | sed 's/^/  python: /'
"$PY" - "$WORK/py.json" "$WORK/runs" <<'PYEOF'
import json, os, sqlite3, sys
py = json.load(open(sys.argv[1]))
lang = {"C++_ipc": "cpp", "go_ipc": "go", "java_ipc": "java", "js_ipc": "javascript",
        "php_ipc": "php", "python_ipc": "python"}
ours = {}
for run in os.listdir(sys.argv[2]):
    db = sqlite3.connect(os.path.join(sys.argv[2], run, "run.sqlite"))
    for sid, status in db.execute("SELECT sample_id, status FROM verdicts WHERE mode = 'compat'"):
        ours[(run, sid)] = status == "passed"
same = sum(ours.get((v["model"], "%s/%s#0" % (lang[v["dir"]], v["task_id"]))) == v["passed"] for v in py)
print("  verdicts: polyeval %d, python %d, equal %d" % (len(ours), len(py), same))
PYEOF

# Wall time in ms, then CPU time (user + sys) in ms: "WALL CPU".
timed() {
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/env time -f "%U %S" -o "$WORK/cpu" "$@" >/dev/null
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000000 )) $(awk '{printf "%d", ($1 + $2) * 1000}' "$WORK/cpu")"
}
: >"$WORK/times"
for round in $(seq "$ROUNDS"); do
  py=$(timed "$PY" scripts/reference_fsm.py --data "$CROSSPL" --results "$RESULTS" --models all)
  rm -rf "$WORK/timed"
  pe=$(timed "${IMPORT[@]}" --out "$WORK/timed")
  floor=$("$FLOOR" "$RESULTS" "$WORK"/runs/* | awk '/^floor/ {print int($2)}')
  echo "python ${py% *} polyeval ${pe% *} floor $floor python_cpu ${py#* } polyeval_cpu ${pe#* }" >>"$WORK/times"
  echo "  round $round: $(tail -1 "$WORK/times") ms; load $(load)"
done

echo "== floor, once (in-process, ms)"
"$FLOOR" "$RESULTS" "$WORK"/runs/* | sed 's/^/  /'
echo "== polyeval phases, once (POLYEVAL_LOG=debug)"
rm -rf "$WORK/timed"
POLYEVAL_LOG=polyeval_runner=debug "${IMPORT[@]}" --out "$WORK/timed" 2>&1 >/dev/null |
  sed -E 's/\x1b\[[0-9;]*m//g; s/^.*DEBUG //; s/^/  /'

echo "== after: load average $(load)"
"$PY" - "$WORK/times" <<'PYEOF'
import statistics, sys
cols = {}
for line in open(sys.argv[1]):
    f = line.split()
    for k, v in zip(f[::2], f[1::2]):
        cols.setdefault(k, []).append(int(v))
m = {k: statistics.median(v) for k, v in cols.items()}
print("== median of %d interleaved rounds: python %.0f ms, polyeval %.0f ms, floor %.0f ms"
      % (len(cols["python"]), m["python"], m["polyeval"], m["floor"]))
print("   polyeval speed-up over python: %.2fx (target >= 10x)" % (m["python"] / m["polyeval"]))
print("   python over floor: %.2fx; polyeval / floor: %.2fx (target <= 1.5x where 10x is out of reach)"
      % (m["python"] / m["floor"], m["polyeval"] / m["floor"]))
print("   CPU time (user + sys): python %.0f ms, polyeval %.0f ms (%.2fx less)"
      % (m["python_cpu"], m["polyeval_cpu"], m["python_cpu"] / m["polyeval_cpu"]))
PYEOF
