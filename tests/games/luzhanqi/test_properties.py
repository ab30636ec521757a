"""Properties of the Luzhanqi engine over seeded random games, in all three variants.

Legal actions apply and read back, any text is a move or a refusal that changes nothing,
states round-trip through JSON, every game ends, and, the key security property of
section 9: two games that differ only in what a player may not know give that player and
the channel identical views, alt texts and PNG bytes, and identical news of their moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.core import SEATS, GameError, Phase, Transition, other
from bot.games.luzhanqi import actions as act
from bot.games.luzhanqi.board import name
from bot.games.luzhanqi.pieces import COUNTS, Kind, Piece
from bot.games.luzhanqi.state import LuzhanqiState
from renderers.luzhanqi import alt_text, render, render_image
from tests.support.engine_checks import few, seeded
from tests.support.luzhanqi_positions import ENGINE
from tests.support.presented import presented

E = ENGINE
PRESETS = list(E.presets)
SEEDED = seeded(4)
MAX_PLIES = 50 * 61 + 200
"""Every attack removes a piece and 60 quiet plies draw: no game can run longer than this."""


def random_action(state: LuzhanqiState, seat: int, rng: random.Random) -> act.Action:
    """A uniformly random legal action; draw offers only now and then (and sometimes
    accepted), so that most games are played out."""
    legal = list(E.legal_actions(state, seat))
    if state.phase is Phase.SETUP and rng.random() < 0.25:
        return act.Ready()
    talk = [a for a in legal if isinstance(a, act.OfferDraw | act.AcceptDraw)]
    moves = [a for a in legal if a not in talk]
    return rng.choice(talk) if talk and rng.random() < 0.02 else rng.choice(moves)


def walk(state: LuzhanqiState, rng: random.Random) -> Iterator[tuple[int, act.Action, Transition]]:
    """Random legal actions until the game ends."""
    while state.phase is not Phase.FINISHED:
        seat = rng.choice(sorted(E.to_move(state)))
        action = random_action(state, seat, rng)
        transition = E.apply(state, seat, action)
        yield seat, action, transition
        state = transition.state


@lru_cache(maxsize=16)
def game(preset: str, seed: int) -> tuple[LuzhanqiState, ...]:
    """Every state of one seeded random game, start to end."""
    state = E.new_game(E.presets[preset], seed)
    states = [state]
    for _, _, transition in walk(state, random.Random(seed)):
        states.append(transition.state)
    return tuple(states)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(2))
def test_every_game_ends_and_round_trips_through_json(preset: str, seed: int) -> None:
    states = game(preset, seed)
    assert states[-1].phase is Phase.FINISHED and states[-1].outcome is not None
    assert len(states) < MAX_PLIES
    for state in states[:: max(1, len(states) // 40)]:
        assert E.from_json(E.to_json(state)) == state


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_action_reads_back_and_applies(preset: str) -> None:
    rng = random.Random(7)
    states = game(preset, 0)
    for state in rng.sample(states[:-1], 12):
        for seat in sorted(E.to_move(state)):
            legal = list(E.legal_actions(state, seat))
            assert legal, "a player to move always has an action"
            for action in rng.sample(legal, min(15, len(legal))):
                text = str(action)
                assert str(E.parse_action(state, seat, text)) == text
                E.apply(state, seat, E.parse_action(state, seat, text))
            if state.phase is Phase.PLAY:
                view = E.view(state, seat)
                assert sorted(E.suggestions(view, "", limit=10_000)) == sorted(map(str, legal))


TEXTS = st.one_of(
    st.text(max_size=20),
    st.builds(
        lambda f1, r1, f2, r2, sep: f"{f1}{r1}{sep}{f2}{r2}",
        st.sampled_from("abcdefA"),
        st.integers(0, 13),
        st.sampled_from("abcdeE"),
        st.integers(0, 13),
        st.sampled_from(["-", " ", "to", "--"]),
    ),
    st.sampled_from(["offer draw", "accept draw", "Accept  Draw", "draw"]),
    st.builds(
        lambda word, rest: f"{word} {rest}",
        st.sampled_from(["flip", "swap", "deploy"]),
        st.text(max_size=8),
    ),
)


@pytest.mark.parametrize("preset", PRESETS)
@few(60)
@given(index=st.integers(0, 10_000), seat=st.sampled_from(SEATS), text=TEXTS)
def test_any_text_is_a_move_or_a_refusal_that_changes_nothing(
    preset: str, index: int, seat: int, text: str
) -> None:
    states = game(preset, 1)
    state = states[index % len(states)]
    before = E.to_json(state)
    try:
        transition = E.act(state, seat, text)
    except GameError:
        assert E.to_json(state) == before
        return
    assert seat in E.to_move(state)
    assert E.from_json(E.to_json(transition.state)) == transition.state


# -- non-interference (section 9) -------------------------------------------------------------


NAMES = ("Zoë \u202eevil", "Борис")
"""Display names drawn on the images; names are public, and must not open a side door."""


def shown_to(state: LuzhanqiState, audience: int | None) -> tuple[object, ...]:
    view = E.view(state, audience)
    presented_message = presented("luzhanqi", state, audience)
    replay_frame = render_image(view, NAMES, replay=True).tobytes()  # the replay's labels
    return (
        view,
        view.text(),
        alt_text(view, NAMES),
        render(view, NAMES),
        presented_message,
        replay_frame,
    )


def disguise(state: LuzhanqiState, hidden: int, rng: random.Random) -> LuzhanqiState:
    """``state`` with the secrets ``hidden``'s opponent may not know shuffled.

    In the referee game: the kinds of ``hidden``'s pieces (deployment or board), keeping a
    flag shown under section 7 in place. In the flip game: the identities of face-down
    pieces. Everything public stays as it was.
    """
    if state.phase is Phase.SETUP:
        layout = list(state.sides[hidden].layout)
        rng.shuffle(layout)
        return state.with_side(hidden, replace(state.sides[hidden], layout=tuple(layout)))
    board = list(state.board)
    if state.rules.flip:
        spots = [s for s, p in enumerate(board) if p is not None and not p.face_up]
    else:
        colour = state.colour_of(hidden)
        spots = [
            s
            for s, p in enumerate(board)
            if p is not None
            and p.colour is colour
            and not (p.kind is Kind.FLAG and colour in state.flags_shown)
        ]
    secrets: list[Piece | None] = [board[s] for s in spots]
    rng.shuffle(secrets)
    for where, piece in zip(spots, secrets, strict=True):
        board[where] = piece
    if not state.rules.flip and state.phase is Phase.PLAY:
        # Which pieces were lost is as secret as which stand where (9.3): trade standing
        # movable pieces for removed ones (movable for movable, so that whether the side
        # can still move, which everyone learns, stays as it was).
        colour = state.colour_of(hidden)
        standing = Counter(p.kind for p in board if p is not None and p.colour is colour)
        removed = [
            kind
            for kind in (Counter(COUNTS) - standing).elements()
            if kind.movable and not (kind is Kind.MARSHAL and colour in state.flags_shown)
        ]
        movers = [s for s in spots if (p := board[s]) is not None and p.kind and p.kind.movable]
        pool = [board[s].kind for s in movers] + removed  # type: ignore[union-attr]
        rng.shuffle(pool)
        for where, kind in zip(movers, pool, strict=False):
            board[where] = Piece(colour, kind)
    return replace(state, board=tuple(board))


def quiet_watcher_moves(state: LuzhanqiState, watcher: int) -> list[act.Action]:
    """The watcher's actions that cannot tell the twins apart: anything but an attack."""
    legal = list(E.legal_actions(state, watcher))
    return [
        a
        for a in legal
        if not (isinstance(a, act.Move) and state.board[a.target] is not None)
        and not isinstance(a, act.Flip)
    ]


def answers(state: LuzhanqiState, watcher: int, seed: float) -> list[str]:
    """What the watcher hears for 60 moves from their pieces (9.5): whether each is refused,
    and why, may depend only on what the watcher knows. Most moves aim at occupied stations,
    where hidden pieces could make a difference; the same ``seed`` asks both twins the same.
    """
    draw = random.Random(seed)
    seen = E.view(state, watcher).pieces
    mine = state.colour_of(watcher)
    starts = [s for s, p in enumerate(seen) if p is not None and p.colour is mine]
    others = [s for s, p in enumerate(seen) if p is not None and p.colour is not mine]
    if not starts:
        return []
    pairs = [(a, b) for a in starts for b in others]
    asked = draw.sample(pairs, min(40, len(pairs)))
    asked += [(draw.choice(starts), draw.randrange(60)) for _ in range(20)]
    heard = []
    for start, target in asked:
        try:
            transition = E.act(state, watcher, f"{name(start)}-{name(target)}")
        except GameError as error:
            heard.append(f"refused: {error}")
        else:  # an attack's result is what attacking is for: only its acceptance must match
            said = transition.for_audience(watcher)
            heard.append("attack" if seen[target] else " | ".join(e.text for e in said))
    return heard


@pytest.mark.parametrize("hidden", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
@settings(SEEDED)
@given(seed=st.integers(0, 2**32), moment=st.floats(0, 1))
def test_hidden_pieces_do_not_reach_the_other_seat_or_the_channel(
    preset: str, hidden: int, seed: int, moment: float
) -> None:
    watcher = other(hidden)
    rng = random.Random(seed)
    states = game(preset, seed % 3)
    state = states[min(len(states) - 2, int(moment * len(states)))]
    twin = disguise(state, hidden, rng)
    if twin == state:
        return
    if not state.rules.flip:
        assert E.view(twin, hidden) != E.view(state, hidden), "the pair must really differ"
    audiences: tuple[int | None, ...] = (watcher, None) if not state.rules.flip else (0, 1, None)
    for _ in range(3):
        for audience in audiences:
            assert shown_to(state, audience) == shown_to(twin, audience), audience
        asked = rng.random()
        assert answers(state, watcher, asked) == answers(twin, watcher, asked)
        if state.phase is Phase.SETUP:
            if watcher not in E.to_move(state):
                return
            action = random_action(state, watcher, rng)
        elif state.turn == watcher:
            options = quiet_watcher_moves(state, watcher)
            if not options:
                return
            action = rng.choice(options)
        else:
            return
        first, second = E.apply(state, watcher, action), E.apply(twin, watcher, action)
        for audience in audiences:
            assert first.for_audience(audience) == second.for_audience(audience)
        state, twin = first.state, second.state
        if state.phase is Phase.FINISHED:
            return
