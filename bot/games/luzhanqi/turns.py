"""Play (rules sections 5-7, A2-A12): flipping a piece, moving one, and what a clash does.

Each function takes the state and a checked seat and returns the ply's transition; the end
conditions after every ply are in ``endings``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.games.core import (
    EndReason,
    Event,
    IllegalActionError,
    Outcome,
    Transition,
    name_of,
    other,
)
from bot.games.luzhanqi import moves
from bot.games.luzhanqi.board import Colour, Station, name
from bot.games.luzhanqi.clash import Removal, resolve
from bot.games.luzhanqi.endings import end_game, finish_ply
from bot.games.luzhanqi.pieces import Kind, Piece
from bot.games.luzhanqi.state import LastMove, LuzhanqiState
from bot.games.turns import told
from bot.games.words import with_article


def _colour(state: LuzhanqiState, seat: int) -> Colour:
    colour = state.colour_of(seat)
    assert colour is not None, "a flip has given the flipper a colour"
    return colour


def flip_piece(state: LuzhanqiState, seat: int, where: Station) -> Transition:
    piece = state.board[where]
    if piece is None or piece.face_up:
        raise IllegalActionError(f"There is no face-down piece on {name(where)} to flip.")
    assert piece.colour is not None and piece.kind is not None
    up = replace(piece, face_up=True)
    new = with_board(state, {where: up})
    if new.red_seat is None:  # A3: the first flip fixes the flipper's colour
        new = replace(new, red_seat=seat if piece.colour is Colour.RED else other(seat))
    new = replace(new, quiet=0, last=LastMove(where, None))
    what = f"{piece.colour.value} {piece.kind.title}"
    said = list(
        told(
            seat,
            f"You flipped {name(where)}: {with_article(what)}.",
            f"Your opponent flipped {name(where)}: {with_article(what)}.",
            f"{name_of(seat)} flips {name(where)}: {with_article(what)}.",
        )
    )
    if state.red_seat is None:
        colour = _colour(new, seat)
        said[0] = Event(seat, f"{said[0].text} You play {colour.value.title()}.")
        said[1] = Event(other(seat), f"{said[1].text} You play {colour.opponent.value.title()}.")
    return finish_ply(new, seat, said)


def move_piece(state: LuzhanqiState, seat: int, start: Station, target: Station) -> Transition:
    """Move the piece on ``start`` to ``target``: a quiet move, or an attack settled by the
    clash rules (9.1-9.3), with what each seat and the channel are told of it."""
    _check_move(state, seat, start, target)
    board, rules = state.board, state.rules
    mover = board[start]
    defender = board[target]
    assert mover is not None and mover.kind is not None
    step = f"{name(start)}-{name(target)}"
    if defender is None:
        new = with_board(state, {start: None, target: mover})
        new = replace(new, quiet=state.quiet + 1, last=LastMove(start, target))
        public = f"{with_article(mover.kind.title)} " if rules.flip else ""
        moved = told(
            seat,
            f"You moved your {mover.kind.title} {step}.",
            f"Your opponent moved {public}{step}.",
            f"{name_of(seat)} moves {public}{step}.",
        )
        return finish_ply(new, seat, list(moved))
    assert defender.kind is not None and defender.colour is not None
    clash = resolve(mover.kind, defender.kind, rules)
    changes: dict[Station, Piece | None] = {start: None}
    if clash.removal is Removal.DEFENDER:
        changes[target] = mover
    elif clash.removal is Removal.BOTH:
        changes[target] = None
    new = with_board(state, changes)
    new = replace(new, quiet=0, last=LastMove(start, target, clash.removal))
    said = _attack_news(seat, mover, defender, step, clash.removal.value, rules.flip)
    if clash.flag_taken:
        return end_game(
            replace(new, plies=new.plies + 1),
            Outcome(seat, EndReason.RULES, "captured the flag"),
            said,
            ("You captured the enemy flag: you win!", "Your flag was captured: you lose."),
        )
    new, news = marshal_news(state, new)
    return finish_ply(new, seat, [*said, *news])


def _check_move(state: LuzhanqiState, seat: int, start: Station, target: Station) -> None:
    """Refuse a move the rules forbid, with the sentence that says why: no colour yet, a
    piece that cannot move, a station out of reach or one it may not enter."""
    colour = state.colour_of(seat)
    board, rules, mines = state.board, state.rules, state.mines_left()
    if colour is None:
        raise IllegalActionError("You have no face-up piece yet: flip one first, like `flip c3`.")
    refusal = moves.immobility(board, start, colour, rules)
    if refusal is None and target not in moves.reachable(board, start, rules):
        refusal = f"Your piece on {name(start)} cannot reach {name(target)} in one move."
    if refusal is None:
        refusal = moves.entry_refusal(board, start, target, rules, mines)
    if refusal is not None:
        raise IllegalActionError(refusal)


def _attack_news(
    seat: int, mover: Piece, defender: Piece, step: str, result: str, flip: bool
) -> list[Event]:
    """What the attacker, the defender and the channel are told of an attack: with the flip
    variant everything is public (A12), otherwise only what a referee's hand shows (9.3)."""
    assert mover.kind is not None and defender.kind is not None
    if flip:  # A12: everything is public
        fight = f"{mover.kind.title} attacks {with_article(defender.kind.title)}, {step}: {result}."
        said = told(seat, f"Your {fight}", f"Your opponent's {fight}", f"{name_of(seat)}'s {fight}")
    else:  # 9.3: only what a referee's hand makes visible
        said = told(
            seat,
            f"Your {mover.kind.title} attacks {step}: {result}.",
            f"Your opponent attacks your {defender.kind.title} {step}: {result}.",
            f"{name_of(seat)} attacks {step}: {result}.",
        )
    return list(said)


def marshal_news(before: LuzhanqiState, after: LuzhanqiState) -> tuple[LuzhanqiState, list[Event]]:
    """Section 7: a fallen field marshal shows both players where that side's flag is."""
    news: list[Event] = []
    if not after.rules.marshal_reveals_flag:
        return after, news
    for colour in Colour:
        fell = before.count(colour, Kind.MARSHAL) and not after.count(colour, Kind.MARSHAL)
        if not fell or colour in after.flags_shown:
            continue
        after = replace(after, flags_shown=after.flags_shown | {colour})
        flag = next(
            (
                s
                for s, p in enumerate(after.board)
                if p and p.colour is colour and p.kind is Kind.FLAG
            ),
            None,
        )
        owner = after.seat_of(colour)
        if flag is None or owner is None:
            continue
        news.append(
            Event(
                owner,
                f"Your field marshal has fallen, so your flag on {name(flag)} is shown to "
                "your opponent.",
            )
        )
        news.append(
            Event(
                other(owner),
                f"The enemy field marshal has fallen: their flag stands on {name(flag)}.",
            )
        )
    return after, news


def with_board(state: LuzhanqiState, changes: Mapping[Station, Piece | None]) -> LuzhanqiState:
    board = list(state.board)
    for where, piece in changes.items():
        board[where] = piece
    return replace(state, board=tuple(board))
