"""The bridge between the engine and a campaign's spreadsheets: .xlsx through openpyxl, Google Sheets.

openpyxl imports numpy whenever numpy is installed (matplotlib, for the report's charts, installs
it), only so that numpy's numbers are accepted as cell values.  This program never writes one,
and numpy's import costs a check or a resolve of a demo campaign a sixth of its CPU time.  So the
bridge imports openpyxl with numpy out of its sight, once, before anything else of it; numpy
stays importable for whoever needs it afterwards (the report's charts).  Where numpy or openpyxl
is already imported (a test session, a notebook), nothing changes.
"""

from __future__ import annotations

import sys


def _openpyxl_without_numpy() -> None:
    """Import openpyxl while `import numpy` fails (openpyxl then leaves numpy's types out)."""
    if "openpyxl" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # makes `import numpy` raise ImportError
    try:
        import openpyxl  # noqa: F401
    finally:
        if "numpy" in sys.modules and sys.modules["numpy"] is None:
            del sys.modules["numpy"]


_openpyxl_without_numpy()
