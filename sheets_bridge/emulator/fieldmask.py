"""Google field masks: ``fields=`` on reads and ``fields`` on update requests.

The grammar covers what gspread and the Sheets/Drive APIs use: comma-separated paths whose
segments are joined by ``.`` or ``/`` and may carry a parenthesised sub-selection, e.g.
``sheets(properties,protectedRanges)``, ``sheets/data/rowData/values/note``,
``kind,nextPageToken,files(id,name)`` or ``userEnteredFormat(backgroundColor,textFormat)``.
``*`` selects everything at its level.

A mask is parsed into a tree: ``{"sheets": {"properties": None}}`` where ``None`` means
"the whole sub-object".
"""

from __future__ import annotations

from typing import Any

from .jsoncopy import jcopy

MaskTree = dict[str, "MaskTree | None"]


class MaskError(ValueError):
    """The mask text is malformed."""


def parse(mask: str) -> MaskTree | None:
    """Parse a mask; returns ``None`` for ``*`` / empty (everything)."""
    mask = mask.strip()
    if mask in ("", "*"):
        return None
    tree, pos = _parse_list(mask, 0)
    if pos != len(mask):
        raise MaskError(mask)
    return tree


def _parse_list(text: str, pos: int) -> tuple[MaskTree, int]:
    """Comma-separated paths until ')' or the end."""
    tree: MaskTree = {}
    while True:
        pos = _parse_path(text, pos, tree)
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        return tree, pos


def _parse_path(text: str, pos: int, tree: MaskTree) -> int:
    """One path segment, its sub-path or parenthesised sub-list."""
    name_start = pos
    while pos < len(text) and text[pos] not in ".,/()":
        pos += 1
    name = text[name_start:pos].strip()
    if not name:
        raise MaskError(text)
    if pos < len(text) and text[pos] in "./":
        if name in tree and tree[name] is None:  # already selected whole: parse and discard
            return _parse_path(text, pos + 1, {})
        sub = tree.get(name) or {}
        pos = _parse_path(text, pos + 1, sub)
        tree[name] = sub
        return pos
    if pos < len(text) and text[pos] == "(":
        sub_list, pos = _parse_list(text, pos + 1)
        if pos >= len(text) or text[pos] != ")":
            raise MaskError(text)
        if not (name in tree and tree[name] is None):
            existing = tree.get(name) or {}
            existing.update(sub_list)
            tree[name] = existing
        return pos + 1
    if name == "*":
        tree["*"] = None
    else:
        tree[name] = None
    return pos


def project(obj: Any, tree: MaskTree | None) -> Any:
    """Keep only the masked parts of ``obj`` (lists are projected element-wise)."""
    if tree is None or "*" in tree:
        return obj
    if isinstance(obj, list):
        return [project(item, tree) for item in obj]
    if not isinstance(obj, dict):
        return obj
    out: dict[str, Any] = {}
    for key, sub in tree.items():
        if key in obj:
            out[key] = project(obj[key], sub)
    return out


def wants(tree: MaskTree | None, *path: str) -> bool:
    """True when the mask selects (some of) ``path``."""
    node: MaskTree | None = tree
    for key in path:
        if node is None or "*" in node:
            return True
        if key not in node:
            return False
        node = node[key]
    return True


def subtree(tree: MaskTree | None, *path: str) -> MaskTree | None:
    """The mask below ``path`` (``None`` = everything)."""
    node: MaskTree | None = tree
    for key in path:
        if node is None or "*" in node:
            return None
        node = node.get(key)
        if node is None:
            return None
    return node


def projected(tree: MaskTree | None, *path: str) -> MaskTree | None:
    """``tree`` with its part below ``path`` marked as done (``*``): for projecting an answer again
    whose part there was already projected by that part of the mask (projecting twice gives what
    once gives, so the second walk of every cell of a read can be skipped)."""
    if tree is None:
        return None
    out: MaskTree = dict(tree)
    node = out
    for i, key in enumerate(path):
        sub = node.get(key)
        if "*" in node or sub is None or "*" in sub:
            return tree  # nothing is projected below here
        if i == len(path) - 1:
            node[key] = {"*": None}
        else:
            node[key] = node = dict(sub)
    return out


def apply_update(target: dict[str, Any], source: dict[str, Any], tree: MaskTree | None) -> None:
    """Copy the masked fields of ``source`` into ``target``; masked-but-absent fields are cleared.

    This is the semantics of ``fields`` in Sheets update requests (``updateSheetProperties``,
    ``updateCells``, ``repeatCell``...).  JSON ``null`` counts as absent.
    """
    if tree is None or "*" in tree:
        target.clear()
        for key, value in source.items():
            if value is not None:
                target[key] = jcopy(value)
        return
    for key, sub in tree.items():
        value = source.get(key) if isinstance(source, dict) else None
        if sub is None:
            if value is None:
                target.pop(key, None)
            else:
                target[key] = jcopy(value)
            continue
        if value is None:
            # Clearing a nested path: remove the named leaves.
            node = target.get(key)
            if isinstance(node, dict):
                apply_update(node, {}, sub)
                if not node:
                    target.pop(key, None)
            continue
        node = target.get(key)
        if not isinstance(node, dict):
            node = {}
        apply_update(node, value, sub)
        if node:
            target[key] = node
        else:
            target.pop(key, None)


def paths(tree: MaskTree | None, prefix: str = "") -> list[str]:
    """Flatten a mask tree into dotted paths (for error messages and validation)."""
    if tree is None:
        return [prefix or "*"]
    out: list[str] = []
    for key, sub in tree.items():
        name = f"{prefix}.{key}" if prefix else key
        out.extend(paths(sub, name) if sub is not None else [name])
    return out
