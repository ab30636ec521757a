"""Properties of the Seachess engine over seeded random games and generated input.

Legal moves apply and read back, refusals change nothing, states survive storage and replay,
every game ends, and (the security property) nothing a player may not see (the opponent's
mines, submerged submarines, cruiser loads and the hidden record) can change what that
player or the channel is shown or told.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import strategies as st

from bot.games.core import SEATS, GameError, IllegalActionError, Phase, other
from bot.games.seachess import actions as act
from bot.games.seachess.board import SQUARES, name
from bot.games.seachess.pieces import Kind
from bot.games.seachess.state import SeachessState
from renderers.seachess import alt_text, render, render_image
from tests.support.engine_checks import (
    any_text_test,
    assert_edits_refused,
    assert_movers_actions_read_back,
    assert_survives_storage,
)
from tests.support.seachess_positions import ENGINE as E
from tests.support.seachess_positions import random_game

SEEDS = (3, 8, 21)


@cache
def game(seed: int) -> tuple[tuple[tuple[int, str], ...], tuple[SeachessState, ...]]:
    log, _ = random_game(seed)
    states = [E.new_game(E.presets["standard"], seed)]
    for seat, text in log:
        states.append(E.act(states[-1], seat, text).state)
    return tuple(log), tuple(states)


def sample_states(seed: int, count: int = 10) -> list[SeachessState]:
    states = [s for s in game(seed)[1] if s.phase is Phase.PLAY]
    step = max(1, len(states) // count)
    return states[::step]


def all_samples(count: int = 10) -> list[SeachessState]:
    return [s for seed in SEEDS for s in sample_states(seed, count)]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_game_ends_with_a_result(seed: int) -> None:
    final = game(seed)[1][-1]
    assert final.phase is Phase.FINISHED and final.outcome is not None


def test_random_games_use_every_kind_of_move() -> None:
    record = " ".join(entry for seed in SEEDS for entry in game(seed)[1][-1].record)
    for mark in ("-M(h)", "v-", "(h)", "^", "xt ", "xa ", "<a"):
        assert mark in record, mark


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_apply_and_read_back(seed: int) -> None:
    states = sample_states(seed)
    found = assert_movers_actions_read_back(E, states, random.Random(seed), 10)
    assert len(found) == len(states) and all(found)


@pytest.mark.parametrize("seed", SEEDS)
def test_json_round_trips_at_every_step(seed: int) -> None:
    assert_survives_storage(E, game(seed)[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_replaying_the_move_texts_reproduces_the_game(seed: int) -> None:
    log, states = game(seed)
    state = E.new_game(E.presets["standard"], seed)
    for seat, text in log:
        state = E.act(state, seat, text).state
    assert state == states[-1]


SQUARE = st.sampled_from([name(sq) for sq in SQUARES] + ["a1", "m5", "e13"])
TEXTS = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", SQUARE, SQUARE),
    st.builds(lambda a, b, k: f"{a}-{b}={k}", SQUARE, SQUARE, st.sampled_from("CTSDAKB")),
    st.builds(lambda a: f"mine {a}", SQUARE),
    st.builds(lambda a, b: f"dive {a}-{b}", SQUARE, SQUARE),
    st.builds(lambda a, b: f"sub {a}-{b}", SQUARE, SQUARE),
    st.builds(lambda a: f"emerge {a}", SQUARE),
    st.builds(lambda a, b: f"emerge {a}x{b}", SQUARE, SQUARE),
    st.builds(lambda a, b: f"torpedo {a}x{b}", SQUARE, SQUARE),
    st.builds(lambda a, b: f"air {a}x{b}", SQUARE, SQUARE),
    st.sampled_from(["O-O", "O-O-O", "land", "offer draw", "accept draw", "", "e2", "castle"]),
    st.text(max_size=20),
)


test_any_text_is_a_move_or_a_refusal_that_changes_nothing = any_text_test(
    E, lambda: all_samples(8), TEXTS, examples=40
)


def test_corrupted_json_is_refused() -> None:
    data = E.to_json(sample_states(3)[4])
    edits = (
        lambda d: d["pieces"].pop(next(i for i, p in enumerate(d["pieces"]) if p[1] == "K")),
        lambda d: d["pieces"][0].__setitem__(0, d["pieces"][1][0]),
        lambda d: d["pieces"][0].__setitem__(0, "a1"),
        lambda d: d.__setitem__("phase", "setup"),
        lambda d: d.__setitem__("turn", 5),
        lambda d: d.__setitem__("rules", {"x": 1}),
        lambda d: d.__setitem__("version", 2),
        lambda d: d.__setitem__("quiet", -1),
        lambda d: d.__setitem__("record", []),
        lambda d: d["mines"].append([d["pieces"][0][0], 1 - d["pieces"][0][2]]),
        lambda d: d.__setitem__("castling", [True, True, True, True, True]),
    )
    assert_edits_refused(E, data, edits)


# -- non-interference -------------------------------------------------------------------------


def shown_to(state: SeachessState, audience: int | None) -> tuple[Any, ...]:
    view = E.view(state, audience)
    replay_frame = render_image(view, replay=True).tobytes()  # a replay frame's labels
    return view, view.text(), alt_text(view), render(view), replay_frame


def disguise(state: SeachessState, owner: int, rng: random.Random) -> SeachessState:
    """``state`` with ``owner``'s secrets changed: mines moved to other empty squares,
    submerged submarines under other squares, cruiser loads flipped, record rewritten."""
    at = dict(state.pieces)
    taken = set(at) | {sq for sq, _ in state.mines} | {s.square for s in state.subs}
    free = [sq for sq in SQUARES if sq not in taken]
    rng.shuffle(free)
    mines = [(sq, o) for sq, o in state.mines if o != owner]
    mines += [(free.pop(), owner) for _, o in state.mines if o == owner]
    subs = [s for s in state.subs if s.owner != owner]
    subs += [replace(s, square=free.pop()) for s in state.subs if s.owner == owner]
    for sq, piece in at.items():
        if piece.owner == owner and piece.kind is Kind.CRUISER:
            at[sq] = replace(piece, loaded=not piece.loaded)
    return replace(
        state,
        pieces=tuple(sorted(at.items())),
        mines=tuple(sorted(mines)),
        subs=tuple(sorted(subs, key=lambda s: (s.square, s.owner))),
        record=tuple("?" for _ in state.record),
    )


def secret_states() -> list[SeachessState]:
    return [s for s in all_samples(14) if s.mines or s.subs] or all_samples(14)


@pytest.mark.parametrize("hidden", SEATS)
def test_the_opponents_secrets_change_nothing_another_audience_sees(hidden: int) -> None:
    rng = random.Random(hidden)
    checked = 0
    for state in secret_states():
        twin = disguise(state, hidden, rng)
        if twin.mines == state.mines and twin.subs == state.subs:
            continue
        checked += 1
        for audience in (other(hidden), None):
            assert shown_to(twin, audience) == shown_to(state, audience)
    assert checked >= 5


def private_refusal(state: SeachessState, seat: int, text: str) -> str | None:
    try:
        transition = E.act(state, seat, text)
    except IllegalActionError as error:
        return str(error)
    del transition
    return None


@pytest.mark.parametrize("hidden", SEATS)
def test_private_refusals_never_depend_on_the_opponents_secrets(hidden: int) -> None:
    rng = random.Random(10 + hidden)
    mover = other(hidden)
    for state in secret_states():
        if state.turn != mover:
            continue
        twin = disguise(state, hidden, rng)
        texts = [str(a) for a in E.legal_actions(replace(state, turn=mover), mover)]
        texts += [f"{name(rng.choice(SQUARES))}-{name(rng.choice(SQUARES))}" for _ in range(20)]
        for text in rng.sample(texts, min(40, len(texts))):
            with contextlib.suppress(GameError):
                E.parse_action(state, mover, text)
            refusal = private_refusal(state, mover, text)
            if refusal is None:
                continue  # accepted or refused publicly: the truth may differ
            assert private_refusal(twin, mover, text) == refusal


def test_hidden_moves_read_the_same_to_the_opponent_and_the_channel() -> None:
    """Two different hidden moves that remove nothing and check nobody are told alike."""
    compared = 0
    for state in all_samples(20):
        seat = state.turn
        hidden = [
            a
            for a in E.legal_actions(state, seat)
            if isinstance(a, act.Plant | act.Dive | act.Steer)
        ]
        told = {}
        for action in hidden:
            transition = E.apply(state, seat, action)
            new = transition.state
            if new.checks != state.checks or len(new.pieces) != len(state.pieces):
                continue
            if len(new.subs) + len(new.mines) < len(state.subs) + len(state.mines) + (
                1 if isinstance(action, act.Plant | act.Dive) else 0
            ):
                continue
            key = type(action) if isinstance(action, act.Dive) else "hidden"
            words = tuple((e.audience, e.text) for e in transition.events if e.audience != seat)
            told.setdefault(key, set()).add(words)
        for versions in told.values():
            assert len(versions) == 1
            compared += 1
    assert compared >= 3


def test_views_never_show_the_opponents_mines_or_submarine_squares() -> None:
    for state in all_samples(14):
        for seat in SEATS:
            view = E.view(state, seat)
            assert all(owner == seat for _, owner in view.mines)
            assert all(m.square is None for m in view.subs if m.owner != seat)
            assert not view.record
            for _, piece in view.pieces:
                if piece.kind is Kind.CRUISER and piece.owner != seat:
                    assert not piece.loaded
        public = E.view(state, None)
        assert not public.mines and all(m.square is None for m in public.subs)


def test_autocomplete_offers_exactly_the_moves_legal_in_the_view() -> None:
    from bot.games.seachess.turns import view_legal

    for state in all_samples(6):
        seat = state.turn
        view = E.view(state, seat)
        offered = E.suggestions(view, "", limit=1000)
        expected = [str(a) for a in view_legal(state.known_to(seat), seat)]
        assert [t for t in offered if "draw" not in t] == expected
        assert E.suggestions(E.view(state, other(seat)), "") == []


def test_a_move_legal_in_the_view_is_played_or_refused_publicly_never_privately() -> None:
    """§7.2a: what the mover's own view allows is never refused with a private sentence;
    when hidden material stops it, the refusal is public and changes only the refusal list."""
    from bot.games.seachess.turns import view_legal

    public = 0
    for state in all_samples(25):
        seat = state.turn
        for action in view_legal(state.known_to(seat), seat):
            transition = E.apply(state, seat, action)  # never raises
            new = transition.state
            if new.turn == seat and new.ply == state.ply:
                public += 1
                assert new == replace(state, refused=(*state.refused, str(action)))
                assert "Impossible" in " ".join(e.text for e in transition.for_audience(seat))
                told = " ".join(e.text for e in transition.for_audience(other(seat)))
                assert "tried" in told and told == " ".join(
                    e.text for e in transition.for_audience(None)
                )
    assert public >= 1
