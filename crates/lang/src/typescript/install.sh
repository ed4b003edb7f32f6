#!/usr/bin/env bash
# TypeScript's own installer (scripts/install-deps.sh runs every language
# folder's): the TypeScript compiler and node's type declarations, pinned,
# from npm into node's global modules (/usr/lib/node_modules), where the
# toolchain finds them. Idempotent; needs root (or write access there).
set -euo pipefail
TYPESCRIPT=5.6.3
NODE_TYPES=20.17.6
root=$(npm root -g)
version() { node -p "require('$root/$1/package.json').version" 2>/dev/null || true; }
if [ "$(version typescript)" = "$TYPESCRIPT" ] && [ "$(version @types/node)" = "$NODE_TYPES" ]; then
  echo "typescript: TypeScript $TYPESCRIPT and @types/node $NODE_TYPES already installed in $root"
  exit 0
fi
npm install --global --no-audit --no-fund --no-update-notifier --loglevel=error \
  "typescript@$TYPESCRIPT" "@types/node@$NODE_TYPES"
echo "typescript: installed TypeScript $TYPESCRIPT and @types/node $NODE_TYPES in $root"
