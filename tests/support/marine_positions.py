"""Named Marine Game positions and seeded random play for the tests.

A position is written as its pieces, one word each: the type letter (``C`` cruiser, ``D``
destroyer, ``U`` U-boat) followed by the point (a corner number, or a hex letter for a
U-boat). Upper case is South (seat 0, who moves first), lower case North (seat 1), e.g.
``"C41 D46 UQ / d35 um"``; a ``/`` may separate the sides for the eye. Pieces a position
does not place count as already taken, so every state is one the rules could reach.
``view.text()`` draws any of them as the hex diagram of Marine Game rules §2.2.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from bot.games.core import Phase
from bot.games.marine import MarineGame
from bot.games.marine.pieces import Kind, Piece
from bot.games.marine.rules import MarineRules
from bot.games.marine.state import FLEET, MarineState, in_order

ENGINE = MarineGame()
SOUTH, NORTH = 0, 1
"""Seats in every named position: seat 0 plays South."""


def piece(word: str) -> Piece:
    kind = Kind(word[0].upper())
    side = SOUTH if word[0].isupper() else NORTH
    point = word[1:].upper() if kind is Kind.U_BOAT else int(word[1:])
    return Piece(kind, side, point)


def position(
    pieces: str, *, turn: int = SOUTH, quiet: int = 0, rules: MarineRules | None = None
) -> MarineState:
    """A position in play, seat 0 South, with ``turn`` to move and ``quiet`` quiet plies."""
    placed = [piece(word) for word in pieces.replace("/", " ").split()]
    losses = []
    for side in (SOUTH, NORTH):
        missing = FLEET - Counter(p.kind for p in placed if p.side == side)
        for kind, count in missing.items():
            losses += [Piece(kind, side, "A" if kind is Kind.U_BOAT else 1)] * count
    plies = 2 * max(quiet, 1) + (0 if turn == SOUTH else 1)
    state = MarineState(
        rules=rules or MarineRules(),
        seed=0,
        south=SOUTH,
        phase=Phase.PLAY,
        pieces=in_order(placed),
        turn=turn,
        losses=tuple(losses),
        plies=plies,
        quiet=quiet,
    )
    assert len(state.at) == len(placed), "two pieces share a point"
    return state


def random_game(seed: int, limit: int = 2000, draws: bool = True) -> list[tuple[int, str]]:
    """A seeded random game's move log: uniformly random legal actions until it ends.

    Draw offers are made now and then (and sometimes accepted) when ``draws`` is set.
    """
    rng = random.Random(seed)
    state = ENGINE.new_game(ENGINE.presets["classic"], seed)
    log: list[tuple[int, str]] = []
    while state.phase is not Phase.FINISHED and len(log) < limit:
        seat = min(ENGINE.to_move(state))
        legal = [str(a) for a in ENGINE.legal_actions(state, seat)]
        talk = [t for t in legal if "draw" in t]
        moves = [t for t in legal if "draw" not in t]
        text = rng.choice(talk) if draws and talk and rng.random() < 0.02 else rng.choice(moves)
        state = ENGINE.act(state, seat, text).state
        log.append((seat, text))
    return log


def replayed(seed: int, log: list[tuple[int, str]]) -> list[MarineState]:
    """Every state a logged game passed through, from the opening."""
    states = [ENGINE.new_game(ENGINE.presets["classic"], seed)]
    for seat, text in log:
        states.append(ENGINE.act(states[-1], seat, text).state)
    return states


def with_turn(state: MarineState, turn: int) -> MarineState:
    """``state`` with the other side to move (one ply more), for positions built by hand."""
    if state.turn == turn:
        return state
    return replace(state, turn=turn, plies=state.plies + 1)
