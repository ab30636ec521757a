"""Named Seachess middle-game positions with mines and submerged submarines, for perft."""

from __future__ import annotations

from dataclasses import replace

from bot.games.seachess.pieces import Submerged
from bot.games.seachess.state import SeachessState
from tests.support.seachess_positions import position, sq


def minefield() -> SeachessState:
    """Mines of both colours across the lines, a submarine of each side under water."""
    return position(
        """
        a b c d e f g h i j k l
      9 . . . . b . . . . . . .
      8 . s . . . . . m . . . .
      7 . . . . . . . . b . . .
      6 . . . . M . . . . . . .
      5 . . . . . . m . . T . .
      4 . . . D . u . . . . . .
      2 . . . . . S . . . . . .
        """,
        facing={"j5": "E"},
        counts={"f2": 3, "b8": 2},
        subs={"d8": (0, 2)},
    )


def hidden_check() -> SeachessState:
    """White stands in check from a submerged submarine it cannot see; its castling is
    watched by the same submarine, and a destroyer hunts nearby."""
    return position(
        """
        a b c d e f g h i j k l
     12 . . c . . . k . . t . .
     11 . . . b . . . . b . . .
      7 . . . . . . d . . . . .
      5 . . . . . . . . . . . .
      3 . . . . . . . . . . . .
      2 . . B . . . . . B . . .
      1 . . C . . . K . . T . .
        """,
        subs={"f3": (1, 2), "c5": (0, 1)},
        mines={"e5": 1, "d6": 0},
        castling=(True, True, True, True),
    )


def airborne() -> SeachessState:
    """Black's aircraft is in the air over a crowded centre; White has mines and a diver."""
    return position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . k . . . .
     10 . . . . . . . b . . . .
      9 . . . . . . . . . . . .
      8 . . . d . . . . . . . .
      7 . . . . . a . . C . . .
      6 . . . B . . . . . . . .
      5 . . . . . . . . . . . .
      4 . . . S . . . T . . . .
        """,
        turn=1,
        airborne=(None, "f7"),
        counts={"d4": 4},
        mines={"e9": 0, "g5": 1},
        subs={"h9": (1, 3), "c3": (0, 2)},
        facing={"h4": "W"},
    )


def boats_and_torpedoes() -> SeachessState:
    """En passant on the third rank, side steps, promotion, and torpedo boats with mines
    between them and their targets."""
    return position(
        """
        a b c d e f g h i j k l
     11 . . . . . . . . . B . .
     10 . B . . . . . . . . B .
      9 . . . . . . . . . . . .
      6 . . . . . . . t . . . .
      5 . . . . . . . . . . . .
      4 . . . . b . . . . . . .
      3 . . . b . . . . . . . .
      2 . . . . . B . . . . . .
      1 . . . . . . K . . T . .
        """,
        turn=1,
        ply=1,
        facing={"h6": "S"},
        mines={"g5": 0, "e5": 1},
        subs={"f4": (1, 1), "g3": (0, 3)},
        ep=None,
    )


def promotion_over_submarines() -> SeachessState:
    """Boats of both sides about to promote above enemy submarines: a boat that becomes a
    destroyer there catches the submarine (§3.8, §5.8), any other piece leaves it below."""
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . c . k . . . . .
     11 . . . B B . . . . B . .
      7 . . . . . . . . m . . .
      6 . . . . M . . . . . . .
      3 . . . . . . . . . . . .
      2 . . . . b . . . . . . .
        """,
        ply=10,
    )
    subs = (
        Submerged(sq("e1"), 0, 14, sq("f3")),
        Submerged(sq("j12"), 1, 13, sq("h10")),
        Submerged(sq("e12"), 1, 15, sq("f10")),
    )
    return replace(state, subs=subs)
