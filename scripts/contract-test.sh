#!/usr/bin/env bash
# The API contract test (`npm run test:contract`): schemathesis over the built product's OpenAPI
# document, once with a console access token and once with an API key (e2e/contract/run.ts starts
# the product and makes both through the real routes; e2e/contract/schemathesis.toml holds the
# settings and the few documented exceptions). Fails on any failure and prints schemathesis' summary.
#
# Needs Python 3.9+ (python3) and PyPI: schemathesis is installed, pinned, into .venv-contract/
# (gitignored) the first time and whenever e2e/contract/requirements.txt changes.
# Builds nothing when the product is built (CI runs it after `npm test`, which builds); otherwise
# runs `npm run build` first. Extra arguments go to `schemathesis run`, e.g.
#   npm run test:contract -- --include-path-regex '^/api/v1/profile'
#
# No operation is left out: routes that send e-mail write it to the temporary outbox, and the
# account's sessions and keys survive everything the document offers (no route deletes the account).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-contract
requirements=e2e/contract/requirements.txt
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
  echo "Installing schemathesis into $venv (pinned in $requirements)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi

if [ ! -f apps/server/dist/cli.js ] || [ ! -f apps/console/dist/index.html ]; then
  echo "The product is not built: npm run build"
  npm run build
fi

exec node --import tsx e2e/contract/run.ts "$venv/bin/schemathesis" "$@"
