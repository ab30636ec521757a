"""Luzhanqi's registration: the engine, its board drawings and its computer players."""

from __future__ import annotations

from PIL import Image

from bot.ai.generic import RandomPlayer
from bot.ai.luzhanqi import LuzhanqiCommander
from bot.catalog.entry import GameEntry
from bot.games import engine_for
from bot.games.luzhanqi.view import LuzhanqiView
from renderers import luzhanqi
from renderers.common import Names


def replay_frame(view: LuzhanqiView, names: Names) -> Image.Image:
    """The board with labels drawn to be read at a replay's size (one bold glyph a piece)."""
    return luzhanqi.render_image(view, names, replay=True)


ENTRY = GameEntry(
    engine=engine_for("luzhanqi"),
    render=luzhanqi.render,
    alt_text=luzhanqi.alt_text,
    frame=replay_frame,
    players={"casual": lambda: RandomPlayer("luzhanqi"), "strong": LuzhanqiCommander},
)
