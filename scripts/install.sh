#!/usr/bin/env bash
# Install Strategos into ./.venv (Python >= 3.10). With --test, also the test tools and
# LibreOffice Calc and poppler-utils (Debian packages: tests open and print our workbooks for real).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
if [ "${1:-}" = "--test" ]; then
  .venv/bin/python -m pip install -q -e '.[test]'
  # LibreOffice opens and prints our workbooks in tests; poppler's pdfinfo/pdftotext read its PDF
  missing=()
  command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc-nogui)
  command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      echo "Installing ${missing[*]} for the spreadsheet tests…"
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
      echo "Missing for the spreadsheet tests: ${missing[*]} (e.g. sudo apt-get install ${missing[*]})" >&2
    fi
  fi
else
  .venv/bin/python -m pip install -q -e .
fi
