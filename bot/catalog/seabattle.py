"""Sea Battle's registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from bot.ai.seabattle import CasualShooter, DensityShooter
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from renderers import seabattle

ENTRY = GameEntry(
    engine=engine_for("seabattle"),
    drawing=seabattle,
    players={"casual": CasualShooter, "strong": DensityShooter},
)
