"""The Warships state: immutable, JSON round-trippable (version 1), re-validated on load."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property
from typing import Any

from bot.games import codec
from bot.games.codec import Check, Codec, Field, ListOf, Maybe, Plain, Record, Row, Rule
from bot.games.core import SEATS, Outcome, Phase
from bot.games.grid import Cell, cell_name
from bot.games.warships import board
from bot.games.warships.board import Shore
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.units import MINE_COUNT, UNITS, Kind

STATE_VERSION = 1


@dataclass(frozen=True)
class Piece:
    """One token on the board."""

    cell: Cell
    owner: int
    kind: Kind
    identified: bool = False
    """§10.2: the opponent learnt its type in a clash (batteries and laid mines are public)."""
    laid: bool = False
    """§12.2: a mine laid during play, announced publicly as a mine."""
    neutral: int = 0
    """§13.2: how many of its owner's turns in a row it has ended on neutral water."""

    @property
    def public(self) -> bool:
        """Whether everyone knows its type: batteries are face up, laid mines announced."""
        return self.kind is Kind.BATTERY or self.laid


class Cause(Enum):
    """How a token left the board."""

    CLASH = "clash"  # attack, take-out or defuse: both players saw both types
    INTERNED = "interned"  # §13.2: its type stays secret from the opponent until the end


@dataclass(frozen=True)
class Loss:
    """An entry of the sunk list (§10.3)."""

    owner: int
    kind: Kind
    cell: Cell
    cause: Cause
    public: bool = False
    """The type was public when it was removed (a battery or a laid mine)."""


@dataclass(frozen=True)
class LastAction:
    """The last turn as everyone saw it: its fields, never its types (§16)."""

    seat: int
    start: Cell | None = None
    end: Cell | None = None
    target: Cell | None = None
    emptied: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Side:
    """One player's setup progress and mine reserve."""

    ready: bool = False
    random_draws: int = 0
    reserve: int = MINE_COUNT
    """Mines off the board that §12.1 may still lay."""


@dataclass(frozen=True)
class WarshipsState:
    rules: WarshipsRules
    seed: int
    south: int
    """The seat that plays from the south port (§5.1)."""
    phase: Phase = Phase.SETUP
    pieces: tuple[Piece, ...] = ()
    """Every token on the board, ordered by field."""
    sides: tuple[Side, Side] = (Side(), Side())
    turn: int | None = None
    losses: tuple[Loss, ...] = ()
    last: LastAction | None = None
    turns: int = 0
    """Turns completed in play, passes included."""
    passes: int = 0
    """§6.3: passes in a row."""
    quiet: int = 0
    """§14.4: turns in a row with no token removed and no mine laid."""
    mined: bool = False
    """A mine was laid earlier in the current turn, so this turn is not a quiet one."""
    draw_offer: int | None = None
    """§14.4: the seat whose draw offer stands until the opponent's turn ends."""
    outcome: Outcome | None = None

    @cached_property
    def at(self) -> dict[Cell, Piece]:
        """The token on each occupied field."""
        return {piece.cell: piece for piece in self.pieces}

    def shore(self, seat: int) -> Shore:
        return Shore.SOUTH if seat == self.south else Shore.NORTH

    def seat_of(self, shore: Shore) -> int:
        return self.south if shore is Shore.SOUTH else 1 - self.south

    @cached_property
    def guarded_exits(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """Per seat: that seat's exits that still have at least one battery (§11.2)."""
        return tuple(  # type: ignore[return-value]
            frozenset(
                exit_
                for exit_, batteries in board.GUARDS[self.shore(seat)].items()
                if any(self._battery(cell, seat) for cell in batteries)
            )
            for seat in SEATS
        )

    @cached_property
    def zones(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """Per seat: the fields its standing batteries bar to enemy units (§11.1)."""
        return tuple(  # type: ignore[return-value]
            frozenset().union(
                *(
                    board.zone(piece.cell)
                    for piece in self.pieces
                    if piece.owner == seat and piece.kind is Kind.BATTERY
                )
            )
            for seat in SEATS
        )

    def _battery(self, cell: Cell, seat: int) -> bool:
        piece = self.at.get(cell)
        return piece is not None and piece.owner == seat and piece.kind is Kind.BATTERY

    def own(self, seat: int) -> tuple[Piece, ...]:
        return tuple(piece for piece in self.pieces if piece.owner == seat)

    def count(self, seat: int, kind: Kind) -> int:
        return sum(1 for piece in self.pieces if piece.owner == seat and piece.kind is kind)

    def with_pieces(self, pieces: list[Piece] | tuple[Piece, ...]) -> WarshipsState:
        return replace(self, pieces=tuple(sorted(pieces, key=lambda p: (p.cell[1], p.cell[0]))))

    def with_side(self, seat: int, side: Side) -> WarshipsState:
        sides = (side, self.sides[1]) if seat == 0 else (self.sides[0], side)
        return replace(self, sides=sides)


def _cell(text: Any) -> Cell:
    if not isinstance(text, str):
        raise ValueError("a field must be written as text")
    return board.field(text)


CELL = Plain(_cell, cell_name)
KIND = codec.enum(Kind)
STATE = Record(
    WarshipsState,
    codec.SEED,
    Field("south", codec.INT),
    codec.PHASE,
    Field("pieces", ListOf(Row(Piece, CELL, codec.INT, KIND, codec.BOOL, codec.BOOL, codec.INT))),
    Field("sides", ListOf(Row(Side, codec.BOOL, codec.INT, codec.INT))),
    Field("turn"),
    Field(
        "losses",
        ListOf(Row(Loss, codec.INT, KIND, CELL, codec.enum(Cause), codec.BOOL)),
    ),
    Field(
        "last",
        Maybe(
            Row(
                LastAction,
                codec.INT,
                Maybe(CELL),
                Maybe(CELL),
                Maybe(CELL),
                ListOf(CELL),
                exact=False,
            )
        ),
    ),
    Field("turns", codec.INT),
    Field("passes", codec.INT),
    Field("quiet", codec.INT),
    Field("mined", codec.BOOL),
    Field("draw_offer"),
    codec.OUTCOME,
)

_ALL_BATTERY_FIELDS = board.BATTERY_FIELDS[Shore.SOUTH] | board.BATTERY_FIELDS[Shore.NORTH]


def _batteries_taken_out(state: WarshipsState) -> str | None:
    """A shore battery is taken out on its own field."""
    for loss in state.losses:
        if loss.kind is Kind.BATTERY and (
            loss.owner not in SEATS
            or loss.cell not in board.BATTERY_FIELDS[state.shore(loss.owner)]
        ):
            return "A stored shore battery was taken out off its field."
    return None


def _tokens(state: WarshipsState) -> str | None:
    """Every token on a field of the board it may stand on, with marks play can give it."""
    taken_out = {loss.cell for loss in state.losses if loss.kind is Kind.BATTERY}
    for piece in state.pieces:
        if piece.owner not in SEATS or not board.is_field(piece.cell):
            return "A stored Warships token is off the board."
        if not 0 <= piece.neutral < 4 or (piece.laid and piece.kind is not Kind.MINE):
            return "A stored Warships token has impossible marks."
        if piece.kind is Kind.BATTERY:
            if piece.cell not in board.BATTERY_FIELDS[state.shore(piece.owner)]:
                return "A stored shore battery is off its field."
        elif piece.cell in _ALL_BATTERY_FIELDS and piece.cell not in taken_out:
            # §2.2, §8.2 c, §11.4, §12.1: a taken-out battery's field is an ordinary port
            # field that ships of either side may enter and its owner may mine.
            return "A stored token stands on a battery that was not taken out."
    return None


def _armies(state: WarshipsState) -> str | None:
    """Each side's 36 tokens are on the board, lost, or mines in reserve."""
    for owner in SEATS:
        side = state.sides[owner]
        totals = Counter(p.kind for p in state.pieces if p.owner == owner)
        totals.update(x.kind for x in state.losses if x.owner == owner)
        totals[Kind.MINE] += side.reserve
        if any(totals[kind] != unit.count for kind, unit in UNITS.items()):
            return "A stored Warships side does not have its 36 tokens."
        if side.random_draws < 0 or not 0 <= side.reserve <= MINE_COUNT:
            return "A stored Warships side has impossible counts."
    return None


CHECKS: tuple[Check[WarshipsState], ...] = (
    Rule("A stored draw offer names no seat.", lambda s: not codec.is_seat(s.draw_offer, True)),
    Rule(
        "The stored Warships game has bad seats.",
        lambda s: (
            not codec.is_seat(s.south) or not codec.is_seat(s.turn, True) or len(s.sides) != 2
        ),
    ),
    Rule("Two stored Warships tokens share a field.", lambda s: len(s.at) != len(s.pieces)),
    Rule(
        "The stored Warships tokens are out of order.",
        lambda s: list(s.pieces) != sorted(s.pieces, key=lambda p: (p.cell[1], p.cell[0])),
    ),
    _batteries_taken_out,
    _tokens,
    _armies,
    Rule(
        "A Warships game in setup cannot have turns.",
        lambda s: s.phase is Phase.SETUP and (s.turn is not None or s.losses or s.turns),
    ),
    codec.ready_to_play("A Warships game in play needs both sides ready and a turn."),
    codec.outcome_when_finished("Only a finished Warships game has an outcome."),
    Rule("A stored Warships counter is negative.", lambda s: min(s.turns, s.passes, s.quiet) < 0),
    Rule(
        "A finished Warships game has no turn.",
        lambda s: s.phase is Phase.FINISHED and s.turn is not None,
    ),
    Rule(
        "A stored Warships record names no seat.",
        lambda s: (
            any(loss.owner not in SEATS for loss in s.losses)
            or (s.last is not None and s.last.seat not in SEATS)
        ),
    ),
    Rule(
        "A stored mine lies on neutral water.",
        lambda s: any(p.kind is Kind.MINE and p.cell in board.NEUTRAL for p in s.pieces),
    ),
)
"""Stored data no sequence of legal moves could have produced is refused."""

CODEC: Codec[WarshipsState] = Codec("Warships game", WarshipsRules.from_json, STATE, CHECKS)
state_to_json = CODEC.dump
state_from_json = CODEC.load
