"""Sea Battle images: valid small PNGs, deterministic, readable marks, and no leaks.

Every rendered sample is also written to ``tests/output/seabattle-*.png`` so a person can
look at them after a test run.
"""

from __future__ import annotations

import ast
import io
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games import ENGINES
from bot.games.core import Phase
from bot.games.seabattle.rules import SeaBattleRules, ShipKind
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark
from renderers import seabattle as render_module
from renderers import seabattle_layers as layers_module
from renderers import seabattle_marks as marks_module
from renderers.seabattle import PALETTE, alt_text, layout_for, panel_fields, render
from tests.support.samples import save_sample
from tests.support.seabattle_render_cases import CASES, find_cell, playout, ready_both, rgb

ENGINE = ENGINES["seabattle"]
SIZE_LIMIT = 60_000


# -- the PNG itself --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_valid_png_of_expected_size_under_limit(name: str) -> None:
    view = CASES[name]
    png = render(view)
    save_sample(f"seabattle-{name}", png)
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        image.verify()
    with Image.open(io.BytesIO(png)) as image:
        geo = layout_for(view)
        assert image.size == (geo.width, geo.height)
        assert image.mode == "P"
    assert len(png) < SIZE_LIMIT, f"{name}: {len(png)} bytes"


PHONE_WIDTH = 400
"""Discord shows an image about this wide on a phone, scaling it by its width."""


def test_both_board_sizes_fit_phone_width_and_cells_stay_large() -> None:
    """What a phone shows: cells at least 16 px at 10x10 and 11 px at 15x15 once the image
    is scaled to the screen's width, so the grids must take most of the image; from 16x16 on
    the fields are stacked, and cells keep 16 px again."""
    for name, view in CASES.items():
        geo = layout_for(view)
        assert geo.width <= 1000, name
        on_phone = geo.cell * PHONE_WIDTH / geo.width
        wanted = 11 if 10 < view.size < 16 else 16
        assert on_phone >= wanted, (name, round(on_phone, 1))


@pytest.mark.parametrize("name", ["setup-seat-10x10", "mid-seat-15x15", "finished-public-10x10"])
def test_same_view_gives_identical_bytes_even_with_cold_caches(name: str) -> None:
    view = CASES[name]
    first = render(view)
    assert render(view) == first
    render_module._static_layer.cache_clear()
    marks_module.mark_sprite.cache_clear()
    marks_module.hull_sprite.cache_clear()
    layers_module.field_layer.cache_clear()
    layers_module.RECENT.clear()
    assert render(view) == first


def test_png_carries_no_metadata_chunks() -> None:
    """Only IHDR, PLTE, IDAT and IEND: no time or text chunks that could vary."""
    png = render(CASES["mid-seat-10x10"])
    chunks, offset = [], 8
    while offset < len(png):
        length = int.from_bytes(png[offset : offset + 4], "big")
        chunks.append(png[offset + 4 : offset + 8].decode())
        offset += 12 + length
    assert set(chunks) == {"IHDR", "PLTE", "IDAT", "IEND"}


# -- what the pixels show --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["mid-seat-10x10", "mid-public-15x15"])
def test_hit_miss_and_sea_cells_look_different(name: str) -> None:
    view = CASES[name]
    geo = layout_for(view)
    image = rgb(render(view))
    panel = 1
    hit = image.getpixel(geo.cell_centre(panel, find_cell(view, panel, Mark.HIT)))
    sea = image.getpixel(geo.cell_centre(panel, find_cell(view, panel, Mark.SEA)))
    miss = image.getpixel(geo.cell_centre(panel, find_cell(view, panel, Mark.MISS)))
    assert hit == PALETTE.rgb("hit")
    assert sea == PALETTE.rgb("sea")
    assert miss == PALETTE.rgb("miss")


def test_own_ships_and_sunk_ships_are_drawn() -> None:
    view = CASES["finished-seat-10x10"]
    geo = layout_for(view)
    image = rgb(render(view))
    for panel, field in enumerate(panel_fields(view)):
        for ship in field.ships:
            # The hull shows beside the X: a quarter of the way into the first cell.
            x0, y0, _, y1 = geo.cell_box(panel, ship.cells[0])
            colour = image.getpixel((x0 + geo.cell // 4, (y0 + y1) // 2))
            assert colour == PALETTE.rgb("sunk" if ship.sunk else "ship"), (panel, ship)


def test_last_shot_is_ringed_on_both_fields() -> None:
    view = CASES["mid-seat-10x10"]
    geo = layout_for(view)
    image = rgb(render(view))
    accent = PALETTE.rgb("accent")
    for panel, field in enumerate(panel_fields(view)):
        assert field.last_shot is not None
        x0, y0, _, y1 = geo.cell_box(panel, field.last_shot)
        assert image.getpixel((x0 + 1, (y0 + y1) // 2)) == accent
        other_cell = find_cell(view, panel, Mark.SEA)
        x0, y0, _, y1 = geo.cell_box(panel, other_cell)
        assert image.getpixel((x0 + 1, (y0 + y1) // 2)) != accent


def test_no_ring_before_any_shot() -> None:
    view = CASES["setup-seat-10x10"]
    image = rgb(render(view))
    geo = layout_for(view)
    accent = PALETTE.rgb("accent")
    for panel in (0, 1):
        left, top = geo.grids[panel]
        grid = image.crop((left, top, left + geo.grid_span, top + geo.grid_span))
        assert accent not in {colour for _, colour in grid.getcolors(1 << 16) or []}


def test_unsunk_ships_are_revealed_only_at_the_end() -> None:
    """During play the public image shows no intact ship colour; at the end it does."""
    ship = PALETTE.rgb("ship")
    for name, expected in (("mid-public-10x10", False), ("finished-public-10x10", True)):
        view = CASES[name]
        geo = layout_for(view)
        image = rgb(render(view))
        left, top = geo.grids[0]
        right = geo.grids[1][0] + geo.grid_span
        boards = image.crop((left, top, right, top + geo.grid_span))
        colours = {colour for _, colour in boards.getcolors(1 << 16) or []}
        assert (ship in colours) is expected, name


def test_setup_image_lists_ships_to_place_and_grows_a_footer() -> None:
    seat = CASES["setup-seat-10x10"]
    public = CASES["setup-public-10x10"]
    assert seat.to_place and not public.to_place
    assert layout_for(seat).footer_top is not None
    assert layout_for(public).footer_top is None
    assert layout_for(seat).height > layout_for(public).height


# -- non-interference: the image shows only the view -----------------------------------------

SHARED = ("A1 A4",)
FLEET_A = ("C1 C3", "E1 E3", "G1 G2", "I1 I2", "C5 D5", "G4", "I4", "F6", "J6")
FLEET_B = ("D1 D3", "F1 F3", "H1 I1", "H3 H4", "D5 E5", "J3", "G6", "J6", "D7")
SEAT0_SHOTS = ["A1", "A2", "A3", "A4", "J10", "H9", "B10", "E9"]
SEAT1_SHOTS = ["E5", "B2", "H7", "C9", "J1", "F4", "A10", "G8", "D3", "I6"]


def _hidden_fleet_game(fleet: tuple[str, ...]) -> SeaBattleState:
    """Same seed and shots; seat 1's fleet varies only where seat 0 never shot."""
    state = ENGINE.new_game(ENGINE.presets["classic"], 2024)
    state = ENGINE.act(state, 0, "random").state
    for text in SHARED + fleet:
        state = ENGINE.act(state, 1, text).state
    state = ready_both(state)
    queues = {0: list(SEAT0_SHOTS), 1: list(SEAT1_SHOTS)}
    while state.phase is Phase.PLAY and state.turn is not None and queues[state.turn]:
        seat = state.turn
        state = ENGINE.act(state, seat, queues[seat].pop(0)).state
    return state


def test_hidden_ships_change_no_byte_of_public_or_opponent_images() -> None:
    first, second = _hidden_fleet_game(FLEET_A), _hidden_fleet_game(FLEET_B)
    assert first.sides[1].ships != second.sides[1].ships
    assert first.log == second.log and len(first.log) >= len(SEAT0_SHOTS)
    public = ENGINE.view(first, None)
    assert any(Mark.SUNK in row for row in public.fields[1].marks)  # the battleship went down
    for seat in (None, 0):
        view_a, view_b = ENGINE.view(first, seat), ENGINE.view(second, seat)
        assert render(view_a) == render(view_b), f"seat {seat} sees seat 1's hidden ships"
        assert alt_text(view_a) == alt_text(view_b)
    # Seat 1 itself does see the difference, so the two games really differ.
    assert render(ENGINE.view(first, 1)) != render(ENGINE.view(second, 1))


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), shots=st.integers(0, 60))
def test_random_play_renders_small_and_deterministic(seed: int, shots: int) -> None:
    state = playout("classic", seed, shots)
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        png = render(view)
        assert len(png) < SIZE_LIMIT
        assert png == render(replace(view))


# -- odd board sizes, texts, layering ---------------------------------------------------------


@pytest.mark.parametrize("size", [6, 20])
def test_custom_board_sizes_render(size: int) -> None:
    fleet = (ShipKind("cruiser", 3), ShipKind("destroyer", 2), ShipKind("boat", 1))
    state = ready_both(ENGINE.new_game(SeaBattleRules(size, fleet), 9))
    state = ENGINE.act(state, state.turn, "B2").state
    view = ENGINE.view(state, 0)
    png = render(view)
    save_sample(f"seabattle-custom-{size}x{size}", png)
    assert rgb(png).size == (layout_for(view).width, layout_for(view).height)
    assert len(png) < SIZE_LIMIT


def test_alt_text_is_short_and_says_whose_turn() -> None:
    for name, view in CASES.items():
        text = alt_text(view)
        assert 0 < len(text) <= 1024, name
    seat = CASES["mid-seat-10x10"]
    assert "Your turn" in alt_text(seat)
    assert "Opponent's turn" in alt_text(CASES["mid-waiting-10x10"])
    public = CASES["mid-public-10x10"]
    assert f"Player {public.turn + 1} to shoot" in alt_text(public)  # type: ignore[operator]
    assert "by resignation" in alt_text(CASES["resigned-seat-milton-bradley"])


LIBRARIES = ("PIL", "isal", "xxhash", "renderers")


def test_renderers_import_only_the_engines_pillow_isal_xxhash_and_the_standard_library() -> None:
    for path in Path(render_module.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                allowed = root in sys.stdlib_module_names or root in LIBRARIES
                assert allowed or name.startswith("bot.games"), f"{path.name} imports {name}"


# -- players' names ---------------------------------------------------------------------------

NAMES = ("Admiral Zoë", "Борис")


def test_public_boards_name_the_players_and_private_ones_are_unchanged() -> None:
    for name in ("setup-public-10x10", "mid-public-10x10", "finished-public-10x10"):
        view = CASES[name]
        named = render(view, NAMES)
        save_sample(f"seabattle-{name}-named", named)
        assert named != render(view) and len(named) < SIZE_LIMIT
        geo = layout_for(view)
        left, top = geo.grids[0]
        title = (left, top - 70, left + geo.grid_span, top - 30)
        assert rgb(named).crop(title).tobytes() != rgb(render(view)).crop(title).tobytes()
        text = alt_text(view, NAMES)
        assert "Admiral Zoë's fleet" in text and "Борис's fleet" in text
        assert "Player 1" not in text
    seat = CASES["mid-seat-10x10"]
    assert render(seat, NAMES) == render(seat)


def test_a_name_no_font_draws_is_shown_as_the_seat() -> None:
    view = CASES["mid-public-10x10"]
    assert render(view, ("王小明", "")) == render(view)
