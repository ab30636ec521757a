"""Sea Battle setup (Sea Battle rules §2.4, §4.4, §4.6, §4.7): each player lays out a
fleet, and its mines and minesweepers when the rules have them, in secret, then confirms it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from bot.games.core import Event, IllegalActionError, Phase, Transition, name_of, other
from bot.games.grid import Cell, cell_name
from bot.games.seabattle import actions as act
from bot.games.seabattle import texts
from bot.games.seabattle.fleet import (
    Ship,
    check_new_ship,
    describe_kinds,
    free_placements,
    is_straight,
    line_between,
    random_fleet,
    spacing_zone,
    unplaced_kinds,
)
from bot.games.seabattle.mines import MINE, SWEEPER, blocked_for_ships, check_item, touching
from bot.games.seabattle.rules import SeaBattleRules
from bot.games.seabattle.state import SeaBattleState, Side
from bot.games.setup import check_open, confirm_ready, private
from bot.games.words import with_article


def placement_of(
    cells: tuple[Cell, ...], submarine: bool = False
) -> act.PlaceShip | act.PlaceShape | act.PlaceSub:
    """The move that places a ship on ``cells``: its two ends if straight, else its cells;
    ``sub J10`` for the §4.8 submarine."""
    if submarine:
        return act.PlaceSub(cells[0])
    if is_straight(cells):
        return act.PlaceShip(cells[0], cells[-1])
    return act.PlaceShape(cells)


def side_text(side: Side, submarine: int | None = None) -> str | None:
    """The whole side as one ``fleet`` move, to save and lay out again; ``submarine`` is the
    kind of the ships that are §4.8 submarines."""
    pieces: list[act.Placement] = [
        placement_of(ship.cells, ship.kind == submarine) for ship in side.ships
    ]
    pieces += [act.PlaceMine(cell) for cell in side.mines]
    pieces += [act.PlaceSweeper(cell) for cell in side.sweepers]
    return str(act.PlaceFleet(tuple(pieces))) if pieces else None


def is_complete(rules: SeaBattleRules, side: Side) -> bool:
    return (
        len(side.ships) == len(rules.fleet)
        and len(side.mines) == rules.mines
        and len(side.sweepers) == rules.sweepers
    )


def legal_setup(state: SeaBattleState, seat: int) -> Iterator[act.Action]:
    rules = state.rules
    side = state.sides[seat]
    yield act.RandomFleet()
    if side.ships or side.mines or side.sweepers:
        yield act.ClearFleet()
        yield from (act.RemoveShip(ship.cells[0]) for ship in side.ships)
        yield from (act.RemoveShip(cell) for cell in (*side.mines, *side.sweepers))
    if is_complete(rules, side):
        yield act.Ready()
    unplaced = unplaced_kinds(rules, side.ships)
    lengths = sorted({rules.fleet[i].length for i in unplaced if i != rules.submarine_kind})
    taken = {cell for ship in side.ships for cell in ship.cells}
    hulls = {c for s in side.ships if s.kind != rules.submarine_kind for c in s.cells}
    near_items = blocked_for_ships(rules, side.mines, side.sweepers)
    blocked = taken | spacing_zone(rules, hulls) | near_items
    for length in lengths:
        for cells in free_placements(rules, length, blocked):
            yield placement_of(cells)
    if rules.submarine_kind in unplaced:  # §4.8: next to any ship, on none
        for (cell,) in free_placements(rules, 1, taken | near_items):
            yield act.PlaceSub(cell)
    for count, items, piece in (
        (rules.mines, side.mines, act.PlaceMine),
        (rules.sweepers, side.sweepers, act.PlaceSweeper),
    ):
        if len(items) < count:
            yield from (piece(cell) for cell in free_item_cells(rules, side))


def free_item_cells(rules: SeaBattleRules, side: Side) -> list[Cell]:
    """Cells where a mine or a minesweeper may be laid next (§4.6, §4.7)."""
    blocked: set[Cell] = set()
    for cell in (*(c for ship in side.ships for c in ship.cells), *side.mines, *side.sweepers):
        blocked |= touching(rules, cell)
    size = rules.size
    return [(c, r) for r in range(size) for c in range(size) if (c, r) not in blocked]


def apply_setup(state: SeaBattleState, seat: int, action: act.Action) -> Transition:
    check_open(state, seat, "The fleets are set", "fleet")
    match action:
        case (
            act.PlaceShip()
            | act.PlaceShape()
            | act.PlaceSub()
            | act.PlaceMine()
            | act.PlaceSweeper()
        ):
            side, done = _add(state.rules, state.sides[seat], action)
            new = state.with_side(seat, side)
            return private(new, seat, f"{done} {_progress(new, seat)}")
        case act.PlaceFleet(pieces):
            side = replace(state.sides[seat], ships=(), mines=(), sweepers=())
            for piece in pieces:
                side, _ = _add(state.rules, side, piece)
            new = state.with_side(seat, side)
            count = len(side.ships)
            text = f"Laid out your fleet of {count} ship{'s' if count != 1 else ''}."
            return private(new, seat, f"{text} {_progress(new, seat)}")
        case act.RemoveShip(cell):
            return _remove(state, seat, cell)
        case act.RandomFleet():
            return _deal(state, seat)
        case act.ClearFleet():
            side = replace(state.sides[seat], ships=(), mines=(), sweepers=())
            return private(state.with_side(seat, side), seat, "Your board is cleared.")
        case act.Ready():
            return _ready(state, seat)
    raise IllegalActionError("That is not a setup move; the fleets are still being set.")


def _add(rules: SeaBattleRules, side: Side, piece: act.Placement) -> tuple[Side, str]:
    """``side`` with one more ship, mine or minesweeper, checked; and what to say."""
    ship_cells = [cell for ship in side.ships for cell in ship.cells]
    if isinstance(piece, act.PlaceMine | act.PlaceSweeper):
        mine = isinstance(piece, act.PlaceMine)
        count, have = (rules.mines, side.mines) if mine else (rules.sweepers, side.sweepers)
        what = MINE if mine else SWEEPER
        if count == 0:
            raise IllegalActionError(f"This game has no {what}s.")
        if len(have) >= count:
            raise IllegalActionError(
                f"You have laid all your {what}s ({count}); `remove` one to move it."
            )
        check_item(rules, what, piece.cell, ship_cells, side.mines, side.sweepers)
        laid = (*have, piece.cell)
        side = replace(side, mines=laid) if mine else replace(side, sweepers=laid)
        return side, f"Laid {with_article(what)} on {cell_name(piece.cell)}."
    if isinstance(piece, act.PlaceSub):
        cells: tuple[Cell, ...] = (piece.cell,)
    elif isinstance(piece, act.PlaceShape):
        cells = piece.cells
    else:
        cells = line_between(piece.start, piece.end)
    if not unplaced_kinds(rules, side.ships) and not isinstance(piece, act.PlaceSub):
        # Most likely a shot typed before the game began: say what starts it.
        raise IllegalActionError(
            "The game has not started: your fleet is complete, so write `ready` to "
            "confirm it. Shooting begins once both fleets are confirmed."
        )
    near = blocked_for_ships(rules, side.mines, side.sweepers) & set(cells)
    if near:
        raise IllegalActionError(
            f"That ship would touch your mine or minesweeper near {cell_name(min(near))}: "
            "mines and minesweepers touch nothing."
        )
    kind = check_new_ship(rules, side.ships, cells, isinstance(piece, act.PlaceSub))
    ship = Ship(kind, cells)
    ships = tuple(sorted((*side.ships, ship), key=lambda s: s.kind))
    return replace(side, ships=ships), f"Placed your {rules.fleet[kind].name} on {ship.span}."


def _remove(state: SeaBattleState, seat: int, cell: Cell) -> Transition:
    side = state.sides[seat]
    ship = side.ship_at(cell)
    if ship is not None:
        new = state.with_side(seat, replace(side, ships=tuple(s for s in side.ships if s != ship)))
        text = f"Removed your {state.rules.fleet[ship.kind].name} from {ship.span}."
    elif cell in side.mines:
        new = state.with_side(seat, replace(side, mines=tuple(c for c in side.mines if c != cell)))
        text = f"Removed your mine from {cell_name(cell)}."
    elif cell in side.sweepers:
        kept = tuple(c for c in side.sweepers if c != cell)
        new = state.with_side(seat, replace(side, sweepers=kept))
        text = f"Removed your minesweeper from {cell_name(cell)}."
    else:
        raise IllegalActionError(f"None of your ships lies on {cell_name(cell)}.")
    return private(new, seat, f"{text} {_progress(new, seat)}")


def _deal(state: SeaBattleState, seat: int) -> Transition:
    side = state.sides[seat]
    rng = random.Random(f"seabattle:{state.seed}:fleet:{seat}:{side.random_draws}")
    dealt = None
    while dealt is None:
        fleet = replace(side, ships=random_fleet(state.rules, rng), mines=(), sweepers=())
        dealt = _lay_items(state.rules, fleet, rng)
    dealt = replace(dealt, random_draws=side.random_draws + 1)
    extra = " (and its mines)" if state.rules.mines else ""
    edit = (
        "`clear` it and name the ship's cells"
        if state.rules.dutchman
        else "edit it (`remove` and a cell of a piece, then place that piece again)"
    )
    what = "ship" if state.rules.dutchman else "fleet"
    text = (
        f"Here is a random {what}{extra}. Write `ready` to confirm it, `random` for "
        f"another, or {edit}."
    )
    return private(state.with_side(seat, dealt), seat, text)


def _lay_items(rules: SeaBattleRules, side: Side, rng: random.Random) -> Side | None:
    """``side`` with random mines and minesweepers, or None if they find no room."""
    for _ in range(rules.mines):
        free = free_item_cells(rules, side)
        if not free:
            return None
        side = replace(side, mines=(*side.mines, rng.choice(free)))
    for _ in range(rules.sweepers):
        free = free_item_cells(rules, side)
        if not free:
            return None
        side = replace(side, sweepers=(*side.sweepers, rng.choice(free)))
    return side


def _ready(state: SeaBattleState, seat: int) -> Transition:
    rules = state.rules
    side = state.sides[seat]
    missing = [rules.fleet[i] for i in unplaced_kinds(rules, side.ships)]
    if missing:
        raise IllegalActionError(
            f"Your fleet is not complete: still to place {describe_kinds(missing)}. "
            "Or write `random` for a whole fleet."
        )
    if not is_complete(rules, side):
        raise IllegalActionError(f"{_items_left(rules, side)} Or write `random` for a whole fleet.")
    waiting = (
        "Your fleet is confirmed. Waiting for your opponent to set theirs.",
        f"{name_of(seat)} has set their fleet.",
    )
    return confirm_ready(state, seat, waiting, _start_play)


def _start_play(new: SeaBattleState) -> Transition:
    """Both fleets are set: the seat drawn from the seed shoots first."""
    rules = new.rules
    first = random.Random(f"seabattle:{new.seed}:first").randrange(2)
    new = replace(new, phase=Phase.PLAY, turn=first)
    return Transition(
        new,
        (
            Event(
                first,
                "Both fleets are set. You shoot first: "
                f"{texts.first_shot_prompt(rules, new.afloat(first))}.",
            ),
            Event(other(first), "Both fleets are set. Your opponent shoots first."),
            Event(None, f"Both fleets are set. {name_of(first)} shoots first."),
        ),
    )


def _items_left(rules: SeaBattleRules, side: Side) -> str:
    parts = []
    if len(side.mines) < rules.mines:
        left = rules.mines - len(side.mines)
        parts.append(f"{left} mine{'s' if left != 1 else ''} (`mine C5`)")
    if len(side.sweepers) < rules.sweepers:
        left = rules.sweepers - len(side.sweepers)
        parts.append(f"{left} minesweeper{'s' if left != 1 else ''} (`sweeper C5`)")
    return "Still to lay: " + " and ".join(parts) + "."


def _progress(state: SeaBattleState, seat: int) -> str:
    rules = state.rules
    side = state.sides[seat]
    missing = [rules.fleet[i] for i in unplaced_kinds(rules, side.ships)]
    if missing:
        return f"Still to place: {describe_kinds(missing)}."
    if not is_complete(rules, side):
        return _items_left(rules, side)
    return "Your fleet is complete: write `ready` to confirm it."
