"""Seachess's registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from PIL import Image

from bot.ai.seachess import SeachessSearcher
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from bot.games.seachess.view import SeachessView
from renderers import seachess
from renderers.common import Names


def replay_frame(view: SeachessView, names: Names) -> Image.Image:
    """The board with labels drawn to be read at a replay's size."""
    return seachess.render_image(view, names, replay=True)


ENTRY = GameEntry(
    engine=engine_for("seachess"),
    render=seachess.render,
    alt_text=seachess.alt_text,
    frame=replay_frame,
    players={
        "casual": lambda: SeachessSearcher(depth=1),
        "strong": lambda: SeachessSearcher(depth=2),
    },
)
