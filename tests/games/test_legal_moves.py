"""``Engine.legal_moves``: the list a computer player chooses among, from a view alone.

It must be exactly what autocomplete offers with nothing typed and no limit (so a computer
can play every move a person can be offered), and nothing for a seat that is not to move
or for the public.
"""

from __future__ import annotations

import random
import sys

import pytest

from bot.games import ENGINES
from bot.games.core import SEATS, GameError, Phase


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_legal_moves_are_autocompletes_whole_list(key: str) -> None:
    engine = ENGINES[key]
    dice = random.Random(key)
    for preset in engine.presets.values():
        state = engine.new_game(preset, seed=dice.randrange(2**32))
        for _ in range(60):
            if engine.outcome(state) is not None:
                break
            assert engine.legal_moves(engine.view(state, None)) == []
            for seat in SEATS:
                view = engine.view(state, seat)
                listed = engine.legal_moves(view)
                assert listed == engine.suggestions(view, "", limit=sys.maxsize)
                if seat not in engine.to_move(state):
                    assert listed == []
            seat = min(engine.to_move(state))
            view = engine.view(state, seat)
            if view.phase is Phase.SETUP:
                moves = ["random", "ready"]
            else:
                moves = [m for m in engine.legal_moves(view) if "draw" not in m]
                dice.shuffle(moves)
            for text in moves:
                try:
                    state = engine.act(state, seat, text).state
                except GameError:
                    continue
                if view.phase is not Phase.SETUP:
                    break
