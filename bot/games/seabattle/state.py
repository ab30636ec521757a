"""The Sea Battle state: immutable, JSON round-trippable, re-validated on load."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.games.core import SEATS, CorruptStateError, EndReason, GameError, Outcome, Phase, other
from bot.games.grid import Cell, cell_name, parse_cell
from bot.games.seabattle.fleet import Ship, validate_fleet
from bot.games.seabattle.mines import Pending, validate_items
from bot.games.seabattle.rules import SeaBattleRules
from bot.games.seabattle.view import FieldView

STATE_VERSION = 2
"""Version 2 stores each shot of the log as one string, ``"0B7"`` (the shooter's seat, then
the cell); version 1, still read, stored ``[0, "B7"]``."""


@dataclass(frozen=True)
class Side:
    """One player's secret fleet and setup progress."""

    ships: tuple[Ship, ...] = ()
    ready: bool = False
    random_draws: int = 0
    """How many random fleets this seat has dealt: the next one is drawn from the seed and it."""
    mines: tuple[Cell, ...] = ()
    """§4.6: this seat's mines, in the order laid."""
    sweepers: tuple[Cell, ...] = ()
    """§4.7: this seat's minesweepers, in the order laid."""

    def ship_at(self, cell: Cell) -> Ship | None:
        return next((ship for ship in self.ships if cell in ship.cells), None)


@dataclass(frozen=True)
class SeaBattleState:
    rules: SeaBattleRules
    seed: int
    phase: Phase = Phase.SETUP
    sides: tuple[Side, Side] = (Side(), Side())
    log: tuple[tuple[int, Cell], ...] = ()
    """Every shot in order, as (shooter, cell on the opponent's field)."""
    turn: int | None = None
    outcome: Outcome | None = None
    disclosures: tuple[tuple[int, Cell], ...] = ()
    """§4.6-4.7: every disclosure, as (the seat that disclosed, a cell of its own field)."""
    pending: Pending | None = None
    """§4.6-4.7: a disclosure the game waits for before anyone shoots."""
    answers: tuple[bool, ...] = ()
    """The Flying Dutchman (§5): whether each shot of ``log`` hit, since the ship moves."""
    volleys: tuple[int, ...] = ()
    """Salvo (§4.3): how many entries of ``log`` each salvo took, in order."""
    last_salvo: bool = False
    """Salvo with equal rounds (§4.3): the second player's last salvo is owed."""

    @property
    def first_shooter(self) -> int | None:
        return self.log[0][0] if self.log else None

    @cached_property
    def shots(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """``shots[s]``: the cells seat ``s`` has fired at on the opponent's field."""
        fired: tuple[set[Cell], set[Cell]] = (set(), set())
        for shooter, cell in self.log:
            fired[shooter].add(cell)
        return frozenset(fired[0]), frozenset(fired[1])

    @cached_property
    def answered(self) -> tuple[dict[Cell, bool], dict[Cell, bool]]:
        """The Flying Dutchman (§5): ``answered[owner]``, each cell shot on ``owner``'s
        field with its latest answer (whether it hit), in the order first shot. A view
        shows these, and builds a field for each audience: walking a long game's log once
        per state, not once per field, keeps a move's cost from growing with the game."""
        fields: tuple[dict[Cell, bool], dict[Cell, bool]] = ({}, {})
        for (shooter, cell), hit in zip(self.log, self.answers, strict=True):
            fields[other(shooter)][cell] = hit
        return fields

    @cached_property
    def named_log(self) -> tuple[str, ...]:
        """The log as stored, each shot as one string (``"0B7"``). Writing a long game's
        shots anew each move cost it (docs/performance/moves.md), so the engine hands each
        state the log of the one before, with the new shots added (``carry_named_log``)."""
        return tuple(_logged(shot) for shot in self.log)

    @cached_property
    def fields_shown(self) -> dict[tuple[int, bool, bool, bool], FieldView]:
        """Each field as ``seeing.field_of`` built it for this state, by the way it is
        shown: three views of one move share their fields instead of each building two."""
        return {}

    @cached_property
    def decks_lost(self) -> tuple[int, int]:
        """The Flying Dutchman (§5): how many decks each seat's ship has lost; public,
        since every hit is announced."""
        lost = [0, 0]
        for (shooter, _), hit in zip(self.log, self.answers, strict=True):
            if hit:
                lost[other(shooter)] += 1
        return lost[0], lost[1]

    def sunk(self, owner: int) -> tuple[Ship, ...]:
        """``owner``'s ships whose every cell has been hit."""
        if self.rules.dutchman:  # §5.4: it moves, so only its last deck's hit sinks it
            lost = self.outcome is not None and self.outcome.reason is EndReason.RULES
            return self.sides[owner].ships if lost and self.outcome.winner != owner else ()  # type: ignore[union-attr]
        hits = self.shots[other(owner)]
        return tuple(ship for ship in self.sides[owner].ships if hits.issuperset(ship.cells))

    def afloat(self, owner: int) -> int:
        return len(self.sides[owner].ships) - len(self.sunk(owner))

    def with_side(self, seat: int, side: Side) -> SeaBattleState:
        sides = (side, self.sides[1]) if seat == 0 else (self.sides[0], side)
        return replace(self, sides=sides)


def carry_named_log(before: SeaBattleState, after: SeaBattleState) -> None:
    """Give ``after`` ``before``'s log as stored, if ``before`` has it written and
    ``after``'s log only adds to it: the shots already written are not written again."""
    named = before.__dict__.get("named_log")  # where ``cached_property`` keeps a value
    if named is None or "named_log" in after.__dict__:
        return
    known = len(before.log)
    if after.log[:known] != before.log:
        return
    added = tuple(_logged(shot) for shot in after.log[known:])
    after.__dict__["named_log"] = named + added if added else named


def _logged(shot: tuple[int, Cell]) -> str:
    """One shot of the log as stored: the shooter's seat, then the cell (``"0B7"``)."""
    shooter, cell = shot
    return f"{shooter}{cell_name(cell)}"


def _read_logged(entry: Any, size: int) -> tuple[int, Cell]:
    """One stored shot: ``"0B7"``, or ``[0, "B7"]`` as version 1 stored it."""
    if isinstance(entry, str):
        return int(entry[:1]), parse_cell(entry[1:], size, size)
    shooter, cell = entry
    return int(shooter), parse_cell(cell, size, size)


def state_to_json(state: SeaBattleState) -> dict[str, Any]:
    return {
        "version": STATE_VERSION,
        "rules": state.rules.to_json(),
        "seed": state.seed,
        "phase": state.phase.value,
        "sides": [
            {
                "ships": [[ship.kind, [cell_name(c) for c in ship.cells]] for ship in side.ships],
                "ready": side.ready,
                "random_draws": side.random_draws,
                **({"mines": [cell_name(c) for c in side.mines]} if side.mines else {}),
                **({"sweepers": [cell_name(c) for c in side.sweepers]} if side.sweepers else {}),
            }
            for side in state.sides
        ],
        "log": list(state.named_log),
        "turn": state.turn,
        "outcome": state.outcome.to_json() if state.outcome else None,
        **({"volleys": list(state.volleys)} if state.rules.salvo else {}),
        **({"last_salvo": True} if state.last_salvo else {}),
        **(
            {"disclosures": [[seat, cell_name(cell)] for seat, cell in state.disclosures]}
            if state.disclosures
            else {}
        ),
        **({"pending": state.pending.to_json()} if state.pending else {}),
        **({"answers": list(state.answers)} if state.rules.dutchman else {}),
    }


def state_from_json(data: Mapping[str, Any]) -> SeaBattleState:
    if data.get("version") not in (1, STATE_VERSION):
        raise CorruptStateError(f"Unknown Sea Battle state version {data.get('version')!r}.")
    try:
        rules = SeaBattleRules.from_json(data["rules"])
        size = rules.size
        sides = tuple(
            Side(
                ships=tuple(
                    Ship(int(kind), tuple(parse_cell(c, size, size) for c in cells))
                    for kind, cells in side["ships"]
                ),
                ready=bool(side["ready"]),
                random_draws=int(side["random_draws"]),
                mines=tuple(parse_cell(c, size, size) for c in side.get("mines", ())),
                sweepers=tuple(parse_cell(c, size, size) for c in side.get("sweepers", ())),
            )
            for side in data["sides"]
        )
        log = tuple(_read_logged(entry, size) for entry in data["log"])
        state = SeaBattleState(
            rules=rules,
            seed=int(data["seed"]),
            phase=Phase(data["phase"]),
            sides=sides,  # type: ignore[arg-type]
            log=log,
            turn=data["turn"],
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
            volleys=tuple(int(n) for n in data.get("volleys", ())),
            last_salvo=data.get("last_salvo", False) is True,
            disclosures=tuple(
                (int(seat), parse_cell(cell, size, size))
                for seat, cell in data.get("disclosures", ())
            ),
            pending=Pending.from_json(data["pending"]) if data.get("pending") else None,
            answers=tuple(bool(hit) for hit in data.get("answers", ())),
        )
    except (KeyError, TypeError, ValueError, GameError) as error:
        raise CorruptStateError(f"The stored Sea Battle game is unreadable: {error}") from None
    _validate(state)
    return state


def _validate(state: SeaBattleState) -> None:
    """Reject stored data that no sequence of legal moves could have produced."""
    if len(state.sides) != 2 or state.turn not in (None, *SEATS):
        raise CorruptStateError("The stored Sea Battle game has bad seats.")
    for side in state.sides:
        try:
            validate_fleet(state.rules, side.ships)
        except GameError as error:
            raise CorruptStateError(str(error)) from None
        try:
            validate_items(state.rules, side.ships, side.mines, side.sweepers)
        except GameError as error:
            raise CorruptStateError(str(error)) from None
        full = (
            len(side.ships) == len(state.rules.fleet)
            and len(side.mines) == state.rules.mines
            and len(side.sweepers) == state.rules.sweepers
        )
        if side.ready and not full:
            raise CorruptStateError("A stored fleet is marked ready but is incomplete.")
    if state.phase is Phase.SETUP and (state.log or state.turn is not None):
        raise CorruptStateError("A game in setup cannot have shots.")
    if state.phase is Phase.PLAY and (not all(s.ready for s in state.sides) or state.turn is None):
        raise CorruptStateError("A game in play needs both fleets ready and a seat to shoot.")
    if (state.phase is Phase.FINISHED) != (state.outcome is not None):
        raise CorruptStateError("Only a finished game has an outcome.")
    if any(shooter not in SEATS for shooter, _ in state.log):
        raise CorruptStateError("A stored shot has no shooter.")
    if state.rules.dutchman:  # §5.3: shots may repeat; each has its answer
        if len(state.answers) != len(state.log):
            raise CorruptStateError("The stored answers do not match the stored shots.")
    elif sum(len(s) for s in state.shots) != len(state.log):
        raise CorruptStateError("A stored cell was shot twice.")
    elif state.answers:
        raise CorruptStateError("Only the Flying Dutchman keeps answers.")
    if state.rules.salvo:
        if sum(state.volleys) != len(state.log) or any(n < 1 for n in state.volleys):
            raise CorruptStateError("The stored salvos do not match the stored shots.")
    elif state.volleys or state.last_salvo:
        raise CorruptStateError("Only a Salvo game has salvos.")
    for seat, cell in state.disclosures:
        if seat not in SEATS:
            raise CorruptStateError("A stored disclosure has no seat.")
        owner = state.sides[seat]
        if owner.ship_at(cell) is None and cell not in owner.mines:
            raise CorruptStateError("A stored disclosure names no ship or mine.")
    pending = state.pending
    if pending is not None and (
        state.phase is not Phase.PLAY
        or pending.seat not in SEATS
        or pending.then not in SEATS
        or pending.what not in ("ship", "mine", "move")
        or state.turn != pending.seat
    ):
        raise CorruptStateError("The stored disclosure owed is impossible.")
    if state.last_salvo and (state.phase is not Phase.PLAY or not state.rules.equal_rounds):
        raise CorruptStateError("A last salvo is owed only in a Salvo game with equal rounds.")
