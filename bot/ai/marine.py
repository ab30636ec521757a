"""The Marine Game computer: an alpha-beta search over the public board.

Nothing is hidden in the Marine Game, so the view's board is the whole position and a real
game-tree search is possible. The search plays the rules' own pieces of logic (the legal
moves, the circle of taking, the harbour wins) on a plain mapping of points to pieces, and
judges a quiet position by material and by how close each side stands to the enemy harbour.
It is bounded by a count of positions, not by the clock, so the same view always gives the
same move however busy the machine is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from bot.ai.core import Seen
from bot.games.core import Phase
from bot.games.marine import moves, taking
from bot.games.marine.actions import Move
from bot.games.marine.board import (
    BATTLESHIP_HARBOURS,
    CORNER_NEIGHBOURS,
    HEX_NEIGHBOURS,
    U_BOAT_HARBOURS,
    Point,
)
from bot.games.marine.pieces import Kind, Piece
from bot.games.marine.turns import reached_harbour
from bot.games.marine.view import MarineView

Position = Mapping[Point, Piece]

WIN = 1_000_000
VALUES = {Kind.CRUISER: 300, Kind.DESTROYER: 200, Kind.U_BOAT: 260}
"""What a piece is worth: a cruiser guards against destroyers, a U-boat hunts cruisers."""
STEP = 12
"""What one step nearer the enemy harbour is worth, for the piece nearest to it."""


def _distances(start: Iterable[Any], graph: Mapping[Any, Iterable[Any]]) -> dict[Point, int]:
    """Steps from every point of a graph to the nearest of ``start`` (breadth first)."""
    seen: dict[Point, int] = {point: 0 for point in start}
    queue = deque(seen)
    while queue:
        point = queue.popleft()
        for near in graph[point]:
            if near not in seen:
                seen[near] = seen[point] + 1
                queue.append(near)
    return seen


TO_HARBOUR: tuple[dict[Point, int], dict[Point, int]] = tuple(  # type: ignore[assignment]
    {
        **_distances(BATTLESHIP_HARBOURS[1 - side], CORNER_NEIGHBOURS),
        **_distances((U_BOAT_HARBOURS[1 - side],), HEX_NEIGHBOURS),
    }
    for side in (0, 1)
)
"""Per side: how many steps each point (corner or hex) lies from the enemy harbour."""


def harbour_distance(piece: Piece) -> int:
    """How many steps ``piece`` stands from the enemy harbour it may win on."""
    return TO_HARBOUR[piece.side][piece.point]


def play(at: Position, move: Move) -> tuple[dict[Point, Piece], bool, int]:
    """The position after a legal ``move``: the new board, whether it won, the value taken."""
    piece = at[move.start]
    arrived = replace(piece, point=move.end)
    board = {point: p for point, p in at.items() if point != move.start}
    board[move.end] = arrived
    victims, suicide = taking.resolve(board, arrived)
    gained = 0
    for gone in victims:
        del board[gone.point]
        gained += VALUES[gone.kind]
    if suicide:
        del board[arrived.point]
        gained -= VALUES[arrived.kind]
    return board, not suicide and reached_harbour(arrived), gained


def evaluate(at: Position, side: int) -> int:
    """A quiet position from ``side``'s point of view: material, then the race to harbour."""
    score = 0
    nearest = {0: 99, 1: 99}
    for piece in at.values():
        worth = VALUES[piece.kind]
        score += worth if piece.side == side else -worth
        steps = TO_HARBOUR[piece.side][piece.point]
        if steps < nearest[piece.side]:
            nearest[piece.side] = steps
    return score + STEP * (nearest[1 - side] - nearest[side])


class Search:
    """Negamax with alpha-beta pruning, iterative deepening and a budget of positions.

    The budget counts positions generated, so a search costs the same on any machine and
    gives the same answer under any load.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.visited = 0

    def ordered(self, at: Position, side: int) -> list[tuple[int, Move, dict[Point, Piece], bool]]:
        """Every move with its result, the most promising first (wins, then captures)."""
        found = []
        for move in moves.legal_moves(at, side):
            board, won, gained = play(at, move)
            found.append((WIN if won else gained, move, board, won))
        self.visited += len(found)
        found.sort(key=lambda item: -item[0])
        return found

    def value(self, at: Position, side: int, depth: int, alpha: int, beta: int) -> int:
        if depth == 0 or self.visited > self.budget:
            return evaluate(at, side)
        options = self.ordered(at, side)
        if not options:
            return -WIN  # §7.2: a player without a legal move loses
        best = -WIN - 1
        for _, _, board, won in options:
            score = WIN + depth if won else -self.value(board, 1 - side, depth - 1, -beta, -alpha)
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def choose(self, at: Position, side: int, max_depth: int, tie_break: float) -> Move:
        options = self.ordered(at, side)
        best_move = options[0][1]
        for depth in range(1, max_depth + 1):
            scored = []
            alpha = -WIN - 1
            for _, move, board, won in options:
                if won:
                    return move
                score = -self.value(board, 1 - side, depth - 1, -WIN - 1, -alpha)
                scored.append((score, move, board, won))
                alpha = max(alpha, score)
            if self.visited > self.budget:
                break  # this depth was cut short: keep the last complete answer
            top = max(score for score, *_ in scored)
            best = [item for item in scored if item[0] == top]
            best_move = best[int(tie_break * len(best))][1]
            scored.sort(key=lambda item: -item[0])
            options = [(s, m, b, w) for s, m, b, w in scored]
        return best_move


class MarineSearcher:
    """The strongest Marine Game level: a bounded alpha-beta search (casual: a shallow one)."""

    def __init__(self, *, depth: int, budget: int) -> None:
        self.depth = depth
        self.budget = budget

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, MarineView)
        if view.phase is not Phase.PLAY:
            raise ValueError("the Marine Game has no setup and a finished game has no move")
        if view.draw_offer == 1 - seen.seat and self._losing(view, seen.seat):
            return "accept draw"
        side = view.side_of(seen.seat)
        search = Search(self.budget)
        move = search.choose(view.at, side, self.depth, seen.dice().random())
        return str(move)

    def _losing(self, view: MarineView, seat: int) -> bool:
        return evaluate(view.at, view.side_of(seat)) < -VALUES[Kind.CRUISER]
