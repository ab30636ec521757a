"""The Sea Battle state: immutable, JSON round-trippable, re-validated on load."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from bot.games import codec
from bot.games.codec import Check, Codec, Field, ListOf, Plain, Record, Row, Rule, Ruled
from bot.games.core import SEATS, EndReason, GameError, Outcome, Phase, other
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


def _read_logged(entry: Any, rules: SeaBattleRules) -> tuple[int, Cell]:
    """One stored shot: ``"0B7"``, or ``[0, "B7"]`` as version 1 stored it."""
    size = rules.size
    if isinstance(entry, str):
        return int(entry[:1]), parse_cell(entry[1:], size, size)
    shooter, cell = entry
    return int(shooter), parse_cell(cell, size, size)


def _cell(raw: Any, rules: SeaBattleRules) -> Cell:
    return parse_cell(raw, rules.size, rules.size)


CELL = Ruled(_cell, cell_name)
CELLS = ListOf(CELL)
SIDE = Record(
    Side,
    Field("ships", ListOf(Row(Ship, codec.INT, CELLS))),
    Field("ready", codec.BOOL),
    Field("random_draws", codec.INT),
    Field("mines", CELLS, missing=(), written=lambda side: bool(side.mines)),
    Field("sweepers", CELLS, missing=(), written=lambda side: bool(side.sweepers)),
)
STATE = Record(
    SeaBattleState,
    codec.SEED,
    codec.PHASE,
    Field("sides", ListOf(SIDE)),
    Field(
        "log",
        ListOf(Ruled(_read_logged)),
        source="named_log",
    ),
    Field("turn"),
    codec.OUTCOME,
    Field("volleys", ListOf(codec.INT), missing=(), written=lambda s: s.rules.salvo),
    Field(
        "last_salvo", Plain(lambda raw: raw is True), missing=False, written=lambda s: s.last_salvo
    ),
    Field(
        "disclosures",
        ListOf(Row(codec.pair, codec.INT, CELL, split=tuple)),
        missing=(),
        written=lambda s: bool(s.disclosures),
    ),
    Field(
        "pending",
        Plain(lambda raw: Pending.from_json(raw) if raw else None, lambda p: p.to_json()),
        missing=None,
        written=lambda s: bool(s.pending),
    ),
    Field("answers", ListOf(codec.BOOL), missing=(), written=lambda s: s.rules.dutchman),
)


def _fleets(state: SeaBattleState) -> str | None:
    """Each fleet, its mines and its minesweepers stand as the rules allow; a fleet marked
    ready is complete."""
    rules = state.rules
    for side in state.sides:
        try:
            validate_fleet(rules, side.ships)
            validate_items(rules, side.ships, side.mines, side.sweepers)
        except GameError as error:
            return str(error)
        full = (
            len(side.ships) == len(rules.fleet)
            and len(side.mines) == rules.mines
            and len(side.sweepers) == rules.sweepers
        )
        if side.ready and not full:
            return "A stored fleet is marked ready but is incomplete."
    return None


def _disclosures(state: SeaBattleState) -> str | None:
    """§4.6-4.7: each disclosure names a ship or mine of the seat that disclosed it."""
    for seat, cell in state.disclosures:
        if seat not in SEATS:
            return "A stored disclosure has no seat."
        owner = state.sides[seat]
        if owner.ship_at(cell) is None and cell not in owner.mines:
            return "A stored disclosure names no ship or mine."
    return None


def _owed(state: SeaBattleState) -> bool:
    """Whether the disclosure owed is one play can owe: in play, by the seat to move."""
    pending = state.pending
    return pending is None or (
        state.phase is Phase.PLAY
        and pending.seat in SEATS
        and pending.then in SEATS
        and pending.what in ("ship", "mine", "move")
        and state.turn == pending.seat
    )


CHECKS: tuple[Check[SeaBattleState], ...] = (
    Rule(
        "The stored Sea Battle game has bad seats.",
        lambda s: len(s.sides) != 2 or not codec.is_seat(s.turn, True),
    ),
    _fleets,
    Rule(
        "A game in setup cannot have shots.",
        lambda s: s.phase is Phase.SETUP and bool(s.log or s.turn is not None),
    ),
    codec.ready_to_play("A game in play needs both fleets ready and a seat to shoot."),
    codec.outcome_when_finished("Only a finished game has an outcome."),
    Rule("A stored shot has no shooter.", lambda s: any(n not in SEATS for n, _ in s.log)),
    # §5.3: in the Flying Dutchman shots may repeat, and each has its answer
    Rule(
        "The stored answers do not match the stored shots.",
        lambda s: s.rules.dutchman and len(s.answers) != len(s.log),
    ),
    Rule(
        "A stored cell was shot twice.",
        lambda s: not s.rules.dutchman and sum(len(x) for x in s.shots) != len(s.log),
    ),
    Rule(
        "Only the Flying Dutchman keeps answers.",
        lambda s: not s.rules.dutchman and bool(s.answers),
    ),
    Rule(
        "The stored salvos do not match the stored shots.",
        lambda s: s.rules.salvo and (sum(s.volleys) != len(s.log) or any(n < 1 for n in s.volleys)),
    ),
    Rule(
        "Only a Salvo game has salvos.",
        lambda s: not s.rules.salvo and bool(s.volleys or s.last_salvo),
    ),
    _disclosures,
    Rule("The stored disclosure owed is impossible.", lambda s: not _owed(s)),
    Rule(
        "A last salvo is owed only in a Salvo game with equal rounds.",
        lambda s: s.last_salvo and (s.phase is not Phase.PLAY or not s.rules.equal_rounds),
    ),
)
"""Stored data no sequence of legal moves could have produced is refused."""

CODEC: Codec[SeaBattleState] = Codec(
    "Sea Battle game",
    SeaBattleRules.from_json,
    STATE,
    CHECKS,
    version=STATE_VERSION,
    readable=(1, STATE_VERSION),
    unknown="Unknown Sea Battle state version {version!r}.",
)
state_to_json = CODEC.dump
state_from_json = CODEC.load
