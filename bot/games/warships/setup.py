"""Setting up a side (Warships rules §5, §15.3): legality with the rule named, random deals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace

from bot.games.core import Event, IllegalActionError, Phase, Transition, name_of, other
from bot.games.grid import Cell, cell_name
from bot.games.warships import actions as act
from bot.games.warships import board
from bot.games.warships.board import Shore
from bot.games.warships.rules import MANOEUVRE_LIMIT, WarshipsRules
from bot.games.warships.state import Piece, WarshipsState
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
    where = "your port or your initial-manoeuvre area" if rules.manoeuvres else ("your port")
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


def first_seat(state: WarshipsState) -> int:
    """§5.1: who moves first, drawn independently of who plays South."""
    return random.Random(f"warships:{state.seed}:first").randrange(2)


def layout_of(state: WarshipsState, seat: int) -> dict[Cell, Kind]:
    """``seat``'s ships and port mines by field, as a setup action sees them."""
    return {p.cell: p.kind for p in state.own(seat) if p.kind is not Kind.BATTERY}


def with_layout(state: WarshipsState, seat: int, layout: Mapping[Cell, Kind]) -> WarshipsState:
    """The state with ``seat``'s side set out as ``layout``; mines not laid stay in reserve."""
    others = [p for p in state.pieces if p.owner != seat]
    shore = state.shore(seat)
    mines = sum(1 for kind in layout.values() if kind is Kind.MINE)
    new = state.with_pieces(others + pieces_for(seat, shore, layout))
    return new.with_side(seat, replace(state.sides[seat], reserve=6 - mines))


def dealt(state: WarshipsState, seat: int) -> WarshipsState:
    """A random setup for ``seat``, drawn from the seed and the count of earlier draws so a
    replay deals the same."""
    side = state.sides[seat]
    rng = random.Random(f"warships:{state.seed}:setup:{seat}:{side.random_draws}")
    layout = random_layout(state.shore(seat), rng)
    new = with_layout(state, seat, layout)
    return new.with_side(seat, replace(new.sides[seat], random_draws=side.random_draws + 1))


def swapped(state: WarshipsState, seat: int, first: Cell, second: Cell) -> dict[Cell, Kind]:
    """``seat``'s layout with the contents of two fields exchanged, or a refusal (§5, §15.3)."""
    layout = layout_of(state, seat)
    if first == second:
        raise IllegalActionError("Name two different fields to swap.")
    if first not in layout and second not in layout:
        raise IllegalActionError(
            f"Neither {cell_name(first)} nor {cell_name(second)} holds one of your ships or mines."
        )
    moved = {cell: kind for cell, kind in layout.items() if cell not in (first, second)}
    if first in layout:
        moved[second] = layout[first]
    if second in layout:
        moved[first] = layout[second]
    check_layout(state.rules, state.shore(seat), moved, whole=False)
    return moved


def setup_actions(state: WarshipsState, seat: int) -> Iterator[act.SetupAction]:
    """Every setup action open to ``seat``: random, ready, each mine laid or lifted, each
    legal swap."""
    yield act.RandomSetup()
    yield act.Ready()
    layout = layout_of(state, seat)
    shore = state.shore(seat)
    fields = sorted(placement_fields(state.rules, shore))
    for cell in fields:
        kind = layout.get(cell)
        if kind is Kind.MINE:
            yield act.RemoveMine(cell)
        elif kind is None and cell in board.SETUP_FIELDS[shore] and state.sides[seat].reserve:
            yield act.PlaceMine(cell)
    for i, first in enumerate(fields):
        for second in fields[i + 1 :]:
            if first in layout or second in layout:
                try:
                    swapped(state, seat, first, second)
                except IllegalActionError:
                    continue
                yield act.Swap(first, second)


def start_play(new: WarshipsState) -> Transition:
    """Both setups are confirmed: play begins with the seat drawn to move first (§5.1)."""
    first = first_seat(new)
    new = replace(new, phase=Phase.PLAY, turn=first)
    return Transition(
        new,
        (
            Event(first, "Both fleets are set. You move first."),
            Event(other(first), "Both fleets are set. Your opponent moves first."),
            Event(None, f"Both fleets are set. {name_of(first)} moves first."),
        ),
    )
