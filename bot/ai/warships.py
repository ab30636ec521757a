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

Its setup is built like a careful person's: fast fighting ships and missile ships at the
exits, the landing ship on a deep field no missile ship can reach over the wall, mines on
the exposed fields beside it. Its dice are its own (see `bot.ai.core`) and only break near-ties.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

from bot.ai.core import Seen
from bot.ai.generic import legal_texts
from bot.ai.warships_memory import Belief, beliefs
from bot.games.core import Phase
from bot.games.grid import Cell
from bot.games.warships import actions as act
from bot.games.warships import board, turns
from bot.games.warships.board import Shore
from bot.games.warships.engine import seen_by
from bot.games.warships.state import Piece, WarshipsState
from bot.games.warships.units import Kind, Result, clash
from bot.games.warships.view import WarshipsView

OWN_VALUE = {
    Kind.BATTLESHIP: 9.0,
    Kind.MISSILE_SHIP: 25.0,
    Kind.CRUISER: 5.0,
    Kind.DESTROYER: 4.0,
    Kind.SUBMARINE: 6.0,
    Kind.ESCORT: 3.0,
    Kind.MINESWEEPER: 2.0,
    Kind.LANDING_SHIP: 500.0,
}
"""What losing one of its own ships costs: the landing ship is the game (§14.2)."""
ENEMY_VALUE = {
    **OWN_VALUE,
    Kind.MISSILE_SHIP: 12.0,
    Kind.LANDING_SHIP: 300.0,
    Kind.BATTERY: 30.0,
    Kind.MINE: 1.5,
}
"""What removing an enemy token gains: their landing ship wins, a battery opens an exit."""
MISSILE_VALUE = {1: 400.0, 2: 60.0}
"""The last missile ships are worth more: without one, a side that cannot open an exit
loses (§14.3)."""
WIN = 10_000.0
UNKNOWN = 1e9

FRONT_ORDER = (
    Kind.SUBMARINE,
    Kind.DESTROYER,
    Kind.BATTLESHIP,
    Kind.MISSILE_SHIP,
    Kind.SUBMARINE,
    Kind.DESTROYER,
    Kind.BATTLESHIP,
    Kind.MISSILE_SHIP,
    Kind.ESCORT,
    Kind.SUBMARINE,
    Kind.DESTROYER,
    Kind.CRUISER,
    Kind.BATTLESHIP,
    Kind.MISSILE_SHIP,
    Kind.ESCORT,
    Kind.SUBMARINE,
    Kind.DESTROYER,
    Kind.CRUISER,
    Kind.ESCORT,
    Kind.CRUISER,
    Kind.ESCORT,
    Kind.MINESWEEPER,
    Kind.MINESWEEPER,
    Kind.MINESWEEPER,
    Kind.MINESWEEPER,
)
"""The ships from the exits inwards; the landing ship and the mines go behind them."""
FIGHTERS = (Kind.BATTLESHIP, Kind.CRUISER, Kind.DESTROYER, Kind.SUBMARINE, Kind.ESCORT)


# -- setup ---------------------------------------------------------------------------------


def _port_depth(shore: Shore, exits: Iterable[Cell] | None = None) -> dict[Cell, int]:
    """Steps from each port field to the nearest exit (or the nearest of ``exits``),
    inside the port (walls respected)."""
    port = board.PORTS[shore]
    depth = {exit_: 0 for exit_ in (board.EXITS[shore] if exits is None else exits)}
    queue = deque(depth)
    while queue:
        cell = queue.popleft()
        for near in board.open_steps(cell):
            if near in port and near not in depth:
                depth[near] = depth[cell] + 1
                queue.append(near)
    return depth


def _exposed(cell: Cell, shore: Shore) -> bool:
    """Whether an enemy missile ship at sea could fire at ``cell`` over the wall."""
    return any(
        board.is_field(near) and near not in board.PORTS[shore]
        for near in board.king_neighbours(cell)
    )


def planned_setup(shore: Shore, dice: random.Random) -> dict[Cell, Kind]:
    """A careful fleet: fighters and missile ships at the exits, the landing ship deep and
    out of reach over the wall, mines on the exposed fields at the back, sweepers behind."""
    depth = _port_depth(shore)
    fields = sorted(board.SETUP_FIELDS[shore], key=lambda c: (-depth[c], dice.random()))
    layout: dict[Cell, Kind] = {}
    landing = next(c for c in fields if not _exposed(c, shore))
    layout[landing] = Kind.LANDING_SHIP
    exposed = [c for c in fields if c not in layout and _exposed(c, shore)]
    for cell in exposed[:3]:
        layout[cell] = Kind.MINE
    rest = [c for c in reversed(fields) if c not in layout]
    order = list(FRONT_ORDER)
    for cell, kind in zip(rest, order, strict=False):
        layout[cell] = kind
    return layout


# -- the map --------------------------------------------------------------------------------


def _distances(
    sources: Iterable[Cell], passable: frozenset[Cell] | set[Cell], limit: int = 40
) -> dict[Cell, int]:
    """Steps from every passable field to the nearest source (walls respected)."""
    found = {cell: 0 for cell in sources}
    queue = deque(found)
    while queue:
        cell = queue.popleft()
        steps = found[cell] + 1
        if steps > limit:
            continue
        for near in board.open_steps(cell):
            if near not in found and near in passable:
                found[near] = steps
                queue.append(near)
    return found


class Situation:
    """One decision's knowledge: beliefs, danger and distances, computed once."""

    def __init__(self, seen: Seen, view: WarshipsView, state: WarshipsState) -> None:
        self.seat = seen.seat
        self.enemy = 1 - self.seat
        self.state = state
        self.rules = view.rules
        self.beliefs = beliefs(view, seen.heard)
        own_exits = board.EXITS[state.shore(self.seat)]
        self.near_home = _distances(own_exits, frozenset(board.ALL_FIELDS), limit=6)
        missiles = state.count(self.seat, Kind.MISSILE_SHIP)
        quiet = quiet_turns(seen.heard)
        self.restless = quiet >= RESTLESS
        """Long without a loss: a draw by §14.4 looms, so even the last missile ship sails
        (and the landing ship, which otherwise waits at home)."""
        self.daring = daring(quiet)
        self.own_value = {
            **OWN_VALUE,
            Kind.MISSILE_SHIP: MISSILE_VALUE.get(missiles, OWN_VALUE[Kind.MISSILE_SHIP]),
        }
        self.home = board.PORTS[state.shore(self.seat)]
        out = sum(
            1
            for p in state.own(self.seat)
            if p.kind is Kind.MISSILE_SHIP and p.cell not in self.home
        )
        self.last_missile = missiles == 1
        self.to_home = _distances(own_exits, frozenset(board.ALL_FIELDS))
        self.keep_missile_home = out >= missiles - 1 and not self.restless
        """One missile ship stays in port while the others go: losing the last loses."""
        self._danger: dict[tuple[Kind, Cell], float] = {}
        self._strikes: dict[Cell, dict[Cell, int]] = {}
        self.menace = self._menacing(state)
        """Enemy missile ships beside our standing batteries: the next take-out opens an exit."""
        threatened = {
            exit_
            for exit_, pair in board.GUARDS[state.shore(self.seat)].items()
            if any(board.chebyshev(b, cell) <= 2 for b in pair for cell in self.menace)
        }
        self.enemy_way = frozenset(
            c
            for c in board.ALL_FIELDS
            if c not in state.guarded_exits[self.seat] or c in threatened
        )
        """Where enemy fire may pass: an exit about to open counts as open already."""
        exposed = threatened | (own_exits - state.guarded_exits[self.seat])
        self.shelter = _port_depth(state.shore(self.seat), exposed or None)
        """Steps from our exits (those open or about to open, if any) inside the port: the
        depth at which the last missile ship and the landing ship wait."""
        self.shelter_weight = 3.0 if exposed else 1.0
        """How much a field deeper is worth to them: much more once the enemy is at the door."""
        self.sheltered = self._sheltered(state)
        self.way_in = frozenset(
            near
            for cell in self.sheltered
            for near in board.open_steps(cell)
            if near in self.home and self.shelter.get(near, 0) > self.shelter.get(cell, 0)
        )
        """The fields by which a sheltered ship goes deeper: the others keep off them."""
        self.blockers = frozenset(c for c in self.way_in if c in state.at)
        guarded = state.guarded_exits[self.enemy]
        zones = state.zones[self.enemy]
        sea = frozenset(c for c in board.ALL_FIELDS if c not in guarded)
        ships_way = frozenset(c for c in sea if c not in zones)
        enemy_cells = [
            cell
            for cell, belief in self.beliefs.items()
            if belief.get(Kind.MINE, 0.0) < 0.99 and Kind.BATTERY not in belief
        ]
        enemy_port = board.PORTS[state.shore(self.enemy)]
        at_sea = [cell for cell in enemy_cells if cell not in enemy_port]
        inside = [cell for cell in enemy_cells if cell in enemy_port]
        doors = [
            c
            for c in ships_way
            if c not in enemy_port
            and min(board.chebyshev(c, e) for e in board.EXITS[state.shore(self.enemy)]) <= 3
        ]
        self.hunt: dict[Kind, dict[Cell, int]] = {}
        """Per fighting type: steps to the nearest enemy token it expects to beat."""
        for kind in FIGHTERS:
            prey = [c for c in at_sea if self.clash_value(kind, c, defuse=False) > 0]
            found = _distances(prey, ships_way)
            if not prey or len(found) <= len(prey):
                # Nothing to hunt at sea: wait at the enemy's doors, or go in by an open one.
                found = _distances([*doors, *inside], ships_way)
            self.hunt[kind] = found
        self.to_enemy = self.hunt[Kind.ESCORT]
        batteries = [
            p.cell for p in state.pieces if p.owner == self.enemy and p.kind is Kind.BATTERY
        ]
        exits_left = board.GUARDS[state.shore(self.enemy)]
        weakest = sorted(
            exits_left.items(),
            key=lambda item: sum(1 for b in item[1] if b in batteries) or 9,
        )
        aims = [b for _, pair in weakest[:1] for b in pair if b in batteries] or batteries
        self.to_batteries = _distances(
            (c for b in aims for c in board.zone(b) if c not in guarded), sea
        )
        open_exits = [e for e in board.EXITS[state.shore(self.enemy)] if e not in guarded]
        self.to_port = _distances(open_exits, ships_way) if open_exits else {}
        self.enemy_port = enemy_port

    def _menacing(self, state: WarshipsState) -> frozenset[Cell]:
        """Enemy tokens, likely missile ships, within a move and a shot of one of our
        batteries (a token in a battery's zone is one for certain: ``warships_memory``)."""
        batteries = [
            p.cell for p in state.pieces if p.owner == self.seat and p.kind is Kind.BATTERY
        ]
        return frozenset(
            cell
            for cell, belief in self.beliefs.items()
            if belief.get(Kind.MISSILE_SHIP, 0.0) >= 0.5
            and any(board.chebyshev(cell, b) <= 2 for b in batteries)
        )

    def _sheltered(self, state: WarshipsState) -> frozenset[Cell]:
        """The ships that wait deep in port until a siege drags on: the landing ship, and
        the last missile ship (losing either loses the game, §14.2 and §14.3)."""
        found = set()
        for piece in state.own(self.seat):
            if piece.cell not in self.home:
                continue
            if piece.kind is Kind.LANDING_SHIP and not self.restless:
                found.add(piece.cell)
            if piece.kind is Kind.MISSILE_SHIP and self.last_missile and not self.restless:
                found.add(piece.cell)
        return frozenset(found)

    def _strike_map(self, where: Cell) -> dict[Cell, int]:
        """Steps from an enemy token to every field it could fire at within 8 steps:
        walls and our guarded exits stop it, tokens are ignored (they may move away)."""
        if where not in self._strikes:
            self._strikes[where] = _distances([where], self.enemy_way, limit=8)
        return self._strikes[where]

    def danger(self, kind: Kind, cell: Cell) -> float:
        """The likeliest loss of a ``kind`` standing on ``cell``, in value."""
        key = (kind, cell)
        if key not in self._danger:
            worst = 0.0
            for where, belief in self.beliefs.items():
                if board.chebyshev(where, cell) > 8 or where in board.NEUTRAL:
                    continue
                steps = self._strike_map(where).get(cell, 99)
                chance = 0.0
                for enemy_kind, p in belief.items():
                    if not enemy_kind.is_ship or enemy_kind is Kind.LANDING_SHIP:
                        continue
                    reach = self.rules.range_of(enemy_kind)
                    if enemy_kind is Kind.MISSILE_SHIP:
                        near = board.chebyshev(where, cell) <= 2 * reach
                    else:
                        near = steps <= (reach if self.rules.harder else 2 * reach)
                    if near and clash(enemy_kind, kind) in (Result.ATTACKER_WINS, Result.BOTH):
                        chance += p
                worst = max(worst, chance)
            self._danger[key] = worst * self.own_value.get(kind, 1.0)
        return self._danger[key]

    def clash_value(self, attacker: Kind, target: Cell, defuse: bool) -> float:
        """The expected gain of attacking (or defusing) ``target``: wins less losses."""
        belief: Belief = self.beliefs.get(target, {})
        total = 0.0
        for kind, p in belief.items():
            if defuse:
                lost_attacker, lost_defender = kind is not Kind.MINE, kind is Kind.MINE
            else:
                result = clash(attacker, kind)
                if result is Result.FORBIDDEN:
                    continue
                lost_attacker = result in (Result.DEFENDER_WINS, Result.BOTH)
                lost_defender = result in (Result.ATTACKER_WINS, Result.BOTH)
            value = ENEMY_VALUE.get(kind, 1.0)
            if kind is Kind.MISSILE_SHIP and target in self.menace:
                value = ENEMY_VALUE[Kind.BATTERY]  # it is about to open our exit
            gain = value if lost_defender else 0.0
            loss = self.own_value.get(attacker, 1.0) if lost_attacker else 0.0
            total += p * (gain - loss)
        if target in self.near_home:  # a token at our door may be their landing ship
            total += 2.0 * belief.get(Kind.LANDING_SHIP, 0.0) * (7 - self.near_home[target])
        return total + 0.3  # what a clash reveals is worth a little too

    def _deeper(self, start: Cell, end: Cell) -> float:
        """A sheltered ship's wish to wait deep in port, never on an exit."""
        depth = self.shelter
        score = self.shelter_weight * (depth.get(end, 0) - depth.get(start, 0))
        return score - 3.0 if end in board.EXITS[self.state.shore(self.seat)] else score

    def progress(self, piece: Piece, start: Cell, end: Cell) -> float:
        """How much nearer its aim the move brings ``piece``."""
        kind = piece.kind
        leaving = start in self.home and end not in self.home
        if start not in self.sheltered:
            if end in self.way_in:
                return -2.5  # never in the way of a sheltered ship
            if start in self.blockers:
                return 2.0  # out of its way
        if kind is Kind.LANDING_SHIP:
            if end in self.enemy_port:
                return WIN
            if not self.to_port or not self.restless:
                # it waits deep at home: most games are won by sinking theirs
                return -3.0 if leaving else self._deeper(start, end)
            return 3.0 * _gain(self.to_port, start, end)
        if kind is Kind.MISSILE_SHIP and self.last_missile and not self.restless:
            # the last one goes home if a fight drew it out, and deep, away from the exits
            # (their missile ships may open ours)
            if start not in self.home:
                return 3.0 * _gain(self.to_home, start, end)
            if end not in self.home:
                return -10.0
            return self._deeper(start, end)
        if kind is Kind.MISSILE_SHIP and leaving and self.keep_missile_home:
            return -5.0
        if kind is Kind.MISSILE_SHIP and self.to_batteries:
            return 3.0 * _gain(self.to_batteries, start, end)
        if kind is Kind.MINESWEEPER:
            return 0.1 * _gain(self.to_enemy, start, end)
        return _gain(self.hunt.get(kind, self.to_enemy), start, end)


STRANDED = 0.2
"""The share of a missile ship's worth that a stop on neutral water risks: moving one
field a turn, it is easily boxed in there until interned (§13.2)."""
RESTLESS = 60
"""Turns in a row without a loss or a mine after which the computer takes more risks."""
_ACTIVE = ("removed", "was lost", "interned", "laid a mine", "emptied")


def quiet_turns(heard: tuple[str, ...]) -> int:
    """How many moves were told since the last token was lost or mine laid (§14.4)."""
    count = 0
    for text in reversed(heard):
        if any(word in text for word in _ACTIVE):
            break
        count += "moved" in text
    return count


def daring(quiet: int) -> float:
    """How much of its caution a missile ship keeps after ``quiet`` turns without a loss:
    all of it at first, less and less as a siege nears the 200-turn draw (§14.4), so it
    goes for the batteries in time."""
    return max(0.1, 1.0 - max(0, quiet - RESTLESS) / 100)


def _gain(distances: dict[Cell, int], start: Cell, end: Cell) -> float:
    before = distances.get(start, 30)
    after = distances.get(end, 30)
    return float(before - after)


def interned_by(piece: Piece, action: act.Move | act.Attack) -> bool:
    """Whether the action leaves ``piece`` on neutral water for a fourth turn (§13.2)."""
    end = action.end if isinstance(action, act.Move) else action.origin
    return end in board.NEUTRAL and piece.neutral >= 3


class WarshipsAdmiral:
    """The strong level: every action weighed by belief, danger and plan."""

    def __init__(self, caution: float = 1.0, noise: float = 0.05) -> None:
        self.caution = caution
        self.noise = noise

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
