"""Named Seachess positions written as small text diagrams, and seeded random play.

A diagram shows a window of the board: a header of file letters, then one line per rank
(highest first), each starting with its rank number; a short line leaves the rest empty.
``.`` is an empty square; a piece code in capitals is White's (seat 0), in lower case
Black's (seat 1). ``M``/``m`` is a White or Black mine on an empty square, ``U``/``u`` a
White or Black submerged submarine; ``mines`` and ``subs`` place them under pieces.
Squares outside the window are empty, but for a commando ship the diagram leaves out: it
stands at home, White's on g1 and Black's on g12. Unless told otherwise pieces are loaded,
torpedo boats face forward, submarines have visible count 0, nobody may castle, White is to
move.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.games.core import IllegalActionError, Phase, Transition
from bot.games.seachess import Seachess
from bot.games.seachess.actions import Move
from bot.games.seachess.board import parse_square
from bot.games.seachess.pieces import Kind, Piece, Submerged, fresh
from bot.games.seachess.rules import SeachessRules
from bot.games.seachess.state import SeachessState, position_key

ENGINE = Seachess()
FACINGS = {"N": 0, "E": 1, "S": 2, "W": 3}


# A cruiser alone with the two commando ships: room to plant mines and to shuffle.
LONE_CRUISER = """
        a b c d e f g h i j k l
      5 . . . . C . . . . . . .
"""

# A White boat one step below a Black mine, and the two commando ships.
BOAT_UNDER_A_MINE = """
        a b c d e f g h i j k l
      5 . . . . m . . . . . . .
      4 . . . . B . . . . . . .
"""


def sq(text: str) -> int:
    return parse_square(text)


def position(
    diagram: str,
    *,
    turn: int = 0,
    ply: int | None = None,
    empty: str = "",
    facing: dict[str, str] | None = None,
    counts: dict[str, int] | None = None,
    mines: dict[str, int] | None = None,
    subs: dict[str, tuple[int, int]] | None = None,
    dived: dict[str, str] | None = None,
    castling: tuple[bool, bool, bool, bool] = (False, False, False, False),
    ep: tuple[str, str] | None = None,
    airborne: tuple[str | None, str | None] = (None, None),
) -> SeachessState:
    """A position in play. ``subs`` maps a square to (owner, turns left before it surfaces)
    and ``dived`` says where each went under (by default its square); ``empty`` names
    unloaded pieces; ``airborne`` names each side's flying carrier."""
    ply = turn if ply is None else ply
    dived = dived or {}
    at, mined, under = read_diagram(diagram, ply)
    for name in empty.split():
        at[sq(name)] = replace(at[sq(name)], loaded=False)
    for name, direction in (facing or {}).items():
        at[sq(name)] = replace(at[sq(name)], facing=FACINGS[direction])
    for name, count in (counts or {}).items():
        at[sq(name)] = replace(at[sq(name)], count=count)
    for name, owner in (mines or {}).items():
        mined[sq(name)] = owner
    for name, (owner, turns) in (subs or {}).items():
        under.append(Submerged(sq(name), owner, ply + 2 * turns, sq(dived.get(name, name))))
    flying = tuple(None if a is None else sq(a) for a in airborne)
    for carrier in flying:
        if carrier is not None:
            at[carrier] = replace(at[carrier], loaded=False)
    state = SeachessState(
        rules=SeachessRules(),
        seed=1,
        phase=Phase.PLAY,
        pieces=tuple(sorted(at.items())),
        mines=tuple(sorted(mined.items())),
        subs=tuple(sorted(under, key=lambda s: (s.square, s.owner))),
        castling=castling,
        ep=None if ep is None else (sq(ep[0]), sq(ep[1])),
        airborne=flying,  # type: ignore[arg-type]
        turn=turn,
        ply=ply,
        record=("?",) * ply,
    )
    return with_history(state)


def read_diagram(
    diagram: str, ply: int
) -> tuple[dict[int, Piece], dict[int, int], list[Submerged]]:
    """The pieces, mines and submerged submarines a diagram draws, with each commando ship it
    leaves out at home; a submarine drawn as ``U``/``u`` surfaces eight plies after ``ply``."""
    lines = [line.split() for line in diagram.strip().splitlines()]
    files = lines[0]
    at: dict[int, Piece] = {}
    mined: dict[int, int] = {}
    under: list[Submerged] = []
    for row in lines[1:]:
        rank = row[0]
        if len(row) - 1 > len(files):
            raise ValueError(f"rank {rank} has more squares than the header")
        for file, mark in zip(files, row[1:], strict=False):
            if mark == ".":
                continue
            here = sq(f"{file}{rank}")
            owner = 0 if mark.isupper() else 1
            if mark in "Mm":
                mined[here] = owner
            elif mark in "Uu":
                under.append(Submerged(here, owner, ply + 8, here))
            else:
                at[here] = fresh(Kind(mark.upper()), owner)
    for owner, home in ((0, "g1"), (1, "g12")):
        if not any(p.kind is Kind.COMMANDO and p.owner == owner for p in at.values()):
            if sq(home) in at:
                raise ValueError(f"a commando ship left out belongs on {home}, which is taken")
            at[sq(home)] = fresh(Kind.COMMANDO, owner)
    return at, mined, under


def with_history(state: SeachessState) -> SeachessState:
    """``state`` with the history and checks a game that reached it would carry."""
    pos = state.position()
    from bot.games.seachess.position import in_check

    return replace(
        state,
        history=(position_key(pos),),
        checks=(in_check(pos, 0), in_check(pos, 1)),
    )


def act(state: SeachessState, text: str) -> Transition:
    """``text`` played by whoever is to move."""
    return ENGINE.act(state, state.turn, text)


def said(transition: Transition, audience: int | None) -> str:
    """Everything ``audience`` (a seat, or None for the channel) was told, as one text."""
    return " ".join(e.text for e in transition.for_audience(audience))


def refused(state: SeachessState, text: str, words: str) -> None:
    """A private refusal (§7.2): a sentence with ``words``, nothing changes, nobody else hears."""
    with pytest.raises(IllegalActionError) as error:
        act(state, text)
    assert words in str(error.value)


def legal(state: SeachessState) -> set[str]:
    """The mover's legal actions in notation."""
    return {str(a) for a in ENGINE.legal_actions(state, state.turn)}


def piece_at(state: SeachessState, name: str) -> Piece | None:
    return dict(state.pieces).get(sq(name))


def code_at(state: SeachessState, name: str) -> str | None:
    piece = piece_at(state, name)
    return None if piece is None else piece.code


def random_game(seed: int, limit: int = 1500) -> tuple[list[tuple[int, str]], SeachessState]:
    """A seeded random game of legal moves (at most ``limit``), favouring the special moves
    so that random games plant, dive, emerge, torpedo and fly often."""
    rng = random.Random(seed)
    state = ENGINE.new_game(SeachessRules(), seed)
    log: list[tuple[int, str]] = []
    while state.phase is Phase.PLAY and len(log) < limit:
        seat = state.turn
        legal = [a for a in ENGINE.legal_actions(state, seat) if "draw" not in str(a)]
        special = [a for a in legal if not isinstance(a, Move)]
        pick = rng.choice(special if special and rng.random() < 0.3 else legal)
        state = ENGINE.apply(state, seat, pick).state
        log.append((seat, str(pick)))
    return log, state
