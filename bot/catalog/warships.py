"""Warships' registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from bot.ai.warships import WarshipsAdmiral
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from renderers import warships

ENTRY = GameEntry(
    engine=engine_for("warships"),
    drawing=warships,
    players={"casual": lambda: WarshipsAdmiral(caution=0.0, noise=6.0), "strong": WarshipsAdmiral},
)
