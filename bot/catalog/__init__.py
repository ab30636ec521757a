"""Every game's registration, in one registry: ``GAMES[key]``.

A game's pieces live in three layers that may not see each other: the rule engine in
``bot.games`` (pure: it imports nothing outside the standard library), its renderer in
``renderers`` (which sees only views) and its computer players in ``bot.ai`` (which see
only views and ``bot.games``). The one place allowed to import all three is above them,
so each game's registration is a small module here (``bot.catalog.seabattle`` and so on)
that declares the engine, renderer, alt text, replay frame and computer players together.
The presenter (boards, alt texts, replay frames) and the computer (its players) look a game
up here and nowhere else.

The engine itself is still found by key in ``bot.games.ENGINES`` too: the pure layers
(the computer players, the rules' own tools) need it and cannot import this package.
Each registration takes its engine from there, and a test checks the two agree.
"""

from __future__ import annotations

from typing import Any

from bot.ai.core import DEFAULT_LEVEL, Player
from bot.catalog import luzhanqi, marine, seabattle, seachess, warships
from bot.catalog.entry import GameEntry

__all__ = ["GAMES", "GameEntry", "entry", "player"]

GAMES: dict[str, GameEntry[Any]] = {
    registered.key: registered
    for registered in (
        seabattle.ENTRY,
        luzhanqi.ENTRY,
        warships.ENTRY,
        seachess.ENTRY,
        marine.ENTRY,
    )
}
"""Every game's registration by its stored key."""


def entry(key: str) -> GameEntry[Any]:
    """The registration of the game stored under ``key``."""
    return GAMES[key]


def player(game: str, level: str) -> Player:
    """A new computer player for ``game`` at ``level`` (an unknown level plays the default)."""
    levels = GAMES[game].players
    return (levels.get(level) or levels[DEFAULT_LEVEL])()
