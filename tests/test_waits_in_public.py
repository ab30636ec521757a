"""The clock's premise: whose move it is changes only with a change the channel is told of.

A player's waiting time runs from the game's last public change (``bot.timekeeping``), so
losses on time are fair only if a player never comes to be waited for by a change told to
someone else alone: else they would be reminded, and lose, counting from before their turn.
Checked over seeded games of every game and variant, set up at random and then played at
random, change by change, with the texts the referee would send.
"""

from __future__ import annotations

import random

import pytest

from bot.announcements import audience_texts
from bot.games import ENGINES
from bot.games.core import Phase
from bot.storage.records import in_public

VARIANTS = [(key, variant) for key, engine in ENGINES.items() for variant in engine.presets]
PLIES = 80


@pytest.mark.parametrize(("key", "variant"), VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_whose_move_it_is_changes_only_in_public(key: str, variant: str, seed: int) -> None:
    engine = ENGINES[key]
    state = engine.new_game(engine.presets[variant], seed)
    rng = random.Random(seed)
    changes = 0
    for _ in range(PLIES):
        before = engine.view(state, None)
        if before.phase is Phase.FINISHED:
            break
        seat = rng.choice(sorted(before.movers))
        if before.phase is Phase.SETUP:
            texts = ["random", "ready"]  # a secret re-deal, then a public word
        else:
            legal = [str(a) for a in engine.legal_actions(state, seat)]
            texts = [rng.choice([text for text in legal if "draw" not in text] or legal)]
        for text in texts:
            transition = engine.apply(state, seat, engine.parse_action(state, seat, text))
            after = engine.view(transition.state, None)
            if (after.movers, after.phase) != (before.movers, before.phase):
                told = audience_texts(engine, transition.state, transition.events)
                assert in_public(told), f"{text!r} changed whose move it is in secret"
                changes += 1
            state, before = transition.state, after
    assert changes >= 2
