"""Marine Game board images: valid, small, deterministic, and showing what the view says."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.marine.view import MarineView
from renderers.marine import HEIGHT, WIDTH, alt_text, point_xy, render, render_image
from renderers.png import encode_png
from tests.support.marine_positions import ENGINE as E
from tests.support.marine_positions import position, random_game, replayed
from tests.support.samples import save_sample

BUDGET = 60_000


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _patch(view: MarineView, point: int | str, radius: int = 12) -> bytes:
    """The pixels around where ``point`` is drawn."""
    x, y = point_xy(point)
    return _rgb(render(view)).crop((x - radius, y - radius, x + radius, y + radius)).tobytes()


def _sample(name: str, view: MarineView) -> bytes:
    png = render(view)
    save_sample(f"marine-{name}", png)
    return png


def test_images_are_valid_pngs_under_budget_and_deterministic() -> None:
    log = random_game(3)
    states = replayed(3, log)
    for name, state in (
        ("opening", states[0]),
        ("middle", states[len(states) // 2]),
        ("final", states[-1]),
    ):
        view = E.view(state, None)
        png = _sample(name, view)
        assert png.startswith(b"\x89PNG") and len(png) < BUDGET
        assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
        assert encode_png(render_image(E.view(state, 0))) == png  # drawn afresh, same bytes


def test_the_three_piece_types_and_both_sides_look_different() -> None:
    state = position("C41 D42 UM / c47 d48 uP")
    view = E.view(state, None)
    patches = {
        word: _patch(view, point)
        for word, point in (("C", 41), ("D", 42), ("U", "M"), ("c", 47), ("d", 48), ("u", "P"))
    }
    assert len(set(patches.values())) == 6
    empty = E.view(position("C41 / uB"), None)
    assert _patch(empty, 42) != patches["D"]


def test_the_last_move_and_everything_it_took_are_highlighted() -> None:
    before = position("D46 US / c35 uM uB")
    after = E.act(before, 0, "46-41").state  # takes the U-boat in M, is taken by the cruiser
    quiet = position("D41 US / c35 uB")  # the same pieces with no move behind them
    seen = E.view(after, None)
    _sample("suicide", seen)
    plain = E.view(position("US / c35 uB"), None)
    for point in (46, 41, "M"):  # start ring, the mover's ghost, the taken U-boat's ghost
        assert _patch(seen, point) != _patch(plain, point)
    assert _patch(E.view(quiet, None), 41) != _patch(seen, 41)  # a ghost is not a piece


def test_alt_text_names_the_status_the_losses_and_the_last_move() -> None:
    after = E.act(position("D46 US / c35 uM uB"), 0, "46-41").state
    text = alt_text(E.view(after, None))
    assert "North to move" in text and "South destroyer 46-41" in text
    assert "took North U-boat in M" in text and "itself taken" in text


def test_the_board_names_the_players_beside_their_sides() -> None:
    state = E.new_game(E.configure(None, ""), 3)
    view = E.view(state, None)
    names = ("Zoë", "Борис")
    png = render(view, names)
    save_sample("marine-named", png)
    assert png != render(view)
    assert render(E.view(state, 0), names) == png  # still one image for every audience
    south, north = (f"({names[view.seat_of(side)]})" for side in (0, 1))
    assert f"South {south} has" in alt_text(view, names)
    assert f"North {north} has" in alt_text(view, names)
