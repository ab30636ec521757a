"""Luzhanqi's registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from bot.ai.generic import RandomPlayer
from bot.ai.luzhanqi import LuzhanqiCommander
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from renderers import luzhanqi

ENTRY = GameEntry(
    engine=engine_for("luzhanqi"),
    drawing=luzhanqi,
    players={"casual": lambda: RandomPlayer("luzhanqi"), "strong": LuzhanqiCommander},
)
