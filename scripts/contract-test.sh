#!/usr/bin/env bash
# The API contract test (`npm run test:contract`): schemathesis over the built product's OpenAPI
# document, once with a console access token and once with an API key (e2e/contract/run.ts starts
# the product and makes both through the real routes; e2e/contract/schemathesis.toml holds the
# settings and the few documented exceptions). Fails on any failure and prints schemathesis' summary.
#
# Needs Python 3.9+ (python3) and PyPI: schemathesis is installed, pinned, into .venv-contract/
# (gitignored) by scripts/contract-venv.sh the first time and whenever its pins change.
# Builds nothing when the product is built (CI runs it after `npm test`, which builds); otherwise
# runs `npm run build` first. Extra arguments go to `schemathesis run`, e.g.
#   npm run test:contract -- --include-path-regex '^/api/v1/profile'
#
# No operation is left out: routes that send e-mail write it to the temporary outbox, and the
# account's sessions and keys survive everything the document offers (no route deletes the account).
set -euo pipefail
cd "$(dirname "$0")/.."

schemathesis=$(bash scripts/contract-venv.sh)

if [ ! -f apps/server/dist/cli.js ] || [ ! -f apps/console/dist/index.html ]; then
  echo "The product is not built: npm run build"
  npm run build
fi

exec node --import tsx e2e/contract/run.ts "$schemathesis" "$@"
