"""Baseline players of a known weak strength, the rivals the computer is measured against.

``python -m benchmarks.ai`` plays every level against uniformly random legal moves
(``bot.ai.generic.RandomPlayer``) and against the greedy player here: the plainest player a
person would write first. It takes any capture it believes it wins, judged only from what
its seat's view shows (no memory, no look-ahead), and otherwise moves a piece toward the
enemy as far as one move takes it; its dice only break ties. ``RandomShots`` is Sea
Battle's blind shooter, the floor the Flying Dutchman searcher is measured against.

Like every computer player they decide from a seat's ``Seen`` alone: its view, what it was
told and its own dice; never a state.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from bot.ai.core import Player, Seen
from bot.ai.generic import RandomPlayer, legal_texts, setup_move
from bot.ai.marine import TO_HARBOUR, play
from bot.ai.seabattle import DensityShooter
from bot.games.core import Phase
from bot.games.grid import Cell, cell_name
from bot.games.luzhanqi import moves as lz_moves
from bot.games.luzhanqi.actions import Move as LzMove
from bot.games.luzhanqi.board import Colour, rank_of
from bot.games.luzhanqi.view import LuzhanqiView
from bot.games.marine import moves as marine_moves
from bot.games.marine.view import MarineView
from bot.games.seachess import board as sea_board
from bot.games.seachess import turns as sea_turns
from bot.games.seachess.actions import Emerge, Move, Strike, Torpedo
from bot.games.seachess.pieces import Kind as SeaKind
from bot.games.seachess.view import SeachessView
from bot.games.warships import actions as war_act
from bot.games.warships import board as war_board
from bot.games.warships import turns as war_turns
from bot.games.warships.engine import seen_by
from bot.games.warships.units import SHIPS, UNITS, Kind, Result, clash
from bot.games.warships.view import WarshipsView

CAPTURE = 100.0
"""A capture believed won outscores any advance; one believed lost scores below any."""


class MarineGreedy:
    """The Marine Game baseline: a win or the richest safe capture, else a step to harbour."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, MarineView)
        side = view.side_of(seen.seat)
        at = view.at
        dice = seen.dice("greedy")
        best: list[tuple[float, str]] = []
        for move in marine_moves.legal_moves(at, side):
            _, won, gained = play(at, move)
            closer = TO_HARBOUR[side][move.start] - TO_HARBOUR[side][move.end]
            score = 1e9 if won else gained * 1000 + closer if gained >= 0 else -1e6
            best.append((score + dice.random() * 0.5, str(move)))
        return max(best)[1]


class LuzhanqiGreedy:
    """The Luzhanqi baseline: attacks with an officer it believes wins (a major general or
    above, against a blank piece), else moves a piece as far toward the enemy as it can."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, LuzhanqiView)
        if view.phase is Phase.SETUP:
            return setup_move("luzhanqi", seen)
        colour = view.colour
        if colour is None or view.rules.flip:
            return RandomPlayer("luzhanqi").decide(seen)
        ahead = 1 if colour is Colour.RED else -1
        dice = seen.dice("greedy")
        options = []
        for start, target in lz_moves.legal_moves(
            view.pieces, colour, view.rules, view.mines_by_colour()
        ):
            mover, defender = view.pieces[start], view.pieces[target]
            rank = mover.kind.rank if mover is not None and mover.kind is not None else None
            if defender is not None:
                score = 100.0 if rank is not None and rank >= 7 else -100.0
            else:
                score = float((rank_of(target) - rank_of(start)) * ahead)
            options.append((score + dice.random() * 0.5, str(LzMove(start, target))))
        return max(options)[1] if options else RandomPlayer("luzhanqi").decide(seen)


def _to_exits(exits: frozenset[Cell]) -> dict[Cell, int]:
    """Steps from every field to the nearest of ``exits``, walls respected, tokens ignored."""
    found = {cell: 0 for cell in exits}
    queue = deque(found)
    while queue:
        cell = queue.popleft()
        for near in war_board.open_steps(cell):
            if near not in found:
                found[near] = found[cell] + 1
                queue.append(near)
    return found


_TO_EXITS = tuple(_to_exits(exits) for exits in war_board.EXITS)
_FLEET = {kind: UNITS[kind].count for kind in (*SHIPS, Kind.MINE)}


def _believed_win(attacker: Kind, target: Kind | None) -> bool:
    """A known target it beats, or an unknown one it beats more often than not (by the
    fleet's counts: 26 ships and 6 mines)."""
    if target is not None:
        return clash(attacker, target) is Result.ATTACKER_WINS
    wins = sum(n for kind, n in _FLEET.items() if clash(attacker, kind) is Result.ATTACKER_WINS)
    return wins > sum(_FLEET.values()) / 2


class WarshipsGreedy:
    """The Warships baseline: a capture it believes won, else a step toward the enemy's exits.

    Its legal moves come from a stand-in state built from its view (``seen_by``), where
    every unknown enemy token stands as a mine: legality needs only public facts."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, WarshipsView)
        if view.phase is Phase.SETUP:
            return setup_move("warships", seen)
        seat = seen.seat
        state = seen_by(view, seat)
        kinds = {t.cell: t.kind for t in view.tokens}
        goal = _TO_EXITS[view.shore(1 - seat)]
        dice = seen.dice("greedy")
        best: tuple[float, str] | None = None
        for action in war_turns.main_actions(state, seat):
            piece = state.at[action.start]
            if isinstance(action, war_act.Attack):
                if action.defuse:
                    won = kinds.get(action.target) is Kind.MINE
                else:
                    won = _believed_win(piece.kind, kinds.get(action.target))
                score = CAPTURE if won else -CAPTURE
            else:
                score = float(goal.get(action.start, 99) - goal.get(action.end, 99))
            score += dice.random() * 0.5
            if best is None or score > best[0]:
                best = (score, str(action))
        if best is None:
            return RandomPlayer("warships").decide(seen)
        return best[1]


SEA_VALUE = {
    SeaKind.COMMANDO: 0,
    SeaKind.CARRIER: 9,
    SeaKind.CRUISER: 5,
    SeaKind.TORPEDO_BOAT: 5,
    SeaKind.DESTROYER: 3,
    SeaKind.SUBMARINE: 3,
    SeaKind.BOAT: 1,
}
"""What a Seachess capture is worth to the greedy player."""


class SeachessGreedy:
    """Captures the richest piece it may take, else moves a piece nearest the enemy king."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, SeachessView)
        seat = seen.seat
        pos = view.position()
        at = pos.at
        king = pos.king(1 - seat)
        dice = seen.dice("greedy")
        best: tuple[float, str] | None = None
        for action in sea_turns.view_legal(pos, seat):
            text = str(action)
            if text in view.refused:
                continue
            score = 0.0
            target = _capture_square(action)
            victim = at.get(target) if target is not None else None
            if victim is not None and victim.owner != seat:
                score = CAPTURE + SEA_VALUE[victim.kind]
            elif isinstance(action, Move) and king is not None:
                score = float(_distance(action.start, king) - _distance(action.end, king))
            score += dice.random() * 0.5
            if best is None or score > best[0]:
                best = (score, text)
        if best is None:
            options = [t for t in legal_texts("seachess", seen) if "draw" not in t]
            return dice.choice(options or legal_texts("seachess", seen))
        return best[1]


def _capture_square(action: object) -> int | None:
    if isinstance(action, Move):
        return action.end
    if isinstance(action, Torpedo | Strike | Emerge):
        return action.target
    return None


def _distance(a: int, b: int) -> int:
    """King's steps between two Seachess squares."""
    return max(
        abs(sea_board.file_of(a) - sea_board.file_of(b)),
        abs(sea_board.rank_of(a) - sea_board.rank_of(b)),
    )


class RandomShots:
    """Blind Sea Battle play: a uniformly random cell of the board (any may be shot again,
    §5.3); it answers as the computer's captain after a hit, so only its shooting is
    measured. (The old fallback, a random one of the engine's suggested shots, was blinder
    still: those leave out every cell shot before, so after 400 shots it had none left.)"""

    def decide(self, seen: Seen) -> str:
        if seen.view.phase is Phase.SETUP or getattr(seen.view, "owed", None):
            return DensityShooter().decide(seen)
        size = seen.view.size  # type: ignore[attr-defined]
        dice = seen.dice("blind")
        return cell_name((dice.randrange(size), dice.randrange(size)))


GREEDY: dict[str, Callable[[], Player]] = {
    "marine": MarineGreedy,
    "luzhanqi": LuzhanqiGreedy,
    "warships": WarshipsGreedy,
    "seachess": SeachessGreedy,
}
"""Each game's greedy baseline, where it has one (Sea Battle's shooters are measured by
the shots they need, not against a rival)."""
