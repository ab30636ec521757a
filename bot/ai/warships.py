"""The Warships computer: an admiral that weighs every action by what it believes.

It knows its own fleet and, for every enemy token, the chances of each type (its memory of
clashes and of what has moved: ``warships_memory``). Each legal action is scored by:

- **the clash it expects**: what it wins and loses, type by type, from the help card; a
  token that may be the enemy's landing ship is worth the game, so it probes the likely
  ones with ships that beat most of the fleet;
- **the danger afterwards**: how likely an enemy token within striking distance is to
  destroy the ship where it ends (a known battleship keeps cruisers away); an exit of ours
  whose battery an enemy missile ship stands beside counts as open already, and sinking
  that missile ship is worth a battery;
- **its plan**: missile ships go for the enemy batteries that guard an exit, stepping out
  of reach of what may sink them, keeping off neutral water and bolder as a quiet siege
  nears the 200-turn draw; the last one, like the landing ship, waits deep in port, never
  on an exit, and the others step out of their way; the fighting ships close in on the
  enemy, the landing ship sails only once an enemy exit is open and a siege drags on,
  minesweepers stay back, nobody lingers on neutral water, let alone a fourth turn.

What it knows is worked out once per decision (``warships_situation``, over the distances
of ``warships_distances``); its setup is built like a careful person's (``warships_setup``).
Its dice are its own (see `bot.ai.core`) and only break near-ties.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.core import Seen
from bot.ai.generic import legal_texts
from bot.ai.warships_setup import planned_setup
from bot.ai.warships_situation import Situation
from bot.games.core import Phase
from bot.games.warships import actions as act
from bot.games.warships import board, turns
from bot.games.warships.engine import seen_by
from bot.games.warships.state import Piece
from bot.games.warships.units import Kind
from bot.games.warships.view import WarshipsView

STRANDED = 0.2
"""The share of a missile ship's worth that a stop on neutral water risks: moving one
field a turn, it is easily boxed in there until interned (§13.2)."""


def interned_by(piece: Piece, action: act.Move | act.Attack) -> bool:
    """Whether the action leaves ``piece`` on neutral water for a fourth turn (§13.2)."""
    end = action.end if isinstance(action, act.Move) else action.origin
    return end in board.NEUTRAL and piece.neutral >= 3


@dataclass(frozen=True)
class WarshipsAdmiral:
    """The strong level: every action weighed by belief, danger and plan. The casual level
    is the same admiral without caution and with loud dice."""

    caution: float = 1.0
    """How much the danger where a ship ends counts against a move, early in the game."""
    noise: float = 0.05
    """The most the dice add to a move's score: a tie-break, or a blunder when large."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, WarshipsView)
        if view.phase is Phase.SETUP:
            return self.setup(seen, view)
        state = seen_by(view, seen.seat)
        situation = Situation(seen, view, state)
        dice = seen.dice()
        caution = self.caution * max(0.3, 1.0 - seen.ply / 800)
        doomed = [
            p
            for p in state.own(seen.seat)
            if p.kind.is_ship and p.cell in board.NEUTRAL and p.neutral >= 3
        ]
        best: tuple[float, str] | None = None
        for action in turns.main_actions(state, seen.seat):
            piece = state.at[action.start]
            score = self.weigh(situation, piece, action, caution)
            score -= sum(situation.own_value[p.kind] for p in doomed if p is not piece)
            if interned_by(piece, action):
                score -= situation.own_value[piece.kind]
            score += dice.random() * self.noise
            if best is None or score > best[0]:
                best = (score, str(action))
        if best is None:
            options = [t for t in legal_texts("warships", seen) if "draw" not in t]
            return "pass" if "pass" in options else dice.choice(options)
        return best[1]

    @staticmethod
    def weigh(
        situation: Situation, piece: Piece, action: act.Move | act.Attack, caution: float
    ) -> float:
        kind = piece.kind
        if isinstance(action, act.Move):
            start, end = piece.cell, action.end
            score = situation.progress(piece, start, end)
            if kind is Kind.LANDING_SHIP:  # the game itself: out of reach of anything
                return score - situation.danger(kind, end) + 0.9 * situation.danger(kind, start)
            if kind is Kind.MISSILE_SHIP:  # the key to the enemy port: it seeks safe water
                if end in board.NEUTRAL:  # but not around the island, where one step a
                    score -= STRANDED * situation.own_value[kind]  # turn gets it interned
                return score - caution * situation.daring * (
                    situation.danger(kind, end) - situation.danger(kind, start)
                )
            score -= caution * (
                situation.danger(kind, end) - 0.7 * situation.danger(kind, piece.cell)
            )
            if end in board.NEUTRAL:
                score -= 1.5
            return score
        origin = action.origin
        score = situation.clash_value(kind, action.target, action.defuse)
        if action.via is not None:
            score += 0.5 * situation.progress(piece, piece.cell, origin)
            if origin in board.NEUTRAL:
                score -= 1.5
        score -= 0.5 * caution * situation.danger(kind, origin)
        return score

    @staticmethod
    def setup(seen: Seen, view: WarshipsView) -> str:
        shore = view.shore(seen.seat)
        dice = seen.setup_dice("warships")
        plan = planned_setup(shore, dice)
        placed = {
            t.cell: t.kind
            for t in view.tokens
            if t.owner == seen.seat and t.kind is not None and t.kind is not Kind.BATTERY
        }
        if placed == plan:
            return "ready"
        return str(act.WholeSetup.of(plan))
