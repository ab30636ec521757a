"""Players' display names on board images: hostile input cleaned, any script drawn or
replaced cleanly, never drawn as boxes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.names import MAX_NAME, clean
from renderers.common import can_draw, drawable_name, font, text_width


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("alice", "alice"),
        ("  al \t ice\n", "al ice"),
        ("\u202eevil\u202c", "evil"),  # a right-to-left override
        ("zero\u200bwidth\u200d", "zerowidth"),
        ("Z\u0351\u0352\u0357a\u0300\u0301\u0302lgo", "Zàlgo"),  # piled marks
        ("\u3164\u3164", ""),  # Hangul fillers look like a name but draw nothing
        ("ｆｕｌｌ", "full"),  # full-width forms, composed by NFKC
        (None, ""),
        ("x" * 100, "x" * MAX_NAME),
    ],
)
def test_clean_keeps_visible_text_only(raw: str | None, expected: str) -> None:
    assert clean(raw) == expected


def _coverage(text: str, face: str) -> bytes:
    image = Image.new("L", (200, 40), 0)
    ImageDraw.Draw(image).text((4, 4), text, font=font(24, face), fill=255)  # type: ignore[arg-type]
    return image.tobytes()


def test_names_in_latin_letters_use_the_plain_face() -> None:
    assert drawable_name("alice", "Player 1", 20, 300) == ("alice", "sans")


@pytest.mark.parametrize("name", ["Zoë", "Борис", "Σοφια", "Renée"])
def test_accents_greek_and_cyrillic_are_drawn_with_the_bundled_face(name: str) -> None:
    text, face = drawable_name(name, "Player 1", 20, 300)
    assert (text, face) == (name, "glyphs")
    assert all(can_draw(char, "glyphs") for char in name)
    # Drawn, not boxes: the name differs from as many missing-glyph boxes.
    assert _coverage(name, "glyphs") != _coverage("\ue000" * len(name), "glyphs")


def test_an_accent_no_face_has_is_left_off_its_letter() -> None:
    assert drawable_name("Σοφία", "Player 1", 20, 300) == ("Σοφια", "glyphs")


def test_a_script_without_a_font_gives_way_to_the_seat_word() -> None:
    assert drawable_name("王小明", "Player 2", 20, 300) == ("Player 2", "sans")
    assert drawable_name("ok 王", "Player 2", 20, 300) == ("Player 2", "sans")


def test_emoji_are_left_out_and_a_name_of_emoji_alone_gives_way() -> None:
    assert drawable_name("🔥 bob 🔥", "Player 1", 20, 300) == ("bob", "sans")
    assert drawable_name("🔥🔥", "Player 1", 20, 300) == ("Player 1", "sans")


def test_a_long_name_is_cut_to_the_width_with_an_ellipsis() -> None:
    text, face = drawable_name("Bartholomew the Magnificent", "Player 1", 20, 120)
    assert text.endswith("…") and text.startswith("Barth")
    assert text_width(text, 20, face) <= 120


def test_a_long_name_in_the_bundled_face_ends_in_plain_dots() -> None:
    text, face = drawable_name("Бартоломей Великолепный", "Player 1", 20, 120)
    assert face == "glyphs" and text.endswith("...") and text.startswith("Барт")
    assert text_width(text, 20, face) <= 120
