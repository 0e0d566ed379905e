#!/usr/bin/env bash
# Installs schemathesis for the API contract test into .venv-contract/, pinned in
# e2e/contract/requirements.txt, and prints its path. scripts/contract-test.sh runs it; CI runs it
# ahead, beside npm ci.
set -euo pipefail
exec bash "$(dirname "$0")/python-venv.sh" .venv-contract e2e/contract/requirements.txt schemathesis
