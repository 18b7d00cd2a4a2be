"""YAML of the shipped templates and scenarios, parsed by libyaml when PyYAML was built with it.

The C parser reads the same documents into the same data (PyYAML's safe constructor builds them
either way) about ten times faster than the pure-Python one; a `check` that needs the names of
every shipped scenario (a game's name aliases) spent about a tenth of a second in that parser.
"""

from __future__ import annotations

from typing import IO, Any

import yaml

LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(stream: str | bytes | IO[str] | IO[bytes]) -> Any:
    """`yaml.safe_load`, by libyaml when it is there."""
    return yaml.load(stream, Loader=LOADER)  # a safe loader, C or Python
