"""The Luzhanqi state: immutable, JSON round-trippable (version 1), re-validated on load."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from bot.games import codec
from bot.games.codec import Check, Codec, Field, ListOf, Maybe, Plain, Record, Row, Rule
from bot.games.core import GameError, Outcome, Phase
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


STATION = Plain(parse_station, name)
STATE = Record(
    LuzhanqiState,
    codec.SEED,
    codec.PHASE,
    Field("red_seat"),
    Field("board", ListOf(Plain(_piece_from, _piece_code))),
    Field(
        "sides",
        ListOf(
            Record(
                Side,
                Field(
                    "layout",
                    Plain(
                        lambda codes: parse_layout_codes(str(codes)),
                        lambda layout: "".join(kind.value for kind in layout),
                    ),
                ),
                Field("ready", codec.BOOL),
                Field("random_draws", codec.INT),
            )
        ),
    ),
    Field("turn"),
    Field("quiet", codec.INT),
    Field("plies", codec.INT),
    Field(
        "last",
        Maybe(Row(LastMove, STATION, Maybe(STATION), Maybe(codec.enum(Removal)))),
    ),
    Field(
        "flags_shown",
        Plain(
            lambda raw: frozenset(Colour(c) for c in raw),
            lambda shown: sorted(c.value for c in shown),
        ),
    ),
    codec.OUTCOME,
    Field("draw_offer", missing=None),  # absent from games stored before 8.5
)


def _armies(state: LuzhanqiState) -> str | None:
    """No colour has more pieces of a kind than its army (section 2)."""
    army = Counter(ARMY)
    for colour in Colour:
        kinds = Counter(p.kind for p in state.board if p is not None and p.colour is colour)
        if any(count > army[kind] for kind, count in kinds.items() if kind is not None):
            return f"The stored board has too many {colour.value} pieces."
    return None


def _deployments(state: LuzhanqiState) -> str | None:
    """A game in deployment holds deployments each colour may make."""
    if state.phase is not Phase.SETUP:
        return None
    for seat, side in enumerate(state.sides):
        seat_colour = state.colour_of(seat)
        assert seat_colour is not None
        try:
            check_layout(side.layout, seat_colour)
        except GameError as error:
            return f"A stored deployment is illegal: {error}"
    return None


CHECKS: tuple[Check[LuzhanqiState], ...] = (
    Rule(
        "The stored Luzhanqi board has the wrong size.",
        lambda s: len(s.board) != len(STATIONS) or len(s.sides) != 2,
    ),
    Rule(
        "The stored Luzhanqi game has bad seats.",
        lambda s: not codec.is_seat(s.red_seat, True) or not codec.is_seat(s.turn, True),
    ),
    Rule(
        "Only a flip game before its first flip has no colours.",
        lambda s: s.red_seat is None and not (s.rules.flip and s.plies == 0),
    ),
    _armies,
    Rule(
        "Only the flip game has face-down pieces.",
        lambda s: not s.rules.flip and any(p is not None and not p.face_up for p in s.board),
    ),
    codec.outcome_when_finished("Only a finished game has an outcome."),
    Rule(
        "A game in deployment has no pieces on the board yet.",
        lambda s: s.phase is Phase.SETUP and (s.rules.flip or any(s.board) or s.turn is not None),
    ),
    _deployments,
    Rule(
        "A stored draw offer names no seat.",
        lambda s: (
            type(s.draw_offer) not in (type(None), int) or not codec.is_seat(s.draw_offer, True)
        ),
    ),
    Rule(
        "Only a game in play has a standing draw offer.",
        lambda s: s.draw_offer is not None and s.phase is not Phase.PLAY,
    ),
    Rule(
        "A game in play needs a seat to move.",
        lambda s: s.phase is Phase.PLAY and s.turn is None,
    ),
    Rule(
        "The stored Luzhanqi move counters disagree.",
        lambda s: s.quiet < 0 or s.plies < s.quiet,
    ),
)
"""Stored data no sequence of legal moves could have produced is refused."""

CODEC: Codec[LuzhanqiState] = Codec(
    "Luzhanqi game",
    LuzhanqiRules.from_json,
    STATE,
    CHECKS,
    unknown="Unknown Luzhanqi state version {version!r}.",
)
state_to_json = CODEC.dump
state_from_json = CODEC.load
