#!/usr/bin/env bash
# Installs the S3 stand-in used by the S3 file storage tests: moto's server (`moto_server`), pinned
# in apps/server/src/test-support/s3/requirements.txt, into .venv-s3/ (gitignored). Installs only
# the first time and whenever the requirements change; the server tests run it themselves (their
# global setup), so running it by hand is only needed to install ahead of time.
#
# Needs Python 3.9+ with venv (Debian: python3-venv) and PyPI. Prints the moto_server path.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-s3
requirements=apps/server/src/test-support/s3/requirements.txt
# Test files run side by side: one installs while the others wait for it.
exec 9>"$venv.lock"
flock 9
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
  echo "Installing moto (the S3 stand-in) into $venv (pinned in $requirements)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/requirements.txt"
fi
echo "$PWD/$venv/bin/moto_server"
