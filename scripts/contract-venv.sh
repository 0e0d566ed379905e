#!/usr/bin/env bash
# Installs schemathesis for the API contract test into .venv-contract/ (gitignored), pinned in
# e2e/contract/requirements.txt: the first time and whenever the pins change. Prints the
# schemathesis path. scripts/contract-test.sh runs it; CI runs it ahead, beside npm ci.
#
# Needs Python 3.9+ with venv (Debian: python3-venv) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-contract
requirements=e2e/contract/requirements.txt
# CI installs it ahead while the test may start: one installs while the other waits.
exec 9>"$venv.lock"
flock 9
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
  echo "Installing schemathesis into $venv (pinned in $requirements)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/requirements.txt"
fi
echo "$PWD/$venv/bin/schemathesis"
