#!/usr/bin/env bash
# What a sharded MultiOOP study costs, measured on this machine, for the
# README's "On paper" estimate:
#
#   1. per language, samples/s of `polyeval evaluate -j $(nproc)` on N
#      samples (the demo suite's MultiOOP tasks, half correct and half flawed
#      answers, each sample made distinct so no cache helps), and on real
#      MultiOOP Python tasks with their reference solutions when the shared
#      data is there;
#   2. the fixed cost of one shard (`evaluate --shard` with nothing to do:
#      start, read the run, load the tasks);
#   3. `polyeval merge` of a run of 1,982 CrossPL-IPC verdicts in 8 shards
#      (needs the shared data);
#   4. on the local Slurm cluster (scripts/slurm-local.sh), submit → merged
#      for a 4-shard `slurm evaluate --wait` of 4 samples: scheduling,
#      shard start and merge, nearly no evaluation.
#
# Usage: scripts/bench-slurm.sh [N samples per language, default 48]
# Needs the toolchains (scripts/install-deps.sh). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-48}
cargo build --release --quiet -p polyeval
P=${CARGO_TARGET_DIR:-$PWD/target}/release/polyeval
DATA=${POLYEVAL_TEST_DATA:-$PWD/../shared/data}
CORES=$(nproc)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

echo "machine: $CORES cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; $(date -u +%Y-%m-%dT%H:%MZ)"
echo

"$P" demo --out "$W/demo" --no-ffi --no-html -j "$CORES" >/dev/null 2>&1
D=$W/demo/data/multioop
for kind in reference flawed; do
  "$P" export "$W/demo/runs/multioop-$kind" --format jsonl >"$W/$kind.jsonl"
done
python3 - "$W" "$N" <<'EOF'
import json, sys
w, n = sys.argv[1], int(sys.argv[2])
answers = {}
for kind in ("reference", "flawed"):
    for line in open(f"{w}/{kind}.jsonl"):
        d = json.loads(line)
        answers[(d["language"], d["task_id"], kind)] = d["completion"]
for lang in sorted({k[0] for k in answers}):
    comment = "#" if lang == "Python" else "//"
    with open(f"{w}/samples-{lang}.jsonl", "w") as out:
        for k in range(n):
            task = ("OOP/1", "OOP/2")[k % 2]
            kind = ("reference", "flawed")[(k // 2) % 2]
            code = answers[(lang, task, kind)] + f"\n{comment} sample {k}\n"
            out.write(json.dumps({"task_id": task, "language": lang,
                                  "sample_index": k // 2, "completion": code}) + "\n")
EOF

echo "| language | samples | seconds | samples/s | core-s per sample |"
echo "|---|---:|---:|---:|---:|"
rate_row() { # name samples seconds
  awk -v l="$1" -v n="$2" -v s="$3" -v c="$CORES" \
    'BEGIN { printf "| %s | %d | %.1f | %.2f | %.2f |\n", l, n, s, n / s, c * s / n }'
}
for lang in Python C++ Java C# PHP JavaScript; do
  run=$W/run-${lang//[#+]/x}
  "$P" import samples "$W/samples-$lang.jsonl" --bench multioop --data "$D" --model bench --out "$run" >/dev/null 2>&1
  t0=$(now)
  "$P" evaluate "$run" -j "$CORES" --no-progress >/dev/null
  rate_row "$lang (demo tasks)" "$N" "$(elapsed "$t0")"
done
if [ -d "$DATA/multioop" ]; then
  "$P" generate --bench multioop --data "$DATA/multioop" --model reference --lang python \
    --limit "$N" --out "$W/real-python" --no-progress >/dev/null 2>&1
  real=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from samples').fetchone()[0])" "$W/real-python/run.sqlite")
  t0=$(now)
  "$P" evaluate "$W/real-python" -j "$CORES" --no-progress >/dev/null
  rate_row "Python (real tasks, reference answers)" "$real" "$(elapsed "$t0")"
fi
echo

# 2. One shard's fixed cost: everything but the evaluation.
run=$W/run-Python
t0=$(now)
for i in 1 2 3 4 5; do "$P" evaluate "$run" --shard 0/1 --no-progress >/dev/null; done
echo "shard start (evaluate --shard with nothing to do), mean of 5: $(awk -v s="$(elapsed "$t0")" 'BEGIN { printf "%.2f", s / 5 }') s"

# 3. Merging 1,982 verdicts from 8 shards.
if [ -d "$DATA/crosspl/results" ]; then
  "$P" import crosspl-results "$DATA/crosspl/results" --model GPT-4o --data "$DATA/crosspl" \
    --out "$W/ipc" >/dev/null 2>&1
  for i in 0 1 2 3 4 5 6 7; do "$P" evaluate "$W/ipc" --shard "$i/8" --no-progress >/dev/null; done
  t0=$(now)
  "$P" merge "$W/ipc" >/dev/null
  echo "merge of 1982 verdicts from 8 shards: $(elapsed "$t0") s"
fi

# 4. The local cluster: submit → merged, 4 shards, almost no work.
if scripts/slurm-local.sh start >/dev/null 2>&1; then
  eval "$(scripts/slurm-local.sh env)"
  tiny=$W/tiny
  head -n 4 "$W/samples-Python.jsonl" >"$W/tiny.jsonl"
  "$P" import samples "$W/tiny.jsonl" --bench multioop --data "$D" --model bench --out "$tiny" >/dev/null 2>&1
  t0=$(now)
  "$P" evaluate "$tiny" --no-progress >/dev/null
  local_s=$(elapsed "$t0")
  t0=$(now)
  "$P" slurm evaluate "$tiny" --shards 4 --redo --wait >/dev/null 2>&1
  echo "local cluster, 4 samples: evaluate ${local_s} s; slurm evaluate --shards 4 --wait (submit → merged) $(elapsed "$t0") s"
else
  echo "local cluster: not available (scripts/slurm-local.sh start failed)"
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
