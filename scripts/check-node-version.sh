#!/usr/bin/env bash
# Prints the Node.js that npm scripts run on (node_modules/.bin/node, installed by `npm ci` from the
# npm registry's `node` package) and fails unless it is the supported major version. Without the
# package's install script (an `allowScripts` entry in package.json lets npm run it), npm scripts
# would silently fall back to the machine's own, possibly older, Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."

supported_major=22
if [ ! -x node_modules/.bin/node ]; then
  echo "node_modules/.bin/node is missing: run 'npm ci' at the repository root (it installs Node.js $supported_major)." >&2
  exit 1
fi
version=$(npm exec --no -- node --version)
echo "npm scripts run on Node.js $version ($(npm exec --no -- node -p process.execPath))"
case "$version" in
  "v$supported_major".*) ;;
  *)
    echo "Expected Node.js $supported_major.x. Check the 'node' devDependency and its 'allowScripts' entry in package.json, then run 'npm ci'." >&2
    exit 1
    ;;
esac
