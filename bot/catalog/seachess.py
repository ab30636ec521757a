"""Seachess's registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from bot.ai.seachess import SeachessSearcher
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from renderers import seachess

ENTRY = GameEntry(
    engine=engine_for("seachess"),
    drawing=seachess,
    players={"casual": lambda: SeachessSearcher(depth=1), "strong": SeachessSearcher},
)
