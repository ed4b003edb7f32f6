#!/usr/bin/env bash
# Whether `polyeval translate` writes the same suites before and after a
# change: builds <base-rev> in a temporary git worktree (with its own target
# dir), builds the working tree, translates the real MultiOOP data with both
# (every target language, skeleton check included) and compares the outputs
# byte for byte. Only what differs from run to run is left out: the
# sandbox journal (.translate-journal.jsonl) and the timing of the report
# (`timing` in translation-report.json, the `Time:` line of the .md).
# Exits 0 when identical, 1 on any difference (the diff is printed).
#
# Usage: scripts/check-translate-identical.sh <base-rev> [translate options...]
#   e.g. scripts/check-translate-identical.sh main
#        scripts/check-translate-identical.sh HEAD~3 --tasks OOP/0,OOP/1 -j 2
# Environment:
#   POLYEVAL_TEST_DATA  data root holding multioop/ (default: ../shared/data)
#   BASE_TARGET_DIR     target dir for the base build (default: a temporary
#                       one, removed at the end; reuse one to skip rebuilding)
#   PROFILE             cargo profile of both builds (default: dev)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
base_rev=$1
shift
base_commit=$(git rev-parse --verify "$base_rev^{commit}")

data_root=${POLYEVAL_TEST_DATA:-../shared/data}
data=$data_root/multioop
if [ ! -f "$data/oop-python.jsonl" ]; then
    echo "error: no MultiOOP data at $data (set POLYEVAL_TEST_DATA)" >&2
    exit 2
fi
data=$(cd "$data" && pwd)

profile=${PROFILE:-dev}
profile_dir=$([ "$profile" = dev ] && echo debug || echo "$profile")

work=$(mktemp -d "${TMPDIR:-/tmp}/polyeval-translate-identical.XXXXXX")
cleanup() {
    git worktree remove --force "$work/base-src" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "== building the working tree" >&2
cargo build --quiet --profile "$profile" -p polyeval
new_target=${CARGO_TARGET_DIR:-target}
cp "$new_target/$profile_dir/polyeval" "$work/polyeval-new"

echo "== building $base_rev ($base_commit) in a temporary worktree" >&2
git worktree add --quiet --detach "$work/base-src" "$base_commit"
base_target=${BASE_TARGET_DIR:-$work/base-target}
(cd "$work/base-src" && CARGO_TARGET_DIR=$base_target cargo build --quiet --profile "$profile" -p polyeval)
cp "$base_target/$profile_dir/polyeval" "$work/polyeval-base"

for side in base new; do
    echo "== translating with the $side build" >&2
    "$work/polyeval-$side" translate --data "$data" --out "$work/out-$side" --no-progress "$@" \
        >"$work/$side.log" 2>&1 || {
        cat "$work/$side.log" >&2
        echo "error: the $side translation failed" >&2
        exit 2
    }
    # What changes from run to run: the timing of the report.
    jq 'del(.timing)' "$work/out-$side/translation-report.json" >"$work/$side-report.json"
    grep -v '^Time: ' "$work/out-$side/translation-report.md" >"$work/$side-report.md"
done

status=0
diff -r \
    --exclude=.translate-journal.jsonl \
    --exclude=translation-report.json \
    --exclude=translation-report.md \
    "$work/out-base" "$work/out-new" || status=1
diff "$work/base-report.json" "$work/new-report.json" || status=1
diff "$work/base-report.md" "$work/new-report.md" || status=1

files=$(find "$work/out-new" -type f ! -name .translate-journal.jsonl | wc -l)
if [ $status -eq 0 ]; then
    echo "identical: $files files (reports without their timing) from $base_rev and the working tree"
else
    echo "DIFFERENT: the translations of $base_rev and the working tree differ (above)" >&2
fi
exit $status
