"""The Luzhanqi computer: a player that weighs each move by what it believes of the enemy.

It sees what its seat sees: its own pieces by kind, the enemy's as blank tokens (or face up
in the flip game), and every move and clash the referee told it. From those it keeps, for
each enemy piece, the chances of every kind (``luzhanqi_memory``), and then judges every
legal move one ply deep, by expectation over those chances:

- a clash is worth what it is expected to win or lose, by the game's own clash rules
  (so a bomb goes for a piece believed strong, an engineer for a suspected landmine, and
  a headquarters is attacked as soon as the flag may stand there);
- a piece is worth less where an enemy that may beat it can reach it next turn (camps
  that protect are safe), so it does not hand pieces away;
- officers march toward the enemy headquarters, engineers keep to the railways, and an
  enemy piece near its own flag is a target before anything else;
- as the quiet-move draw comes near, attacking is worth more.

In the flip game everything face up is known, so the same weighing applies exactly, and
turning a piece over is weighed by what it may turn out to be beside.
Its dice only break near-ties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache

from bot.ai.core import Seen
from bot.ai.generic import RandomPlayer
from bot.ai.luzhanqi_memory import Belief, enemy_beliefs
from bot.ai.luzhanqi_setup import strong_layout
from bot.games.core import Phase
from bot.games.luzhanqi import moves
from bot.games.luzhanqi.actions import Flip, Move
from bot.games.luzhanqi.board import (
    CAMPS,
    HQS,
    NEIGHBOURS,
    RAIL_STATIONS,
    STATIONS,
    Colour,
    Station,
    half,
    lines_through,
    owner_of,
)
from bot.games.luzhanqi.clash import Removal, resolve
from bot.games.luzhanqi.deployment import layout_text
from bot.games.luzhanqi.pieces import ARMY, Kind, Piece
from bot.games.luzhanqi.rules import LuzhanqiRules
from bot.games.luzhanqi.view import LuzhanqiView

VALUE: dict[Kind, float] = {
    Kind.MARSHAL: 10.0,
    Kind.GENERAL: 8.0,
    Kind.MAJOR_GENERAL: 6.0,
    Kind.BRIGADIER: 4.5,
    Kind.COLONEL: 3.5,
    Kind.MAJOR: 2.6,
    Kind.CAPTAIN: 1.9,
    Kind.LIEUTENANT: 1.4,
    Kind.ENGINEER: 2.4,
    Kind.BOMB: 4.5,
    Kind.LANDMINE: 2.0,
    Kind.FLAG: 1000.0,
}
"""What a piece is worth to its side; taking the flag wins the game."""

THREAT = 0.7
"""The share of a piece's worth at stake where an enemy that may beat it can reach it."""
ADVANCE = 0.35
"""Worth of one step nearer the enemy headquarters, for a piece of worth 5."""
GUARD_RADIUS = 3
"""Enemy pieces this close to the computer's flag are attacked first."""
EAGER_PLIES = 8
"""In the last plies before the quiet-move draw, an attack is worth a little more..."""
EAGER_RESERVE = 4
"""...unless the computer is down to this many movable pieces: then a draw will do."""
NOISE = 0.02


@lru_cache(maxsize=256)
def distances_to(targets: frozenset[Station]) -> tuple[int, ...]:
    """Steps along roads and railways from every station to the nearest of ``targets``."""
    far = len(STATIONS)
    result = [far] * len(STATIONS)
    frontier = sorted(targets)
    for where in frontier:
        result[where] = 0
    while frontier:
        following = []
        for here in frontier:
            for there in NEIGHBOURS[here]:
                if result[there] == far:
                    result[there] = result[here] + 1
                    following.append(there)
        frontier = following
    return tuple(result)


def clash_worth(mine: Kind, theirs: Belief, rules: LuzhanqiRules) -> tuple[float, float]:
    """The expected gain of ``mine`` attacking a piece of the chances ``theirs``, and the
    chance that ``mine`` then stands on the defender's station."""
    gain = 0.0
    survives = 0.0
    for kind, chance in theirs.items():
        clash = resolve(mine, kind, rules)
        if clash.flag_taken:
            gain += chance * VALUE[Kind.FLAG]
            continue
        if clash.removal is Removal.DEFENDER:
            gain += chance * VALUE[kind]
            survives += chance
        elif clash.removal is Removal.ATTACKER:
            gain -= chance * VALUE[mine]
        else:
            gain += chance * (VALUE[kind] - VALUE[mine])
    return gain, survives


def beaten_by(attacker: Belief, mine: Kind, rules: LuzhanqiRules) -> float:
    """The chance that a piece of the chances ``attacker`` removes ``mine`` if it attacks."""
    return sum(
        chance
        for kind, chance in attacker.items()
        if kind.movable and resolve(kind, mine, rules).removal is not Removal.ATTACKER
    )


def attackers_of(board: Sequence[Piece | None], where: Station, enemy: Colour) -> list[Station]:
    """Enemy pieces that could reach ``where`` next turn: a step, or a straight rail run."""
    found = [s for s in NEIGHBOURS[where] if _is(board[s], enemy)]
    for line in lines_through(where):
        at = line.index(where)
        for step in (-1, 1):
            index = at + step
            while 0 <= index < len(line):
                piece = board[line[index]]
                if piece is not None:
                    if _is(piece, enemy) and line[index] not in found:
                        found.append(line[index])
                    break
                index += step
    return found


def _is(piece: Piece | None, colour: Colour) -> bool:
    return piece is not None and piece.colour is colour and piece.face_up


class Judge:
    """Everything one decision needs: the board, what is believed, and the aims."""

    def __init__(self, view: LuzhanqiView, colour: Colour, believed: dict[Station, Belief]):
        self.view = view
        self.rules = view.rules
        self.colour = colour
        self.enemy = colour.opponent
        self.board = view.pieces
        self.believed = believed
        self.flag = next(
            (
                s
                for s, p in enumerate(self.board)
                if p is not None and p.colour is colour and p.kind is Kind.FLAG
            ),
            None,
        )
        enemy_hqs = [s for s in HQS if owner_of(s) is self.enemy]
        goals = [s for s in enemy_hqs if self.board[s] is not None] or enemy_hqs
        self.to_goal = distances_to(frozenset(goals))
        self.to_prey: dict[Kind, tuple[int, ...]] = {}
        self.to_flag = distances_to(frozenset({self.flag})) if self.flag is not None else None
        movers = sum(
            1
            for p in self.board
            if p is not None and p.colour is colour and p.kind is not None and p.kind.movable
        )
        closing = view.quiet >= self.rules.quiet_limit - EAGER_PLIES
        self.eager = 1.0 if closing and movers > EAGER_RESERVE else 0.0

    def risk(self, board: Sequence[Piece | None], where: Station, kind: Kind) -> float:
        """The worth ``kind`` may lose on ``where`` to an attack next turn."""
        if where in CAMPS and self.rules.camps_protect:
            return 0.0
        safe = 1.0
        for attacker in attackers_of(board, where, self.enemy):
            belief = self.believed.get(attacker)
            if belief:
                safe *= 1.0 - beaten_by(belief, kind, self.rules)
        return THREAT * VALUE[kind] * (1.0 - safe)

    def move(self, start: Station, target: Station) -> float:
        """The worth of moving ``start``-``target``: a clash's expected gain, the danger the
        piece leaves and meets, and how far it gets on toward its goal."""
        mover = self.board[start]
        assert mover is not None and mover.kind is not None
        kind = mover.kind
        after = list(self.board)
        after[start] = None
        before_risk = self.risk(self.board, start, kind)
        defender = self.board[target]
        if defender is None:
            after[target] = mover
            score = before_risk - self.risk(after, target, kind)
            score += self.positional(kind, start, target)
            if self.rules.hq_freezes and target in HQS:
                score -= VALUE[kind]  # an empty HQ freezes the piece for good
            return score
        belief = self.believed.get(target) or {}
        gain, survives = clash_worth(kind, belief, self.rules)
        after[target] = mover
        score = gain + before_risk - survives * self.risk(after, target, kind)
        score += survives * self.positional(kind, start, target)
        if self.to_flag is not None and self.to_flag[target] <= GUARD_RADIUS:
            score += 2.0 * (GUARD_RADIUS + 1 - self.to_flag[target])
        return score + 3.0 * self.eager

    def goal_distances(self, kind: Kind) -> tuple[int, ...]:
        """Steps to where ``kind`` should head: the enemy headquarters in the referee game;
        in the open flip game, the enemy pieces it beats (or any enemy piece)."""
        if not self.rules.flip:
            return self.to_goal
        if kind not in self.to_prey:
            enemies = [s for s, p in enumerate(self.board) if _is(p, self.enemy)]
            prey = [
                s
                for s in enemies
                if clash_worth(kind, self.believed.get(s) or {}, self.rules)[0] > 0
                and not (s in CAMPS and self.rules.camps_protect)
            ]
            self.to_prey[kind] = distances_to(frozenset(prey or enemies or STATIONS))
        return self.to_prey[kind]

    def positional(self, kind: Kind, start: Station, target: Station) -> float:
        """Progress toward the goal (stronger pieces press harder), engineers on railways."""
        to_goal = self.goal_distances(kind)
        nearer = to_goal[start] - to_goal[target]
        weight = ADVANCE * min(VALUE[kind], 8.0) / 5.0
        if kind is Kind.BOMB:
            weight *= 0.3  # bombs wait for a target
        score = weight * nearer
        if kind is Kind.ENGINEER:
            score += 0.3 * ((target in RAIL_STATIONS) - (start in RAIL_STATIONS))
        return score

    def flip(self, where: Station, pool: Mapping[tuple[Colour, Kind], int]) -> float:
        """Turning ``where`` over: a piece of ours gains a mover, an enemy may threaten."""
        total = sum(pool.values())
        if not total:
            return 0.0
        score = 0.3
        mine_near = [
            s for s in NEIGHBOURS[where] if _is(self.board[s], self.colour) and s not in CAMPS
        ]
        enemies_near = [s for s in attackers_of(self.board, where, self.enemy)]
        for (colour, kind), count in pool.items():
            chance = count / total
            if colour is self.colour:
                score += chance * 0.4
                for enemy in enemies_near:
                    if beaten_by(self.believed[enemy], kind, self.rules) > 0.5:
                        score -= chance * THREAT * VALUE[kind]
                        break
                continue
            if not kind.movable:
                continue
            worst = 0.0
            for near in mine_near:
                piece = self.board[near]
                assert piece is not None and piece.kind is not None
                if resolve(kind, piece.kind, self.rules).removal is not Removal.ATTACKER:
                    worst = max(worst, VALUE[piece.kind])
            score -= chance * THREAT * worst
        return score


def flip_pool(view: LuzhanqiView) -> Counter[tuple[Colour, Kind]]:
    """The pieces still face down (the flip game): every piece minus those seen or lost."""
    pool: Counter[tuple[Colour, Kind]] = Counter(
        (colour, kind) for colour in Colour for kind in ARMY
    )
    for piece in view.pieces:
        if piece is not None and piece.face_up and piece.colour and piece.kind:
            pool[(piece.colour, piece.kind)] -= 1
    for losses in view.losses:
        for kind in losses.known:
            pool[(losses.colour, kind)] -= 1
    return +pool


class LuzhanqiCommander:
    """The strongest Luzhanqi level: belief about the enemy, weighed one ply deep."""

    def decide(self, seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, LuzhanqiView)
        if view.phase is Phase.SETUP:
            return self.setup(seen)
        dice = seen.dice()
        colour = view.colour
        if colour is None:  # the flip game's first turn: any piece will do
            face_down = [s for s, p in enumerate(view.pieces) if p is not None and not p.face_up]
            return str(Flip(dice.choice(face_down)))
        believed = self.believed(view, seen.heard, colour)
        judge = Judge(view, colour, believed)
        options: list[tuple[float, str]] = []
        for start, target in moves.legal_moves(
            view.pieces, colour, view.rules, view.mines_by_colour()
        ):
            score = judge.move(start, target)
            options.append((score + NOISE * dice.random(), str(Move(start, target))))
        if view.rules.flip:
            pool = flip_pool(view)
            for where, piece in enumerate(view.pieces):
                if piece is not None and not piece.face_up:
                    score = judge.flip(where, pool)
                    options.append((score + NOISE * dice.random(), str(Flip(where))))
        if not options:  # cannot happen (a side without a move has lost), but never stall
            return RandomPlayer("luzhanqi").decide(seen)
        return max(options)[1]

    @staticmethod
    def believed(view: LuzhanqiView, heard: Sequence[str], colour: Colour) -> dict[int, Belief]:
        if not view.rules.flip:
            return enemy_beliefs(view, heard)
        return {  # face up, everything is known; face down, nothing can attack yet
            where: {piece.kind: 1.0}
            for where, piece in enumerate(view.pieces)
            if piece is not None
            and piece.face_up
            and piece.colour is colour.opponent
            and piece.kind is not None
        }

    @staticmethod
    def setup(seen: Seen) -> str:
        view = seen.view
        assert isinstance(view, LuzhanqiView)
        colour = view.colour
        assert colour is not None
        wanted = strong_layout(seen.setup_dice("deployment"))
        current = tuple(
            p.kind if p is not None else None for p in (view.pieces[s] for s in half(colour))
        )
        if current == wanted:
            return "ready"
        return layout_text(wanted)
