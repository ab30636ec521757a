"""Computer players: they decide from a seat's view and what it was told, never a state.

``player(game, level)`` is the one entry point; every game has at least the levels in
``LEVELS``. This package imports only ``bot.games`` (and the standard library).
"""

from __future__ import annotations

from bot.ai.core import DEFAULT_LEVEL, LEVELS, Player, Seen, dice_seed_for
from bot.ai.generic import RandomPlayer
from bot.ai.luzhanqi import LuzhanqiCommander
from bot.ai.marine import MarineSearcher
from bot.ai.seabattle import CasualShooter, DensityShooter
from bot.ai.seachess import SeachessSearcher
from bot.ai.warships import WarshipsAdmiral

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Player", "Seen", "dice_seed_for", "player"]


STRONG_MARINE_BUDGET = 8_000
"""Positions the strong Marine Game search may generate per move: well under a second."""


def _players(game: str) -> dict[str, Player]:
    if game == "seabattle":
        return {"casual": CasualShooter(), "strong": DensityShooter()}
    if game == "luzhanqi":
        return {"casual": RandomPlayer(game), "strong": LuzhanqiCommander()}
    if game == "marine":
        return {
            "casual": MarineSearcher(depth=1, budget=1_000),
            "strong": MarineSearcher(depth=4, budget=STRONG_MARINE_BUDGET),
        }
    if game == "warships":
        return {"casual": WarshipsAdmiral(caution=0.0, noise=6.0), "strong": WarshipsAdmiral()}
    if game == "seachess":
        return {"casual": SeachessSearcher(depth=1), "strong": SeachessSearcher(depth=2)}
    return {"casual": RandomPlayer(game), "strong": RandomPlayer(game)}


def player(game: str, level: str) -> Player:
    """The computer player for ``game`` at ``level`` (an unknown level plays the default)."""
    players = _players(game)
    return players.get(level) or players[DEFAULT_LEVEL]
