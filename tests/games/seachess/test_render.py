"""Seachess board images: valid, small, deterministic, and drawn from the view alone.

Samples are also written to ``tests/output/seachess-*.png`` for a person to look at.
"""

from __future__ import annotations

import io

from PIL import Image

from bot.games.core import EndReason, Outcome
from bot.games.seachess.view import SeachessView
from renderers.seachess import (
    HEIGHT,
    MARGIN,
    NAME_WIDTH,
    WIDTH,
    _box,
    _flipped,
    alt_text,
    render,
    render_image,
    status,
    status_lines,
)
from tests.support import seachess_middlegames as middle
from tests.support.samples import save_sample
from tests.support.seachess_positions import ENGINE as E
from tests.support.seachess_positions import position, random_game, sq

BUDGET = 60_000


def _crop(view: SeachessView, square: str) -> bytes:
    image = Image.open(io.BytesIO(render(view))).convert("RGB")
    return image.crop(_box(sq(square), _flipped(view))).tobytes()


def test_images_are_valid_pngs_well_under_budget_and_deterministic() -> None:
    _, final = random_game(8)
    _, middle_game = random_game(8, limit=60)
    start = E.new_game(E.presets["standard"], 1)
    named = {
        "start": start,
        "middle": middle_game,
        "final": final,
        "minefield": middle.minefield(),
        "airborne": middle.airborne(),
        "hidden-check": middle.hidden_check(),
    }
    for label, state in named.items():
        for audience in (0, 1, None):
            view = E.view(state, audience)
            png = render(view)
            save_sample(f"seachess-{label}-{audience}", png)
            assert png.startswith(b"\x89PNG") and len(png) < BUDGET // 2
            assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
            assert render(E.view(state, audience)) == png


MINED = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      6 . . . . M . . m . . . .
      1 . . . . . . K . . . . .
"""


def test_own_mines_and_submarines_are_drawn_and_the_opponents_never() -> None:
    state = position(MINED, subs={"c4": (0, 3), "j4": (1, 3)})
    white, black, public = (E.view(state, a) for a in (0, 1, None))
    empty_square = "f6"
    assert _crop(white, "e6") != _crop(white, empty_square)
    assert _crop(white, "h6") == _crop(white, empty_square)
    assert _crop(black, "h6") != _crop(black, empty_square)
    assert _crop(black, "e6") == _crop(black, empty_square)
    assert _crop(white, "c4") != _crop(white, "d4") and _crop(white, "j4") == _crop(white, "i4")
    assert _crop(public, "e6") == _crop(public, "h6") == _crop(public, empty_square)
    assert _crop(public, "c4") == _crop(public, "d4")


def test_the_last_move_and_check_are_marked() -> None:
    state = position(MINED)
    moved = E.act(state, 0, "g1-h1").state
    before, after = E.view(state, 1), E.view(moved, 1)
    assert _crop(before, "h1") != _crop(after, "h1")
    checked = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . . . c . . . . .
      1 . . . . . . K . . . . .
        """
    )
    unchecked = position(
        """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . . c . . . . . .
      1 . . . . . . K . . . . .
        """
    )
    assert _crop(E.view(checked, 0), "g1") != _crop(E.view(unchecked, 0), "g1")


def test_loads_and_facings_show_on_the_ships() -> None:
    boats = """
        a b c d e f g h i j k l
     12 . . . . . . k . . . . .
      5 . . . . T . . . . T . .
      1 . . . . . . K . . . . .
    """
    state = position(boats, empty="j5")
    view = E.view(state, 0)
    assert _crop(view, "e5") != _crop(view, "j5")  # loaded and empty
    turned = position(boats, facing={"j5": "E"})
    view = E.view(turned, 0)
    assert _crop(view, "e5") != _crop(view, "j5")  # facing north and east


def test_black_sees_its_haven_at_the_bottom() -> None:
    state = E.new_game(E.presets["standard"], 1)
    assert _box(sq("g1"), _flipped(E.view(state, 0)))[1] > HEIGHT // 2
    assert _box(sq("g12"), _flipped(E.view(state, 1)))[1] > HEIGHT // 2
    assert _box(sq("g1"), _flipped(E.view(state, None)))[1] > HEIGHT // 2


def test_alt_text_names_whose_move_and_never_a_hidden_square() -> None:
    state = position(MINED, subs={"c4": (0, 3), "j4": (1, 3)}, dived={"c4": "b6", "j4": "k6"})
    white, black, public = (alt_text(E.view(state, a)) for a in (0, 1, None))
    assert "Your move." in white and "Your opponent's move." in black
    assert "e6" in white and "h6" not in white and "j4" not in white
    assert "h6" in black and "e6" not in black and "c4" not in black
    assert "e6" not in public and "h6" not in public and "c4" not in public
    assert "surfaces on move" in public


def test_the_status_line_never_runs_under_the_players_names() -> None:
    """The players stand at the top right; however long the status (a revealed end with a
    long reason), it keeps clear of them, running on below when it must."""
    start = E.new_game(E.presets["standard"], 1)
    ended = E.conclude(
        start, Outcome(None, EndReason.RULES, "100 turns without a capture or boat move")
    )
    names = ("Alice", "Bob")
    players = (WIDTH - MARGIN - NAME_WIDTH - 50, MARGIN, WIDTH - MARGIN, MARGIN + 40)
    for audience in (0, 1, None):
        playing, over = E.view(start, audience), E.view(ended, audience)
        assert "revealed" in status(over)
        block = {render_image(v, names).crop(players).tobytes() for v in (playing, over)}
        assert len(block) == 1
        lines = status_lines(status(over))
        assert " ".join(lines) == status(over) and len(lines) == 2
