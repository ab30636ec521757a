"""Families of slips in the sentences players read, checked in the source of every game.

Every string the bot's code builds (docstrings aside, which no player reads) is a
sentence someone may be shown: a refusal, a move's news, a board's header. Two slips
recur in them and are caught here for every game at once: clause numbers of the rule
books ("(rule 2.5)", "(§5.3)"), which mean nothing to a player, and a fixed ``a`` before
a name filled in later ("promoted to a aircraft carrier").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.games.words import with_article

ROOT = Path(__file__).parents[2]
SOURCES = sorted(
    path for folder in ("bot", "cogs", "renderers") for path in (ROOT / folder).rglob("*.py")
)
CLAUSE = re.compile(r"§|\b(rules?|ruling|clause)s? (\d|\{\})", re.I)
FIXED_ARTICLE = re.compile(r"(^|[\s(\"'])[Aa] \{\}")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of string statements: docstrings, which players never read."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant | ast.JoinedStr)
    }


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _texts(path: Path) -> Iterator[tuple[int, str]]:
    """Each string literal of ``path`` but its docstrings, a formatted value as ``{}``."""
    tree = ast.parse(path.read_text())
    skipped = _docstrings(tree)
    inner: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.JoinedStr):
            pieces = []
            for part in node.values:
                inner.add(id(part))
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    pieces.append(part.value)
                else:
                    pieces.append("{}")
            yield node.lineno, "".join(pieces)
        elif _is_text(node) and id(node) not in inner:
            yield node.lineno, str(node.value)  # type: ignore[attr-defined]


def _offending(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in SOURCES
        for line, text in _texts(path)
        if pattern.search(text)
    ]


def test_no_sentence_names_a_clause_of_the_rule_books() -> None:
    assert _offending(CLAUSE) == []


def test_no_sentence_puts_a_fixed_a_before_a_name_filled_in_later() -> None:
    assert _offending(FIXED_ARTICLE) == []


@pytest.mark.parametrize(
    ("noun", "phrase"),
    [
        ("aircraft carrier", "an aircraft carrier"),
        ("engineer", "an engineer"),
        ("Engineer", "an Engineer"),
        ("U-boat", "a U-boat"),
        ("cruiser", "a cruiser"),
        ("minesweeper", "a minesweeper"),
        ("8", "an 8"),
        ("hour", "an hour"),
        ("one-cell ship", "a one-cell ship"),
        ("L", "an L"),
        ("T", "a T"),
        ("18×18 field", "an 18×18 field"),
        ("10×10 field", "a 10×10 field"),
    ],
)
def test_a_name_takes_the_article_its_sound_asks_for(noun: str, phrase: str) -> None:
    assert with_article(noun) == phrase
