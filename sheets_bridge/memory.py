"""An in-memory backend: the same protocol as .xlsx and Google, for tests and previews."""

from __future__ import annotations

from engine.core.tables import Changeset, Tables, WorkbookSpec, apply_changes, trim

from .base import Backend


class MemoryBackend(Backend):
    """A campaign held in a dict of grids; counts reads and writes like a real backend would."""

    def __init__(self, tables: Tables | None = None, location: str = "memory") -> None:
        self.tables: Tables = tables or {}
        self.location = location
        self.reads = 0
        self.writes = 0

    @classmethod
    def from_spec(cls, spec: WorkbookSpec) -> MemoryBackend:
        return cls({t.name: trim([list(r) for r in t.rows]) for t in spec.tabs}, spec.title)

    def read(self) -> Tables:
        self.reads += 1
        return {name: [list(r) for r in grid] for name, grid in self.tables.items()}

    def write(self, changes: Changeset) -> None:
        if changes.is_empty():
            return
        self.writes += 1
        self.tables = apply_changes(self.tables, changes)
