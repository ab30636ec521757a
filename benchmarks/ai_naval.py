"""The greedy baselines of Warships and Seachess: take a capture believed won, else advance.

Each is the plainest player a person would write first. It takes any capture it believes
it wins, judged only from what its seat's view shows (no memory, no look-ahead), and
otherwise moves a piece as far toward the enemy's goal as one move takes it. Its dice only
break ties.
"""

from __future__ import annotations

from collections import deque

from bot.ai.core import Seen
from bot.ai.generic import RandomPlayer, legal_texts, setup_move
from bot.games.core import Phase
from bot.games.grid import Cell
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
                score = float(
                    sea_board_distance(action.start, king) - sea_board_distance(action.end, king)
                )
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
    if isinstance(action, Torpedo | Strike):
        return action.target
    if isinstance(action, Emerge):
        return action.target
    return None


def sea_board_distance(a: int, b: int) -> int:
    return max(
        abs(sea_board.file_of(a) - sea_board.file_of(b)),
        abs(sea_board.rank_of(a) - sea_board.rank_of(b)),
    )
