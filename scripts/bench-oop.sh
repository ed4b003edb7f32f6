#!/usr/bin/env bash
# MultiOOP evaluation throughput per language: polyeval's sandbox engine
# (worker pool, one job per core) vs the same programs run one by one with
# plain g++/javac/mcs+mono/php/node/python3 subprocesses (no sandbox).
# Usage: scripts/bench-oop.sh [N samples per language, default 24] [languages...]
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet -p polyeval-bench --example oop_throughput -- "${@:-24}"
