"""A Sea Battle field's layer repainted from the field drawn before it is, pixel for pixel,
the layer drawn whole, in every mode, through sinkings, mines, disclosures and the end."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.games.core import Phase, other
from bot.games.grid import cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import FieldView
from renderers import seabattle_layers as layers
from renderers.seabattle import layout_for, panel_fields
from tests.games.seabattle.test_dutchman import sailing
from tests.support.seabattle_positions import ENGINE, MODES, random_ready_game

PLIES = 160


def fields_drawn(state: SeaBattleState) -> Iterator[tuple[int, int, FieldView]]:
    """Every field of a state's three views, with its board's cell size and field size."""
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        geometry = layout_for(view)
        for field in panel_fields(view):
            yield geometry.cell, geometry.size, field


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_repainted_field_is_the_field_drawn_whole(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games of the mode are played alternately, as a bot serves several at once, so
    fields of other games lie on the same ground; each layer must equal the whole drawing."""
    layers.field_layer.cache_clear()
    layers.RECENT.clear()
    repainted: list[Image.Image] = []
    repaint = layers._repainted

    def counted(*args: object) -> Image.Image | None:
        layer = repaint(*args)  # type: ignore[arg-type]
        if layer is not None:
            repainted.append(layer)
        return layer

    monkeypatch.setattr(layers, "_repainted", counted)
    rng = random.Random(f"layers {mode}")
    games = [random_ready_game(mode, rng.randrange(1 << 30)) for _ in range(2)]
    drawn = 0
    for ply in range(PLIES):
        state = games[ply % 2]
        movers = sorted(ENGINE.to_move(state))
        if not movers:
            continue
        seat = rng.choice(movers)
        action = rng.choice(list(ENGINE.legal_actions(state, seat)))
        state = games[ply % 2] = ENGINE.apply(state, seat, action).state
        for cell, size, field in fields_drawn(state):
            whole = layers._drawn_layer(cell, size, field)
            assert layers.field_layer(cell, size, field).tobytes() == whole.tobytes(), (
                mode,
                len(state.log),
                field.owner,
            )
            drawn += 1
    assert len(repainted) > drawn // 4, "fields were drawn whole where one cell changed"


def test_a_flying_dutchman_joined_at_its_corners_is_repainted_as_drawn_whole() -> None:
    """A hull joined at a corner reaches into the two cells beside that corner, so shots
    there, and the ship moving away from them, repaint those cells too (§5.2, §5.4)."""
    layers.field_layer.cache_clear()
    layers.RECENT.clear()
    state = sailing()
    rng = random.Random("corners")
    shapes = ["move A10 B11 C10 D11 E10", "move K3 L4 M5 N6 O7", "move C15 D16 E15 F16 G15"]
    for _ in range(120):
        if state.phase is not Phase.PLAY:
            break
        pending = state.pending
        if pending is not None:
            decks = len(state.sides[pending.seat].ships[0].cells)
            shape = rng.choice(shapes).split()
            text = " ".join(shape[: decks + 1]) if rng.random() < 0.7 else "stay"
            state = ENGINE.act(state, pending.seat, text).state
        else:
            shooter = state.turn
            assert shooter is not None
            ship = state.sides[other(shooter)].ships[0].cells
            beside = sorted({near for part in ship for near in layers._within(part, 1)})
            column, row = rng.choice([c for c in beside if min(c) >= 0 and max(c) < 20])
            state = ENGINE.act(state, shooter, cell_name((column, row))).state
        for cell, size, field in fields_drawn(state):
            whole = layers._drawn_layer(cell, size, field)
            assert layers.field_layer(cell, size, field).tobytes() == whole.tobytes()


def test_recent_layers_keep_the_latest_few_of_each_ground_and_a_bounded_number_in_all() -> None:
    recent = layers.RecentLayers(kept=5, each=2)
    field = ENGINE.view(random_ready_game("classic", 1), 0).fields[0]
    images = [Image.new("P", (1, 1), n) for n in range(8)]
    for ground, image in zip("aabbbcdd", images, strict=True):
        recent.keep(ground, field, image)
    assert len(recent) == 5
    assert [layer for _, layer in recent.get("b")] == [images[4], images[3]]
    assert recent.get("a") == (), "the ground used longest ago goes first"
    assert [layer for _, layer in recent.get("d")] == [images[7], images[6]]
    recent.keep("c", field, images[0])
    assert len(recent) == 4 and recent.get("b") == (), "a whole ground goes at once"
    assert [layer for _, layer in recent.get("c")] == [images[0], images[5]]
