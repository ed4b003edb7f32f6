#!/usr/bin/env bash
# Judge benchmark: per-sample overhead of the judge (observation records,
# preludes, nonce server, scan, verdict) against today's in-process/marker
# scheme, both measured in the same run on the same samples.
#   scripts/bench-judge.sh              # 3 rounds
#   POLYEVAL_BENCH_N=5 scripts/bench-judge.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# The dev profile is enough: the cost measured is process creation and
# toolchains, not our code.
exec cargo bench --profile dev -p polyeval-judge --bench overhead "$@"
