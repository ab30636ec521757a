"""What each audience may know of a Sea Battle game (Sea Battle rules §3), built into
the views that renderers, messages and autocomplete see."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import replace
from functools import lru_cache

from bot.games.core import Phase, other, secrecy
from bot.games.grid import Cell, neighbours
from bot.games.seabattle import salvo
from bot.games.seabattle.dutchman import lost_decks as dutchman_lost
from bot.games.seabattle.fleet import Ship, unplaced_kinds
from bot.games.seabattle.rules import ShipKind, Touching
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.turns import disclosable
from bot.games.seabattle.view import FieldView, Mark, Report, SeaBattleView, ShipOutline


def view_of(state: SeaBattleState, seat: int | None, variant: str) -> SeaBattleView:
    rules = state.rules
    fields = (field_of(state, 0, seat), field_of(state, 1, seat))
    to_place: tuple[ShipKind, ...] = ()
    items_left = (0, 0)
    if seat is not None and state.phase is Phase.SETUP:
        side = state.sides[seat]
        to_place = tuple(rules.fleet[i] for i in unplaced_kinds(rules, side.ships))
        items_left = (rules.mines - len(side.mines), rules.sweepers - len(side.sweepers))
    pending = state.pending
    choices: tuple[Cell, ...] = ()
    if pending is not None and pending.seat == seat:
        choices = disclosable(state, seat, pending.what)
    return SeaBattleView(
        seat=seat,
        phase=state.phase,
        variant=variant,
        size=rules.size,
        fields=fields,
        turn=state.turn,
        ready=(state.sides[0].ready, state.sides[1].ready),
        to_place=to_place,
        outcome=state.outcome,
        extra_shot=rules.extra_shot,
        salvo_size=(
            salvo.salvo_size(state, state.turn) if rules.salvo and state.turn is not None else None
        ),
        blind_report=rules.blind_report,
        items_left=items_left,
        owed=None if pending is None else (pending.seat, pending.what),
        choices=choices,
        mines=rules.mines > 0,
        sweepers=rules.sweepers > 0,
    )


def field_of(state: SeaBattleState, owner: int, seat: int | None) -> FieldView:
    """``owner``'s field as ``seat`` (None: the channel) may know it.

    Built once per state for each way it can be shown: a move's three views show four
    different fields at most, since the channel sees each field as the owner's opponent
    does (less the disclosures, §4.6-4.7, which only the players are told).
    """
    finished = secrecy(state.phase, state.outcome) is Phase.FINISHED
    show_all = seat == owner or finished
    # §4.6-4.7: a disclosure is shown to the two players only, never to the channel.
    told = (seat is not None or finished) and any(who == owner for who, _ in state.disclosures)
    around_sunk = state.rules.marks_around_sunk and seat != owner
    shown = (owner, show_all, told, around_sunk)
    field = state.fields_shown.get(shown)
    if field is None:
        field = state.fields_shown[shown] = _field(state, owner, show_all, told, around_sunk)
    return field


def _field(
    state: SeaBattleState, owner: int, show_all: bool, told: bool, around_sunk: bool
) -> FieldView:
    rules = state.rules
    if rules.dutchman:
        return _dutchman_field(state, owner, show_all)
    blind = rules.blind_report and not show_all  # §4.3: which cell hit is not told
    shots = state.shots[other(owner)]
    side = state.sides[owner]
    sunk = set(state.sunk(owner))
    # §4.2: where ships may touch, a sinking is answered "hit" and the ship's name only;
    # drawing the wreck would tell which earlier hits belong to ships still afloat.
    wrecks = sunk if show_all or rules.touching is not Touching.ANY else set()
    wrecked = {cell for wreck in wrecks for cell in wreck.cells}
    ship_at = {cell: ship for ship in side.ships for cell in ship.cells}
    mines, sweepers = set(side.mines), set(side.sweepers)
    disclosed = {cell for who, cell in state.disclosures if who == owner} if told else set()
    clear: set[Cell] = set()
    if around_sunk:
        diagonal = rules.touching is Touching.NONE
        for wreck in sunk:
            clear.update(_around(wreck.cells, rules.size, diagonal))
    # Each cell shows the strongest thing known of it: the marks are painted from the
    # weakest to the strongest, a few cells at a time instead of testing every cell.
    size = rules.size
    grid = [[Mark.SEA] * size for _ in range(size)]
    for column, row in clear:
        if (column, row) not in ship_at:
            grid[row][column] = Mark.CLEAR
    for column, row in disclosed:
        grid[row][column] = Mark.DISCLOSED if (column, row) in ship_at else Mark.KNOWN_MINE
    if show_all:
        for painted, cells in ((Mark.SWEEPER, sweepers), (Mark.MINE, mines), (Mark.SHIP, ship_at)):
            for column, row in cells:
                grid[row][column] = painted
    for cell in shots:
        grid[cell[1]][cell[0]] = _shot_mark(cell, cell in ship_at, mines, sweepers, wrecked, blind)
    rows = [tuple(marks) for marks in grid]
    outlines = _outlines(state, owner, sunk, show_all, () if blind else wrecks)
    last = next((c for s, c in reversed(state.log) if s != owner), None)
    recent: tuple[Cell, ...] = ()
    if rules.salvo:
        recent = salvo.last_salvo_at(state, owner)
    numbers: tuple[tuple[Cell, int], ...] = ()
    reports: tuple[Report, ...] = ()
    if rules.blind_report:
        shooter = other(owner)
        numbers = tuple(sorted(salvo.volley_numbers(state, shooter).items()))
        reports = salvo.volley_reports(state, shooter)
    return FieldView(
        owner,
        tuple(rows),
        outlines,
        last,
        len(rules.fleet) - len(sunk),
        recent,
        numbers,
        reports,
        tuple(sorted(disclosed, key=lambda c: (c[1], c[0]))),
    )


def _shot_mark(
    cell: Cell,
    on_ship: bool,
    mines: AbstractSet[Cell],
    sweepers: AbstractSet[Cell],
    wrecked: AbstractSet[Cell],
    blind: bool,
) -> Mark:
    """What a shot cell shows: painted over anything else known of the cell.

    ``wrecked`` holds the cells of the wrecks shown: testing a cell is cheaper than
    hashing its ship, for each of a long game's hundreds of shots."""
    if blind:
        return Mark.SHOT
    if cell in mines:
        return Mark.MINE_HIT
    if cell in sweepers:
        return Mark.SWEEPER_HIT
    return Mark.MISS if not on_ship else Mark.SUNK if cell in wrecked else Mark.HIT


@lru_cache(maxsize=4096)
def _around(cells: tuple[Cell, ...], size: int, diagonal: bool) -> frozenset[Cell]:
    """The cells touching a wreck, shown clear around it (§2.9); a wreck never moves, so
    each is worked out once rather than for every field of every later move."""
    return frozenset(
        near for cell in cells for near in neighbours(cell, size, size, diagonal=diagonal)
    )


def carry_fields(before: SeaBattleState, after: SeaBattleState) -> None:
    """Gives ``after``, the state one plain shot left, the fields ``before`` had built.

    A long game's fields cost the most of its views to build (every shot is painted
    again), yet one shot changes one cell of one field. So when the shot changed nothing
    but the log and the turn, the shooter's own field is carried over as it was (it
    shows only the shots at it), and the field shot at with that one cell repainted and
    ringed; a sinking also repaints the wreck, the water around it where that is shown
    (§2.9), the outlines and the ships afloat (``_sunk_into``). Anything else (a mine or
    minesweeper struck, a disclosure owed, the end, Salvo and the Flying Dutchman)
    builds its fields anew.
    """
    rules = before.rules
    if (
        rules.salvo
        or rules.dutchman
        or rules.blind_report
        or not before.fields_shown
        or after.sides is not before.sides
        or after.disclosures is not before.disclosures
        or after.phase is not before.phase
        or any(s.outcome is not None or s.pending is not None for s in (before, after))
        or after.log[:-1] != before.log
    ):
        return
    shooter, cell = after.log[-1]
    target = other(shooter)
    side = after.sides[target]
    if cell in side.mines or cell in side.sweepers:
        return
    sunk = after.sunk(target)
    sinking = len(sunk) != len(before.sunk(target))
    ship = side.ship_at(cell)
    column, row = cell
    for shown, field in before.fields_shown.items():
        owner, show_all, _, around_sunk = shown
        if owner == target:
            wrecks = sunk if show_all or rules.touching is not Touching.ANY else ()
            wrecked = {part for wreck in wrecks for part in wreck.cells}
            mark = _shot_mark(cell, ship is not None, frozenset(), frozenset(), wrecked, False)
            marks = list(field.marks)
            marks[row] = (*marks[row][:column], mark, *marks[row][column + 1 :])
            field = replace(field, marks=tuple(marks), last_shot=cell)
            if sinking:
                assert ship is not None  # only a shot at a ship sinks one
                field = _sunk_into(after, field, ship, sunk, wrecks, show_all, around_sunk)
        after.fields_shown[shown] = field


def _sunk_into(
    state: SeaBattleState,
    field: FieldView,
    ship: Ship,
    sunk: tuple[Ship, ...],
    wrecks: tuple[Ship, ...],
    show_all: bool,
    around_sunk: bool,
) -> FieldView:
    """``field`` with ``ship`` just sunk (``sunk``: every ship of its owner's sunk now),
    painted as ``_field`` paints it: the wreck's cells where this audience is shown the
    wreck, the water around it where that is shown (§2.9), the outlines and the ships
    afloat. Rows left alone stay the same tuples, which the renderer compares first."""
    rules = state.rules
    side = state.sides[field.owner]
    changed: dict[Cell, Mark] = {}
    if around_sunk:
        on_ships = {part for each in side.ships for part in each.cells}
        diagonal = rules.touching is Touching.NONE
        for column, row in _around(ship.cells, rules.size, diagonal):
            if field.marks[row][column] is Mark.SEA and (column, row) not in on_ships:
                changed[column, row] = Mark.CLEAR
    if ship in wrecks:
        changed.update(dict.fromkeys(ship.cells, Mark.SUNK))
    marks = list(field.marks)
    for row in {row for _, row in changed}:
        marks[row] = tuple(
            changed.get((column, row), mark) for column, mark in enumerate(marks[row])
        )
    outlines = _outlines(state, field.owner, sunk, show_all, wrecks)
    return replace(field, marks=tuple(marks), ships=outlines, afloat=len(rules.fleet) - len(sunk))


def _outlines(
    state: SeaBattleState,
    owner: int,
    sunk: AbstractSet[Ship] | tuple[Ship, ...],
    show_all: bool,
    wrecks: AbstractSet[Ship] | tuple[Ship, ...],
) -> tuple[ShipOutline, ...]:
    """The outlines of ``owner``'s ships this audience sees: every ship where all is
    shown, otherwise the wrecks it is shown."""
    return tuple(
        ShipOutline(state.rules.fleet[ship.kind], ship.cells, ship in sunk)
        for ship in state.sides[owner].ships
        if show_all or ship in wrecks
    )


def _dutchman_field(state: SeaBattleState, owner: int, show_all: bool) -> FieldView:
    """§5: each shot cell shows its latest answer (the ship moves, so an old hit says
    nothing of where it is now); the ship itself only to its owner, and to all at the end."""
    answers = state.answered[owner]
    ship = state.sides[owner].ships[0] if state.sides[owner].ships else None
    sunk = bool(state.sunk(owner))
    # Painted like any field, the stronger mark last: a shot's answer over the ship.
    size = state.rules.size
    grid = [[Mark.SEA] * size for _ in range(size)]
    if show_all and ship is not None:
        for column, row in ship.cells:
            grid[row][column] = Mark.SHIP
    struck = Mark.SUNK if sunk else Mark.HIT
    for (column, row), answer in answers.items():
        grid[row][column] = struck if answer else Mark.MISS
    rows = tuple(tuple(marks) for marks in grid)
    outlines: tuple[ShipOutline, ...] = ()
    if ship is not None and show_all:
        outlines = (ShipOutline(state.rules.fleet[0], ship.cells, sunk),)
    last = next((c for s, c in reversed(state.log) if s != owner), None)
    return FieldView(
        owner,
        rows,
        outlines,
        last,
        # The whole fleet less what sank, as on any field: counting the ships placed would
        # tell the opponent, during setup, whether the ship stands on the field yet.
        len(state.rules.fleet) - len(state.sunk(owner)),
        decks_lost=dutchman_lost(state, owner),
    )
