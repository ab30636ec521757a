"""What a move does to a position (§3–§6), with every automatic effect of §7.1a.

``perform`` changes a working ``Position`` in place. Given ``notes`` it also writes down what
each audience is told (§9.1) and the move in the author's notation (§9.4); legality tests
pass no notes, so trying a move costs no text. The same code runs on the true position and
on a player's view position, which is what makes the two-step test of §7.2a one rule.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.seachess import actions as act
from bot.games.seachess.board import (
    CARRIER,
    FORWARD,
    START_RANK,
    between,
    facing_of,
    file_of,
    name,
    rank_of,
    step,
)
from bot.games.seachess.changes import Barred, Notes, remove, touch, whose
from bot.games.seachess.moves import castling_squares, reloads
from bot.games.seachess.pieces import COLOURS, Kind, Piece, fresh
from bot.games.seachess.position import Position, attacked
from bot.games.seachess.submarines import dive, emerge, sonar, steer
from bot.games.words import with_article


def perform(pos: Position, seat: int, action: act.Action, notes: Notes | None = None) -> None:
    """Play ``action`` for ``seat`` on ``pos``, then the sonar of §5.7. The caller has checked
    that the action is a candidate in the mover's view; ``Barred`` means the commando ship
    meets a mine or an attacked square."""
    ep, pos.ep = pos.ep, None
    match action:
        case act.Move(start, end, promotion):
            _move(pos, seat, start, end, promotion, ep, notes)
        case act.Castle(long):
            _castle(pos, seat, long, notes)
        case act.Plant(sq):
            _plant(pos, seat, sq, notes)
        case act.Dive(start, end):
            dive(pos, seat, start, end, notes)
        case act.Steer(start, end):
            steer(pos, seat, start, end, notes)
        case act.Emerge(sq, target):
            emerge(pos, seat, sq, target, notes)
        case act.Torpedo(start, target):
            _torpedo(pos, seat, start, target, notes)
        case act.Strike(carrier, target):
            _strike(pos, seat, carrier, target, notes)
        case act.Land():
            home = pos.airborne[seat]
            assert home is not None
            pos.at[home] = replace(pos.at[home], loaded=True)
            pos.airborne[seat] = None
            if notes is not None:
                notes.both(f"{COLOURS[seat]}: the aircraft lands on its carrier on {name(home)}.")
                notes.author.append(f"A{name(home)}<a")
                notes.last = (home,)
    sonar(pos, notes)


def _path(kind: Kind, start: int, end: int) -> tuple[int, ...]:
    if kind is Kind.CARRIER:
        return next(path for target, path in CARRIER[start] if target == end)
    if kind in (Kind.COMMANDO, Kind.SUBMARINE):
        return ()
    return between(start, end)


def _move(
    pos: Position,
    seat: int,
    start: int,
    end: int,
    promotion: Kind | None,
    ep: tuple[int, int] | None,
    notes: Notes | None,
) -> None:
    """A piece moves, perhaps taking (en passant too), perhaps meeting a mine on its way or
    on its square (§4.3-4.4), and perhaps promoting, turning, reloading or hunting (§5)."""
    piece = pos.at[start]
    kind = piece.kind
    foe = 1 - seat
    if kind is Kind.COMMANDO and pos.mines.get(end) == foe:
        raise Barred(mine=True)  # §4.7
    letter = kind.value
    if notes is not None:
        notes.last = (start, end)
        if kind is Kind.BOAT:
            notes.boat = True
    if _stopped_on_the_way(pos, seat, start, end, notes):
        return
    remove(pos, start)
    captured = remove(pos, end) if end in pos.at else None
    passant = None
    diagonal = file_of(start) != file_of(end)
    if kind is Kind.BOAT and diagonal and captured is None and ep is not None and ep[0] == end:
        passant = ep[1]
        captured = remove(pos, passant)
    text = author = ""  # what is said is written only when someone will hear it
    if notes is not None:
        way = "x" if captured else "-"
        text = f"{COLOURS[seat]}: {kind.noun} {name(start)}{way}{name(end)}"
        author = f"{letter}{name(start)}{way}{name(end)}"
    if captured is not None and notes is not None:
        notes.removal = True
        where = f" on {name(passant)} en passant" if passant is not None else ""
        text += f", taking {whose(captured)}{where}"
        author += " e.p." if passant is not None else ""
    if end in pos.mines:  # §4.3: the mine takes the piece that arrives, then is gone
        del pos.mines[end]
        if notes is not None:
            said = f"; a mine on {name(end)} destroyed the {kind.noun}, and the mine is gone."
            notes.removed(text + said, author + "(M)")
        return
    moved, reloaded = _land(pos, seat, piece, start, end, promotion)
    if promotion is not None:
        text += f", promoted to {with_article(promotion.noun)}"
        author += f"={promotion.value}"
    # §5.8: whatever ends the move as a destroyer hunts, a boat promoted to one included
    hunted = pos.sub_at(end, foe) if moved.kind is Kind.DESTROYER else None
    if hunted is not None:
        pos.subs.remove(hunted)
    if notes is not None:
        _note_landing(notes, seat, end, kind, (text, author), reloaded, hunted is not None)


def _stopped_on_the_way(
    pos: Position, seat: int, start: int, end: int, notes: Notes | None
) -> bool:
    """§4.4: a piece that passes an enemy mine stops on it and is destroyed with the mine.
    Says whether that happened (the move is then over)."""
    kind = pos.at[start].kind
    for s in _path(kind, start, end):
        if s in pos.mines:  # only an enemy mine can be here
            remove(pos, start)
            del pos.mines[s]
            if notes is not None:
                notes.removed(
                    f"{COLOURS[seat]}: {kind.noun} {name(start)}-{name(end)} ran onto a mine on "
                    f"{name(s)} and was destroyed; the mine is gone.",
                    f"{kind.value}{name(start)}-{name(end)}(M{name(s)})",
                )
            return True
    return False


def _land(
    pos: Position, seat: int, piece: Piece, start: int, end: int, promotion: Kind | None
) -> tuple[Piece, bool]:
    """Put the moved piece on ``end`` as it now is: promoted, turned to face its way,
    reloaded in its home zone; a boat's double step opens en passant. Returns the piece
    and whether it reloaded."""
    kind = piece.kind
    moved = piece
    if promotion is not None:
        moved = fresh(promotion, seat)
    elif kind is Kind.TORPEDO_BOAT:
        facing = facing_of(start, end)
        moved = replace(moved, facing=moved.facing if facing is None else facing)
    reloaded = reloads(moved, seat, end) and not moved.loaded
    if reloaded:
        moved = replace(moved, loaded=True)
    pos.at[end] = moved
    if (
        kind is Kind.BOAT
        and rank_of(start) == START_RANK[seat]
        and abs(rank_of(end) - rank_of(start)) >= 2
    ) and file_of(start) == file_of(end):
        passed = step(start, (0, FORWARD[seat]))
        assert passed is not None
        pos.ep = (passed, end)
    return moved, reloaded


def _note_landing(
    notes: Notes,
    seat: int,
    end: int,
    kind: Kind,
    said: tuple[str, str],
    reloaded: bool,
    hunted: bool,
) -> None:
    """Write down a completed move: ``said`` is its line so far and its record in the
    author's notation, to which a reload and a destroyer's catch are added."""
    text, author = said
    if reloaded and kind is Kind.TORPEDO_BOAT:
        text += "; the torpedo boat reloads"
        author += "<T"
    notes.both(text + ".")
    if reloaded and kind is Kind.CRUISER:
        notes.mover.append("Your cruiser reloaded its mine.")
        author += "<M"
    if hunted:
        notes.removal = True
        notes.both(
            f"{COLOURS[seat]}'s destroyer on {name(end)} caught {COLOURS[1 - seat]}'s submerged "
            "submarine there."
        )
        author += "xs"
    notes.author.append(author)


def _castle(pos: Position, seat: int, long: bool, notes: Notes | None) -> None:
    king, king_to, partner, partner_to, gap = castling_squares(seat, long)
    if any(s in pos.mines for s in gap):
        raise Barred(mine=True)  # §6.2: only an enemy mine can be here
    foe = 1 - seat
    crossed = (*between(king, king_to), king_to)
    if attacked(pos, king, foe) or any(attacked(pos, s, foe) for s in crossed):
        raise Barred(mine=False)
    king_piece = pos.at.pop(king)
    partner_piece = pos.at.pop(partner)
    touch(pos, king)
    touch(pos, partner)
    reloaded = not partner_piece.loaded  # both castling squares lie in the own haven
    moved = replace(partner_piece, loaded=True)
    if moved.kind is Kind.TORPEDO_BOAT:
        moved = replace(moved, facing=facing_of(partner, partner_to) or 0)
    pos.at[king_to] = king_piece
    pos.at[partner_to] = moved
    if notes is None:
        return
    notes.last = (king, king_to, partner, partner_to)
    partner_name = "the cruiser" if long else "the torpedo boat"
    text = f"{COLOURS[seat]} castles {'long' if long else 'short'} with {partner_name}"
    author = "0-0-0" if long else "0-0"
    if reloaded and moved.kind is Kind.TORPEDO_BOAT:
        text += "; the torpedo boat reloads"
        author += "<T"
    notes.both(f"{text} ({act.Castle(long)}).")
    if reloaded and moved.kind is Kind.CRUISER:
        notes.mover.append("Your cruiser reloaded its mine.")
        author += "<M"
    notes.author.append(author)


def _plant(pos: Position, seat: int, sq: int, notes: Notes | None) -> None:
    pos.at[sq] = replace(pos.at[sq], loaded=False)
    victim = pos.sub_at(sq, 1 - seat)
    if victim is not None:  # §4.1: the new mine takes an enemy submarine below at once
        pos.subs.remove(victim)
    else:
        pos.mines[sq] = seat
    if notes is None:
        return
    notes.mover.append(f"You planted a mine on {name(sq)} (hidden move).")
    notes.public.append(f"{COLOURS[seat]} made a hidden move.")
    notes.author.append(f"C{name(sq)}-M(h)")
    if victim is not None:
        notes.removal = True
        notes.both(
            f"A mine on {name(sq)} destroyed {COLOURS[1 - seat]}'s submerged submarine; "
            "the mine is gone."
        )


def _torpedo(pos: Position, seat: int, start: int, target: int, notes: Notes | None) -> None:
    pos.at[start] = replace(pos.at[start], loaded=False)
    middle = between(start, target)
    if notes is not None:
        notes.last = (start, target)
    if middle and middle[0] in pos.mines:  # §3.4: only an enemy mine can be here
        del pos.mines[middle[0]]
        if notes is not None:
            notes.removed(
                f"{COLOURS[seat]}: the torpedo from {name(start)} at {name(target)} hit a mine on "
                f"{name(middle[0])}; the mine is gone and {name(target)} is unharmed.",
                f"T{name(start)}xt {name(target)}(M{name(middle[0])})",
            )
        return
    captured = remove(pos, target)
    if notes is not None and captured is not None:
        notes.removed(
            f"{COLOURS[seat]}: the torpedo boat on {name(start)} torpedoed {whose(captured)} "
            f"on {name(target)}.",
            f"T{name(start)}xt {name(target)}",
        )


def _strike(pos: Position, seat: int, carrier: int, target: int, notes: Notes | None) -> None:
    launch = pos.airborne[seat] is None
    if launch:
        pos.at[carrier] = replace(pos.at[carrier], loaded=False)
        pos.airborne[seat] = carrier
    captured = remove(pos, target)
    if notes is not None and captured is not None:
        notes.removal = True
        notes.last = (carrier, target)
        verb = "takes off from" if launch else "flies again from"
        notes.both(
            f"{COLOURS[seat]}: the aircraft {verb} the carrier on {name(carrier)} and takes "
            f"{whose(captured)} on {name(target)}; it is airborne."
        )
        notes.author.append(f"A{name(carrier)}xa {name(target)}")
