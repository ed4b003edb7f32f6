#!/usr/bin/env bash
# Judge benchmark: per-sample cost of judging (mode `sound`: observation
# records, preludes, nonce server, scan, verdict) against upstream's
# in-process scheme with the integrity marker (mode `inprocess`), both
# through the real evaluators in the same run on the same samples: every
# MultiOOP language, MultiOOP Python references, CrossPL-FFI canonical
# solutions. Verdicts that differ between the modes are listed.
#   scripts/bench-judge.sh            # 8 samples per language, 2 rounds
#   scripts/bench-judge.sh 16 3
set -euo pipefail
cd "$(dirname "$0")/.."
# The dev profile is enough: the cost measured is process creation and
# toolchains, not our code (the Rust-side column says how much ours is).
exec cargo run --quiet -p polyeval-bench --example judge_overhead -- "$@"
