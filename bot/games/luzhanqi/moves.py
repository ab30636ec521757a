"""Where a piece may go (rules 5.2-5.9, A4-A8, C2-C5): steps, straight rail runs and the
engineer's turning rail runs, then whether the destination may be entered.

Everything here reads a board of ``Piece`` values that may be blanked (a view's board), and
needs only the mover's own pieces and public facts, so the engine and a player's
autocomplete compute the same moves and refusing a move reveals nothing (rule 9.5).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence

from bot.games.luzhanqi.board import (
    CAMPS,
    HQS,
    NEIGHBOURS,
    RAIL_NEIGHBOURS,
    Colour,
    Station,
    lines_through,
    name,
    owner_of,
)
from bot.games.luzhanqi.pieces import Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules

Board = Sequence[Piece | None]
MinesLeft = Mapping[Colour, int]
"""Landmines each colour still has on the board: public, and needed only for rule A7."""


def immobility(board: Board, start: Station, colour: Colour, rules: LuzhanqiRules) -> str | None:
    """Why the piece on ``start`` cannot move for ``colour`` at all, or ``None`` if it can."""
    piece = board[start]
    if piece is None:
        return f"There is no piece on {name(start)}."
    if not piece.face_up:
        return f"The piece on {name(start)} is face down; flip it first with `flip {name(start)}`."
    if piece.colour is not colour or piece.kind is None:
        return f"The piece on {name(start)} is not yours."
    if not piece.kind.movable:
        return f"Your {piece.kind.title} on {name(start)} never moves."
    if rules.hq_freezes and start in HQS:
        return (
            f"Your {piece.kind.title} on {name(start)} stands on an HQ and can no longer move."
        )
    return None


def reachable(board: Board, start: Station, rules: LuzhanqiRules) -> set[Station]:
    """Stations the piece on ``start`` reaches before entry rules: empty ones, and the
    first occupied one of each path (which it may attack if the entry rules allow)."""
    piece = board[start]
    assert piece is not None and piece.kind is not None
    found = set(NEIGHBOURS[start])
    for line in lines_through(start):  # 5.4: straight along one line, both directions
        at = line.index(start)
        for step in (-1, 1):
            index = at + step
            while 0 <= index < len(line):
                found.add(line[index])
                if board[line[index]] is not None:
                    break
                index += step
    if piece.kind is Kind.ENGINEER and rules.engineer_turns:
        found |= _engineer_routes(board, start)
    return found


def _engineer_routes(board: Board, start: Station) -> set[Station]:
    """5.5: breadth-first over rail edges, passing only through empty stations."""
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in RAIL_NEIGHBOURS[here]:
            if there in seen:
                continue
            seen.add(there)
            if board[there] is None:
                queue.append(there)
    seen.discard(start)
    return seen


def entry_refusal(
    board: Board, start: Station, target: Station, rules: LuzhanqiRules, mines_left: MinesLeft
) -> str | None:
    """Why the piece on ``start`` may not enter ``target`` (reached), or ``None`` if it may."""
    piece = board[start]
    assert piece is not None and piece.kind is not None and piece.colour is not None
    mine = piece.colour
    defender = board[target]
    spot = name(target)
    if (
        piece.kind is Kind.BOMB
        and target in HQS
        and owner_of(target) is not mine
        and not rules.bomb_enters_enemy_hq
    ):
        return f"A bomb may not move onto the enemy HQ {spot}."
    if defender is None:
        return None
    if not defender.face_up:
        return f"The piece on {spot} is face down and cannot be attacked (rule A4)."
    if defender.colour is mine:
        return f"Your own piece stands on {spot}."
    if rules.camps_protect and target in CAMPS:
        return f"The enemy piece on {spot} stands in a camp and cannot be attacked."
    if defender.kind is Kind.FLAG:
        if piece.kind is Kind.BOMB and not rules.bomb_takes_flag:
            return "A bomb may not attack the flag (rule A6)."
        if rules.flip and defender.colour is not None and mines_left.get(defender.colour, 0):
            return (
                f"The flag on {spot} cannot be attacked while its side still has a landmine "
                "on the board (rule A7)."
            )
    return None


def destinations(
    board: Board, start: Station, rules: LuzhanqiRules, mines_left: MinesLeft
) -> list[Station]:
    """Every station the piece on ``start`` may legally move to or attack, in board order."""
    return sorted(
        target
        for target in reachable(board, start, rules)
        if entry_refusal(board, start, target, rules, mines_left) is None
    )


def legal_moves(
    board: Board, colour: Colour, rules: LuzhanqiRules, mines_left: MinesLeft
) -> Iterator[tuple[Station, Station]]:
    """Every (from, to) move ``colour`` may make on ``board``."""
    for start, piece in enumerate(board):
        if piece is None or piece.colour is not colour:
            continue
        if immobility(board, start, colour, rules) is None:
            for target in destinations(board, start, rules, mines_left):
                yield start, target


def has_move(board: Board, colour: Colour, rules: LuzhanqiRules, mines_left: MinesLeft) -> bool:
    return next(legal_moves(board, colour, rules, mines_left), None) is not None
