"""The Luzhanqi state: immutable, JSON round-trippable (version 1), re-validated on load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games.core import SEATS, CorruptStateError, GameError, Outcome, Phase
from bot.games.luzhanqi.board import STATIONS, Colour, Station, name, parse_station
from bot.games.luzhanqi.clash import Removal
from bot.games.luzhanqi.deployment import Layout, check_layout, parse_layout_codes
from bot.games.luzhanqi.pieces import ARMY, Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules

STATE_VERSION = 1


@dataclass(frozen=True)
class Side:
    """One seat's deployment while the armies are set up in secret."""

    layout: Layout = ()
    ready: bool = False
    random_draws: int = 0
    """How many random deployments this seat was dealt; the next comes from the seed and it."""


@dataclass(frozen=True)
class LastMove:
    """The latest move as everyone saw it (9.2): from, to, and what a clash removed."""

    start: Station
    target: Station | None
    """``None`` for a flip (the flipped station is ``start``)."""
    removal: Removal | None = None


@dataclass(frozen=True)
class LuzhanqiState:
    rules: LuzhanqiRules
    seed: int
    phase: Phase
    red_seat: int | None
    """The seat playing Red; in the flip game ``None`` until the first flip (A3)."""
    board: tuple[Piece | None, ...] = (None,) * len(STATIONS)
    sides: tuple[Side, Side] = (Side(), Side())
    turn: int | None = None
    quiet: int = 0
    """Plies since the last attack (or flip): the draw rule 8.4 / A11."""
    plies: int = 0
    last: LastMove | None = None
    flags_shown: frozenset[Colour] = frozenset()
    """Colours whose flag was revealed to both players when their marshal fell (section 7)."""
    outcome: Outcome | None = None
    draw_offer: int | None = None
    """8.5: the seat whose draw offer stands until the opponent's next turn ends."""

    def colour_of(self, seat: int) -> Colour | None:
        if self.red_seat is None:
            return None
        return Colour.RED if seat == self.red_seat else Colour.BLUE

    def seat_of(self, colour: Colour) -> int | None:
        if self.red_seat is None:
            return None
        return self.red_seat if colour is Colour.RED else 1 - self.red_seat

    def with_side(self, seat: int, side: Side) -> LuzhanqiState:
        sides = (side, self.sides[1]) if seat == 0 else (self.sides[0], side)
        return replace(self, sides=sides)

    def count(self, colour: Colour, *kinds: Kind) -> int:
        return sum(
            1 for p in self.board if p is not None and p.colour is colour and p.kind in kinds
        )

    def mines_left(self) -> dict[Colour, int]:
        return {colour: self.count(colour, Kind.LANDMINE) for colour in Colour}

    def movable_left(self, colour: Colour) -> int:
        return sum(
            1
            for p in self.board
            if p is not None and p.colour is colour and p.kind is not None and p.kind.movable
        )


def _piece_code(piece: Piece | None) -> str | None:
    if piece is None:
        return None
    assert piece.colour is not None and piece.kind is not None
    return f"{piece.colour.value[0]}{piece.kind.value}{'+' if piece.face_up else '-'}"


def _piece_from(code: str | None) -> Piece | None:
    if code is None:
        return None
    if len(code) != 3 or code[0] not in "rb" or code[2] not in "+-":
        raise ValueError(f"bad piece {code!r}")
    colour = Colour.RED if code[0] == "r" else Colour.BLUE
    return Piece(colour, Kind(code[1]), code[2] == "+")


def state_to_json(state: LuzhanqiState) -> dict[str, Any]:
    last = state.last
    return {
        "version": STATE_VERSION,
        "rules": state.rules.to_json(),
        "seed": state.seed,
        "phase": state.phase.value,
        "red_seat": state.red_seat,
        "board": [_piece_code(p) for p in state.board],
        "sides": [
            {
                "layout": "".join(k.value for k in side.layout),
                "ready": side.ready,
                "random_draws": side.random_draws,
            }
            for side in state.sides
        ],
        "turn": state.turn,
        "quiet": state.quiet,
        "plies": state.plies,
        "last": None
        if last is None
        else [
            name(last.start),
            None if last.target is None else name(last.target),
            None if last.removal is None else last.removal.value,
        ],
        "flags_shown": sorted(c.value for c in state.flags_shown),
        "outcome": state.outcome.to_json() if state.outcome else None,
        "draw_offer": state.draw_offer,
    }


def state_from_json(data: Mapping[str, Any]) -> LuzhanqiState:
    if data.get("version") != STATE_VERSION:
        raise CorruptStateError(f"Unknown Luzhanqi state version {data.get('version')!r}.")
    try:
        raw_last = data["last"]
        last = None
        if raw_last is not None:
            start, target, removal = raw_last
            last = LastMove(
                parse_station(start),
                None if target is None else parse_station(target),
                None if removal is None else Removal(removal),
            )
        sides = tuple(
            Side(
                layout=parse_layout_codes(str(side["layout"])),
                ready=bool(side["ready"]),
                random_draws=int(side["random_draws"]),
            )
            for side in data["sides"]
        )
        state = LuzhanqiState(
            rules=LuzhanqiRules.from_json(data["rules"]),
            seed=int(data["seed"]),
            phase=Phase(data["phase"]),
            red_seat=data["red_seat"],
            board=tuple(_piece_from(code) for code in data["board"]),
            sides=sides,  # type: ignore[arg-type]
            turn=data["turn"],
            quiet=int(data["quiet"]),
            plies=int(data["plies"]),
            last=last,
            flags_shown=frozenset(Colour(c) for c in data["flags_shown"]),
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
            draw_offer=data.get("draw_offer"),  # absent from games stored before 8.5
        )
    except (KeyError, TypeError, ValueError, GameError) as error:
        raise CorruptStateError(f"The stored Luzhanqi game is unreadable: {error}") from None
    _validate(state)
    return state


def _validate(state: LuzhanqiState) -> None:
    """Reject stored data that no sequence of legal moves could have produced."""
    rules = state.rules
    if len(state.board) != len(STATIONS) or len(state.sides) != 2:
        raise CorruptStateError("The stored Luzhanqi board has the wrong size.")
    if state.red_seat not in (None, *SEATS) or state.turn not in (None, *SEATS):
        raise CorruptStateError("The stored Luzhanqi game has bad seats.")
    if state.red_seat is None and not (rules.flip and state.plies == 0):
        raise CorruptStateError("Only a flip game before its first flip has no colours.")
    army = Counter(ARMY)
    for colour in Colour:
        kinds = Counter(p.kind for p in state.board if p is not None and p.colour is colour)
        if any(count > army[kind] for kind, count in kinds.items() if kind is not None):
            raise CorruptStateError(f"The stored board has too many {colour.value} pieces.")
    if not rules.flip and any(p is not None and not p.face_up for p in state.board):
        raise CorruptStateError("Only the flip game has face-down pieces.")
    if (state.phase is Phase.FINISHED) != (state.outcome is not None):
        raise CorruptStateError("Only a finished game has an outcome.")
    if state.phase is Phase.SETUP:
        if rules.flip or any(state.board) or state.turn is not None:
            raise CorruptStateError("A game in deployment has no pieces on the board yet.")
        for seat, side in enumerate(state.sides):
            seat_colour = state.colour_of(seat)
            assert seat_colour is not None
            try:
                check_layout(side.layout, seat_colour)
            except GameError as error:
                raise CorruptStateError(f"A stored deployment is illegal: {error}") from None
    if type(state.draw_offer) not in (type(None), int) or state.draw_offer not in (None, *SEATS):
        raise CorruptStateError("A stored draw offer names no seat.")
    if state.draw_offer is not None and state.phase is not Phase.PLAY:
        raise CorruptStateError("Only a game in play has a standing draw offer.")
    if state.phase is Phase.PLAY and state.turn is None:
        raise CorruptStateError("A game in play needs a seat to move.")
    if state.quiet < 0 or state.plies < state.quiet:
        raise CorruptStateError("The stored Luzhanqi move counters disagree.")
