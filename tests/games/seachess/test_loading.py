"""Loading a stored Seachess game refuses what no sequence of legal moves could produce.

The base position is one play reaches: White to move at ply 10 with a submarine of each side
under water, timed as §5.2 and §5.4 time them (a dive on the owner's ply p lasts N own turns
and ends at the start of ply p + 2N). Each edit makes one thing impossible.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.games.core import CorruptStateError
from bot.games.seachess.pieces import Submerged
from bot.games.seachess.state import SeachessState, position_key
from tests.support.seachess_positions import ENGINE as E
from tests.support.seachess_positions import act, position, sq

PLY = 10


def reachable(white_sub: str = "e5") -> SeachessState:
    """White's submarine dived on ply 8 for three turns (up at ply 14); Black's on ply 9 for
    two (up at ply 13). Black's boat has just gone e11-e8, so e10 may be taken en passant."""
    state = position(
        """
        a b c d e f g h i j k l
      9 . . . . . . . . . . . .
      8 . . . . b . . . . . . .
      7 . . . . . D . . . . . .
      5 . . . . . . . . . . . .
      3 . . . B . . . . . . . .
        """,
        ply=PLY,
        ep=("e10", "e8"),
    )
    subs = (Submerged(sq(white_sub), 0, 14, sq("d3")), Submerged(sq("h5"), 1, 13, sq("h7")))
    state = replace(state, subs=subs)
    return replace(state, history=(position_key(state.position()),))


def stored(state: SeachessState | None = None) -> dict[str, Any]:
    return json.loads(json.dumps(E.to_json(state or reachable())))


def sub(data: dict[str, Any], owner: int) -> list[Any]:
    return next(s for s in data["subs"] if s[1] == owner)


def piece(data: dict[str, Any], square: str) -> list[Any]:
    return next(p for p in data["pieces"] if p[0] == square)


def move(data: dict[str, Any], start: str, end: str) -> None:
    """Put the piece on ``start`` on ``end``, keeping the stored order of squares."""
    piece(data, start)[0] = end
    data["pieces"].sort(key=lambda p: sq(p[0]))


def test_the_reachable_base_position_loads() -> None:
    assert E.from_json(stored()) == reachable()


def test_a_submarine_under_its_own_destroyer_loads_since_play_reaches_it() -> None:
    """A destroyer may end its move above its own submerged submarine; only an enemy one is
    caught there (§5.8)."""
    state = reachable(white_sub="f7")
    assert E.from_json(stored(state)) == state


DIVE = "dive does not fit the move count"
EDITS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    # §5.2, §5.4: a dive starts on an own ply and ends on one; the side not to move (Black)
    # surfaces on an odd ply, the side to move on an even one
    "timer of the side not to move has the wrong parity": (
        lambda d: sub(d, 1).__setitem__(2, PLY + 4),
        DIVE,
    ),
    "timer of the side to move has the wrong parity": (
        lambda d: sub(d, 0).__setitem__(2, PLY + 5),
        DIVE,
    ),
    "a dive that should have ended already": (lambda d: sub(d, 0).__setitem__(2, PLY), DIVE),
    "a dive longer than four turns": (lambda d: sub(d, 0).__setitem__(2, PLY + 8), DIVE),
    "a dive of the side not to move longer than four turns": (
        lambda d: sub(d, 1).__setitem__(2, PLY + 9),
        DIVE,
    ),
    # §5.3, §5.8: no submarine stays under an enemy destroyer
    "a submarine under an enemy destroyer": (
        lambda d: sub(d, 1).__setitem__(0, "f7"),
        "under an enemy destroyer",
    ),
    # the clock: White moves on even plies
    "the side to move does not match the ply": (
        lambda d: d.update(turn=1, ep=None),
        "side to move does not match",
    ),
    # §3.8: a boat never stands behind its start rank or on its last rank
    "a boat on its own last rank": (lambda d: move(d, "d3", "d12"), "where no boat can"),
    "a boat behind its start rank": (lambda d: move(d, "d3", "d1"), "where no boat can"),
    # only cruisers, torpedo boats and carriers are loaded; only submarines count turns
    "a loaded destroyer": (lambda d: piece(d, "f7").__setitem__(3, True), "destroyer is loaded"),
    "a destroyer counting visible turns": (
        lambda d: piece(d, "f7").__setitem__(5, 3),
        "destroyer counts visible turns",
    ),
    # §3.8: the passed square is the third-rank square on the boat's file
    "en passant on a square the boat never passed": (
        lambda d: d.__setitem__("ep", ["d10", "e8"]),
        "square the boat did not pass",
    ),
    # what both were told about check is what the position shows
    "a check nobody gives": (
        lambda d: d.__setitem__("checks", [True, False]),
        "checks announced are not",
    ),
    # §8: the repetition record ends with the position itself
    "a repetition record for another position": (
        lambda d: d.__setitem__("history", ["0" * 16]),
        "repetition record",
    ),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_stored_game_play_cannot_reach_is_refused(edit: str) -> None:
    data = stored()
    change, reason = EDITS[edit]
    change(data)
    with pytest.raises(CorruptStateError, match=f"impossible: .*{reason}"):
        E.from_json(data)


def test_after_a_promotion_onto_a_submarine_the_stored_game_loads() -> None:
    """The boat promoted to a destroyer above Black's submarine caught it (§5.8), so the
    game stored after the move loads again."""
    state = position(
        """
        a b c d e f g h i j k l
     11 . . . . B . . . . . . .
        """,
        ply=PLY,
    )
    state = replace(state, subs=(Submerged(sq("e12"), 1, 13, sq("f10")),))
    promoted = act(state, "e11-e12=D").state
    assert E.from_json(json.loads(json.dumps(E.to_json(promoted)))) == promoted
