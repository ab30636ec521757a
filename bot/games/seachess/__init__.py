"""Seachess: chess at sea with hidden mines, submerged submarines, torpedoes and aircraft."""

from bot.games.seachess.engine import Seachess

__all__ = ["Seachess"]
