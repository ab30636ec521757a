"""Warships board images: valid, small, deterministic, and drawn from the view alone."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.warships.units import Kind
from bot.games.warships.view import WarshipsView
from renderers.warships import (
    HEIGHT,
    KEY_TOP,
    RANGE_SIZE,
    WIDTH,
    _box,
    _turned,
    alt_text,
    render,
)
from renderers.warships_tokens import CELL, CODE_SIZE, PALETTE, SHAPES, token_shape
from renderers.warships_words import losses_text
from renderers.warships_words import status as drawing_status
from tests.support.samples import OUTPUT, PHONE_WIDTH, save_sample
from tests.support.warships_positions import ENGINE as E
from tests.support.warships_positions import f, position, random_game

BUDGET = 60_000


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _crop(view: WarshipsView, name: str) -> bytes:
    return _rgb(render(view)).crop(_box(f(name), _turned(view))).tobytes()


def _sample(name: str, view: WarshipsView) -> bytes:
    png = render(view)
    save_sample(f"warships-{name}", png)
    return png


def test_images_are_valid_pngs_under_budget_and_deterministic() -> None:
    _, final = random_game(E.configure(None, "quick"), seed=2, limit=5000)
    _, middle = random_game(E.configure(None, "quick"), seed=2, limit=120)
    setup = E.new_game(E.configure(None, "manoeuvres"), 3)
    for name, state in (("setup", setup), ("middle", middle), ("final", final)):
        for audience in (0, 1, None):
            view = E.view(state, audience)
            png = _sample(f"{name}-{audience}", view)
            assert png.startswith(b"\x89PNG") and len(png) < BUDGET
            assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
            assert render(E.view(state, audience)) == png


DUEL = """
   F  G  H
6  .  bs dd
5  CR DD .
"""


def test_enemy_tokens_are_blank_and_own_tokens_carry_their_code() -> None:
    view = E.view(position(DUEL), 0)
    assert _crop(view, "G6") == _crop(view, "H6")  # a battleship and a destroyer, unknown
    assert _crop(view, "F5") != _crop(view, "G5")  # own cruiser and destroyer, labelled


def test_a_token_identified_in_a_clash_is_drawn_with_its_code() -> None:
    state = position(DUEL)
    after = E.act(state, 0, "F5xG6").state  # the cruiser is lost; the battleship is known
    view = E.view(after, 0)
    assert _crop(view, "G6") != _crop(view, "H6")


def test_the_last_move_is_highlighted() -> None:
    state = position(DUEL)
    before = E.view(state, 1)
    after = E.view(E.act(state, 0, "G5-G4").state, 1)
    assert _crop(before, "G4") != _crop(after, "G4")
    assert _crop(before, "G5") != _crop(after, "G5")


def test_north_sees_its_own_port_at_the_bottom() -> None:
    state = position(DUEL)
    south, north = E.view(state, 0), E.view(state, 1)
    assert _box(f("A1"), _turned(south))[1] > HEIGHT // 2
    assert _box(f("L18"), _turned(north))[1] > HEIGHT // 2
    assert _box(f("A1"), _turned(E.view(state, None)))[1] > HEIGHT // 2


def test_alt_text_names_whose_move_and_never_a_hidden_type() -> None:
    state = position(DUEL)
    text = alt_text(E.view(state, 1))
    assert "Your opponent's move" in text
    assert "battleship" not in text.lower() and "destroyer" not in text.lower()
    assert len(text) < 1024


def test_neutral_water_turns_show_on_the_token() -> None:
    diagram = """
       E
    8  BS
    """
    once = E.view(position(diagram, neutral={"E8": 1}), 1)
    twice = E.view(position(diagram, neutral={"E8": 2}), 1)
    assert _crop(once, "E8") != _crop(twice, "E8")


def test_a_standing_draw_offer_is_written_on_the_board() -> None:
    state = position(DUEL)
    offered = E.act(E.act(state, 0, "offer draw").state, 0, "G5-G4").state
    assert "Your opponent offered a draw." in drawing_status(E.view(offered, 1))
    assert render(E.view(offered, 1)) != render(E.view(E.act(state, 0, "G5-G4").state, 1))


# -- shapes, legend, losses in words, names ---------------------------------------------------


def test_every_type_has_a_shape_of_its_own() -> None:
    outlines = {kind: token_shape(kind, CELL, "south", "ink").mask.tobytes() for kind in SHAPES}
    assert len(set(outlines.values())) == len(SHAPES) == len(Kind) + 1  # and "type hidden"


def _key_crop(view: WarshipsView) -> Image.Image:
    return _rgb(render(view)).crop((0, KEY_TOP, WIDTH, HEIGHT))


def test_the_key_gives_each_types_range_under_the_rules_in_play() -> None:
    classic = E.view(position(DUEL), 0)
    mobility = E.view(position(DUEL, rules=E.configure(None, "mobility")), 0)
    assert _key_crop(classic) != _key_crop(mobility)  # missile and landing: range 2
    assert _key_crop(classic) == _key_crop(E.view(position(DUEL), None))


def test_the_key_wears_the_viewers_colour() -> None:
    """North's tokens are yellow, so its key is too; South's and the channel's are orange."""
    sides = ((0, "south", "north"), (1, "north", "south"), (None, "south", "north"))
    for seat, own, other in sides:
        counts = _key_crop(E.view(position(DUEL), seat)).getcolors(1 << 16) or []
        colours = {rgb: count for count, rgb in counts}
        assert colours.get(PALETTE.rgb(own), 0) > 2000, seat
        assert PALETTE.rgb(other) not in colours, seat


def test_on_a_phone_fields_and_codes_are_large() -> None:
    """At 360 px wide, a field is 28 px, a code 15 px and a range 14 px; and the image is
    barely taller than two widths, so the board and its key fit about one screen."""
    scale = PHONE_WIDTH / WIDTH
    assert CELL * scale >= 28 and CODE_SIZE * scale >= 15 and RANGE_SIZE * scale >= 14
    assert HEIGHT <= 2.05 * WIDTH


def test_the_phone_sized_samples_are_saved() -> None:
    _sample("north-0", E.view(position(DUEL), 1))
    assert (OUTPUT / "phone" / "warships-north-0.png").exists()


def test_losses_of_hidden_type_are_written_in_words() -> None:
    after = E.act(position(DUEL), 0, "F5xG6").state  # the cruiser is lost; the battleship known
    public = E.view(after, None)
    assert [loss.kind for loss in public.losses] == [None]
    text = alt_text(public, ("Zoë", "Борис"))
    assert "Zoë (South) lost 1: 1 of hidden type." in text and "??" not in text
    assert "You (South) lost 1: cruiser." in alt_text(E.view(after, 0))
    assert losses_text(list(E.view(after, 0).losses)) == "cruiser"


def test_the_public_board_names_the_players() -> None:
    view = E.view(position(DUEL), None)
    named = render(view, ("Zoë", "Борис"))
    save_sample("warships-named-public", named)
    assert named != render(view)
    assert "Zoë (South) to move." in drawing_status(view, ("Zoë", "Борис"))
    seat = E.view(position(DUEL), 0)
    assert render(seat, ("Zoë", "Борис")) == render(seat)  # a player's own board says "You"
