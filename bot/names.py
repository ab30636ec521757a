"""Players' display names, cleaned for board images.

Display names are chosen by the players, so they are hostile input: they may hold control
characters, direction overrides, zero-width or blank-looking characters, piles of
combining marks, or run to any length. What survives ``clean`` is plain visible text of
a bounded length; renderers still decide which characters their fonts can draw.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 32
"""Discord's own limit for a display name; longer input is cut."""

_DROPPED_CATEGORIES = ("C", "M", "Zl", "Zp")
"""Controls, format characters (direction marks, zero-width joiners), unassigned and
private-use code points, combining marks left after composition, line breaks."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters that draw as nothing yet count as letters or symbols (Hangul fillers,
the blank Braille pattern): names made of them would look empty."""


def clean(raw: str | None) -> str:
    """``raw`` as visible text: composed (NFKC), invisible characters dropped, runs of
    spaces made one, at most ``MAX_NAME`` characters; empty if nothing visible is left."""
    text = unicodedata.normalize("NFKC", raw or "")
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in _BLANK_LETTERS or category.startswith(_DROPPED_CATEGORIES):
            continue
        kept.append(" " if category == "Zs" else char)
    return " ".join("".join(kept).split())[:MAX_NAME].rstrip()
