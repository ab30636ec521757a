"""What one game registers: its engine and everything drawn or played around it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PIL import Image

from bot.ai.core import Player
from bot.games.core import Engine, View
from renderers.common import Names

V = TypeVar("V", bound=View)


@dataclass(frozen=True)
class GameEntry(Generic[V]):
    """One game's registration: the engine with the renderer, the alt text, the replay
    frame and the computer players for its views, declared together in one place.

    Typed by the game's view, so a renderer that draws another game's view does not pass
    the type check (the renderer table this replaces needed a ``type: ignore`` per game).
    """

    engine: Engine[Any, Any, Any, V]
    render: Callable[[V, Names], bytes]
    """The board image as PNG bytes, as a message attaches it."""
    alt_text: Callable[[V, Names], str]
    """The board's description, for screen readers (the attachment's alt text)."""
    frame: Callable[[V, Names], Image.Image]
    """The board as one frame of a replay: the drawing ``render`` encodes, with labels
    sized for a replay where the game draws them so."""
    players: Mapping[str, Callable[[], Player]]
    """A new computer player for each level (``bot.ai.LEVELS``), by level."""

    @property
    def key(self) -> str:
        return self.engine.key
