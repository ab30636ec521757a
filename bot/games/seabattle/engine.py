"""The Sea Battle rule engine (rules/sea-battle.md), behind the common engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from bot.games.core import (
    SEATS,
    EndReason,
    Engine,
    Event,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    Phase,
    Transition,
    name_of,
    other,
    secrecy,
)
from bot.games.grid import Cell, cell_name, neighbours
from bot.games.seabattle import actions as act
from bot.games.seabattle.fleet import (
    Ship,
    check_new_ship,
    describe_kinds,
    free_placements,
    line_between,
    random_fleet,
    spacing_zone,
    unplaced_kinds,
)
from bot.games.seabattle.rules import PRESETS, SeaBattleRules, ShipKind, Touching
from bot.games.seabattle.state import SeaBattleState, state_from_json, state_to_json
from bot.games.seabattle.view import FieldView, Mark, SeaBattleView, ShipOutline


class SeaBattle(Engine[SeaBattleRules, SeaBattleState, act.Action, SeaBattleView]):
    key = "seabattle"
    title = "Sea Battle"
    presets = PRESETS

    def new_game(self, rules: SeaBattleRules, seed: int) -> SeaBattleState:
        return SeaBattleState(rules=rules, seed=seed)

    # -- whose move ------------------------------------------------------------------------

    def to_move(self, state: SeaBattleState) -> frozenset[int]:
        if state.phase is Phase.SETUP:
            return frozenset(seat for seat in SEATS if not state.sides[seat].ready)
        if state.phase is Phase.PLAY and state.turn is not None:
            return frozenset({state.turn})
        return frozenset()

    def legal_actions(self, state: SeaBattleState, seat: int) -> Iterator[act.Action]:
        if seat not in self.to_move(state):
            return
        if state.phase is Phase.PLAY:
            fired = state.shots[seat]
            size = state.rules.size
            for row in range(size):
                for column in range(size):
                    if (column, row) not in fired:
                        yield act.Shot((column, row))
            return
        side = state.sides[seat]
        yield act.RandomFleet()
        if side.ships:
            yield act.ClearFleet()
            yield from (act.RemoveShip(ship.cells[0]) for ship in side.ships)
        if len(side.ships) == len(state.rules.fleet):
            yield act.Ready()
        yield from self._legal_placements(state.rules, side.ships)

    def _legal_placements(
        self, rules: SeaBattleRules, ships: tuple[Ship, ...]
    ) -> Iterator[act.PlaceShip]:
        lengths = sorted({rules.fleet[i].length for i in unplaced_kinds(rules, ships)})
        taken = {cell for ship in ships for cell in ship.cells}
        blocked = taken | spacing_zone(rules, taken)
        for length in lengths:
            for cells in free_placements(rules, length, blocked):
                yield act.PlaceShip(cells[0], cells[-1])

    # -- moves ------------------------------------------------------------------------------

    def parse_action(self, state: SeaBattleState, seat: int, text: str) -> act.Action:
        return act.parse(text, state.phase, state.rules.size)

    def apply(self, state: SeaBattleState, seat: int, action: act.Action) -> Transition:
        if state.phase is Phase.FINISHED:
            raise IllegalActionError("This game is over.")
        if isinstance(action, act.Shot):
            return self._shoot(state, seat, action.cell)
        if state.phase is not Phase.SETUP:
            raise IllegalActionError("The fleets are set and can no longer change.")
        if state.sides[seat].ready:
            raise IllegalActionError(
                "You have confirmed your fleet; it can no longer change. "
                "Wait for your opponent to confirm theirs."
            )
        match action:
            case act.PlaceShip(start, end):
                return self._place(state, seat, line_between(start, end))
            case act.PlaceFleet(ships):
                return self._lay_out(state, seat, ships)
            case act.RemoveShip(cell):
                return self._remove(state, seat, cell)
            case act.RandomFleet():
                return self._deal(state, seat)
            case act.ClearFleet():
                side = replace(state.sides[seat], ships=())
                return _private(state.with_side(seat, side), seat, "Your board is cleared.")
            case act.Ready():
                return self._ready(state, seat)
        raise IllegalActionError("That is not a Sea Battle move.")

    def _place(self, state: SeaBattleState, seat: int, cells: tuple[Cell, ...]) -> Transition:
        side = state.sides[seat]
        if not unplaced_kinds(state.rules, side.ships):
            # Most likely a shot typed before the game began: say what starts it.
            raise IllegalActionError(
                "The game has not started: your fleet is complete, so write `ready` to "
                "confirm it. Shooting begins once both fleets are confirmed."
            )
        kind = check_new_ship(state.rules, side.ships, cells)
        ship = Ship(kind, cells)
        ships = tuple(sorted((*side.ships, ship), key=lambda s: s.kind))
        new = state.with_side(seat, replace(side, ships=ships))
        text = f"Placed your {state.rules.fleet[kind].name} on {ship.span}. "
        return _private(new, seat, text + _progress(new, seat))

    def _lay_out(
        self, state: SeaBattleState, seat: int, placements: tuple[act.PlaceShip, ...]
    ) -> Transition:
        """Replace the board by a whole layout, each ship checked as if placed by hand."""
        ships: tuple[Ship, ...] = ()
        for placement in placements:
            cells = line_between(placement.start, placement.end)
            ships = (*ships, Ship(check_new_ship(state.rules, ships, cells), cells))
        side = replace(state.sides[seat], ships=tuple(sorted(ships, key=lambda s: s.kind)))
        new = state.with_side(seat, side)
        text = f"Laid out your fleet of {len(ships)} ship{'s' if len(ships) != 1 else ''}. "
        return _private(new, seat, text + _progress(new, seat))

    def _remove(self, state: SeaBattleState, seat: int, cell: Cell) -> Transition:
        side = state.sides[seat]
        ship = side.ship_at(cell)
        if ship is None:
            raise IllegalActionError(f"None of your ships lies on {cell_name(cell)}.")
        new = state.with_side(seat, replace(side, ships=tuple(s for s in side.ships if s != ship)))
        text = f"Removed your {state.rules.fleet[ship.kind].name} from {ship.span}. "
        return _private(new, seat, text + _progress(new, seat))

    def _deal(self, state: SeaBattleState, seat: int) -> Transition:
        side = state.sides[seat]
        rng = random.Random(f"seabattle:{state.seed}:fleet:{seat}:{side.random_draws}")
        dealt = replace(
            side, ships=random_fleet(state.rules, rng), random_draws=side.random_draws + 1
        )
        text = (
            "Here is a random fleet. Write `ready` to confirm it, `random` for another, "
            "or edit it (`remove B2`, then place that ship again)."
        )
        return _private(state.with_side(seat, dealt), seat, text)

    def _ready(self, state: SeaBattleState, seat: int) -> Transition:
        side = state.sides[seat]
        missing = [state.rules.fleet[i] for i in unplaced_kinds(state.rules, side.ships)]
        if missing:
            raise IllegalActionError(
                f"Your fleet is not complete: still to place {describe_kinds(missing)} "
                "(rule 2.1). Or write `random` for a whole fleet."
            )
        new = state.with_side(seat, replace(side, ready=True))
        placeholder = name_of(seat)
        if not new.sides[other(seat)].ready:
            return Transition(
                new,
                (
                    Event(
                        seat, "Your fleet is confirmed. Waiting for your opponent to set theirs."
                    ),
                    Event(None, f"{placeholder} has set their fleet."),
                ),
            )
        first = random.Random(f"seabattle:{state.seed}:first").randrange(2)
        new = replace(new, phase=Phase.PLAY, turn=first)
        return Transition(
            new,
            (
                Event(first, "Both fleets are set. You shoot first: name a cell, like `B5`."),
                Event(other(first), "Both fleets are set. Your opponent shoots first."),
                Event(None, f"Both fleets are set. {name_of(first)} shoots first (rule 2.5)."),
            ),
        )

    def _shoot(self, state: SeaBattleState, seat: int, cell: Cell) -> Transition:
        if state.phase is Phase.SETUP:
            raise IllegalActionError("The game has not started: both fleets must be set first.")
        if state.turn != seat:
            raise NotYourTurnError("It is your opponent's turn; wait for their shot.")
        name = cell_name(cell)
        if cell in state.shots[seat]:
            raise IllegalActionError(f"You have already shot at {name}; pick another cell.")
        target = other(seat)
        new = replace(state, log=(*state.log, (seat, cell)))
        ship = state.sides[target].ship_at(cell)
        shooter, defender = name_of(seat), name_of(target)
        if ship is None:
            new = replace(new, turn=target)
            return Transition(
                new,
                (
                    Event(seat, f"{name}: miss. Your opponent shoots next."),
                    Event(target, f"Your opponent shot at {name}: miss. Your turn."),
                    Event(None, f"{shooter} fires at {name}: miss. {defender} shoots next."),
                ),
            )
        kind = state.rules.fleet[ship.kind]
        sunk = new.shots[seat].issuperset(ship.cells)
        if not sunk:
            news = (f"{name}: hit!", f"Your opponent shot at {name} and hit your {kind.name}.")
            public = f"{shooter} fires at {name}: hit."
        elif state.rules.extra_shot:
            size = f"{kind.name} ({kind.length} cell{'s' if kind.length > 1 else ''})"
            news = (
                f"{name}: sunk! You sank {article(kind.name)} {size}.",
                f"Your opponent shot at {name} and sank your {size}.",
            )
            public = f"{shooter} fires at {name}: sunk {article(kind.name)} {size}."
        else:  # §4.2 answers a sinking as a hit, with the ship named
            news = (
                f'{name}: hit. "You sank my {kind.name}!"',
                f"Your opponent shot at {name}: hit, and sank your {kind.name}.",
            )
            public = f"{shooter} fires at {name}: hit, and sank {article(kind.name)} {kind.name}."
        if sunk and len(new.sunk(target)) == len(new.sides[target].ships):
            outcome = Outcome(seat, EndReason.RULES, "sank the whole fleet")
            new = replace(new, phase=Phase.FINISHED, turn=None, outcome=outcome)
            return Transition(
                new,
                (
                    Event(seat, f"{news[0]} That was their last ship: you win!"),
                    Event(target, f"{news[1]} That was your last ship: you lose."),
                    Event(None, f"{public} {shooter} has sunk the whole fleet and wins!"),
                ),
            )
        again = state.rules.extra_shot
        new = replace(new, turn=seat if again else target)
        return Transition(
            new,
            (
                Event(
                    seat, news[0] + (" Shoot again." if again else " Your opponent shoots next.")
                ),
                Event(target, news[1] + (" They shoot again." if again else " Your turn.")),
                Event(None, public + (f" {shooter} shoots again." if again else "")),
            ),
        )

    # -- knowledge --------------------------------------------------------------------------

    def view(self, state: SeaBattleState, seat: int | None) -> SeaBattleView:
        fields = (self._field(state, 0, seat), self._field(state, 1, seat))
        to_place: tuple[ShipKind, ...] = ()
        if seat is not None and state.phase is Phase.SETUP:
            rules = state.rules
            to_place = tuple(rules.fleet[i] for i in unplaced_kinds(rules, state.sides[seat].ships))
        return SeaBattleView(
            seat=seat,
            phase=state.phase,
            variant=self.variant_name(state.rules),
            size=state.rules.size,
            fields=fields,
            turn=state.turn,
            ready=(state.sides[0].ready, state.sides[1].ready),
            to_place=to_place,
            outcome=state.outcome,
            extra_shot=state.rules.extra_shot,
        )

    def _field(self, state: SeaBattleState, owner: int, seat: int | None) -> FieldView:
        rules = state.rules
        show_all = seat == owner or secrecy(state.phase, state.outcome) is Phase.FINISHED
        shots = state.shots[other(owner)]
        ships = state.sides[owner].ships
        sunk = set(state.sunk(owner))
        # §4.2: where ships may touch, a sinking is answered "hit" and the ship's name only;
        # drawing the wreck would tell which earlier hits belong to ships still afloat.
        wrecks = sunk if show_all or rules.touching is not Touching.ANY else set()
        ship_at = {cell: ship for ship in ships for cell in ship.cells}
        clear: set[Cell] = set()
        if rules.marks_around_sunk and seat != owner:
            diagonal = rules.touching is Touching.NONE
            for wreck in sunk:
                for cell in wreck.cells:
                    clear.update(neighbours(cell, rules.size, rules.size, diagonal=diagonal))
        rows = []
        for row in range(rules.size):
            marks = []
            for column in range(rules.size):
                cell = (column, row)
                ship = ship_at.get(cell)
                if cell in shots:
                    mark = Mark.MISS if ship is None else Mark.SUNK if ship in wrecks else Mark.HIT
                elif ship is not None and show_all:
                    mark = Mark.SHIP
                elif cell in clear and ship is None:
                    mark = Mark.CLEAR
                else:
                    mark = Mark.SEA
                marks.append(mark)
            rows.append(tuple(marks))
        outlines = tuple(
            ShipOutline(rules.fleet[ship.kind], ship.cells, ship in sunk)
            for ship in ships
            if show_all or ship in wrecks
        )
        last = next((c for s, c in reversed(state.log) if s != owner), None)
        return FieldView(owner, tuple(rows), outlines, last, len(rules.fleet) - len(sunk))

    def outcome(self, state: SeaBattleState) -> Outcome | None:
        return state.outcome

    def conclude(self, state: SeaBattleState, outcome: Outcome) -> SeaBattleState:
        return replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome)

    def has_started(self, state: SeaBattleState) -> bool:
        return bool(state.log)

    def suggestions(self, view: SeaBattleView, typed: str, limit: int = 25) -> list[str]:
        """Setup words, or in play the cells not yet shot, cells next to a hit first."""
        prefix = "".join(typed.split()).upper()
        if view.seat is None or view.seat not in view.movers:
            return []
        if view.phase is Phase.SETUP:
            words = ["random", "ready", "clear"]
            return [w for w in words if w.startswith(prefix.lower())][:limit]
        target = view.fields[other(view.seat)]
        size = view.size
        near_hit = {
            near
            for row in range(size)
            for column in range(size)
            if target.mark((column, row)) is Mark.HIT
            for near in neighbours((column, row), size, size, diagonal=False)
        }
        open_cells = [
            (column, row)
            for row in range(size)
            for column in range(size)
            if target.mark((column, row)) is Mark.SEA
        ]
        open_cells.sort(key=lambda cell: cell not in near_hit)
        names = (cell_name(cell) for cell in open_cells)
        return [name for name in names if name.startswith(prefix)][:limit]

    # -- presentation and storage -------------------------------------------------------------

    def quick_moves(self, view: SeaBattleView) -> tuple[tuple[str, str], ...]:
        """During setup: a random fleet and, once the fleet is complete, confirming it."""
        if view.phase is not Phase.SETUP or view.seat not in view.movers:
            return ()
        moves = [("Random fleet", "random")]
        if not view.to_place:
            moves.append(("Ready", "ready"))
        return tuple(moves)

    def setup_text(self, view: SeaBattleView) -> str | None:
        """The viewer's fleet as one ``fleet`` move, so it can be saved and laid out again."""
        if view.seat is None:
            return None
        ships = view.fields[view.seat].ships
        if not ships:
            return None
        return str(act.PlaceFleet(tuple(act.PlaceShip(s.cells[0], s.cells[-1]) for s in ships)))

    def variant_name(self, rules: SeaBattleRules) -> str:
        return next((name for name, preset in PRESETS.items() if preset == rules), "custom")

    def describe(self, rules: SeaBattleRules) -> str:
        last = cell_name((rules.size - 1, rules.size - 1))
        spacing = {
            Touching.NONE: "Ships may not touch, not even at a corner.",
            Touching.CORNERS: "Ships may touch at corners, never along a side.",
            Touching.ANY: "Ships may touch; they may not overlap.",
        }[rules.touching]
        turns = (
            "A hit or a sinking earns another shot; a miss passes the turn."
            if rules.extra_shot
            else "Players take one shot each in turn."
        )
        return (
            f"**Sea Battle ({self.variant_name(rules)})**: a {rules.size}×{rules.size} field, "
            f"A1 top left to {last} bottom right. Fleet: {describe_kinds(rules.fleet)}; "
            f"each ship a straight line. {spacing}\n"
            "**Setup** (by DM, in secret): `random` deals a legal fleet; `A1 A4` places a ship "
            "between two end cells, `J10` a one-cell ship; `remove B2` takes a ship back; "
            "`clear` empties the board; `ready` confirms. `save <name>` keeps your fleet for "
            "later games and `load <name>` lays it out again.\n"
            f"**Play**: name a cell to shoot, like `B5`. {turns} The first to sink the whole "
            "enemy fleet wins. With several games running, pick one with `#<id> B5`."
        )

    def setup_instructions(self, rules: SeaBattleRules) -> str:
        return (
            f"Set up your fleet in secret: {describe_kinds(rules.fleet)}. Press **Random fleet** "
            "(or write `random`) for a legal fleet, or place ships one by one: `A1 A4` for a "
            "ship from A1 to A4, `J10` for a one-cell ship. Write `ready` when it is complete. "
            "`/rules` has the full rules."
        )

    def rules_from_json(self, data: Mapping[str, Any]) -> SeaBattleRules:
        return SeaBattleRules.from_json(data)

    def to_json(self, state: SeaBattleState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> SeaBattleState:
        return state_from_json(data)


def article(noun: str) -> str:
    """``a`` or ``an`` for a ship's name."""
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _private(state: SeaBattleState, seat: int, text: str) -> Transition:
    return Transition(state, (Event(seat, text),))


def _progress(state: SeaBattleState, seat: int) -> str:
    rules = state.rules
    missing = [rules.fleet[i] for i in unplaced_kinds(rules, state.sides[seat].ships)]
    if not missing:
        return "Your fleet is complete: write `ready` to confirm it."
    return f"Still to place: {describe_kinds(missing)}."
