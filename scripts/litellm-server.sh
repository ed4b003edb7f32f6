#!/usr/bin/env bash
# The LiteLLM proxy, a real OpenAI-compatible gateway nobody here wrote, for
# the tests against it (crates/cli/tests/litellm.rs). Pinned version, in a
# virtual environment of its own under the user's cache directory.
#
#   scripts/litellm-server.sh install    create the environment (idempotent; CI
#                                        runs it from scripts/install-deps.sh)
#   scripts/litellm-server.sh venv       print the environment's directory
#   scripts/litellm-server.sh serve CONFIG PORT [WATCH_PID]
#       run the proxy on 127.0.0.1:PORT with CONFIG, offline (no cost-map
#       download); it stops when WATCH_PID (e.g. the test process) is gone
#
# POLYEVAL_LITELLM_VENV overrides the environment's directory.
set -euo pipefail

LITELLM_VERSION=1.106.2
VENV="${POLYEVAL_LITELLM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/polyeval/litellm-$LITELLM_VERSION}"

install() {
  if [ -x "$VENV/bin/litellm" ] && [ "$(cat "$VENV/.polyeval-installed" 2>/dev/null)" = "$LITELLM_VERSION" ]; then
    echo "litellm-server: LiteLLM $LITELLM_VERSION already installed in $VENV"
    return
  fi
  local started=$SECONDS
  echo "litellm-server: installing LiteLLM $LITELLM_VERSION into $VENV"
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "litellm[proxy]==$LITELLM_VERSION"
  echo "$LITELLM_VERSION" >"$VENV/.polyeval-installed"
  echo "litellm-server: installed in $((SECONDS - started)) s"
}

serve() {
  local config port watch
  config="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  port=$2
  watch=${3:-}
  if [ ! -x "$VENV/bin/litellm" ]; then
    echo "litellm-server: LiteLLM is not installed in $VENV; run scripts/install-deps.sh (or $0 install)" >&2
    exit 1
  fi
  # The model cost map shipped with the package, not a download.
  export LITELLM_LOCAL_MODEL_COST_MAP=True
  # Callback modules named in the config live beside it.
  cd "$(dirname "$config")"
  "$VENV/bin/litellm" --config "$config" --host 127.0.0.1 --port "$port" &
  local pid=$!
  trap 'kill "$pid" 2>/dev/null || true' EXIT INT TERM
  if [ -n "$watch" ]; then
    while kill -0 "$watch" 2>/dev/null && kill -0 "$pid" 2>/dev/null; do
      sleep 0.5
    done
    kill "$pid" 2>/dev/null || true
  fi
  wait "$pid"
}

case "${1:-}" in
  install) install ;;
  venv) echo "$VENV" ;;
  serve) shift; serve "$@" ;;
  *)
    echo "usage: $0 install | venv | serve CONFIG PORT [WATCH_PID]" >&2
    exit 2
    ;;
esac
