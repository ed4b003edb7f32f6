#!/usr/bin/env bash
# `polyeval mine` against the Python reference miner (scripts/reference_mine.py:
# the authors' per-file procedure, file re-read per machine) on the same
# checkouts in one run, with their outputs compared (the authors' six
# columns must be identical); optionally throughput and peak memory on a
# large synthetic corpus.
#
# Usage: scripts/bench-mine.sh [--copies N] [--big GB] [-j N]
#   --copies N  the three shared repositories (cloned from ../shared/data/repos)
#               copied N times for the comparison (default 20)
#   --big GB    also mine a synthetic corpus of about GB gigabytes (the three
#               repositories copied many times plus generated source files made
#               of the benchmark's canonical solutions), polyeval only
#   -j N        polyeval's threads (default: all cores)
# Env: POLYEVAL_TEST_DATA (default ../shared/data), CARGO_TARGET_DIR.
# Everything is generated under a temporary directory in /tmp and deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${POLYEVAL_TEST_DATA:-$(cd .. && pwd)/shared/data}"
CATALOG="$DATA/crosspl/fsm/crosspl_fsms.json"
COPIES=20 BIG=0 JOBS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --copies) COPIES="$2"; shift 2 ;;
    --big) BIG="$2"; shift 2 ;;
    -j) JOBS="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
WORK=$(mktemp -d /tmp/bench-mine.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

cargo build -q --release -p polyeval
BIN="${CARGO_TARGET_DIR:-target}/release/polyeval"
TIME=/usr/bin/time

echo "== machine: $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); $(python3 --version)"

# The three repositories, then N copies named <Name>_<Id><k> (distinct ids).
mkdir -p "$WORK/src" "$WORK/corpus"
for b in "$DATA"/repos/*.bundle; do
  git -c init.defaultBranch=main -c advice.detachedHead=false clone -q "$b" "$WORK/src/$(basename "$b" .bundle)"
done
for k in $(seq 1 "$COPIES"); do
  for r in "$WORK"/src/*; do cp -r "$r" "$WORK/corpus/$(basename "$r")$k"; done
done
echo "== comparison corpus: $COPIES copies of 3 repositories, $(find "$WORK/corpus" -type f | wc -l) files, $(du -sh "$WORK/corpus" | cut -f1)"

cpu() { awk '{print $2 + $3}' "$1"; }
wall() { awk '{print $1}' "$1"; }

warm() { find "$1" -type f -exec cat {} + > /dev/null; }  # same page-cache state for both

echo "== Python reference miner (single process)"
warm "$WORK/corpus"
$TIME -f "%e %U %S %M" -o "$WORK/py.time" python3 scripts/reference_mine.py \
  --catalog "$CATALOG" --out "$WORK/python.csv" --repos-dir "$WORK/corpus" 2> "$WORK/py.log"
sed 's/^/  /' "$WORK/py.log"
echo "== polyeval mine (release, -j ${JOBS/#0/all cores})"
warm "$WORK/corpus"
$TIME -f "%e %U %S %M" -o "$WORK/rs.time" "$BIN" mine --no-progress -j "$JOBS" \
  --catalog "$CATALOG" --out "$WORK/polyeval.csv" --repos-dir "$WORK/corpus" > "$WORK/rs.log"
sed 's/^/  /' "$WORK/rs.log"

python3 - "$WORK/python.csv" "$WORK/polyeval.csv" <<'EOF'
import csv, sys
rows = [sorted(tuple(r[:6]) for r in list(csv.reader(open(p, encoding="utf-8")))[1:]) for p in sys.argv[1:]]
if rows[0] != rows[1]:
    sys.exit("OUTPUTS DIFFER: python %d rows, polyeval %d rows" % (len(rows[0]), len(rows[1])))
print("== outputs identical: %d rows (File_path, Classfier, Classfier_ID, Interface_class, Interface_name, Status_description)" % len(rows[0]))
EOF

LINES=$(grep -o '[0-9]* lines)' "$WORK/rs.log" | head -1 | cut -d' ' -f1)
python3 - "$LINES" "$(wall "$WORK/py.time")" "$(cpu "$WORK/py.time")" "$(wall "$WORK/rs.time")" "$(cpu "$WORK/rs.time")" "$(awk '{print $4}' "$WORK/py.time")" "$(awk '{print $4}' "$WORK/rs.time")" <<'EOF'
import sys
lines, pw, pc, rw, rc, pm, rm = int(sys.argv[1]), *map(float, sys.argv[2:6]), int(sys.argv[6]), int(sys.argv[7])
print("== per line of input (%d lines in the files read):" % lines)
print("  Python:   wall %.2f s = %.2f us/line; CPU %.2f s = %.2f us/line; max RSS %d KiB" % (pw, pw / lines * 1e6, pc, pc / lines * 1e6, pm))
print("  polyeval: wall %.3f s = %.3f us/line; CPU %.3f s = %.3f us/line; max RSS %d KiB" % (rw, rw / lines * 1e6, rc, rc / lines * 1e6, rm))
print("  speed-up: %.0fx wall-clock, %.0fx CPU time" % (pw / rw, pc / max(rc, 1e-3)))
EOF

if [ "$BIG" != "0" ]; then
  echo "== synthetic corpus of about $BIG GB (disk: $(df -h /tmp | awk 'NR==2 {print $4}') free in /tmp)"
  BIGDIR="$WORK/big"
  mkdir -p "$BIGDIR"
  # Half: copies of the three repositories (with .git, vendored code and all).
  python3 - "$WORK/src" "$BIGDIR" "$BIG" "$DATA" <<'EOF'
import json, os, random, shutil, sys
src, big, gb, data = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
target = int(gb * 1e9)
def size(d):
    return sum(os.path.getsize(os.path.join(p, f)) for p, _, fs in os.walk(d) for f in fs)
repos = [os.path.join(src, r) for r in sorted(os.listdir(src))]
unit = sum(size(r) for r in repos)
copies = int(target / 2 / unit) + 1
for k in range(copies):
    for r in repos:
        shutil.copytree(r, os.path.join(big, "%s%d" % (os.path.basename(r), 100000 + k)), symlinks=True)
# Other half: generated repositories of source files made of the benchmark's
# canonical solutions (real IPC code in six languages) and filler lines.
ipc = os.path.join(data, "crosspl", "PolyBench", "IPC_Bench")
solutions = []
for lang in sorted(os.listdir(ipc)):
    for f in sorted(os.listdir(os.path.join(ipc, lang))):
        t = json.load(open(os.path.join(ipc, lang, f)))
        solutions.append((t["suffix"], t["Canonical_solution"]))
rng = random.Random(7)
filler = ["x = compute(a, b)  # step", "for (int i = 0; i < n; i++) { total += v[i]; }",
          "if err != nil { return fmt.Errorf(\"failed: %w\", err) }", "$value = $this->get('key');",
          "const result = items.map(item => item.id);", "public void update(String name) { this.name = name; }"]
written, repo, n = 0, 0, 0
remaining = target - copies * unit
while written < remaining:
    d = os.path.join(big, "generated_%d" % (900000 + repo))
    for i in range(400):
        suffix, code = rng.choice(solutions)
        parts = []
        for _ in range(rng.randint(5, 40)):
            parts.append("\n".join(rng.choice(filler) for _ in range(rng.randint(20, 120))))
            if rng.random() < 0.05:
                parts.append(code)
        text = "\n".join(parts) + "\n"
        p = os.path.join(d, "pkg%d" % (i % 20), "file%d%s" % (i, suffix))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
        written += len(text)
    with open(os.path.join(d, "build.sh"), "w") as f:
        f.write("echo build\n")
    repo += 1
print("  %d repository copies + %d generated repositories" % (copies * len(repos), repo))
EOF
  echo "  $(find "$BIGDIR" -type f | wc -l) files, $(du -sh "$BIGDIR" | cut -f1) on disk ($(du -sb "$BIGDIR" | cut -f1) bytes)"
  echo "== polyeval mine on it (compat), cold-ish then warm page cache"
  for round in 1 2; do
    $TIME -v -o "$WORK/big.time" "$BIN" mine --no-progress -j "$JOBS" \
      --catalog "$CATALOG" --out "$WORK/big.csv" --repos-dir "$BIGDIR" > "$WORK/big.log"
    echo "  round $round:"; sed 's/^/    /' "$WORK/big.log" | head -3
    grep -E "Elapsed|Maximum resident|User time|System time" "$WORK/big.time" | sed 's/^\s*/    /'
  done
  echo "== polyeval mine on it (strict)"
  $TIME -v -o "$WORK/big.time" "$BIN" mine --no-progress -j "$JOBS" --mode strict \
    --catalog "$CATALOG" --out "$WORK/big-strict.csv" --repos-dir "$BIGDIR" > "$WORK/big.log"
  sed 's/^/    /' "$WORK/big.log" | head -4
  grep -E "Elapsed|Maximum resident" "$WORK/big.time" | sed 's/^\s*/    /'
fi
