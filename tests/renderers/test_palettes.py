"""``renderers/palettes.toml``: every board's own colours, read into its palette."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from renderers.common import BOARD_COLOURS, BOARD_RAMPS, PALETTES, board_palette

DECLARED = tomllib.loads(PALETTES.read_text(encoding="utf-8"))
RENDERERS = Path(__file__).parents[2] / "renderers"


def test_every_declared_palette_is_the_palette_of_a_renderer() -> None:
    used = {
        name
        for module in RENDERERS.glob("*.py")
        for name in re.findall(r'board_palette\("(\w+)"\)', module.read_text(encoding="utf-8"))
    }
    assert used == set(DECLARED)


@pytest.mark.parametrize("board", sorted(DECLARED))
def test_a_board_palette_has_the_frame_first_then_the_boards_own_in_the_files_order(
    board: str,
) -> None:
    palette = board_palette(board)
    names = [*BOARD_COLOURS, *DECLARED[board]["colours"]]
    assert [palette[name] for name in names] == list(range(len(names)))
    assert palette.rgb("accent") == BOARD_COLOURS["accent"]
    for front, back in (*BOARD_RAMPS, *map(tuple, DECLARED[board]["ramps"])):
        assert len(palette.ramp(front, back)) > 1, (front, back)  # drawn antialiased
