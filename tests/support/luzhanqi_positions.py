"""Named Luzhanqi positions written as small text diagrams, and helpers that set them up.

A diagram lists only the ranks it needs, one line each: the rank number, then five tokens
for files a to e. ``.`` is an empty station; ``r7`` is a red major general, ``bL`` a blue
landmine (codes as in deployment texts: 9 marshal ... 1 engineer, B bomb, L landmine,
F flag); a trailing ``-`` (``r5-``) marks a face-down piece of the flip game.

Seat 0 plays Red and seat 1 Blue unless a test says otherwise.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games import ENGINES
from bot.games.core import GameError, IllegalActionError, Phase, Transition
from bot.games.luzhanqi.board import STATIONS, Colour, parse_station
from bot.games.luzhanqi.engine import Luzhanqi
from bot.games.luzhanqi.pieces import Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules
from bot.games.luzhanqi.state import LuzhanqiState

ENGINE: Luzhanqi = ENGINES["luzhanqi"]  # type: ignore[assignment]
"""The registered engine: tests go through the same object the referee uses."""
CLASSIC = ENGINE.presets["classic"]
FLIP = ENGINE.presets["flip"]
VARIANT_C = ENGINE.presets["variant-c"]

# A quiet middle game: two red pieces and a blue one on the roads, far from any clash.
ROAD = """
12 . . . . b3
 3 . . r5 . .
 1 r3 . . . .
"""


def board_of(diagram: str) -> tuple[Piece | None, ...]:
    board: list[Piece | None] = [None] * len(STATIONS)
    for line in diagram.strip("\n").splitlines():
        tokens = line.split()
        if not tokens:
            continue
        rank, cells = int(tokens[0]), tokens[1:]
        assert len(cells) == 5, f"rank {rank} needs five tokens, not {cells}"
        for file, token in zip("abcde", cells, strict=True):
            if token == ".":
                continue
            colour = Colour.RED if token[0] == "r" else Colour.BLUE
            board[parse_station(f"{file}{rank}")] = Piece(
                colour, Kind(token[1].upper()), face_up=not token.endswith("-")
            )
    return tuple(board)


def position(
    diagram: str,
    rules: LuzhanqiRules = CLASSIC,
    *,
    turn: Colour = Colour.RED,
    red_seat: int | None = 0,
    quiet: int = 0,
) -> LuzhanqiState:
    """A game in play with exactly the pieces of ``diagram``, ``turn``'s player to move."""
    seat = (red_seat or 0) if turn is Colour.RED else 1 - (red_seat or 0)
    state = LuzhanqiState(
        rules=rules,
        seed=0,
        phase=Phase.PLAY,
        red_seat=red_seat,
        board=board_of(diagram),
        turn=seat,
        quiet=quiet,
        plies=max(quiet, 1 if red_seat is not None and rules.flip else 0),
    )
    assert ENGINE.from_json(ENGINE.to_json(state)) == state  # a position the store accepts
    return state


def play(state: LuzhanqiState, text: str, seat: int | None = None) -> Transition:
    """Play ``text`` for the seat to move (or ``seat``)."""
    mover = state.turn if seat is None else seat
    assert mover is not None
    return ENGINE.act(state, mover, text)


def refused(state: LuzhanqiState, text: str, seat: int | None = None) -> str:
    """Play a move that must be refused, check it changed nothing, and return the sentence."""
    before = ENGINE.to_json(state)
    with pytest.raises(GameError) as caught:
        play(state, text, seat)
    assert ENGINE.to_json(state) == before
    assert isinstance(caught.value, GameError)
    return str(caught.value)


def targets(state: LuzhanqiState, start: str, seat: int | None = None) -> set[str]:
    """The destinations the engine lists for the piece on ``start``."""
    mover = state.turn if seat is None else seat
    assert mover is not None
    return {
        str(action).split("-")[1]
        for action in ENGINE.legal_actions(state, mover)
        if str(action).startswith(f"{start}-")
    }


def at(state: LuzhanqiState, where: str) -> Piece | None:
    return state.board[parse_station(where)]


def texts(transition: Transition, audience: int | None) -> str:
    return " ".join(event.text for event in transition.for_audience(audience))


def with_quiet(state: LuzhanqiState, quiet: int) -> LuzhanqiState:
    return replace(state, quiet=quiet, plies=max(state.plies, quiet))


__all__ = ["IllegalActionError"]


def new_setup(seed: int = 3) -> LuzhanqiState:
    """A classic game still in deployment, each side in its random layout."""
    return ENGINE.new_game(CLASSIC, seed)
