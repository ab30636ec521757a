"""The Luzhanqi computer: an attacker that reads only its own pieces and the open board.

It sees what its seat sees: its own pieces by kind, the enemy's as blank tokens (or as
flags once a field marshal falls), and where everything stands. It weighs each legal move
by what a careful player would: take a shown flag at once; attack with its high officers,
which win most clashes against an unknown piece; keep its juniors out of attacks; and
otherwise march toward the enemy's headquarters. Its dice only break near-ties.
"""

from __future__ import annotations

from bot.ai.core import Seen
from bot.ai.generic import RandomPlayer, setup_move
from bot.games.core import Phase
from bot.games.luzhanqi import moves
from bot.games.luzhanqi.actions import Move
from bot.games.luzhanqi.board import HQS, Colour, rank_of
from bot.games.luzhanqi.pieces import Kind
from bot.games.luzhanqi.view import LuzhanqiView

ATTACK_FLOOR = 5
"""Officers from this rank (colonel) up attack blank pieces; juniors only march."""


class LuzhanqiRaider:
    def __init__(self) -> None:
        self.fallback = RandomPlayer("luzhanqi")

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, LuzhanqiView)
        if view.phase is Phase.SETUP:
            return setup_move("luzhanqi", seen)
        colour = view.colour
        if colour is None or view.rules.flip:
            return self.fallback.decide(seen)  # the flip game: open pieces at random
        dice = seen.dice()
        ahead = 1 if colour is Colour.RED else -1
        best: tuple[float, str] | None = None
        for start, target in moves.legal_moves(
            view.pieces, colour, view.rules, view.mines_by_colour()
        ):
            score = self.weigh(view, colour, start, target, ahead) + dice.random()
            if best is None or score > best[0]:
                best = (score, str(Move(start, target)))
        if best is None:
            return self.fallback.decide(seen)
        return best[1]

    @staticmethod
    def weigh(view: LuzhanqiView, colour: Colour, start: int, target: int, ahead: int) -> float:
        mover = view.pieces[start]
        defender = view.pieces[target]
        assert mover is not None and mover.kind is not None
        forward = (rank_of(target) - rank_of(start)) * ahead
        if defender is None:
            return 3.0 * forward
        if defender.kind is Kind.FLAG:
            return 1e6
        rank = mover.kind.rank
        if mover.kind is Kind.BOMB:
            return 25.0  # a bomb trades itself for whatever it meets
        if rank is None:
            return -50.0
        headquarters = 40.0 if target in HQS else 0.0  # the flag stands in one of the two
        if mover.kind is Kind.ENGINEER:
            return headquarters + (5.0 if rank_of(target) in (1, 12) else -20.0)
        return headquarters + 12.0 * (rank - ATTACK_FLOOR) + forward
