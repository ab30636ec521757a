"""What one game registers: its engine and everything drawn or played around it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from PIL import Image

from bot.ai.core import Player
from bot.games.core import Engine, View
from renderers.common import Names

V = TypeVar("V", bound=View)
V_contra = TypeVar("V_contra", bound=View, contravariant=True)


class BoardDrawing(Protocol[V_contra]):
    """What a game's renderer module (``renderers.<game>``) draws for its views.

    A module is passed as it is: the type check matches its three functions against these,
    so a renderer that draws another game's view, or lacks one of them, does not pass.
    """

    def render(self, view: V_contra, names: Names) -> bytes:
        """The board image as PNG bytes, as a message attaches it."""

    def alt_text(self, view: V_contra, names: Names) -> str:
        """The board's description, for screen readers (the attachment's alt text)."""

    def replay_frame(self, view: V_contra, names: Names) -> Image.Image:
        """The board as one frame of a replay: the drawing ``render`` encodes, with labels
        sized for a replay where the game draws them so."""


@dataclass(frozen=True)
class GameEntry(Generic[V]):
    """One game's registration: the engine with the drawings and the computer players for
    its views, declared together in one place.

    Typed by the game's view, so a renderer that draws another game's view does not pass
    the type check (the renderer table this replaces needed a ``type: ignore`` per game).
    """

    engine: Engine[Any, Any, Any, V]
    drawing: BoardDrawing[V]
    """The game's renderer module."""
    players: Mapping[str, Callable[[], Player]]
    """A new computer player for each level (``bot.ai.LEVELS``), by level."""

    @property
    def key(self) -> str:
        return self.engine.key

    def render(self, view: V, names: Names) -> bytes:
        """The board image as PNG bytes, as a message attaches it."""
        return self.drawing.render(view, names)

    def alt_text(self, view: V, names: Names) -> str:
        """The board's description, for screen readers (the attachment's alt text)."""
        return self.drawing.alt_text(view, names)

    def frame(self, view: V, names: Names) -> Image.Image:
        """The board as one frame of a replay."""
        return self.drawing.replay_frame(view, names)
