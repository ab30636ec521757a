"""Luzhanqi (Land Battle Chess) with a hidden referee: docs/rules/luzhanqi.md."""

from bot.games.luzhanqi.engine import Luzhanqi

__all__ = ["Luzhanqi"]
