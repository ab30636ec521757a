"""Submarines in Seachess (§5): diving, steering under water, emerging, surfacing when
found by sonar or when their time is up, and counting the turns that decide how long a
dive lasts.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.seachess.board import ORTHOGONAL_NEIGHBOURS, name
from bot.games.seachess.changes import Notes, remove, touch, whose
from bot.games.seachess.pieces import COLOURS, MAX_COUNT, Kind, Piece, Submerged
from bot.games.seachess.position import Position


def dive(pos: Position, seat: int, start: int, end: int, notes: Notes | None) -> None:
    piece = pos.at.pop(start)
    touch(pos, start)
    turns = min(piece.count // 2, 4)
    surfaces_at = pos.ply + 2 * turns
    if notes is not None:
        notes.last = (start,)
        notes.mover.append(
            f"Your submarine on {name(start)} submerged and moved under {name(end)} "
            f"(hidden move); it surfaces at the start of your move {surfaces_at // 2 + 1}."
        )
        notes.public.append(
            f"{COLOURS[seat]}: the submarine on {name(start)} submerged (hidden move); it "
            f"surfaces at the start of {COLOURS[seat]}'s move {surfaces_at // 2 + 1}."
        )
        notes.author.append(f"S{name(start)}v-{name(end)}(h)")
    _under(pos, seat, Submerged(end, seat, surfaces_at, start), notes)


def steer(pos: Position, seat: int, start: int, end: int, notes: Notes | None) -> None:
    sub = pos.sub_at(start, seat)
    assert sub is not None
    pos.subs.remove(sub)
    if notes is not None:
        notes.mover.append(
            f"Your submerged submarine moved {name(start)}-{name(end)} (hidden move)."
        )
        notes.public.append(f"{COLOURS[seat]} made a hidden move.")
        notes.author.append(f"sS{name(start)}-{name(end)}(h)")
    _under(pos, seat, replace(sub, square=end), notes)


def _under(pos: Position, seat: int, sub: Submerged, notes: Notes | None) -> None:
    """A submerged submarine arrives: on an enemy mine both are gone (§4.5)."""
    if sub.square in pos.mines:
        del pos.mines[sub.square]
        if notes is not None:
            notes.removal = True
            notes.both(
                f"A mine on {name(sub.square)} destroyed {COLOURS[seat]}'s submerged submarine; "
                "the mine is gone."
            )
            notes.author[-1] += "(M)"
        return
    pos.subs.append(sub)


def emerge(pos: Position, seat: int, sq: int, target: int | None, notes: Notes | None) -> None:
    sub = pos.sub_at(sq, seat)
    assert sub is not None
    pos.subs.remove(sub)
    end = sq if target is None else target
    captured = remove(pos, end) if end in pos.at else None
    text = author = ""
    if notes is not None:
        text = f"{COLOURS[seat]}: a submarine emerged " + (
            f"on {name(sq)}" if target is None else f"from under {name(sq)} onto {name(target)}"
        )
        author = f"sS{name(sq)}" + ("" if target is None else f"-{name(target)}") + "^"
    if captured is not None:
        text += f", taking {whose(captured)}"
        author += "x"
    if notes is not None:
        notes.last = (sq,) if target is None else (sq, target)
        notes.removal = notes.removal or captured is not None
    if end in pos.mines:  # §4.8: it took the cruiser on its mine and dies with the mine
        del pos.mines[end]
        if notes is not None:
            said = f"; a mine on {name(end)} destroyed the submarine, and the mine is gone."
            notes.removed(text + said, author + "(M)")
        return
    pos.at[end] = Piece(Kind.SUBMARINE, seat)
    if notes is not None:
        notes.both(text + ".")
        notes.author.append(author)


def sonar(pos: Position, notes: Notes | None) -> None:
    """§5.7: submerged submarines next to an enemy destroyer (by a side) all surface."""
    found = [
        sub
        for sub in pos.subs
        if any(
            (p := pos.at.get(s)) is not None and p.kind is Kind.DESTROYER and p.owner != sub.owner
            for s in ORTHOGONAL_NEIGHBOURS[sub.square]
        )
    ]
    for sub in found:
        surface(pos, sub, notes, "found by an enemy destroyer's sonar", ">")


def surface(pos: Position, sub: Submerged, notes: Notes | None, why: str, mark: str) -> None:
    """§5.6: a submarine comes up; a piece above is taken, unless it is a commando ship, in
    which case the submarine is lost."""
    pos.subs.remove(sub)
    sq = sub.square
    above = pos.at.get(sq)
    who = f"{COLOURS[sub.owner]}'s submarine surfaced on {name(sq)} ({why})" if notes else ""
    if above is not None and above.kind is Kind.COMMANDO:
        if notes is not None:
            notes.removed(f"{who} under a commando ship and was lost.", f"{mark}{name(sq)}^-")
        return
    captured = remove(pos, sq) if above is not None else None
    pos.at[sq] = Piece(Kind.SUBMARINE, sub.owner)
    if notes is not None:
        if captured is not None:
            notes.removed(f"{who}, taking {whose(captured)}.", f"{mark}{name(sq)}^x")
        else:
            notes.both(f"{who}.")
            notes.author.append(f"{mark}{name(sq)}^")


def count_turn(pos: Position, seat: int) -> None:
    """§5.1: the turn of ``seat`` ended; each of its visible submarines counts it."""
    for sq, piece in pos.at.items():
        if piece.owner == seat and piece.kind is Kind.SUBMARINE and piece.count < MAX_COUNT:
            pos.at[sq] = replace(piece, count=piece.count + 1)
