"""What the referee says in Seachess (§9.1): check announcements, private refusals, the end,
and the full move list with the hidden moves filled in (§9.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.core import Event, name_of
from bot.games.seachess import actions as act
from bot.games.seachess.board import LAST_RANK, name, rank_of
from bot.games.seachess.pieces import COLOURS, Kind, Piece
from bot.games.seachess.position import Position

if TYPE_CHECKING:
    from bot.games.seachess.state import SeachessState

MOVE_LIST_LIMIT = 1500
"""Characters of move list that fit one channel message beside the result."""


def check_texts(checked: int, found: list[tuple[int, Piece | None]]) -> list[Event]:
    """§9.1: the checker is named, except a submerged submarine to anyone but its owner."""
    attacker = 1 - checked

    def by(owner_view: bool) -> str:
        names = []
        for sq, piece in found:
            if piece is None:
                names.append(
                    f"your submerged submarine under {name(sq)}"
                    if owner_view
                    else "a submerged submarine"
                )
            else:
                names.append(
                    ("your " if owner_view else f"{COLOURS[attacker]}'s ")
                    + f"{piece.kind.noun} on {name(sq)}"
                )
        return " and ".join(dict.fromkeys(names))

    return [
        Event(attacker, f"Check to {COLOURS[checked]}, by {by(True)}."),
        Event(checked, f"Check! Your commando ship is attacked by {by(False)}."),
        Event(None, f"Check: {COLOURS[checked]}'s commando ship is attacked by {by(False)}."),
    ]


def explain(known: Position, seat: int, action: act.Action) -> str:
    """A private refusal (§7.2): why the move is impossible as the mover can know."""
    carrier = known.airborne[seat]
    if carrier is not None and not isinstance(action, act.Strike | act.Land):
        return (
            f"Your aircraft is airborne: only it may act. Strike a piece on its ring "
            f"with `air {name(carrier)}x…`, or write `land`."
        )
    match action:
        case act.Move(start, end, promotion):
            return _explain_move(known, seat, start, end, promotion)
        case act.Castle(long):
            side = "long (with the cruiser)" if long else "short (with the torpedo boat)"
            return (
                f"You cannot castle {side}: the commando ship or that piece has moved, or "
                "something stands between them."
            )
        case act.Plant(sq):
            if known.sub_at(sq, seat) is not None:
                return f"Your own submarine is under {name(sq)}: no mine may go on it."
            return f"You have no loaded cruiser on {name(sq)}."
        case act.Dive() | act.Steer() | act.Emerge():
            return _explain_submarine(known, seat, action)
        case act.Torpedo(start, target):
            piece = known.at.get(start)
            if piece is None or piece.kind is not Kind.TORPEDO_BOAT or piece.owner != seat:
                return f"You have no torpedo boat on {name(start)}."
            if not piece.loaded:
                return f"Your torpedo boat on {name(start)} has no torpedo: reload in your haven."
            return f"Your torpedo boat on {name(start)} cannot torpedo {name(target)}."
        case act.Strike(carrier_sq, target):
            piece = known.at.get(carrier_sq)
            if piece is None or piece.kind is not Kind.CARRIER or piece.owner != seat:
                return f"You have no aircraft carrier on {name(carrier_sq)}."
            return (
                f"The aircraft of {name(carrier_sq)} can take only an enemy piece other than a "
                "commando ship on the squares exactly three steps away."
            )
        case act.Land():
            return "Your aircraft is not airborne."
    return f"`{action}` is not possible now."


def _explain_move(known: Position, seat: int, start: int, end: int, promotion: Kind | None) -> str:
    """Why an ordinary move is refused, as far as the mover can know (§7.2)."""
    piece = known.at.get(start)
    if piece is None:
        if known.sub_at(start, seat) is not None:
            return (
                f"Your submarine under {name(start)} is submerged: use "
                f"`sub {name(start)}-…` or `emerge {name(start)}`."
            )
        return f"There is no piece on {name(start)}."
    if piece.owner != seat:
        return f"The {piece.kind.noun} on {name(start)} is not yours."
    last = rank_of(end) == LAST_RANK[seat] and piece.kind is Kind.BOAT
    if last and promotion is None:
        return f"Name what the boat becomes: `{name(start)}-{name(end)}=C` (C, T, S, D or A)."
    if promotion is not None and not last:
        return "Only a boat reaching its last rank is promoted."
    target = known.at.get(end)
    if target is not None and target.kind is Kind.COMMANDO:
        return "A commando ship is never captured: it can only be checkmated."
    return f"Your {piece.kind.noun} on {name(start)} cannot move to {name(end)}."


def _explain_submarine(
    known: Position, seat: int, action: act.Dive | act.Steer | act.Emerge
) -> str:
    """Why a dive, a move under water or an emergence is refused (§5.2-5.5, §7.2)."""
    match action:
        case act.Dive(start, end):
            piece = known.at.get(start)
            if piece is None or piece.kind is not Kind.SUBMARINE or piece.owner != seat:
                return f"You have no visible submarine on {name(start)}."
            if piece.count < 2:
                return (
                    f"Your submarine on {name(start)} has been visible for {piece.count} of "
                    "your turns; it may dive after 2."
                )
            return f"Your submarine cannot dive from {name(start)} to {name(end)}."
        case act.Steer(start, end) | act.Emerge(start, end):
            if known.sub_at(start, seat) is None:
                return f"You have no submerged submarine under {name(start)}."
            if isinstance(action, act.Emerge):
                return (
                    f"Your submarine under {name(start)} cannot emerge there: in place it may "
                    "take only an enemy piece other than a commando ship, and by a knight move "
                    "only an enemy piece other than a destroyer or commando ship."
                )
            return (
                f"Your submarine cannot move from under {name(start)} to "
                f"{name(end) if end is not None else 'there'}: not "
                "under a destroyer, your own mine or your other submarine."
            )
    return f"`{action}` is not possible now."


def final_texts(state: SeachessState) -> tuple[Event, ...]:
    """The end (§9.1) and the full move list with the hidden moves filled in (§9.4)."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        said = f"The game is drawn: {outcome.detail}."
        public = said
    else:
        said = f"{outcome.detail.capitalize()}: {COLOURS[outcome.winner]} wins."
        public = f"{said[:-1]} ({name_of(outcome.winner)})."
    return (
        Event(0, said),
        Event(1, said),
        Event(None, public),
        published(state.record),
    )


def published(record: tuple[str, ...]) -> Event:
    """§9.4 for the channel."""
    return Event(None, "All moves, hidden ones filled in: " + move_list(record))


def move_list(record: tuple[str, ...], limit: int = MOVE_LIST_LIMIT) -> str:
    numbered = []
    for ply, entry in enumerate(record):
        numbered.append(f"{ply // 2 + 1}. {entry}" if ply % 2 == 0 else entry)
    text = " ".join(numbered) or "none"
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0]
        text = f"{cut} … ({len(record)} moves in all)"
    return text
