#!/usr/bin/env bash
# Install Strategos into ./.venv (Python >= 3.10). With --test, also the test tools and
# LibreOffice Calc (Debian package, used by one test to open our workbooks for real).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
if [ "${1:-}" = "--test" ]; then
  .venv/bin/python -m pip install -q -e '.[test]'
  if ! command -v soffice >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      echo "Installing LibreOffice Calc (headless) for the spreadsheet test…"
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libreoffice-calc-nogui >/dev/null
    else
      echo "LibreOffice is missing: install libreoffice-calc (e.g. sudo apt-get install libreoffice-calc-nogui)" >&2
    fi
  fi
else
  .venv/bin/python -m pip install -q -e .
fi
