"""Warships' registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from PIL import Image

from bot.ai.warships import WarshipsAdmiral
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from bot.games.warships.view import WarshipsView
from renderers import warships
from renderers.common import Names


def replay_frame(view: WarshipsView, names: Names) -> Image.Image:
    """The board with labels drawn to be read at a replay's size."""
    return warships.render_image(view, names, replay=True)


ENTRY = GameEntry(
    engine=engine_for("warships"),
    render=warships.render,
    alt_text=warships.alt_text,
    frame=replay_frame,
    players={
        "casual": lambda: WarshipsAdmiral(caution=0.0, noise=6.0),
        "strong": WarshipsAdmiral,
    },
)
