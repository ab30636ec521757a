"""The Seachess state: immutable, JSON round-trippable (version 1), re-validated on load."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.core import SEATS, CorruptStateError, GameError, Outcome, Phase
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
        return Position(
            dict(self.pieces),
            dict(self.mines),
            list(self.subs),
            list(self.castling),
            self.ep,
            list(self.airborne),
            self.turn,
            self.ply,
        )

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


def state_to_json(state: SeachessState) -> dict[str, Any]:
    return {
        "version": STATE_VERSION,
        "rules": state.rules.to_json(),
        "seed": state.seed,
        "phase": state.phase.value,
        "pieces": [
            [name(sq), p.kind.value, p.owner, p.loaded, p.facing, p.count] for sq, p in state.pieces
        ],
        "mines": [[name(sq), owner] for sq, owner in state.mines],
        "subs": [[name(s.square), s.owner, s.surfaces_at, name(s.dived_from)] for s in state.subs],
        "castling": list(state.castling),
        "ep": None if state.ep is None else [name(state.ep[0]), name(state.ep[1])],
        "airborne": [None if a is None else name(a) for a in state.airborne],
        "turn": state.turn,
        "ply": state.ply,
        "quiet": state.quiet,
        "history": list(state.history),
        "refused": list(state.refused),
        "draw_offer": state.draw_offer,
        "checks": list(state.checks),
        "last": [name(sq) for sq in state.last],
        "record": list(state.record),
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def _sq(text: Any) -> int:
    if not isinstance(text, str):
        raise ValueError("a square must be written as text")
    return parse_square(text)


def _seat(value: Any) -> int:
    if value not in SEATS or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a seat")
    return int(value)


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not true or false")
    return value


def state_from_json(data: Mapping[str, Any]) -> SeachessState:
    if not isinstance(data, Mapping) or data.get("version") != STATE_VERSION:
        raise CorruptStateError("Unknown Seachess state version.")
    try:
        ep = data["ep"]
        state = SeachessState(
            rules=SeachessRules.from_json(data["rules"]),
            seed=int(data["seed"]),
            phase=Phase(data["phase"]),
            pieces=tuple(
                (_sq(sq), Piece(Kind(k), _seat(o), _flag(loaded), int(facing), int(count)))
                for sq, k, o, loaded, facing, count in data["pieces"]
            ),
            mines=tuple((_sq(sq), _seat(o)) for sq, o in data["mines"]),
            subs=tuple(
                Submerged(_sq(sq), _seat(o), int(at), _sq(origin))
                for sq, o, at, origin in data["subs"]
            ),
            castling=tuple(_flag(c) for c in data["castling"]),  # type: ignore[arg-type]
            ep=None if ep is None else (_sq(ep[0]), _sq(ep[1])),
            airborne=tuple(None if a is None else _sq(a) for a in data["airborne"]),  # type: ignore[arg-type]
            turn=_seat(data["turn"]),
            ply=int(data["ply"]),
            quiet=int(data["quiet"]),
            history=tuple(str(h) for h in data["history"]),
            refused=tuple(str(r) for r in data["refused"]),
            draw_offer=None if data["draw_offer"] is None else _seat(data["draw_offer"]),
            checks=tuple(_flag(c) for c in data["checks"]),  # type: ignore[arg-type]
            last=tuple(_sq(sq) for sq in data["last"]),
            record=tuple(str(r) for r in data["record"]),
            outcome=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
        )
    except (KeyError, TypeError, ValueError, IndexError, GameError) as error:
        raise CorruptStateError(f"The stored Seachess game is unreadable: {error}") from None
    validate(state)
    return state


def _bad(why: str) -> CorruptStateError:
    return CorruptStateError(f"The stored Seachess game is impossible: {why}.")


def validate(state: SeachessState) -> None:
    """Reject stored data that no sequence of legal moves could have produced: a game loaded
    from storage is played on, so anything play cannot reach would be played by rules the
    engine never tests."""
    squares = [sq for sq, _ in state.pieces]
    if squares != sorted(set(squares)):
        raise _bad("pieces share a square or are out of order")
    if [sq for sq, _ in state.mines] != sorted({sq for sq, _ in state.mines}):
        raise _bad("mines share a square or are out of order")
    if any(sq in MISSING for sq in squares):
        raise _bad("a piece stands off the board")
    if len(state.checks) != 2 or len(state.castling) != 4 or len(state.airborne) != 2:
        raise _bad("a record has the wrong length")
    if len(state.record) != state.ply or state.quiet < 0 or state.ply < 0:
        raise _bad("the move count does not match the record")
    if state.turn != state.ply % 2:
        raise _bad("the side to move does not match the move count")
    if (state.phase is Phase.FINISHED) != (state.outcome is not None):
        raise _bad("only a finished game has an outcome")
    if state.phase is Phase.SETUP:
        raise _bad("Seachess has no setup phase")
    at = dict(state.pieces)
    _validate_pieces(at)
    _validate_hidden(state, at)
    _validate_rights(state, at)
    _validate_record(state)


def _validate_pieces(at: dict[int, Piece]) -> None:
    """One commando ship a side; loads, counts and facings only where play puts them; boats
    between their start rank and their last (§3.8: a boat arriving there is promoted)."""
    for seat in SEATS:
        if sum(1 for p in at.values() if p.kind is Kind.COMMANDO and p.owner == seat) != 1:
            raise _bad("a side needs exactly one commando ship")
    for sq, each in at.items():
        if not 0 <= each.facing < 4 or not 0 <= each.count <= MAX_COUNT:
            raise _bad("a piece has an impossible facing or count")
        if each.loaded and each.kind not in LOADED_KINDS:
            raise _bad(f"{with_article(each.kind.noun)} is loaded")
        if each.count and each.kind is not Kind.SUBMARINE:
            raise _bad(f"{with_article(each.kind.noun)} counts visible turns")
        if each.kind is Kind.BOAT:
            ahead = (rank_of(sq) - START_RANK[each.owner]) * FORWARD[each.owner]
            if ahead < 0 or rank_of(sq) == LAST_RANK[each.owner]:
                raise _bad("a boat stands where no boat can")


def _validate_hidden(state: SeachessState, at: dict[int, Piece]) -> None:
    """Mines under their planting cruiser or alone; submerged submarines timed as a dive
    times them and never under an enemy destroyer."""
    for sq, owner in state.mines:
        piece = at.get(sq)
        if piece is not None and (
            piece.kind is not Kind.CRUISER or piece.owner != owner or piece.loaded
        ):
            raise _bad("a mine lies under a piece that did not plant it")
    mined = dict(state.mines)
    seen: set[tuple[int, int]] = set()
    for sub in state.subs:
        if (sub.square, sub.owner) in seen or sub.square in mined:
            raise _bad("a submerged submarine shares a square it may not")
        seen.add((sub.square, sub.owner))
        # §5.2, §5.4: a dive begins on one of its owner's plies, lasts one to four of the
        # owner's turns and ends at the start of another; one ending at the start of the
        # current ply has surfaced already.
        if sub.surfaces_at % 2 != sub.owner or not 0 < sub.surfaces_at - state.ply < 8:
            raise _bad("a submarine's dive does not fit the move count")
        above = at.get(sub.square)
        if above is not None and above.kind is Kind.DESTROYER and above.owner != sub.owner:
            raise _bad("a submerged submarine lies under an enemy destroyer")  # §5.3, §5.8


def _validate_rights(state: SeachessState, at: dict[int, Piece]) -> None:
    """Castling rights with their two pieces in place, an airborne aircraft with its carrier,
    an en passant chance on the square the enemy boat has just passed (§3.8)."""
    for index, (seat, long) in enumerate(((0, True), (0, False), (1, True), (1, False))):
        if state.castling[index]:
            king, _, partner, _, _ = castling_squares(seat, long)
            want = Kind.CRUISER if long else Kind.TORPEDO_BOAT
            k, p = at.get(king), at.get(partner)
            if k is None or k.kind is not Kind.COMMANDO or p is None or p.kind is not want:
                raise _bad("a castling right has no pieces to castle with")
            if k.owner != seat or p.owner != seat:
                raise _bad("a castling right has no pieces to castle with")
    for seat in SEATS:
        carrier = state.airborne[seat]
        if carrier is not None:
            piece = at.get(carrier)
            if (
                piece is None
                or piece.kind is not Kind.CARRIER
                or piece.owner != seat
                or piece.loaded
            ):
                raise _bad("an airborne aircraft has no carrier")
    if state.ep is not None:
        passed, boat = state.ep
        victim = at.get(boat)
        if victim is None or victim.kind is not Kind.BOAT or victim.owner == state.turn:
            raise _bad("an en passant chance names no enemy boat")
        start, forward = START_RANK[victim.owner], FORWARD[victim.owner]
        if (
            file_of(passed) != file_of(boat)
            or rank_of(passed) != start + forward
            or not 2 <= (rank_of(boat) - start) * forward <= 4
        ):
            raise _bad("an en passant chance names a square the boat did not pass")


def _validate_record(state: SeachessState) -> None:
    """What both players were told about check, and the repetition record of §8, belong to
    the position stored with them."""
    pos = state.position()
    if state.checks != (in_check(pos, 0), in_check(pos, 1)):
        raise _bad("the checks announced are not the checks on the board")
    if state.ply > 0 and (
        not state.history
        or state.history[-1] != position_key(pos)
        or len(state.history) > state.quiet + 1
    ):
        raise _bad("the repetition record does not end with this position")
