#!/usr/bin/env bash
# Installs a Python tool pinned in a requirements file into a venv (gitignored), the first time and
# whenever the pins change, and prints the tool's path: `python-venv.sh VENV REQUIREMENTS TOOL`.
# Runs side by side (test files, CI installing ahead) are safe: one installs while the others wait.
#
# Needs Python 3.9+ with venv (Debian: python3-venv) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=$1
requirements=$2
tool=$3
exec 9>"$venv.lock"
flock 9
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
  echo "Installing $tool into $venv (pinned in $requirements)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/requirements.txt"
fi
echo "$PWD/$venv/bin/$tool"
