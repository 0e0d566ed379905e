#!/usr/bin/env bash
# Installs the S3 stand-in used by the S3 file storage tests: moto's server (`moto_server`), pinned
# in apps/server/src/test-support/s3/requirements.txt, into .venv-s3/ (gitignored). Installs only
# the first time and whenever the requirements change; the server tests run it themselves (their
# global setup), so running it by hand is only needed to install ahead of time.
#
# Needs Python 3.9+ with venv (Debian: python3-venv) and PyPI. Prints the moto_server path.
set -euo pipefail
exec bash "$(dirname "$0")/python-venv.sh" .venv-s3 apps/server/src/test-support/s3/requirements.txt moto_server
