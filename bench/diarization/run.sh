#!/usr/bin/env bash
# `npm run bench:diarization`: the diarization error rate is computed by PyPI pyannote.metrics,
# installed, pinned, into .venv-diarization/ (gitignored) the first time and whenever
# bench/diarization/requirements.txt changes. Needs Python 3.9+ (python3). Extra arguments go to
# bench/diarization.ts (`-- --help`).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.venv-diarization
requirements=bench/diarization/requirements.txt
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
  echo "Installing pyannote.metrics into $venv (pinned in $requirements)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi

exec node --expose-gc --conditions=source --import tsx bench/diarization.ts --python "$venv/bin/python" "$@"
