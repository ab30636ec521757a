"""The torpedo boat (Seachess rules §3.4): it fires diagonally ahead, one or two squares,
is stopped by a piece or a mine, reloads by moving in its haven and faces its last move, and
a loaded one gives check. One test per clause, on positions drawn as small diagrams."""

from __future__ import annotations

from bot.games.seachess import board
from tests.support.seachess_positions import act, code_at, legal, piece_at, position, refused, said


def test_3_4_torpedo_fires_diagonally_ahead_one_or_two_squares() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      7 . . . . . . . b . . . .
      6 . . . . . . . . . . . .
      5 . . . . . . . . . T . .
      4 . . . . . . . . . . . .
      3 . . . . . . . . . . . b
        """,
        facing={"j5": "N"},
    )
    assert "torpedo j5xh7" in legal(state)
    assert "torpedo j5xl3" not in legal(state)  # behind its facing
    after = act(state, "torpedo j5xh7")
    assert code_at(after.state, "h7") is None and code_at(after.state, "j5") == "T"
    assert piece_at(after.state, "j5").loaded is False  # type: ignore[union-attr]
    assert "torpedoed Black's boat on h7" in said(after, 1)
    assert "Tj5xt h7" in after.state.record[-1]
    turned = position(
        """
        a b c d e f g h i j k l
      7 . . . . . . . b . . . .
      5 . . . . . . . . . T . .
      3 . . . . . . . . . . . b
        """,
        facing={"j5": "E"},
    )
    assert "torpedo j5xl3" in legal(turned) and "torpedo j5xh7" not in legal(turned)


def test_3_4_torpedo_is_stopped_by_a_piece_and_by_mines() -> None:
    diagram = """
        a b c d e f g h i j k l
      7 . . . . . . . b . . . .
      6 . . . . . . . . X . . .
      5 . . . . . . . . . T . .
        """
    blocked = position(diagram.replace("X", "B"))
    assert "torpedo j5xh7" not in legal(blocked)
    own = position(diagram.replace("X", "M"))
    refused(own, "torpedo j5xh7", "cannot torpedo")
    enemy = position(diagram.replace("X", "m"))
    hit = act(enemy, "torpedo j5xh7")
    assert code_at(hit.state, "h7") == "b" and not hit.state.mines
    assert "hit a mine on i6" in said(hit, 1) and "hit a mine on i6" in said(hit, 0)
    assert "hit a mine on i6" in said(hit, None)


def test_3_4_torpedo_reloads_by_moving_in_its_haven_and_faces_its_last_move() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      3 . . . . . . . . . T . .
        """,
        empty="j3",
    )
    moved = act(state, "j3-j2").state
    boat = piece_at(moved, "j2")
    assert boat is not None and boat.loaded and boat.facing == board.SOUTH
    assert "reloads" in said(act(state, "j3-j2"), 1)
    sideways = act(state, "j3-e3").state
    assert piece_at(sideways, "e3").facing == board.WEST  # type: ignore[union-attr]
    assert not piece_at(sideways, "e3").loaded  # type: ignore[union-attr]


def test_3_4_a_launch_from_the_haven_does_not_reload() -> None:
    state = position(
        """
        a b c d e f g h i j k l
      3 . . . . . . . . b . . .
      2 . . . . . . . . . T . .
        """
    )
    after = act(state, "torpedo j2xi3").state
    assert not piece_at(after, "j2").loaded  # type: ignore[union-attr]


def test_3_4_a_loaded_torpedo_boat_gives_check() -> None:
    state = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      7 . . . . . . . k . . . .
      6 . . . . . . . . . . . .
      5 . . . . . . . . . T . .
        """
    )
    assert state.checks == (False, True)
    empty = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . . . . . . .
      7 . . . . . . . k . . . .
      5 . . . . . . . . . T . .
        """,
        empty="j5",
    )
    assert empty.checks == (False, False)
