#!/usr/bin/env bash
# Build GSL 2.8 from its source tarball into polyeval's cache, where
# CrossPL-FFI evaluation finds it:
#
#   <cache>/gsl-2.8/lib/libgsl.so, lib/libgslcblas.so, include/gsl/, bin/gsl-config
#   <cache>/gsl-2.8/polyeval-gsl.json   (what was built, from what, how long it took)
#
# <cache> is $POLYEVAL_CACHE_DIR, else $XDG_CACHE_HOME/polyeval, else
# ~/.cache/polyeval (polyeval_core::data::cache_dir). This one file is both
# what `polyeval setup gsl` runs (embedded in the binary) and what CI runs
# (scripts/install-deps.sh), so the two cannot disagree on the layout.
#
# Idempotent: a complete build is reused. Safe under kill -9 and concurrent
# runs: the build happens in a sibling temporary directory while holding an
# exclusive lock (<cache>/gsl-2.8.lock) and is renamed into place only when
# complete, so <cache>/gsl-2.8 either does not exist or is whole. Leftovers of
# a killed build are removed by the next run.
#
# usage: build-gsl.sh [--source TARBALL] [--dest DIR] [--jobs N] [--force]
#                     [--progress-lines] [--print-dest]
#   --source          GSL 2.8 source tarball (default: ./gsl-2.8.tar.gz)
#   --dest            install directory (default: <cache>/gsl-2.8)
#   --jobs            parallel compile jobs (default: nproc)
#   --force           rebuild even when a complete build exists
#   --progress-lines  also print one "build-gsl: compiled FILE" line per file
#   --print-dest      print the default install directory and exit
set -euo pipefail

VERSION=2.8
STAMP=polyeval-gsl.json
# Flags of the shared library build: no static archives, quiet make output
# (one "CC file.lo" line per file, which is what progress counts).
CONFIGURE_FLAGS=(--disable-static --disable-dependency-tracking --enable-silent-rules)

STEP=start
say() { echo "build-gsl: $*"; }
step() { STEP=$1; say "$*"; }
die() { echo "build-gsl: error: $*" >&2; exit 1; }

default_dest() {
  local base
  if [ -n "${POLYEVAL_CACHE_DIR+set}" ]; then
    if [ -z "$POLYEVAL_CACHE_DIR" ] || [ "$POLYEVAL_CACHE_DIR" = off ]; then
      die "POLYEVAL_CACHE_DIR='$POLYEVAL_CACHE_DIR' disables polyeval's cache, where GSL $VERSION is built; point it at a directory or pass --dest DIR"
    fi
    base=$POLYEVAL_CACHE_DIR
  elif [ -n "${XDG_CACHE_HOME:-}" ]; then
    base=$XDG_CACHE_HOME/polyeval
  elif [ -n "${HOME:-}" ]; then
    base=$HOME/.cache/polyeval
  else
    die "no cache directory: set POLYEVAL_CACHE_DIR or HOME, or pass --dest DIR"
  fi
  echo "$base/gsl-$VERSION"
}

SOURCE=gsl-$VERSION.tar.gz
DEST=
JOBS=
FORCE=0
PROGRESS_LINES=0
while [ $# -gt 0 ]; do
  case $1 in
    --source) SOURCE=${2:?--source needs a file}; shift 2 ;;
    --dest) DEST=${2:?--dest needs a directory}; shift 2 ;;
    --jobs) JOBS=${2:?--jobs needs a number}; shift 2 ;;
    --force) FORCE=1; shift ;;
    --progress-lines) PROGRESS_LINES=1; shift ;;
    --print-dest) default_dest; exit 0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$DEST" ] || DEST=$(default_dest)
case $DEST in /*) ;; *) DEST=$PWD/$DEST ;; esac
DEST=${DEST%/}
case $DEST in *[[:space:]]*) die "the install directory '$DEST' contains white space, which GSL's build cannot handle; pass another --dest" ;; esac
[ -n "$JOBS" ] || JOBS=$(nproc 2>/dev/null || echo 2)
case $JOBS in ''|*[!0-9]*|0) die "--jobs must be a positive number, got '$JOBS'" ;; esac

complete() {
  [ -f "$DEST/$STAMP" ] && [ -e "$DEST/lib/libgsl.so" ] && [ -e "$DEST/lib/libgslcblas.so" ]
}

if [ "$FORCE" = 0 ] && complete; then
  say "reusing the complete build in $DEST"
  exit 0
fi
[ -f "$SOURCE" ] || die "GSL source tarball $SOURCE not found (download gsl-$VERSION.tar.gz from https://ftp.gnu.org/gnu/gsl/ and pass --source FILE)"
case $SOURCE in /*) ;; *) SOURCE=$PWD/$SOURCE ;; esac
for tool in tar make cc flock; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is needed to build GSL (Debian: apt-get install build-essential util-linux)"
done

PARENT=$(dirname "$DEST")
NAME=$(basename "$DEST")
mkdir -p "$PARENT"
exec 9>"$PARENT/$NAME.lock"
if ! flock -n 9; then
  say "waiting for another build into $DEST to finish"
  flock 9
fi
# Holding the lock: any build directory left now belongs to a killed build.
rm -rf "$PARENT/.$NAME.build."*
if [ "$FORCE" = 0 ] && complete; then
  say "reusing the complete build in $DEST (made while waiting)"
  exit 0
fi
# A complete build (--force) stays in use until its replacement is ready.
if [ -e "$DEST" ] && ! complete; then
  say "removing the incomplete build in $DEST"
  rm -rf "$DEST"
fi

WORK=$(mktemp -d "$PARENT/.$NAME.build.XXXXXX")
LOG=$WORK/build.log
keep_log() {
  status=$?
  if [ "$status" -ne 0 ] && [ -f "$LOG" ]; then
    cp "$LOG" "$PARENT/$NAME-build.log" 2>/dev/null || true
    echo "build-gsl: error: the build failed in step '$STEP' (exit $status); last lines of its log (all of it in $PARENT/$NAME-build.log):" >&2
    tail -n 25 "$LOG" >&2 || true
  fi
  rm -rf "$WORK"
}
trap keep_log EXIT
START=$SECONDS

step extract "$(basename "$SOURCE")"
mkdir "$WORK/src"
tar -xzf "$SOURCE" -C "$WORK/src" --strip-components=1
cd "$WORK/src"
[ -x configure ] || die "$SOURCE holds no GSL source tree (no configure script at its top)"

step configure "${CONFIGURE_FLAGS[*]}"
CFLAGS=${CFLAGS:--O2} ./configure --prefix="$DEST" "${CONFIGURE_FLAGS[@]}" >>"$LOG" 2>&1
# The documentation is not needed (and Debian's dfsg tarball lacks some of its
# sources): replace its Makefile with one that does nothing.
if [ -d doc ]; then
  printf 'all:\n\t@:\n.DEFAULT:\n\t@:\n' > doc/Makefile
fi

# One "CC file.lo" line per compiled file: count the library sources.
TOTAL=$({ cat ./*/Makefile.am Makefile.am 2>/dev/null || true; } | awk '
  /^[A-Za-z0-9_]+_la_SOURCES[ \t]*\+?=/ { on = 1; sub(/^[^=]*=/, "") }
  on { line = $0; more = (line ~ /\\[ \t]*$/); sub(/\\[ \t]*$/, "", line)
       n = split(line, w, /[ \t]+/); for (i = 1; i <= n; i++) if (w[i] ~ /\.c$/) c++
       if (!more) on = 0 }
  END { print c + 0 }')
step make "-j$JOBS ($TOTAL files)"
make -j"$JOBS" 2>&1 | tee -a "$LOG" | while IFS= read -r line; do
  case $line in
    "  CC "*) if [ "$PROGRESS_LINES" = 1 ]; then set -- $line; say "compiled ${2%.lo}.c"; fi ;;
  esac
done

step install
make install DESTDIR="$WORK/root" >>"$LOG" 2>&1
BUILT=$WORK/root$DEST
for lib in libgsl.so libgslcblas.so; do
  [ -e "$BUILT/lib/$lib" ] || die "the build produced no lib/$lib"
done
BUILT_VERSION=$(sed -n 's/^#define GSL_VERSION "\(.*\)"$/\1/p' "$BUILT/include/gsl/gsl_version.h")
[ "$BUILT_VERSION" = "$VERSION" ] || die "$SOURCE is GSL '$BUILT_VERSION', not $VERSION"
SHA=$(sha256sum "$SOURCE" | cut -d' ' -f1)
SECS=$((SECONDS - START))
cat > "$BUILT/$STAMP" <<EOF
{
  "version": "$VERSION",
  "source": "$(basename "$SOURCE")",
  "source_sha256": "$SHA",
  "configure_flags": "${CONFIGURE_FLAGS[*]}",
  "cflags": "${CFLAGS:--O2}",
  "jobs": $JOBS,
  "build_seconds": $SECS,
  "built_at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
EOF
# The step that makes the build visible: a rename (same filesystem), after
# moving a --force'd previous build out of the way (removed with $WORK).
if [ -e "$DEST" ]; then
  mv -T "$DEST" "$WORK/previous"
fi
mv -T "$BUILT" "$DEST"
rm -f "$PARENT/$NAME-build.log"
say "built GSL $VERSION into $DEST in ${SECS}s"
