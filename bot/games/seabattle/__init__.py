"""Sea Battle (Battleship): docs/rules/sea-battle.md."""

from bot.games.seabattle.engine import SeaBattle

__all__ = ["SeaBattle"]
