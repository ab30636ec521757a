"""The parts of the engine contract that every game here fills in the same way, so a game
declares them instead of writing them again: how its rules and states are stored, where its
outcome is kept, and autocomplete as its legal moves filtered by what was typed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.games.core import Engine, Outcome, Rules, View


class EndingState(Protocol):
    """A game state that keeps its own outcome (``None`` while the game goes on)."""

    @property
    def outcome(self) -> Outcome | None: ...


R = TypeVar("R", bound=Rules)
S = TypeVar("S", bound=EndingState)
A = TypeVar("A")
V = TypeVar("V", bound=View)


@dataclass(frozen=True)
class JsonCodec(Generic[R, S]):
    """How a game's rules and states become JSON and back: ``load`` re-validates and
    raises ``CorruptStateError`` on bad data."""

    rules: Callable[[Mapping[str, Any]], R]
    save: Callable[[S], dict[str, Any]]
    load: Callable[[Mapping[str, Any]], S]


class GameEngine(Engine[R, S, A, V]):
    """An engine whose JSON form is declared (``json_codec``) and whose state keeps its
    outcome."""

    json_codec: JsonCodec[R, S]

    def rules_from_json(self, data: Mapping[str, Any]) -> R:
        return self.json_codec.rules(data)

    def to_json(self, state: S) -> dict[str, Any]:
        return self.json_codec.save(state)

    def from_json(self, data: Mapping[str, Any]) -> S:
        return self.json_codec.load(data)

    def outcome(self, state: S) -> Outcome | None:
        return state.outcome

    def suggestions(self, view: V, typed: str, limit: int = 25) -> list[str]:
        """The view's legal moves that start with what was typed (any case, spaces
        squeezed), in the order ``legal_moves`` gives them."""
        prefix = " ".join(typed.lower().split())
        return [text for text in self.legal_moves(view) if text.lower().startswith(prefix)][:limit]
