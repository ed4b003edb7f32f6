#!/usr/bin/env bash
# MultiOOP evaluation throughput per language, in one run on the same
# distinct samples: polyeval with warm workers (default), polyeval --cold
# (one sandbox per sample) and the upstream procedure without a sandbox
# (Python forked per sample from a parent with numpy imported, other
# languages as plain compiler/interpreter subprocesses). Prints samples/s,
# the ratios to upstream, and the machine's load before and after.
# Usage: scripts/bench-warm.sh [N samples per language, default 48] [workers, default 2] [languages...]
set -euo pipefail
cd "$(dirname "$0")/.."
# A release build: the figures are the harness's, not a debug build's.
exec cargo run --quiet --release -p polyeval-bench --example oop_throughput -- "${1:-48}" "${2:-2}" "${@:3}"
