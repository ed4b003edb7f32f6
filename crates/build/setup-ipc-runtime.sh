#!/usr/bin/env bash
# The IPC runtime of executed CrossPL-IPC (benchmark crosspl-ipc-exec): the
# libraries the tasks' programs use, installed once, versioned, and mounted
# read-only into the sandbox at /polyeval/ipc by polyeval:
#
#   Debian packages (system-wide, under /usr, which the sandbox sees):
#     Go libraries (/usr/share/gocode), PHP libraries and extensions,
#     redis-server and mosquitto (counterparts a driver starts)
#   <dest>/python/        a virtual environment (PyPI packages, pinned)
#   <dest>/node/node_modules/   npm packages (pinned)
#   <dest>/go/gopath/     symlinks giving Debian's Go modules their /vN paths
#   <dest>/go/cache-seed/ a Go build cache warmed with those libraries
#   <dest>/php/autoload.php     loads the Debian PHP libraries' autoloaders
#   <dest>/etc/hosts      the sandbox's /etc/hosts (localhost)
#   <dest>/polyeval-ipc-runtime.json   what is installed, with versions
#
# <dest> is <cache>/ipc-runtime-<RUNTIME_VERSION>, <cache> being
# $POLYEVAL_CACHE_DIR, else $XDG_CACHE_HOME/polyeval, else ~/.cache/polyeval.
# This one file is what `polyeval setup ipc-runtime` runs (embedded in the
# binary) and what CI runs (scripts/install-deps.sh).
#
# Idempotent: a complete runtime of this version is reused. Safe under kill -9
# and concurrent runs: built in a sibling temporary directory under an
# exclusive lock (<dest>.lock) and renamed into place when complete.
# Debian packages need root (or sudo); without them the script stops naming
# the apt-get command to run.
#
# usage: setup-ipc-runtime.sh [--dest DIR] [--force] [--print-dest] [--no-apt]
#   --dest        install directory (default: <cache>/ipc-runtime-<version>)
#   --force       rebuild even when a complete runtime exists
#   --print-dest  print the default install directory and exit
#   --no-apt      never install Debian packages (fail when one is missing)
set -euo pipefail

# Bump when anything below changes: polyeval looks for this version's directory.
RUNTIME_VERSION=1
MANIFEST=polyeval-ipc-runtime.json

DEBIAN_PACKAGES=(
  python3-venv npm
  php-cli php-curl php-guzzlehttp-guzzle php-symfony-http-client php-redis php-predis
  golang-go
  golang-github-gin-gonic-gin-dev golang-google-grpc-dev golang-github-gorilla-websocket-dev
  golang-github-labstack-echo-dev golang-golang-x-net-dev golang-nhooyr-websocket-dev
  golang-github-sirupsen-logrus-dev golang-github-pkg-errors-dev golang-github-gomodule-redigo-dev
  golang-github-google-uuid-dev golang-github-satori-go.uuid-dev golang-github-go-chi-chi-dev
  golang-github-gorilla-mux-dev golang-github-dgrijalva-jwt-go-dev golang-go.uber-zap-dev
  golang-github-rs-zerolog-dev
  redis-server mosquitto
)

PYTHON_PACKAGES=(
  flask==3.0.3 flask-cors==4.0.1 requests==2.32.3 httpx==0.27.2 aiohttp==3.9.5
  tornado==6.4.1 sanic==23.12.1 fastapi==0.110.3 uvicorn==0.29.0
  websockets==12.0 websocket-client==1.8.0 twisted==24.3.0 autobahn==23.6.2
  pyzmq==26.0.3 paho-mqtt==1.6.1 redis==5.0.4 grpcio==1.64.1 protobuf==4.25.3
)

NPM_PACKAGES=(
  express@4.19.2 body-parser@1.20.2 cors@2.8.5 axios@1.7.2 ws@8.17.1
  socket.io@4.7.5 socket.io-client@4.7.5 request@2.88.2 xmlhttprequest@1.8.0
  node-fetch@2.7.0 express-session@1.18.0 cookie-parser@1.4.6 morgan@1.10.0
  multer@1.4.5-lts.1 uuid@9.0.1 lodash@4.17.21 through2@4.0.2 through2-map@3.0.0
  eventemitter3@5.0.1 compression@1.7.4 connect@3.7.0 qs@6.12.1 debug@4.3.5
  bluebird@3.7.2 fs-extra@11.2.0 form-data@4.0.0
)

# Packages compiled into the Go build cache seed (what the tasks import).
GO_SEED_IMPORTS=(
  github.com/gin-gonic/gin google.golang.org/grpc
  google.golang.org/grpc/metadata google.golang.org/grpc/keepalive google.golang.org/grpc/status
  google.golang.org/grpc/reflection github.com/gorilla/websocket github.com/labstack/echo/v4
  github.com/labstack/echo/v4/middleware golang.org/x/net/context golang.org/x/net/websocket
  nhooyr.io/websocket github.com/sirupsen/logrus github.com/pkg/errors
  github.com/gomodule/redigo/redis github.com/google/uuid github.com/satori/go.uuid
  github.com/go-chi/chi/v5 github.com/gorilla/mux github.com/dgrijalva/jwt-go go.uber.org/zap
  github.com/rs/zerolog
  net/http net/http/httptest net/url net os/exec encoding/json bufio io/ioutil context
)

# PHP autoloaders of the Debian libraries (those installed are loaded).
PHP_AUTOLOADERS=(
  /usr/share/php/GuzzleHttp/autoload.php
  /usr/share/php/GuzzleHttp/Psr7/autoload.php
  /usr/share/php/GuzzleHttp/Promise/autoload.php
  /usr/share/php/Symfony/Component/HttpClient/autoload.php
  /usr/share/php/Predis/autoload.php
)

say() { echo "setup-ipc-runtime: $*"; }
die() { echo "setup-ipc-runtime: error: $*" >&2; exit 1; }

default_dest() {
  local base
  if [ -n "${POLYEVAL_CACHE_DIR+set}" ]; then
    if [ -z "$POLYEVAL_CACHE_DIR" ] || [ "$POLYEVAL_CACHE_DIR" = off ]; then
      die "POLYEVAL_CACHE_DIR='$POLYEVAL_CACHE_DIR' disables polyeval's cache, where the IPC runtime is installed; point it at a directory or pass --dest DIR"
    fi
    base=$POLYEVAL_CACHE_DIR
  elif [ -n "${XDG_CACHE_HOME:-}" ]; then
    base=$XDG_CACHE_HOME/polyeval
  elif [ -n "${HOME:-}" ]; then
    base=$HOME/.cache/polyeval
  else
    die "no cache directory: set POLYEVAL_CACHE_DIR or HOME, or pass --dest DIR"
  fi
  echo "$base/ipc-runtime-$RUNTIME_VERSION"
}

DEST=
FORCE=0
APT=1
while [ $# -gt 0 ]; do
  case $1 in
    --dest) DEST=${2:?--dest needs a directory}; shift 2 ;;
    --force) FORCE=1; shift ;;
    --no-apt) APT=0; shift ;;
    --print-dest) default_dest; exit 0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$DEST" ] || DEST=$(default_dest)
case $DEST in /*) ;; *) DEST=$PWD/$DEST ;; esac
DEST=${DEST%/}
STARTED=$SECONDS

complete() {
  [ -f "$DEST/$MANIFEST" ] &&
    python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("version") == int(sys.argv[2]) else 1)' \
      "$DEST/$MANIFEST" "$RUNTIME_VERSION" 2>/dev/null
}

# 1. Debian packages.
missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  # nodesource's nodejs ships npm itself (and conflicts with Debian's npm).
  if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then
    continue
  fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$APT" -eq 0 ]; then
    die "Debian packages missing: ${missing[*]} (install them with: apt-get install -y --no-install-recommends ${missing[*]})"
  fi
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    die "Debian packages missing: ${missing[*]}; run as root: apt-get install -y --no-install-recommends ${missing[*]}"
  fi
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Installing redis-server or mosquitto must not start a system service.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$policy" >/dev/null
    "${SUDO[@]}" chmod 755 "$policy"
    trap '"${SUDO[@]}" rm -f "$policy"' EXIT
  fi
  "${SUDO[@]}" apt-get update -q >/dev/null
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  if [ -e "$policy" ] && [ "$(cat "$policy")" = "$(printf '#!/bin/sh\nexit 101')" ]; then
    "${SUDO[@]}" rm -f "$policy"
    trap - EXIT
  fi
  say "Debian packages installed ($((SECONDS - STARTED)) s)"
fi

mkdir -p "$(dirname "$DEST")"
exec 9>"$DEST.lock"
if ! flock -n 9; then
  say "waiting for another setup into $DEST to finish"
  flock 9
fi
if [ "$FORCE" -eq 0 ] && complete; then
  say "reusing the complete runtime in $DEST"
  exit 0
fi

# Leftovers of killed setups (we hold the lock: nobody else is building).
rm -rf "$DEST".partial-*
WORK="$DEST.partial-$$"
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

# 2. Python packages in a virtual environment of the sandbox's interpreter.
say "python: ${#PYTHON_PACKAGES[@]} packages"
/usr/bin/python3 -m venv "$WORK/python"
"$WORK/python/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir --use-pep517 \
  "${PYTHON_PACKAGES[@]}"
SITE=$("$WORK/python/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
SITE=${SITE#"$WORK/"}

# 3. npm packages.
say "node: ${#NPM_PACKAGES[@]} packages"
mkdir -p "$WORK/node"
echo '{"name":"polyeval-ipc-runtime","private":true}' >"$WORK/node/package.json"
(cd "$WORK/node" && npm install --no-audit --no-fund --no-update-notifier --loglevel=error \
  --cache "$WORK/.npm-cache" "${NPM_PACKAGES[@]}" >/dev/null)
rm -rf "$WORK/.npm-cache"

# 4. Go: /vN import paths for Debian's modules (GOPATH mode drops the major
# version from the directory), and a build cache seed.
say "go: module paths and a build cache seed"
GOCODE=/usr/share/gocode/src
mkdir -p "$WORK/go/gopath/src"
while IFS= read -r mod_file; do
  dir=${mod_file%/go.mod}
  rel=${dir#"$GOCODE"/}
  module=$(awk '$1 == "module" { print $2; exit }' "$mod_file")
  case $module in
    */v[0-9]|*/v[0-9][0-9])
      if [ "$module" != "$rel" ] && [ ! -e "$GOCODE/$module" ]; then
        mkdir -p "$WORK/go/gopath/src/$(dirname "$module")"
        ln -sfn "$dir" "$WORK/go/gopath/src/$module"
      fi ;;
  esac
done < <(find "$GOCODE" -name go.mod -not -path '*/testdata/*' -not -path '*/vendor/*' 2>/dev/null | sort)
seed_src=$(mktemp -d)
{
  echo "package main"
  echo "import ("
  for p in "${GO_SEED_IMPORTS[@]}"; do echo "	_ \"$p\""; done
  echo ")"
  echo "func main() {}"
} >"$seed_src/main.go"
seed_ok=1
(cd "$seed_src" && GO111MODULE=off GOFLAGS=-trimpath CGO_ENABLED=0 GOPROXY=off GOTOOLCHAIN=local \
  GOTELEMETRY=off GOPATH="$seed_src/gopath:/usr/share/gocode:$WORK/go/gopath" \
  GOCACHE="$WORK/go/cache-seed" HOME="$seed_src" go build -o prog main.go) || seed_ok=0
rm -rf "$seed_src"
[ "$seed_ok" -eq 1 ] || die "the Go libraries do not build (see above)"

# 5. PHP: one autoloader for the Debian libraries.
mkdir -p "$WORK/php"
{
  echo "<?php"
  echo "// Autoloaders of the Debian PHP libraries of polyeval's IPC runtime."
  for f in "${PHP_AUTOLOADERS[@]}"; do
    [ -f "$f" ] && echo "require_once '$f';"
  done
} >"$WORK/php/autoload.php"

# 6. Name resolution inside the sandbox: localhost is 127.0.0.1 (only: a
# program listening on 127.0.0.1 is reached by a client of "localhost").
mkdir -p "$WORK/etc"
printf '127.0.0.1\tlocalhost\n::1\tip6-localhost ip6-loopback\n' >"$WORK/etc/hosts"

# 7. The manifest: what is installed, with versions.
DEBIAN_VERSIONS=$(dpkg-query -W -f='${Package}\t${Version}\n' "${DEBIAN_PACKAGES[@]}" 2>/dev/null || true)
DEBIAN_VERSIONS="$DEBIAN_VERSIONS" python3 - "$WORK" "$RUNTIME_VERSION" "$SITE" "$((SECONDS - STARTED))" \
  "${NPM_PACKAGES[@]}" <<'PY'
import json, os, subprocess, sys
work, version, site, seconds, npm = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5:]
debian = dict(l.split("\t", 1) for l in os.environ["DEBIAN_VERSIONS"].splitlines() if "\t" in l)
debian = {k: v for k, v in debian.items() if v}
pip = subprocess.run([f"{work}/python/bin/pip", "list", "--format=json", "--disable-pip-version-check"],
                     capture_output=True, text=True, check=True).stdout
python = {p["name"]: p["version"] for p in json.loads(pip) if p["name"] not in ("pip", "setuptools")}
node = {}
for spec in npm:
    name = spec.rsplit("@", 1)[0]
    with open(f"{work}/node/node_modules/{name}/package.json") as f:
        node[name] = json.load(f)["version"]
go = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
# What a program can import, for polyeval's feasibility check of a task:
# Python modules of the sandbox's interpreter with the environment on its
# path, node's built-in modules, PHP's extensions.
importable = subprocess.run(
    ["/usr/bin/python3", "-c",
     "import pkgutil, sys; print('\\n'.join(sorted(set(sys.stdlib_module_names) | set(sys.builtin_module_names) | {m.name for m in pkgutil.iter_modules()})))"],
    capture_output=True, text=True, check=True,
    env={"PYTHONPATH": f"{work}/{site}", "PATH": "/usr/bin:/bin"}).stdout.split()
node_builtins = subprocess.run(
    ["node", "-e", "console.log(require('module').builtinModules.join('\\n'))"],
    capture_output=True, text=True, check=True).stdout.split()
php_extensions = [l.strip().lower() for l in subprocess.run(
    ["php", "-m"], capture_output=True, text=True, check=True).stdout.splitlines()
    if l.strip() and not l.startswith("[")]
manifest = {
    "version": version,
    "setup_seconds": seconds,
    "paths": {
        "python_site_packages": site,
        "node_modules": "node/node_modules",
        "gopath": "go/gopath",
        "gocache_seed": "go/cache-seed",
        "php_autoload": "php/autoload.php",
        "hosts": "etc/hosts",
    },
    "debian": debian,
    "python": python,
    "npm": node,
    "go": go,
    "python_importable": importable,
    "node_builtins": node_builtins,
    "php_extensions": sorted(set(php_extensions)),
}
with open(f"{work}/polyeval-ipc-runtime.json", "w") as f:
    json.dump(manifest, f, indent=2, sort_keys=True)
    f.write("\n")
PY

chmod -R a+rX,go-w "$WORK"
sync -f "$WORK" 2>/dev/null || true
rm -rf "$DEST"
mv "$WORK" "$DEST"
trap - EXIT
say "IPC runtime $RUNTIME_VERSION ready in $DEST ($((SECONDS - STARTED)) s)"
