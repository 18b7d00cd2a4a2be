"""The backend protocol: read every tab in one go, write every change in one atomic go."""

from __future__ import annotations

from typing import Protocol

from engine.core.tables import Changeset, Tables, WorkbookSpec


class Backend(Protocol):
    """A campaign spreadsheet: an .xlsx file or a Google spreadsheet."""

    location: str

    def read(self) -> Tables:
        """Every tab as a grid of raw cells (formulas as `Formula`)."""
        ...

    def write(self, changes: Changeset) -> None:
        """Apply all changes at once: afterwards the sheet is either unchanged or fully changed."""
        ...


class Creator(Protocol):
    def create(self, spec: WorkbookSpec) -> str:
        """Create a new spreadsheet from a spec; returns its location."""
        ...
