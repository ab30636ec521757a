"""Warships (Manewry Morskie): docs/rules/warships.md."""

from bot.games.warships.engine import Warships

__all__ = ["Warships"]
