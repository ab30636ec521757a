"""Luzhanqi images: valid small PNGs, deterministic, pieces labelled for their owner only,
railroads unlike roads, the last move highlighted.

Samples are also written to ``tests/output/luzhanqi-*.png`` for a person to look at.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from bot.games.core import EndReason, Outcome, Phase
from bot.games.luzhanqi.board import Colour, parse_station
from bot.games.luzhanqi.pieces import COUNTS, Kind
from bot.games.luzhanqi.state import LuzhanqiState
from bot.games.luzhanqi.view import Losses, LuzhanqiView
from renderers import luzhanqi as module
from renderers import luzhanqi_pieces as pieces
from renderers.common import Face, can_draw, font
from renderers.luzhanqi import PALETTE, alt_text, centre_of, render, render_image
from tests.support.luzhanqi_positions import CLASSIC, ENGINE, FLIP, play, position
from tests.support.samples import save_sample

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
        moves = [a for a in ENGINE.legal_actions(state, state.turn) if "draw" not in str(a)]
        state = ENGINE.apply(state, state.turn, rng.choice(moves)).state
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
    save_sample(f"luzhanqi-{name}", png)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == (module.WIDTH, module.HEIGHT)
    assert len(png) < SIZE_LIMIT
    module._static_layer.cache_clear()
    pieces.token.cache_clear()
    pieces.labelled_token.cache_clear()
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
    y -= module.TOKEN[1] // 2 + 3  # the ring's top edge, just above the token
    image = render_image(view).convert("RGB")
    ring = {image.getpixel((x + dx, y)) for dx in range(-30, 30)}
    assert PALETTE.rgb("highlight") in ring
    before = render_image(ENGINE.view(position(DUEL), None)).convert("RGB")
    assert PALETTE.rgb("highlight") not in {before.getpixel((x + dx, y)) for dx in range(-30, 30)}


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
    state = position(DUEL.replace("b5", "b5-").replace("b3", "r9-"), FLIP)
    assert render(ENGINE.view(state, 0)) != render(ENGINE.view(position(DUEL, FLIP), 0))
    twin = position(DUEL.replace("b5", "r9-").replace("b3", "b5-"), FLIP)
    assert render(ENGINE.view(state, None)) == render(ENGINE.view(twin, None))


# -- Chinese names, lost pieces, players' names -----------------------------------------------


def _coverage(text: str, face: Face, size: int = 24) -> bytes:
    image = Image.new("L", (120, 40), 0)
    ImageDraw.Draw(image).text((4, 4), text, font=font(size, face), fill=255)
    return image.tobytes()


def test_every_chinese_piece_name_is_drawn_by_the_bundled_font_not_as_boxes() -> None:
    names = list(pieces.CHINESE.values())
    assert sorted(names) == sorted(
        [
            "司令",
            "军长",
            "师长",
            "旅长",
            "团长",
            "营长",
            "连长",
            "排长",
            "工兵",
            "地雷",
            "炸弹",
            "军旗",
        ]
    )
    boxes = _coverage("\ue000\ue000", "glyphs")  # what a font without the glyphs draws
    drawn = {_coverage(text, "glyphs") for text in names}
    assert boxes not in drawn and len(drawn) == len(names)
    assert all(can_draw(char, "glyphs") for text in names for char in text)
    assert not can_draw("司", "sans")  # why the bot ships a font at all


def _chinese_part(view: LuzhanqiView, where: str) -> bytes:
    """The token's upper line right of the rank number: where the Chinese name is drawn."""
    x, y = centre_of(parse_station(where), view.bottom)
    return render_image(view).crop((x - 12, y - 19, x + 40, y + 2)).tobytes()


def test_tokens_carry_the_chinese_name_beside_the_rank() -> None:
    marshal = ENGINE.view(position(DUEL.replace("r6", "r9")), 0)
    general = ENGINE.view(position(DUEL.replace("r6", "r8")), 0)
    landmine = ENGINE.view(position(DUEL.replace("r6", "rL")), 0)
    crops = {_chinese_part(view, "a7") for view in (marshal, general, landmine)}
    assert len(crops) == 3
    image = render_image(marshal)
    x, y = centre_of(parse_station("a7"), marshal.bottom)
    upper = image.crop((x - 40, y - 19, x + 40, y + 2)).tobytes()
    assert upper.count(bytes([PALETTE["text"]])) > 60  # "9 司令" in full white strokes


def _strip(view: LuzhanqiView, top: int) -> bytes:
    return render_image(view).crop((0, top, module.WIDTH, top + module.STRIP)).tobytes()


def test_the_strips_list_losses_as_the_viewer_may_know_them() -> None:
    state = position(DUEL)  # every piece not in the diagram counts as lost
    red, blue, public = (ENGINE.view(state, seat) for seat in (0, 1, None))
    red_losses, blue_losses = red.losses
    assert red_losses.unknown == 0 and red_losses.count == 22  # Red knows its own
    assert blue_losses.known == () and blue_losses.unknown == 22  # only how many of Blue's
    assert public.losses[0].known == () and public.losses[1].known == ()
    assert "Blue lost 22: 22 unknown." in alt_text(red)
    assert "Red lost 22: field marshal, general" in alt_text(red)
    # Blue losing a major instead of a colonel is all the same to Red and the channel ...
    twin = position(DUEL.replace("b5", "b4"))
    for seat in (0, None):
        assert render(ENGINE.view(twin, seat)) == render(ENGINE.view(state, seat))
    # ... but not to Blue, whose own strip (at the bottom of Blue's image) changes.
    assert _strip(ENGINE.view(twin, 1), module.BOTTOM_STRIP) != _strip(blue, module.BOTTOM_STRIP)
    assert _strip(ENGINE.view(twin, 1), module.TOP_STRIP) == _strip(blue, module.TOP_STRIP)


def test_lost_pieces_without_a_rank_carry_their_english_name_like_their_tokens() -> None:
    """A chip shows a ranked piece's number; the bomb, landmine and flag have none, so
    their chips carry the English name the board tokens show beneath the Chinese."""
    for kind in Kind:
        expected = kind.short if kind.rank is None else str(kind.rank)
        assert pieces.chip_prefix(kind) == expected
    state = position(DUEL)
    red = ENGINE.view(state, 0)
    for kind in (Kind.BOMB, Kind.LANDMINE, Kind.FLAG):
        lost = replace(red, losses=(Losses(Colour.RED, (kind,), 0), red.losses[1]))
        (chip,), cut = pieces.strip_chips(lost.losses[0], module.BOTTOM_STRIP, SPAN)
        image = render_image(lost)
        box = (chip.left, chip.y - 10, chip.left + chip.width, chip.y + 10)
        drawn = image.crop(box).tobytes().count(bytes([PALETTE["text"]]))
        alone = Image.new("P", (chip.width, 20), PALETTE["red"])
        PALETTE.text(
            alone, (chip.width // 2, 10), pieces.CHINESE[kind], 16, "text", "red", "mm", "glyphs"
        )
        assert drawn > alone.tobytes().count(bytes([PALETTE["text"]])) + 40  # a word more
        assert not cut


SPAN = (module.MARGIN, module.WIDTH - module.MARGIN)


def test_a_strip_has_room_for_every_kind_a_side_can_lose() -> None:
    """At the end of a game every loss is shown: a side that lost all 25 pieces gets a chip
    for each of the 12 kinds, with its count, inside the strip."""
    everything = tuple(kind for kind, count in COUNTS.items() for _ in range(count))
    for replay in (False, True):
        chips, cut = pieces.strip_chips(Losses(Colour.BLUE, everything, 0), 0, SPAN, replay)
        assert not cut and [chip.kind for chip in chips] == list(COUNTS)
        assert [chip.count for chip in chips] == list(COUNTS.values())
        for chip in chips:
            assert SPAN[0] <= chip.left and chip.left + chip.width <= SPAN[1]
            assert chip.y + pieces.CHIP[1] // 2 <= module.STRIP


def test_a_fallen_marshal_is_known_to_the_players_and_the_end_shows_all() -> None:
    duel = """
12 . bF . . b3
 8 b9 . . . .
 7 r9 . . . .
 1 r3 rF . . .
"""
    after = play(position(duel), "a7-a8").state  # marshal against marshal: both removed
    assert after.flags_shown == {Colour.RED, Colour.BLUE}
    red_view = ENGINE.view(after, 0)
    assert Kind.MARSHAL in red_view.losses[1].known
    assert red_view.losses[1].unknown == red_view.losses[1].count - 1
    assert all(losses.known == () for losses in ENGINE.view(after, None).losses)  # ruling 5
    over = ENGINE.conclude(after, Outcome(0, EndReason.RESIGNATION))
    assert all(losses.unknown == 0 for losses in ENGINE.view(over, None).losses)


def test_the_header_names_the_players() -> None:
    state = position(DUEL)
    names = ("Zoë", "Борис")
    public = ENGINE.view(state, None)
    assert render(public, names) != render(public)
    assert "Zoë (Red) to move" in alt_text(public, names)
    assert "Your opponent is Борис." in alt_text(ENGINE.view(state, 0), names)
    save_sample("luzhanqi-named-public", render(public, names))


def test_a_standing_draw_offer_is_noted_for_everyone() -> None:
    """8.5: the offer is public; each audience reads who made it, and the image changes."""
    state = position(DUEL)
    offered = play(play(state, "offer draw").state, "a7-a6").state
    assert "Your opponent offers a draw" in alt_text(ENGINE.view(offered, 1))
    assert "You offered a draw" in alt_text(ENGINE.view(offered, 0))
    assert "Draw offered by Zoë (Red)" in alt_text(ENGINE.view(offered, None), ("Zoë", "Бо"))
    moved = play(state, "a7-a6").state
    assert "offer" not in alt_text(ENGINE.view(moved, 1))
    assert render(ENGINE.view(offered, 1)) != render(ENGINE.view(moved, 1))
    save_sample("luzhanqi-draw-offer-public", render(ENGINE.view(offered, None), ("Zoë", "Бо")))
    save_sample("luzhanqi-draw-offer-seat1", render(ENGINE.view(offered, 1), ("Zoë", "Бо")))
