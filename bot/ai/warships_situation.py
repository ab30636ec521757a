"""What the Warships computer knows when it decides: beliefs, danger and distances.

One ``Situation`` is worked out per decision, before any action is weighed: the chance of
each type for every enemy token (``warships_memory``), the values at stake, where enemy
fire may reach, where the ships that must not be lost wait, and how far each type is from
what it hunts. The admiral (``bot.ai.warships``) then scores every action against it.
"""

from __future__ import annotations

from bot.ai.core import Seen
from bot.ai.warships_distances import distances, gain, port_depth
from bot.ai.warships_memory import Belief, beliefs
from bot.games.grid import Cell
from bot.games.warships import board
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
FIGHTERS = (Kind.BATTLESHIP, Kind.CRUISER, Kind.DESTROYER, Kind.SUBMARINE, Kind.ESCORT)
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


class Situation:
    """One decision's knowledge: beliefs, danger and distances, computed once."""

    def __init__(self, seen: Seen, view: WarshipsView, state: WarshipsState) -> None:
        self.seat = seen.seat
        self.enemy = 1 - self.seat
        self.state = state
        self.rules = view.rules
        self.beliefs = beliefs(view, seen.heard)
        own_exits = board.EXITS[state.shore(self.seat)]
        self.near_home = distances(own_exits, frozenset(board.ALL_FIELDS), limit=6)
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
        self.to_home = distances(own_exits, frozenset(board.ALL_FIELDS))
        self.keep_missile_home = out >= missiles - 1 and not self.restless
        """One missile ship stays in port while the others go: losing the last loses."""
        self._danger: dict[tuple[Kind, Cell], float] = {}
        self._strikes: dict[Cell, dict[Cell, int]] = {}
        self.menace = self._menacing(state)
        """Enemy missile ships beside our standing batteries: the next take-out opens an exit."""
        self._plan_shelter(state, own_exits)
        self._plan_routes(state)

    def _plan_shelter(self, state: WarshipsState, own_exits: frozenset[Cell]) -> None:
        """Where enemy fire may pass, and where the ships whose loss loses the game wait:
        deep in port, away from the exits that are open or about to open."""
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
        self.shelter = port_depth(state.shore(self.seat), exposed or None)
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

    def _plan_routes(self, state: WarshipsState) -> None:
        """How far each field is from what each type goes for: the enemy tokens it expects
        to beat, the batteries that guard the weakest enemy exit, and an open enemy exit."""
        guarded = state.guarded_exits[self.enemy]
        zones = state.zones[self.enemy]
        sea = frozenset(c for c in board.ALL_FIELDS if c not in guarded)
        ships_way = frozenset(c for c in sea if c not in zones)
        enemy_cells = [
            cell
            for cell, belief in self.beliefs.items()
            if belief.get(Kind.MINE, 0.0) < 0.99 and Kind.BATTERY not in belief
        ]
        enemy_port = self.enemy_port = board.PORTS[state.shore(self.enemy)]
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
            found = distances(prey, ships_way)
            if not prey or len(found) <= len(prey):
                # Nothing to hunt at sea: wait at the enemy's doors, or go in by an open one.
                found = distances([*doors, *inside], ships_way)
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
        self.to_batteries = distances(
            (c for b in aims for c in board.zone(b) if c not in guarded), sea
        )
        open_exits = [e for e in board.EXITS[state.shore(self.enemy)] if e not in guarded]
        self.to_port = distances(open_exits, ships_way) if open_exits else {}

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
            self._strikes[where] = distances([where], self.enemy_way, limit=8)
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
            return 3.0 * gain(self.to_port, start, end)
        if kind is Kind.MISSILE_SHIP and self.last_missile and not self.restless:
            # the last one goes home if a fight drew it out, and deep, away from the exits
            # (their missile ships may open ours)
            if start not in self.home:
                return 3.0 * gain(self.to_home, start, end)
            if end not in self.home:
                return -10.0
            return self._deeper(start, end)
        if kind is Kind.MISSILE_SHIP and leaving and self.keep_missile_home:
            return -5.0
        if kind is Kind.MISSILE_SHIP and self.to_batteries:
            return 3.0 * gain(self.to_batteries, start, end)
        if kind is Kind.MINESWEEPER:
            return 0.1 * gain(self.to_enemy, start, end)
        return gain(self.hunt.get(kind, self.to_enemy), start, end)
