"""The Seachess state: immutable, JSON round-trippable (version 1), re-validated on load."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from bot.games import codec
from bot.games.codec import Check, Codec, Field, ListOf, Maybe, Plain, Record, Row, Rule
from bot.games.core import SEATS, Outcome, Phase
from bot.games.seachess.board import (
    FORWARD,
    LAST_RANK,
    MISSING,
    START_RANK,
    file_of,
    name,
    parse_square,
    rank_of,
)
from bot.games.seachess.moves import castling_squares
from bot.games.seachess.pieces import LOADED_KINDS, MAX_COUNT, Kind, Piece, Submerged, fresh
from bot.games.seachess.position import Position, in_check
from bot.games.seachess.rules import SeachessRules
from bot.games.words import with_article

STATE_VERSION = 1
BACK_RANK = "CSDAKDST"
"""§1.3: files c–j of ranks 1 and 12."""


@dataclass(frozen=True)
class SeachessState:
    rules: SeachessRules
    seed: int
    phase: Phase = Phase.PLAY
    pieces: tuple[tuple[int, Piece], ...] = ()
    """Visible pieces by square, in square order."""
    mines: tuple[tuple[int, int], ...] = ()
    """(square, owner), in square order."""
    subs: tuple[Submerged, ...] = ()
    castling: tuple[bool, bool, bool, bool] = (True, True, True, True)
    """White long, White short, Black long, Black short (§6)."""
    ep: tuple[int, int] | None = None
    """(square passed, boat to remove) for en passant on the next move only (§3.8)."""
    airborne: tuple[int | None, int | None] = (None, None)
    """Each side's carrier square while its aircraft is airborne (§3.7)."""
    turn: int = 0
    ply: int = 0
    """Moves made so far; the n-th move of a side is ply 2(n-1) for White, 2n-1 for Black."""
    quiet: int = 0
    """§8: turns in a row without any removal or boat move."""
    history: tuple[str, ...] = ()
    """§8: keys of the true positions since the last removal or boat move, for repetition."""
    refused: tuple[str, ...] = ()
    """§7.3: attempts publicly refused in the current turn."""
    draw_offer: int | None = None
    checks: tuple[bool, bool] = (False, False)
    """Whose commando ship stands in check now, as announced to both (§9.1)."""
    last: tuple[int, ...] = ()
    """The squares of the last move that everyone saw."""
    record: tuple[str, ...] = ()
    """Every move in the author's notation, hidden ones filled in: secret until the end."""
    outcome: Outcome | None = None

    def position(self) -> Position:
        """The true position, in the mutable form the move generator works on."""
        at, mines, subs = dict(self.pieces), dict(self.mines), list(self.subs)
        castling, airborne = list(self.castling), list(self.airborne)
        return Position(at, mines, subs, castling, self.ep, airborne, self.turn, self.ply)

    def known_to(self, seat: int) -> Position:
        """§7.2a: the view position, the truth without the opponent's mines and submarines."""
        pos = self.position()
        pos.mines = {sq: owner for sq, owner in self.mines if owner == seat}
        pos.subs = [sub for sub in self.subs if sub.owner == seat]
        return pos

    def with_position(self, pos: Position) -> SeachessState:
        from dataclasses import replace

        return replace(
            self,
            pieces=tuple(sorted(pos.at.items())),
            mines=tuple(sorted(pos.mines.items())),
            subs=tuple(sorted(pos.subs, key=lambda s: (s.square, s.owner))),
            castling=tuple(pos.castling),  # type: ignore[arg-type]
            ep=pos.ep,
            airborne=tuple(pos.airborne),  # type: ignore[arg-type]
            turn=pos.turn,
            ply=pos.ply,
        )


def start_position(rules: SeachessRules, seed: int) -> SeachessState:
    pieces: dict[int, Piece] = {}
    for seat, (back, front) in enumerate(((0, 1), (11, 10))):
        for offset, letter in enumerate(BACK_RANK):
            pieces[back * 12 + 2 + offset] = fresh(Kind(letter), seat)
            pieces[front * 12 + 2 + offset] = fresh(Kind.BOAT, seat)
    return SeachessState(rules=rules, seed=seed, pieces=tuple(sorted(pieces.items())))


def position_key(pos: Position) -> str:
    """§8: the whole true position and the side to move, as a short stable digest."""
    parts = [
        ",".join(
            f"{sq}{p.code}{int(p.loaded)}{p.facing}{p.count}" for sq, p in sorted(pos.at.items())
        ),
        ",".join(f"{sq}:{owner}" for sq, owner in sorted(pos.mines.items())),
        ",".join(
            f"{s.square}:{s.owner}:{s.surfaces_at - pos.ply}"
            for s in sorted(pos.subs, key=lambda s: (s.square, s.owner))
        ),
        "".join(str(int(c)) for c in pos.castling),
        str(pos.ep),
        str(pos.airborne),
        str(pos.turn),
    ]
    return hashlib.blake2b("|".join(parts).encode(), digest_size=8).hexdigest()


def _square(text: Any) -> int:
    if not isinstance(text, str):
        raise ValueError("a square must be written as text")
    return parse_square(text)


def _piece(square: int, kind: Kind, owner: int, loaded: bool, facing: int, count: int) -> Any:
    return square, Piece(kind, owner, loaded, facing, count)


def _split_piece(entry: tuple[int, Piece]) -> tuple[Any, ...]:
    square, p = entry
    return square, p.kind, p.owner, p.loaded, p.facing, p.count


SQUARE = Plain(_square, name)
SQUARES = ListOf(SQUARE)
FLAGS = ListOf(codec.FLAG)
TEXTS = ListOf(codec.TEXT)
STATE = Record(
    SeachessState,
    codec.SEED,
    codec.PHASE,
    Field(
        "pieces",
        ListOf(
            Row(
                _piece,
                SQUARE,
                codec.enum(Kind),
                codec.SEAT,
                codec.FLAG,
                codec.INT,
                codec.INT,
                split=_split_piece,
            )
        ),
    ),
    Field("mines", ListOf(Row(codec.pair, SQUARE, codec.SEAT, split=tuple))),
    Field("subs", ListOf(Row(Submerged, SQUARE, codec.SEAT, codec.INT, SQUARE))),
    Field("castling", FLAGS),
    Field("ep", Maybe(Row(codec.pair, SQUARE, SQUARE, split=tuple, exact=False))),
    Field("airborne", ListOf(Maybe(SQUARE))),
    Field("turn", codec.SEAT),
    Field("ply", codec.INT),
    Field("quiet", codec.INT),
    Field("history", TEXTS),
    Field("refused", TEXTS),
    Field("draw_offer", Maybe(codec.SEAT)),
    Field("checks", FLAGS),
    Field("last", SQUARES),
    Field("record", TEXTS),
    codec.OUTCOME,
)


def _commandos(state: SeachessState) -> str | None:
    """One commando ship a side."""
    for owner in SEATS:
        if sum(1 for _, p in state.pieces if p.kind is Kind.COMMANDO and p.owner == owner) != 1:
            return "a side needs exactly one commando ship"
    return None


def _marks(state: SeachessState) -> str | None:
    """Loads, counts and facings only where play puts them; boats between their start rank
    and their last (§3.8: a boat arriving there is promoted)."""
    for square, each in state.pieces:
        if not 0 <= each.facing < 4 or not 0 <= each.count <= MAX_COUNT:
            return "a piece has an impossible facing or count"
        if each.loaded and each.kind not in LOADED_KINDS:
            return f"{with_article(each.kind.noun)} is loaded"
        if each.count and each.kind is not Kind.SUBMARINE:
            return f"{with_article(each.kind.noun)} counts visible turns"
        if each.kind is Kind.BOAT:
            ahead = (rank_of(square) - START_RANK[each.owner]) * FORWARD[each.owner]
            if ahead < 0 or rank_of(square) == LAST_RANK[each.owner]:
                return "a boat stands where no boat can"
    return None


def _mines(state: SeachessState) -> str | None:
    """A mine lies under the cruiser that planted it, or alone."""
    at = dict(state.pieces)
    for square, owner in state.mines:
        piece = at.get(square)
        if piece is not None and (
            piece.kind is not Kind.CRUISER or piece.owner != owner or piece.loaded
        ):
            return "a mine lies under a piece that did not plant it"
    return None


def _submarines(state: SeachessState) -> str | None:
    """Submerged submarines timed as a dive times them and never under an enemy destroyer."""
    at, mined = dict(state.pieces), dict(state.mines)
    seen: set[tuple[int, int]] = set()
    for sub in state.subs:
        if (sub.square, sub.owner) in seen or sub.square in mined:
            return "a submerged submarine shares a square it may not"
        seen.add((sub.square, sub.owner))
        # §5.2, §5.4: a dive begins on one of its owner's plies, lasts one to four of the
        # owner's turns and ends at the start of another; one ending at the start of the
        # current ply has surfaced already.
        if sub.surfaces_at % 2 != sub.owner or not 0 < sub.surfaces_at - state.ply < 8:
            return "a submarine's dive does not fit the move count"
        above = at.get(sub.square)
        if above is not None and above.kind is Kind.DESTROYER and above.owner != sub.owner:
            return "a submerged submarine lies under an enemy destroyer"  # §5.3, §5.8
    return None


def _is(piece: Piece | None, kind: Kind, owner: int) -> bool:
    return piece is not None and piece.kind is kind and piece.owner == owner


def _castling(state: SeachessState) -> str | None:
    """A castling right has its two pieces in place (§6)."""
    at = dict(state.pieces)
    for index, (owner, long) in enumerate(((0, True), (0, False), (1, True), (1, False))):
        if state.castling[index]:
            king, _, partner, _, _ = castling_squares(owner, long)
            want = Kind.CRUISER if long else Kind.TORPEDO_BOAT
            if not (_is(at.get(king), Kind.COMMANDO, owner) and _is(at.get(partner), want, owner)):
                return "a castling right has no pieces to castle with"
    return None


def _airborne(state: SeachessState) -> str | None:
    """An airborne aircraft has its carrier, empty, where it took off (§3.7)."""
    at = dict(state.pieces)
    for owner in SEATS:
        carrier = state.airborne[owner]
        if carrier is not None:
            piece = at.get(carrier)
            if not _is(piece, Kind.CARRIER, owner) or piece.loaded:  # type: ignore[union-attr]
                return "an airborne aircraft has no carrier"
    return None


def _en_passant(state: SeachessState) -> str | None:
    """An en passant chance is on the square the enemy boat has just passed (§3.8)."""
    if state.ep is None:
        return None
    passed, boat = state.ep
    victim = dict(state.pieces).get(boat)
    if victim is None or victim.kind is not Kind.BOAT or victim.owner == state.turn:
        return "an en passant chance names no enemy boat"
    start, forward = START_RANK[victim.owner], FORWARD[victim.owner]
    if (
        file_of(passed) != file_of(boat)
        or rank_of(passed) != start + forward
        or not 2 <= (rank_of(boat) - start) * forward <= 4
    ):
        return "an en passant chance names a square the boat did not pass"
    return None


def _told(state: SeachessState) -> str | None:
    """What both players were told about check, and the repetition record of §8, belong to
    the position stored with them."""
    pos = state.position()
    if state.checks != (in_check(pos, 0), in_check(pos, 1)):
        return "the checks announced are not the checks on the board"
    if state.ply > 0 and (
        not state.history
        or state.history[-1] != position_key(pos)
        or len(state.history) > state.quiet + 1
    ):
        return "the repetition record does not end with this position"
    return None


CHECKS: tuple[Check[SeachessState], ...] = (
    Rule(
        "pieces share a square or are out of order",
        lambda s: not codec.ascending([q for q, _ in s.pieces]),
    ),
    Rule(
        "mines share a square or are out of order",
        lambda s: not codec.ascending([q for q, _ in s.mines]),
    ),
    Rule(
        "a piece stands off the board",
        lambda s: any(q in MISSING for q in [q for q, _ in s.pieces]),
    ),
    Rule(
        "a record has the wrong length",
        lambda s: len(s.checks) != 2 or len(s.castling) != 4 or len(s.airborne) != 2,
    ),
    Rule(
        "the move count does not match the record",
        lambda s: len(s.record) != s.ply or s.quiet < 0 or s.ply < 0,
    ),
    Rule("the side to move does not match the move count", lambda s: s.turn != s.ply % 2),
    codec.outcome_when_finished("only a finished game has an outcome"),
    codec.no_setup("Seachess has no setup phase"),
    _commandos,
    _marks,
    _mines,
    _submarines,
    _castling,
    _airborne,
    _en_passant,
    _told,
)
"""Stored data no sequence of legal moves could have produced is refused: a game loaded
from storage is played on, so anything play cannot reach would be played by rules the
engine never tests."""

CODEC: Codec[SeachessState] = Codec(
    "Seachess game",
    SeachessRules.from_json,
    STATE,
    CHECKS,
    version=STATE_VERSION,
    impossible="The stored Seachess game is impossible: {}.",
)
state_to_json = CODEC.dump
state_from_json = CODEC.load
