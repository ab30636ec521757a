"""Setting up a side (Warships rules §5, §15.3): legality with the rule named, random deals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from bot.games.core import IllegalActionError
from bot.games.grid import Cell, cell_name
from bot.games.warships import board
from bot.games.warships.board import Shore
from bot.games.warships.rules import MANOEUVRE_LIMIT, WarshipsRules
from bot.games.warships.state import Piece
from bot.games.warships.units import MINE_COUNT, SHIPS, Kind

Layout = Mapping[Cell, Kind]
"""A side's ships and port mines by field (batteries are fixed and not part of it)."""


def placement_fields(rules: WarshipsRules, shore: Shore) -> frozenset[Cell]:
    """Every field a setup may use: the port's 32 free fields, plus the area under §15.3."""
    fields = board.SETUP_FIELDS[shore]
    return fields | board.MANOEUVRE_AREAS[shore] if rules.manoeuvres else fields


def check_field(rules: WarshipsRules, shore: Shore, cell: Cell, kind: Kind) -> None:
    """Refuse a token on a field the setup rules do not give it, naming the rule."""
    name = cell_name(cell)
    if cell in board.BATTERY_FIELDS[shore]:
        raise IllegalActionError(f"{name} is a shore-battery field; batteries stand there.")
    if cell in board.SETUP_FIELDS[shore]:
        return
    if rules.manoeuvres and cell in board.MANOEUVRE_AREAS[shore]:
        if kind is Kind.MINE:
            raise IllegalActionError(
                f"A mine cannot start on {name}: mines start in the port or in reserve."
            )
        return
    where = "your port or your initial-manoeuvre area" if rules.manoeuvres else (
        "your port"
    )
    raise IllegalActionError(f"{name} is not in {where}.")


def check_layout(rules: WarshipsRules, shore: Shore, layout: Layout, *, whole: bool) -> None:
    """Refuse a layout that breaks a setup rule; ``whole`` demands all 26 ships (§5.2)."""
    for cell, kind in sorted(layout.items()):
        check_field(rules, shore, cell, kind)
    counts = Counter(layout.values())
    for kind in SHIPS:
        unit = kind.unit
        if counts[kind] > unit.count or (whole and counts[kind] != unit.count):
            raise IllegalActionError(
                f"A fleet has exactly {unit.count} × {unit.name}, not {counts[kind]}."
            )
    if counts[Kind.MINE] > MINE_COUNT:
        raise IllegalActionError(f"A side has only {MINE_COUNT} mines.")
    outside = sum(1 for cell in layout if cell not in board.PORTS[shore])
    if outside > MANOEUVRE_LIMIT:
        raise IllegalActionError(
            f"At most {MANOEUVRE_LIMIT} ships may start outside the port, not {outside}."
        )


def random_layout(shore: Shore, rng: random.Random) -> dict[Cell, Kind]:
    """§5.5: the 26 ships on random port fields, every mine in reserve."""
    ships = [kind for kind in SHIPS for _ in range(kind.unit.count)]
    fields = sorted(board.SETUP_FIELDS[shore])
    rng.shuffle(fields)
    return dict(zip(fields, ships, strict=False))


def pieces_for(seat: int, shore: Shore, layout: Layout) -> list[Piece]:
    """The side's tokens: its layout plus its four batteries on their fields (§5.2)."""
    batteries = [Piece(cell, seat, Kind.BATTERY) for cell in board.BATTERY_FIELDS[shore]]
    return batteries + [Piece(cell, seat, kind) for cell, kind in layout.items()]


def fit_to_shore(rules: WarshipsRules, shore: Shore, layout: Layout) -> Layout:
    """A saved setup made for the other port, turned to fit this one (point image, §2.1)."""
    fields = placement_fields(rules, shore)
    if all(cell in fields for cell in layout):
        return layout
    turned = {board.mirror(cell): kind for cell, kind in layout.items()}
    return turned if all(cell in fields for cell in turned) else layout
