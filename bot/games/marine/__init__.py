"""The Marine Game, the hex game of cruisers, destroyers and U-boats: docs/rules/marine-game.md."""

from bot.games.marine.engine import MarineGame

__all__ = ["MarineGame"]
