"""The Warships state: immutable, JSON round-trippable (version 1), re-validated on load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property
from typing import Any

from bot.games.core import SEATS, CorruptStateError, GameError, Outcome, Phase
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


def _opt_cell(text: Any) -> Cell | None:
    return None if text is None else _cell(text)


def _name(cell: Cell | None) -> str | None:
    return None if cell is None else cell_name(cell)


def state_to_json(state: WarshipsState) -> dict[str, Any]:
    last = state.last
    return {
        "version": STATE_VERSION,
        "rules": state.rules.to_json(),
        "seed": state.seed,
        "south": state.south,
        "phase": state.phase.value,
        "pieces": [
            [cell_name(p.cell), p.owner, p.kind.value, p.identified, p.laid, p.neutral]
            for p in state.pieces
        ],
        "sides": [[s.ready, s.random_draws, s.reserve] for s in state.sides],
        "turn": state.turn,
        "losses": [
            [x.owner, x.kind.value, cell_name(x.cell), x.cause.value, x.public]
            for x in state.losses
        ],
        "last": None
        if last is None
        else [
            last.seat,
            _name(last.start),
            _name(last.end),
            _name(last.target),
            [cell_name(c) for c in last.emptied],
        ],
        "turns": state.turns,
        "passes": state.passes,
        "quiet": state.quiet,
        "mined": state.mined,
        "draw_offer": state.draw_offer,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def state_from_json(data: Mapping[str, Any]) -> WarshipsState:
    if not isinstance(data, Mapping) or data.get("version") != STATE_VERSION:
        raise CorruptStateError("Unknown Warships state version.")
    try:
        last = data["last"]
        state = WarshipsState(
            rules=WarshipsRules.from_json(data["rules"]),
            seed=int(data["seed"]),
            south=int(data["south"]),
            phase=Phase(data["phase"]),
            pieces=tuple(
                Piece(_cell(c), int(o), Kind(k), bool(i), bool(laid), int(n))
                for c, o, k, i, laid, n in data["pieces"]
            ),
            sides=tuple(  # type: ignore[arg-type]
                Side(bool(r), int(d), int(m)) for r, d, m in data["sides"]
            ),
            turn=data["turn"],
            losses=tuple(
                Loss(int(o), Kind(k), _cell(c), Cause(cause), bool(public))
                for o, k, c, cause, public in data["losses"]
            ),
            last=None
            if last is None
            else LastAction(
                int(last[0]),
                _opt_cell(last[1]),
                _opt_cell(last[2]),
                _opt_cell(last[3]),
                tuple(_cell(c) for c in last[4]),
            ),
            turns=int(data["turns"]),
            passes=int(data["passes"]),
            quiet=int(data["quiet"]),
            mined=bool(data["mined"]),
            draw_offer=data["draw_offer"],
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
        )
    except (KeyError, TypeError, ValueError, IndexError, GameError) as error:
        raise CorruptStateError(f"The stored Warships game is unreadable: {error}") from None
    validate(state)
    return state


_ALL_BATTERY_FIELDS = board.BATTERY_FIELDS[Shore.SOUTH] | board.BATTERY_FIELDS[Shore.NORTH]


def validate(state: WarshipsState) -> None:
    """Reject stored data that no sequence of legal moves could have produced."""
    if state.draw_offer not in (None, *SEATS):
        raise CorruptStateError("A stored draw offer names no seat.")
    if state.south not in SEATS or state.turn not in (None, *SEATS) or len(state.sides) != 2:
        raise CorruptStateError("The stored Warships game has bad seats.")
    if len(state.at) != len(state.pieces):
        raise CorruptStateError("Two stored Warships tokens share a field.")
    if list(state.pieces) != sorted(state.pieces, key=lambda p: (p.cell[1], p.cell[0])):
        raise CorruptStateError("The stored Warships tokens are out of order.")
    taken_out = {loss.cell for loss in state.losses if loss.kind is Kind.BATTERY}
    for loss in state.losses:
        if loss.kind is Kind.BATTERY and (
            loss.owner not in SEATS
            or loss.cell not in board.BATTERY_FIELDS[state.shore(loss.owner)]
        ):
            raise CorruptStateError("A stored shore battery was taken out off its field.")
    for piece in state.pieces:
        if piece.owner not in SEATS or not board.is_field(piece.cell):
            raise CorruptStateError("A stored Warships token is off the board.")
        if not 0 <= piece.neutral < 4 or (piece.laid and piece.kind is not Kind.MINE):
            raise CorruptStateError("A stored Warships token has impossible marks.")
        if piece.kind is Kind.BATTERY:
            if piece.cell not in board.BATTERY_FIELDS[state.shore(piece.owner)]:
                raise CorruptStateError("A stored shore battery is off its field.")
        elif piece.cell in _ALL_BATTERY_FIELDS and piece.cell not in taken_out:
            # §2.2, §8.2 c, §11.4, §12.1: a taken-out battery's field is an ordinary port
            # field that ships of either side may enter and its owner may mine.
            raise CorruptStateError("A stored token stands on a battery that was not taken out.")
    for seat in SEATS:
        side = state.sides[seat]
        totals = Counter(p.kind for p in state.pieces if p.owner == seat)
        totals.update(x.kind for x in state.losses if x.owner == seat)
        totals[Kind.MINE] += side.reserve
        if any(totals[kind] != unit.count for kind, unit in UNITS.items()):
            raise CorruptStateError("A stored Warships side does not have its 36 tokens.")
        if side.random_draws < 0 or not 0 <= side.reserve <= MINE_COUNT:
            raise CorruptStateError("A stored Warships side has impossible counts.")
    if state.phase is Phase.SETUP and (state.turn is not None or state.losses or state.turns):
        raise CorruptStateError("A Warships game in setup cannot have turns.")
    if state.phase is Phase.PLAY and (state.turn is None or not all(s.ready for s in state.sides)):
        raise CorruptStateError("A Warships game in play needs both sides ready and a turn.")
    if (state.phase is Phase.FINISHED) != (state.outcome is not None):
        raise CorruptStateError("Only a finished Warships game has an outcome.")
    if min(state.turns, state.passes, state.quiet) < 0:
        raise CorruptStateError("A stored Warships counter is negative.")
    if state.phase is Phase.FINISHED and state.turn is not None:
        raise CorruptStateError("A finished Warships game has no turn.")
    if any(loss.owner not in SEATS for loss in state.losses) or (
        state.last is not None and state.last.seat not in SEATS
    ):
        raise CorruptStateError("A stored Warships record names no seat.")
    if any(p.kind is Kind.MINE and p.cell in board.NEUTRAL for p in state.pieces):
        raise CorruptStateError("A stored mine lies on neutral water.")
