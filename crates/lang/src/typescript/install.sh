#!/usr/bin/env bash
# TypeScript's own installer (scripts/install-deps.sh runs every language
# folder's, as root): the TypeScript compiler and node's type declarations,
# pinned, from npm into /usr/lib/node_modules (the global prefix /usr,
# whatever npm's configuration says), where the toolchain finds them.
# Idempotent.
set -euo pipefail
TYPESCRIPT=5.6.3
NODE_TYPES=20.17.6
root=/usr/lib/node_modules
version() { node -p "require('$root/$1/package.json').version" 2>/dev/null || true; }
if [ "$(version typescript)" = "$TYPESCRIPT" ] && [ "$(version @types/node)" = "$NODE_TYPES" ]; then
  echo "typescript: TypeScript $TYPESCRIPT and @types/node $NODE_TYPES already installed in $root"
  exit 0
fi
# nodesource's nodejs ships npm; Debian's does not.
if ! command -v npm >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm
fi
npm install --global --prefix /usr --no-audit --no-fund --no-update-notifier --loglevel=error \
  "typescript@$TYPESCRIPT" "@types/node@$NODE_TYPES"
echo "typescript: installed TypeScript $TYPESCRIPT and @types/node $NODE_TYPES in $root"
