"""The Marine Game's registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from bot.ai.marine import MarineSearcher
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from renderers import marine

STRONG_MARINE_BUDGET = 8_000
"""Positions the strong Marine Game search may generate per move: well under a second."""

ENTRY = GameEntry(
    engine=engine_for("marine"),
    drawing=marine,
    players={
        "casual": lambda: MarineSearcher(depth=1, budget=1_000),
        "strong": lambda: MarineSearcher(depth=4, budget=STRONG_MARINE_BUDGET),
    },
)
