"""Luzhanqi images: valid small PNGs, deterministic, pieces labelled for their owner only,
railroads unlike roads, the last move highlighted.

Samples are also written to ``tests/output/luzhanqi-*.png`` for a person to look at.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.games.core import EndReason, Outcome, Phase
from bot.games.luzhanqi.board import Colour, parse_station
from bot.games.luzhanqi.state import LuzhanqiState
from bot.games.luzhanqi.view import LuzhanqiView
from renderers import luzhanqi as module
from renderers.luzhanqi import PALETTE, alt_text, centre_of, render, render_image
from tests.luzhanqi_positions import CLASSIC, ENGINE, FLIP, play, position

OUTPUT = Path(__file__).parent / "output"
SIZE_LIMIT = 60_000

DUEL = """
12 . bF . . b3
 8 b5 . . . .
 7 r6 . . . .
 1 r3 rF . . .
"""


def played(preset: str, seed: int, plies: int) -> LuzhanqiState:
    state = ENGINE.new_game(ENGINE.presets[preset], seed)
    rng = random.Random(seed)
    while state.phase is Phase.SETUP:
        seat = min(ENGINE.to_move(state))
        state = ENGINE.act(state, seat, "ready").state
    for _ in range(plies):
        if state.phase is not Phase.PLAY or state.turn is None:
            break
        state = ENGINE.apply(
            state, state.turn, rng.choice(list(ENGINE.legal_actions(state, state.turn)))
        ).state
    return state


def samples() -> dict[str, LuzhanqiView]:
    setup = ENGINE.new_game(CLASSIC, 2)
    classic = played("classic", 3, 60)
    flip = played("flip", 3, 60)
    over = ENGINE.conclude(classic, Outcome(0, EndReason.RESIGNATION))
    return {
        "setup": ENGINE.view(setup, 0),
        "classic-seat0": ENGINE.view(classic, 0),
        "classic-seat1": ENGINE.view(classic, 1),
        "classic-public": ENGINE.view(classic, None),
        "flip-public": ENGINE.view(flip, None),
        "end-public": ENGINE.view(over, None),
    }


@pytest.mark.parametrize("name", list(samples()))
def test_valid_png_under_the_size_limit_and_deterministic(name: str) -> None:
    view = samples()[name]
    png = render(view)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"luzhanqi-{name}.png").write_bytes(png)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == (module.WIDTH, module.HEIGHT)
    assert len(png) < SIZE_LIMIT
    module._static_layer.cache_clear()
    module._token.cache_clear()
    assert render(view) == png


def pixel(view: LuzhanqiView, where: str, dx: int = 0, dy: int = 0) -> tuple[int, int, int]:
    x, y = centre_of(parse_station(where), view.bottom)
    rgb = render_image(view).convert("RGB").getpixel((x + dx, y + dy))
    assert isinstance(rgb, tuple)
    return rgb[0], rgb[1], rgb[2]


def test_tokens_carry_their_colour_and_empty_stations_do_not() -> None:
    view = ENGINE.view(position(DUEL), 0)
    assert pixel(view, "a7", dx=-36) == PALETTE.rgb("red")
    assert pixel(view, "a8", dx=-36) == PALETTE.rgb("blue")
    assert pixel(view, "c3") not in (PALETTE.rgb("red"), PALETTE.rgb("blue"))


def test_the_own_piece_is_labelled_and_the_enemy_token_is_blank() -> None:
    view = ENGINE.view(position(DUEL), 0)
    image = render_image(view)  # palette mode: one byte per pixel

    def text_pixels(where: str) -> int:
        x, y = centre_of(parse_station(where), view.bottom)
        box = image.crop((x - 30, y - 9, x + 30, y + 9))
        return box.tobytes().count(bytes([PALETTE["text"]]))

    assert text_pixels("a7") > 20  # "Brigadier"
    assert text_pixels("a8") == 0  # a blank blue token


def test_railroads_are_drawn_unlike_roads() -> None:
    view = ENGINE.view(position(DUEL), None)
    # a railroad between a4 and a5, a road between b4 and c4 (both half-way between)
    a4, a5 = (centre_of(parse_station(s), Colour.RED) for s in ("a4", "a5"))
    b4, c4 = (centre_of(parse_station(s), Colour.RED) for s in ("b4", "c4"))
    image = render_image(view).convert("RGB")
    rail = {image.getpixel((a4[0] + dx, (a4[1] + a5[1]) // 2)) for dx in range(-4, 5)}
    road = {image.getpixel(((b4[0] + c4[0]) // 2, b4[1] + dy)) for dy in range(-4, 5)}
    assert PALETTE.rgb("rail") in rail and PALETTE.rgb("road") not in rail
    assert PALETTE.rgb("road") in road and PALETTE.rgb("rail") not in road


def test_the_last_move_is_highlighted() -> None:
    state = play(position(DUEL), "a7-a8").state
    view = ENGINE.view(state, None)
    x, y = centre_of(parse_station("a7"), view.bottom)
    image = render_image(view).convert("RGB")
    ring = {image.getpixel((x + dx, y - 19)) for dx in range(-30, 30)}
    assert PALETTE.rgb("highlight") in ring
    before = render_image(ENGINE.view(position(DUEL), None)).convert("RGB")
    assert PALETTE.rgb("highlight") not in {
        before.getpixel((x + dx, y - 19)) for dx in range(-30, 30)
    }


def test_each_player_sees_their_own_side_at_the_bottom() -> None:
    state = position(DUEL)
    red, blue = ENGINE.view(state, 0), ENGINE.view(state, 1)
    assert (
        centre_of(parse_station("a1"), red.bottom)[1]
        > centre_of(parse_station("a12"), red.bottom)[1]
    )
    assert (
        centre_of(parse_station("a1"), blue.bottom)[1]
        < centre_of(parse_station("a12"), blue.bottom)[1]
    )


def test_alt_text_says_who_plays_what_and_whose_move() -> None:
    view = ENGINE.view(position(DUEL), 0)
    text = alt_text(view)
    assert "You play Red" in text and "Your move" in text and len(text) <= 1024
    assert "Opponent's move" in alt_text(ENGINE.view(position(DUEL), 1))


def test_the_flip_game_draws_face_down_pieces_the_same_for_everyone() -> None:
    state = position(DUEL.replace("b5", "b5-"), FLIP)
    assert render(ENGINE.view(state, 0)) != render(ENGINE.view(position(DUEL, FLIP), 0))
    twin = position(DUEL.replace("b5", "r9-"), FLIP)
    assert render(ENGINE.view(state, None)) == render(ENGINE.view(twin, None))
