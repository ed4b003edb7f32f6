#!/usr/bin/env bash
# Superseded by scripts/bench-warm.sh (same example, now measuring warm,
# --cold and the upstream procedure together); kept for old notes.
# Usage: scripts/bench-oop.sh [N samples per language, default 48] [workers, default 2] [languages...]
set -euo pipefail
exec "$(dirname "$0")/bench-warm.sh" "$@"
