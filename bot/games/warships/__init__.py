"""Warships (Manewry Morskie): rules/warships.md."""

from bot.games.warships.engine import Warships

__all__ = ["Warships"]
