"""The cyclic garbage collector paused while a window is computed.

A check or a resolve builds many small objects that live until it ends (the world, the ledger,
the facts, the changeset) and makes almost no cycles: reference counting frees what dies.  The
collector would still walk the growing heap again and again — about a fifth of the CPU time of a
500-side window, and more as campaigns grow (docs/benchmarks.md).  So the bridge, and the
benchmarks that time the engine as the bridge runs it, compute a window with the collector off;
it is switched back on (if it was on) when the window is done.  The bridge keeps it off for a
check's or a resolve's read and write as well: loading and saving a workbook builds an object per
cell and per style, again without cycles (about 2% of the whole `strategos check` of a demo).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Run the body with the cyclic collector off; nest freely (only the outermost resumes it)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
