"""The computer in the Flying Dutchman: a searcher that trusts only the misses since its
last hit and tries the hit's neighbours first, and a captain that moves away after a hit."""

from __future__ import annotations

import pytest

from bot.ai import Seen, dice_seed_for
from bot.ai.seabattle_dutchman import CLEARANCE, LATELY, my_shots, their_shots
from bot.catalog import player
from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.grid import parse_cell
from bot.games.seabattle.fleet import king_connected

ENGINE = ENGINES["seabattle"]


@pytest.mark.parametrize("options", ["", "decks5", "decks8"])
@pytest.mark.parametrize("level", ["casual", "strong"])
def test_the_searcher_and_the_captain_play_sensibly(options: str, level: str) -> None:
    rules = ENGINE.configure("dutchman", options)
    computer = player("seabattle", level)
    shots_checked = answers_checked = 0
    for seed in range(3):
        state = ENGINE.new_game(rules, seed)
        heard: dict[int, list[str]] = {0: [], 1: []}
        for ply in range(400):
            if ENGINE.outcome(state) is not None:
                break
            seat = min(ENGINE.view(state, None).movers)
            view = ENGINE.view(state, seat)
            seen = Seen(rules, view, tuple(heard[seat]), dice_seed_for(seed, seat), ply)
            text = computer.decide(seen)
            if view.owed == (seat, "move"):
                fired = their_shots(heard[seat], rules.size)
                assert text.startswith("move ")
                cells = [parse_cell(word, 20, 20) for word in text.split()[1:]]
                assert len(cells) == len(view.fields[seat].ships[0].cells)
                assert king_connected(cells)
                assert not set(cells) & set(fired[-LATELY:]), "it hides where they fired"
                hit = fired[-1]
                assert all(max(abs(c - hit[0]), abs(r - hit[1])) > CLEARANCE for c, r in cells)
                answers_checked += 1
            elif view.phase is Phase.PLAY:
                shots = my_shots(heard[seat], rules.size)
                target = parse_cell(text, 20, 20)
                hits = [i for i, (_, hit) in enumerate(shots) if hit]
                since = shots[hits[-1] + 1 :] if hits else shots
                assert target not in {cell for cell, _ in since}, "a miss since the hit holds"
                if hits:
                    last = shots[hits[-1]][0]
                    near = {
                        (last[0] + dc, last[1] + dr)
                        for dc in (-1, 0, 1)
                        for dr in (-1, 0, 1)
                        if (dc, dr) != (0, 0) and 0 <= last[0] + dc < 20 and 0 <= last[1] + dr < 20
                    }
                    if near - {cell for cell, _ in since}:
                        assert target in near, "after a hit it tries the neighbours first"
                shots_checked += 1
            transition = ENGINE.act(state, seat, text)
            state = transition.state
            for listener in (0, 1):
                heard[listener].extend(e.text for e in transition.for_audience(listener))
    assert shots_checked > 50 and answers_checked > 3
