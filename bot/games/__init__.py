"""Pure rule engines, one per game, all behind ``bot.games.core.Engine``.

This package imports only the standard library: no discord, no Pillow, no sqlite, no asyncio.
"""

from bot.games.core import Engine
from bot.games.luzhanqi import Luzhanqi
from bot.games.marine import MarineGame
from bot.games.seabattle import SeaBattle
from bot.games.seachess import Seachess
from bot.games.warships import Warships

ENGINES: dict[str, Engine] = {
    engine.key: engine
    for engine in (SeaBattle(), Luzhanqi(), Warships(), Seachess(), MarineGame())
}
"""Every playable game by its stored key."""


def engine_for(key: str) -> Engine:
    return ENGINES[key]
