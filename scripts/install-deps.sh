#!/usr/bin/env bash
# Install every system dependency polyeval's build and test suite need on
# Debian/Ubuntu: a C toolchain (for the bundled SQLite), the language
# toolchains the executed benchmarks use (g++, Java, Mono C#, PHP, Node.js,
# Go, Python with numpy) and what a language folder installs itself
# (crates/lang/src/<language>/install.sh), GSL for CrossPL-FFI, bubblewrap for the sandbox,
# Chromium for HTML report rendering, a minimal LaTeX (pdflatex with booktabs:
# about 80 s to install) that compiles the LaTeX reports in the tests, git
# for mining (the clone step), Slurm
# with munge for the one-node test cluster of scripts/slurm-local.sh, and the
# LiteLLM proxy (from PyPI, in a virtual environment) that the model-client
# tests run against; then GSL 2.8, the release CrossPL-FFI was made with,
# built from the shared source tarball into polyeval's cache
# (crates/gsl/build-gsl.sh, what `polyeval setup gsl` runs; about 1.5 minutes
# with 2 cores, once); the IPC runtime of executed CrossPL-IPC
# (crates/build/setup-ipc-runtime.sh, what `polyeval setup ipc-runtime` runs:
# Debian packages, a Python environment from PyPI, npm packages and a Go
# build cache; about 4 minutes, once); mdBook (pinned, from crates.io: builds
# the book in docs/) and maturin (pinned, from PyPI, in a virtual
# environment: builds the Python wheel). Idempotent: safe to run again. Run
# it as the user who runs the tests (GSL and the IPC runtime go to that
# user's cache).
# Rust itself is expected to be installed (https://rustup.rs).
set -euo pipefail

PACKAGES=(
  build-essential g++ pkg-config ca-certificates git
  python3 python3-numpy python3-venv
  php-cli
  mono-mcs mono-runtime
  default-jdk-headless
  nodejs
  golang
  libgsl-dev
  bubblewrap
  chromium
  texlive-latex-base texlive-latex-recommended
  fonts-dejavu-core fontconfig
  slurm-wlm munge
)

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: not root and sudo is unavailable; run as root" >&2
  exit 1
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -q
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# What a language folder installs beyond the Debian packages above (its
# `install.sh`, run as root: e.g. a pinned compiler from npm). Idempotent.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
for installer in "$ROOT"/crates/lang/src/*/install.sh; do
  [ -f "$installer" ] || continue
  started=$SECONDS
  "${SUDO[@]}" bash "$installer"
  echo "install-deps: $(basename "$(dirname "$installer")") ready ($((SECONDS - started))s)"
done

if ! command -v cargo >/dev/null 2>&1; then
  echo "install-deps: cargo not found; install Rust from https://rustup.rs (then re-run)" >&2
  exit 1
fi

# A real OpenAI-compatible gateway for crates/cli/tests/litellm.rs (pinned).
"$(dirname "$0")/litellm-server.sh" install

# mdBook for the book (docs/): built once from crates.io into ~/.cargo/bin
# without its file watcher and web server (about 3 minutes with 2 cores).
MDBOOK_VERSION=0.5.4
if [ "$(mdbook --version 2>/dev/null)" = "mdbook v$MDBOOK_VERSION" ]; then
  echo "install-deps: mdBook $MDBOOK_VERSION already installed"
else
  started=$SECONDS
  cargo install --quiet --locked mdbook --version "$MDBOOK_VERSION" --no-default-features --features search
  echo "install-deps: mdBook $MDBOOK_VERSION installed ($((SECONDS - started))s)"
fi

# maturin, which builds the Python wheel (scripts/python-wheel.sh).
"$(dirname "$0")/python-wheel.sh" install

# GSL 2.8 into polyeval's cache ($POLYEVAL_CACHE_DIR, else ~/.cache/polyeval):
# the FFI tests need it and fail, naming `polyeval setup gsl`, without it.
GSL_TARBALL=${POLYEVAL_TEST_DATA:-$ROOT/../shared/data}/gsl/gsl_2.8+dfsg.orig.tar.gz
if [ -f "$GSL_TARBALL" ]; then
  started=$SECONDS
  "$ROOT/crates/gsl/build-gsl.sh" --source "$GSL_TARBALL"
  echo "install-deps: GSL 2.8 ready ($((SECONDS - started))s)"
else
  echo "install-deps: $GSL_TARBALL not found, GSL 2.8 not built; the tests that need it will fail (build it later with: polyeval setup gsl --source FILE)" >&2
fi

# The IPC runtime of executed CrossPL-IPC (crosspl-ipc-exec) into polyeval's
# cache: the build ipc-exec tests need it and fail, naming
# `polyeval setup ipc-runtime`, without it.
started=$SECONDS
"$ROOT/crates/build/setup-ipc-runtime.sh"
echo "install-deps: IPC runtime ready ($((SECONDS - started))s)"
