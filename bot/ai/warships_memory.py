"""What a Warships seat knows of each enemy token: its view, and what it was told.

A person across the table remembers every clash (even with `forget`, which only clears the
board's marks), notices which tokens have moved (a token that moved is a ship: mines and
batteries never move), knows that a token stopping beside one of their standing batteries
is a missile ship (no other unit may enter a battery's zone, §11.1) and counts what is
gone. This module rebuilds that memory from the texts the referee addressed to the seat,
oldest first, and turns it into a belief: for every enemy token, the chance of each type.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bot.games.grid import Cell
from bot.games.warships import board
from bot.games.warships.board import Shore
from bot.games.warships.units import MINE_COUNT, SHIPS, UNITS, Kind
from bot.games.warships.view import WarshipsView

_BY_NAME = {kind.unit.name: kind for kind in Kind}
_NAMES = "|".join(sorted((re.escape(name) for name in _BY_NAME), key=len, reverse=True))
_FIELD = r"[A-L]\d{1,2}"
_THEIR_MOVE = re.compile(rf"Your opponent moved ({_FIELD})-({_FIELD})\.")
_THEIR_ATTACK = re.compile(
    rf"Your opponent's ({_NAMES}) \(({_FIELD})(?:-({_FIELD}))?\) \w+(?: \w+)? your "
    rf"({_NAMES}) on ({_FIELD}): (.*)\."
)
_MY_ATTACK = re.compile(
    rf"Your ({_NAMES}) \(({_FIELD})(?:-({_FIELD}))?\) \w+(?: \w+)? ({_FIELD}): it was an? "
    rf"({_NAMES}); (.*)\."
)

Belief = dict[Kind, float]
"""The chance of each type for one token; the chances add up to 1."""


def _field(name: str) -> Cell:
    return board.field(name)


@dataclass
class Memory:
    """Enemy types learnt in clashes and from battery zones, the fields of enemy tokens that
    have moved, and the seat's own batteries still standing."""

    kinds: dict[Cell, Kind]
    moved: set[Cell]
    batteries: set[Cell]

    @classmethod
    def recall(cls, heard: tuple[str, ...], shore: Shore | None = None) -> Memory:
        """The memory of a seat on ``shore`` (without it, battery zones teach nothing)."""
        standing = set(board.BATTERY_FIELDS[shore]) if shore is not None else set()
        memory = cls({}, set(), standing)
        for text in heard:
            memory._hear(text)
        return memory

    def _in_a_zone(self, cell: Cell) -> bool:
        return any(board.chebyshev(cell, battery) <= 1 for battery in self.batteries)

    def _shift(self, start: Cell, end: Cell) -> None:
        kind = self.kinds.pop(start, None)
        if kind is not None:
            self.kinds[end] = kind
        self.moved.discard(start)
        self.moved.add(end)

    def _hear(self, text: str) -> None:
        if (found := _THEIR_MOVE.match(text)) is not None:
            end = _field(found[2])
            self._shift(_field(found[1]), end)
            if self._in_a_zone(end):  # only a missile ship may stop there (§11.1)
                self.kinds[end] = Kind.MISSILE_SHIP
        elif (found := _THEIR_ATTACK.match(text)) is not None:
            attacker, start, via, defender, target, result = found.groups()
            origin = _field(via or start)
            if _BY_NAME[defender] is Kind.BATTERY:
                self.batteries.discard(_field(target))
            if via:
                self._shift(_field(start), origin)
            self.moved.add(origin)  # it acted, so it is a ship
            if result.startswith("your "):  # the attacker survived and is now known
                self.kinds[origin] = _BY_NAME[attacker]
            else:
                self.kinds.pop(origin, None)
        elif (found := _MY_ATTACK.match(text)) is not None:
            mine, _, _, target, theirs, result = found.groups()
            cell = _field(target)
            if result == f"your {mine} was lost":  # the target stays, now known
                self.kinds[cell] = _BY_NAME[theirs]
            else:
                self.kinds.pop(cell, None)


def beliefs(view: WarshipsView, heard: tuple[str, ...]) -> dict[Cell, Belief]:
    """For every enemy token on the board, the chance of each type it may be.

    Known tokens are certain. The others share what is unaccounted for: the fleet's counts
    less the known tokens and the known losses. A token that moved is a ship; one that never
    moved may be one of the mines its owner put in port.
    """
    seat = view.seat
    assert seat is not None
    enemy = 1 - seat
    memory = Memory.recall(heard, view.shore(seat))
    known: dict[Cell, Kind] = {}
    unknown_still: list[Cell] = []
    unknown_moved: list[Cell] = []
    for token in view.tokens:
        if token.owner != enemy:
            continue
        kind = token.kind or memory.kinds.get(token.cell)
        if kind is not None:
            known[token.cell] = kind
        elif token.cell in memory.moved:
            unknown_moved.append(token.cell)
        else:
            unknown_still.append(token.cell)
    pool = Counter({kind: UNITS[kind].count for kind in SHIPS})
    pool.subtract(known.values())
    pool.subtract(loss.kind for loss in view.losses if loss.owner == enemy and loss.kind)
    ships = {kind: max(0, count) for kind, count in pool.items() if count > 0}
    total = sum(ships.values()) or 1
    ship_belief = {kind: count / total for kind, count in ships.items()}
    mines_lost = sum(1 for loss in view.losses if loss.owner == enemy and loss.kind is Kind.MINE)
    mines_known = sum(1 for kind in known.values() if kind is Kind.MINE)
    reserve = view.reserves[enemy] or 0
    hidden_mines = max(0, MINE_COUNT - reserve - mines_known - mines_lost)
    mine_chance = min(1.0, hidden_mines / len(unknown_still)) if unknown_still else 0.0
    found: dict[Cell, Belief] = {cell: {kind: 1.0} for cell, kind in known.items()}
    for cell in unknown_moved:
        found[cell] = dict(ship_belief)
    for cell in unknown_still:
        mixed = {kind: chance * (1 - mine_chance) for kind, chance in ship_belief.items()}
        mixed[Kind.MINE] = mine_chance
        found[cell] = mixed
    return found
