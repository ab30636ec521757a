"""Properties of the Marine Game engine over seeded random games and generated input.

Legal actions apply and read back, refusals change nothing, states survive storage and
replay, every game ends, and everything is public: every seat and the channel are shown the
same board, texts and image, and nothing but the board decides what they are shown.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import strategies as st

from bot.games.core import SEATS, GameError, Phase
from bot.games.marine.state import MarineState
from renderers.marine import alt_text, render
from tests.support.engine_checks import (
    any_text_test,
    assert_edits_refused,
    assert_movers_actions_read_back,
    assert_survives_storage,
)
from tests.support.marine_positions import ENGINE as E
from tests.support.marine_positions import random_game, replayed
from tests.support.presented import presented

SEEDS = [1, 2, 3, 4]


@cache
def game(seed: int) -> tuple[tuple[tuple[int, str], ...], tuple[MarineState, ...]]:
    """One whole seeded game, with every state it passed through."""
    log = random_game(seed)
    return tuple(log), tuple(replayed(seed, log))


def sample_states(seed: int, count: int = 8) -> list[MarineState]:
    states = game(seed)[1]
    step = max(1, len(states) // count)
    return [states[i] for i in range(0, len(states), step)]


@pytest.mark.parametrize("seed", [*SEEDS, 5, 6, 7, 8])
def test_every_game_ends_with_a_result(seed: int) -> None:
    final = game(seed)[1][-1] if seed in SEEDS else replayed(seed, random_game(seed))[-1]
    assert final.phase is Phase.FINISHED and final.outcome is not None


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_apply_and_read_back(seed: int) -> None:
    found = assert_movers_actions_read_back(E, sample_states(seed), random.Random(seed), 15)
    for legal in found:
        assert any("draw" not in str(a) for a in legal)  # §7.2: play never stalls


@pytest.mark.parametrize("seed", SEEDS)
def test_autocomplete_lists_exactly_the_legal_actions(seed: int) -> None:
    for state in sample_states(seed):
        for seat in SEATS:
            offered = E.suggestions(E.view(state, seat), "", limit=500)
            assert sorted(offered) == sorted(str(a) for a in E.legal_actions(state, seat))
        assert E.suggestions(E.view(state, None), "") == []


@pytest.mark.parametrize("seed", SEEDS)
def test_json_round_trips_at_every_step(seed: int) -> None:
    assert_survives_storage(E, game(seed)[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_replaying_the_move_texts_reproduces_the_game(seed: int) -> None:
    log, states = game(seed)
    assert replayed(seed, list(log))[-1] == states[-1]


@pytest.mark.parametrize("seed", SEEDS)
def test_pieces_are_only_ever_taken_never_created(seed: int) -> None:
    for before, after in zip(game(seed)[1], game(seed)[1][1:], strict=False):
        assert len(after.pieces) + len(after.losses) == 18
        assert len(after.pieces) <= len(before.pieces)


POINTS = st.one_of(st.integers(0, 60).map(str), st.sampled_from(list("ABCDEFGHIJKLMNOPQRSTUZ")))
WORDS = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", POINTS, POINTS),
    st.sampled_from(["offer draw", "accept draw", "pass", "", "46", "R-O-Q", "draw"]),
    st.text(max_size=20),
)


test_any_text_is_a_move_or_a_refusal_that_changes_nothing = any_text_test(
    E, lambda: sample_states(1, 12) + sample_states(2, 12), WORDS, examples=40
)


def test_corrupted_json_is_refused() -> None:
    data = E.to_json(game(1)[1][40])
    edits = (
        lambda d: d["pieces"].pop(),
        lambda d: d["pieces"][0].__setitem__(2, d["pieces"][1][2]),
        lambda d: d["pieces"][0].__setitem__(2, "Q"),
        lambda d: d["pieces"][-1].__setitem__(2, 59),
        lambda d: d.__setitem__("phase", "setup"),
        lambda d: d.__setitem__("turn", 1 - d["turn"]),
        lambda d: d.__setitem__("quiet", 60),
        lambda d: d.__setitem__("plies", -1),
        lambda d: d["rules"].__setitem__("quiet_plies", "60"),
        lambda d: d["losses"].append(["C", 0, 50]),
        lambda d: d.__setitem__("version", 2),
        lambda d: d.__setitem__("draw_offer", 3),
        lambda d: d["last"].__setitem__("end", "Z"),
        lambda d: d.__setitem__("south", True),
        lambda d: d["last"].__setitem__("side", 1 - d["last"]["side"]),
        lambda d: d["last"].__setitem__("kind", "U" if d["last"]["kind"] != "U" else "C"),
    )
    assert_edits_refused(E, data, edits)


# -- everything is public: the same for every audience ----------------------------------------


def shown_to(state: MarineState, audience: int | None) -> tuple[Any, ...]:
    view = E.view(state, audience)
    names = ("Zoë \u202eevil", "Борис")
    return view.board, view.text(), alt_text(view, names), render(view, names)


@pytest.mark.parametrize("seed", SEEDS)
def test_both_seats_and_the_channel_are_shown_the_same(seed: int) -> None:
    for state in sample_states(seed, 5):
        channel = shown_to(state, None)
        for seat in SEATS:
            assert shown_to(state, seat) == channel


@pytest.mark.parametrize("seed", SEEDS)
def test_nothing_but_the_board_decides_what_anyone_is_shown(seed: int) -> None:
    """Two games differing only in what no rule shows (the seed behind the colours) look
    the same to every audience, and so do their next moves' texts."""
    for state in sample_states(seed, 5):
        twin = replace(state, seed=state.seed + 1000)
        for audience in (*SEATS, None):
            assert shown_to(twin, audience) == shown_to(state, audience)
            assert presented("marine", twin, audience) == presented("marine", state, audience)
        for seat in E.to_move(state):
            action = next(iter(E.legal_actions(state, seat)))
            assert E.apply(state, seat, action).events == E.apply(twin, seat, action).events


@pytest.mark.parametrize("seed", SEEDS)
def test_a_refusal_says_the_same_whoever_could_read_it(seed: int) -> None:
    """Refusals speak of the erring player's input only, so they are the same in twin games."""
    for state in sample_states(seed, 5):
        twin = replace(state, seed=state.seed + 1)
        for seat in SEATS:
            for text in ("1-2", "A-D", "accept draw", "46-41"):
                said = []
                for world in (state, twin):
                    try:
                        E.act(world, seat, text)
                        said.append("accepted")
                    except GameError as error:
                        said.append(str(error))
                assert said[0] == said[1]


def test_texts_name_the_pieces_the_piece_list_names() -> None:
    """The rules summary names U-boats, cruisers and destroyers; nothing a player reads
    calls the last two by the specification's collective word "battleship"."""
    rules = E.presets[E.default_variant]
    read = [E.describe(rules), E.setup_instructions(rules)]
    for seed in SEEDS[:2]:
        log, states = game(seed)
        read += [E.side_sentence(states[0], seat) for seat in SEATS]
        for state, (seat, text) in zip(states, log, strict=False):
            read += [event.text for event in E.act(state, seat, text).events]
            read += [E.view(state, audience).text() for audience in (*SEATS, None)]
    pieces = E.describe(rules)
    assert all(noun in pieces for noun in ("U-boats", "cruisers", "destroyers"))
    assert not [text for text in read if "battleship" in text.lower()]
