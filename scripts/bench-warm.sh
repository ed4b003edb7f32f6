#!/usr/bin/env bash
# MultiOOP evaluation throughput per language, in one run on the same
# distinct samples: polyeval with warm workers (default), polyeval --cold
# (one sandbox per sample) and the upstream procedure without a sandbox
# (every program compiled and run as plain subprocesses per sample; Python
# also against a stricter row, "Python/fork": each program executed in a
# process forked from a parent that has imported numpy). Prints samples/s,
# the ratios to upstream, and the machine's load before and after.
# Usage: scripts/bench-warm.sh [N samples per language, default 48] [workers, default 2] [languages...] [--rounds K]
# (--rounds K: each figure is the median of K runs; default 1.)
set -euo pipefail
cd "$(dirname "$0")/.."
# A release build: the figures are the harness's, not a debug build's.
exec cargo run --quiet --release -p polyeval-bench --example oop_throughput -- "${1:-48}" "${2:-2}" "${@:3}"
