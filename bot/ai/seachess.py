"""The Seachess computer: an alpha-beta search over what its seat knows.

Its seat's view position (§7.2a) holds every visible piece, its own mines and its own
submerged submarines, and nothing of the opponent's hidden material: that is the board it
searches. It plays the rules' own move generation and effects on working copies, so every
move it considers is one the view accepts, and it judges a quiet position by material, by
how far its boats have come, by how close its pieces stand to the enemy commando ship and by
how little room that ship has left. A move the referee refused this turn (hidden enemy
material in the way) is never tried again. The search is bounded by a count of positions,
not by the clock, so the same view always gives the same move however busy the machine is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.ai.core import Seen
from bot.ai.generic import legal_texts
from bot.games.seachess import actions as act
from bot.games.seachess.board import file_of, rank_of
from bot.games.seachess.changes import Barred
from bot.games.seachess.effects import perform
from bot.games.seachess.moves import candidates
from bot.games.seachess.pieces import Kind
from bot.games.seachess.position import Position, attacked, in_check
from bot.games.seachess.view import SeachessView

MATE = 100_000.0
VALUES = {
    Kind.COMMANDO: 0.0,
    Kind.CARRIER: 9.0,
    Kind.CRUISER: 5.0,
    Kind.TORPEDO_BOAT: 5.0,
    Kind.DESTROYER: 3.5,
    Kind.SUBMARINE: 3.0,
    Kind.BOAT: 1.0,
}
"""A piece's worth: the carrier moves and strikes widest, rook-movers next."""


NEAR = [
    [0.04 * (11 - max(abs(a % 12 - b % 12), abs(a // 12 - b // 12))) for b in range(144)]
    for a in range(144)
]
"""Per pair of squares, what standing that close to the enemy commando ship is worth."""
ADVANCE = [
    [0.08 * abs(sq // 12 - (1 if owner == 0 else 10)) for sq in range(144)] for owner in (0, 1)
]
"""Per side and square, what a boat's progress from its starting rank is worth."""


def evaluate(pos: Position, seat: int) -> float:
    """A quiet position from ``seat``'s side: material, boats' progress, pressure on the
    enemy commando ship, and a check given."""
    enemy = 1 - seat
    score = 0.0
    kings = [pos.king(0), pos.king(1)]
    for sq, piece in pos.at.items():
        kind = piece.kind
        owner = piece.owner
        value = VALUES[kind]
        if kind is Kind.BOAT:
            value += ADVANCE[owner][sq]
        target = kings[1 - owner]
        if target is not None and kind is not Kind.COMMANDO:
            value += NEAR[sq][target]
        score += value if owner == seat else -value
    for sub in pos.subs:
        score += VALUES[Kind.SUBMARINE] if sub.owner == seat else -VALUES[Kind.SUBMARINE]
    their_king = kings[enemy]
    if their_king is not None and attacked(pos, their_king, seat):
        score += 0.3
    return score


def children(pos: Position, side: int) -> Iterator[tuple[act.Action, Position]]:
    """Every move of ``side`` the position accepts, with the position after it."""
    for action in list(candidates(pos, side)):
        trial = pos.copy()
        try:
            perform(trial, side, action)
        except Barred:
            continue
        if in_check(trial, side):
            continue
        trial.turn = 1 - side
        trial.ply += 1
        yield action, trial


def _gain(pos: Position, action: act.Action) -> float:
    """How much a move takes at once, for trying the richest captures first."""
    target = getattr(action, "target", None)
    if target is None and isinstance(action, act.Move):
        target = action.end
    if target is None:
        return 0.0
    victim = pos.at.get(target)
    return VALUES[victim.kind] if victim is not None else 0.0


@dataclass
class SeachessSearcher:
    """Alpha-beta to ``depth`` plies, at most ``budget`` positions per move."""

    depth: int = 2
    budget: int = 1_500
    nodes: int = field(default=0, init=False)
    """Positions searched for the current move, counted against ``budget``."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, SeachessView)
        seat = seen.seat
        pos = view.position()
        self.nodes = 0
        dice = seen.dice()
        moves = [
            (action, after)
            for action, after in children(pos, seat)
            if str(action) not in view.refused
        ]
        if not moves:
            options = [t for t in legal_texts("seachess", seen) if "draw" not in t]
            return dice.choice(options or legal_texts("seachess", seen))
        moves.sort(key=lambda item: -_gain(pos, item[0]))
        best: tuple[float, str] | None = None
        alpha = -MATE * 2
        for action, after in moves:
            score = -self.search(after, 1 - seat, self.depth - 1, -MATE * 2, -alpha)
            score += dice.random() * 0.01 - 0.3 * _risk(action)
            if best is None or score > best[0]:
                best = (score, str(action))
                alpha = max(alpha, score)
        assert best is not None
        return best[1]

    def search(self, pos: Position, side: int, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if depth <= 0 or self.nodes > self.budget:
            return evaluate(pos, side)
        found = False
        moves = sorted(children(pos, side), key=lambda item: -_gain(pos, item[0]))
        for _, after in moves:
            found = True
            score = -self.search(after, 1 - side, depth - 1, -beta, -alpha)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        if not found:
            return -MATE - depth if in_check(pos, side) else 0.0
        return alpha


def _risk(action: act.Action) -> float:
    """Hidden moves the opponent cannot see are fine; a long slide across open water may run
    onto a hidden enemy mine, so the longest journeys pay a little."""
    if isinstance(action, act.Move):
        return 0.02 * max(
            abs(file_of(action.start) - file_of(action.end)),
            abs(rank_of(action.start) - rank_of(action.end)),
        )
    return 0.0
