"""A slow computer for the end-to-end test of a restart in the middle of its turn.

``python -m bot`` loads this module at start when the test puts this folder on its
``PYTHONPATH``. While ``COMPUTER_THINKS_SECONDS`` is above zero, the computer thinks that
long about every move in play, and first writes "the computer is thinking" to the bot's
output, so the test knows the moment to stop the process. Everything else is the bot as
it ships.
"""

from __future__ import annotations

import os
import time

import bot.catalog
from bot.ai.core import Player, Seen
from bot.games.core import Phase

_real_player = bot.catalog.player


class _Slow:
    def __init__(self, real: Player) -> None:
        self.real = real

    def decide(self, seen: Seen) -> str:
        pause = float(os.environ.get("COMPUTER_THINKS_SECONDS") or 0)
        if pause > 0 and seen.view.phase is Phase.PLAY:
            print(f"the computer is thinking at ply {seen.ply}", flush=True)
            time.sleep(pause)
        return self.real.decide(seen)


def _slow_player(game: str, level: str) -> Player:
    return _Slow(_real_player(game, level))


bot.catalog.player = _slow_player
