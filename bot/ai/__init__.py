"""Computer players: they decide from a seat's view and what it was told, never a state.

Every game has at least the levels in ``LEVELS``; each game's players are registered with
the rest of the game in ``bot.catalog``, and ``bot.catalog.player(game, level)`` is the
one way to get one. This package imports only ``bot.games`` (and the standard library).
"""

from __future__ import annotations

from bot.ai.core import DEFAULT_LEVEL, LEVELS, Player, Seen, dice_seed_for

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Player", "Seen", "dice_seed_for"]
