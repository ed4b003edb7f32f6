#!/usr/bin/env bash
# Sandbox benchmark: overhead vs a bare subprocess, per-language runs/s for a
# trivial program, and the speedup of each compile-time trick (C++ PCH,
# verdict cache). Baselines are measured in the same run.
#   scripts/bench-sandbox.sh            # 20 repetitions
#   POLYEVAL_BENCH_N=50 scripts/bench-sandbox.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# The dev profile (dependencies at opt-level 2) is enough: the cost measured
# is process creation and toolchains, not our code.
exec cargo bench --profile dev -p polyeval-sandbox --bench sandbox "$@"
