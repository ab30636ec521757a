"""The computer in the Flying Dutchman (Sea Battle rules §5): a searcher and a captain.

One ship of 5 to 8 decks, joined through sides or corners, moves in secret only just after
it is hit. So the misses since the last hit still hold (the ship has not moved since), and
the older ones say nothing. The shooter hunts over the cells those misses leave open,
where most lines of the decks left could lie, and after a hit tries the hit cell's
neighbours first (the ship may have stayed). As captain, after each hit it moves the ship
away to a random group of cells the enemy has not fired at lately, far from the hit.

It reads only its seat's view (its own ship) and what its seat was told (the shots in order).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from bot.ai.core import Seen
from bot.games.grid import Cell, cell_name, neighbours, parse_cell
from bot.games.seabattle import dutchman
from bot.games.seabattle.view import SeaBattleView

_MY_SHOT = re.compile(r"^([A-Z]\d{1,2}): (miss|hit|sunk)\b")
"""How the shooter hears the answer to each of its shots."""

_THEIR_SHOT = re.compile(r"^Your opponent shot at ([A-Z]\d{1,2})\b")
"""How the captain hears each of the enemy's shots."""

LINES = ((1, 0), (0, 1), (1, 1), (1, -1))
"""The directions a line of decks may run: a bent ship is near enough to one for a hunt."""

LATELY = 40
"""How many of the enemy's last shots the captain keeps its moved ship clear of."""

CLEARANCE = 3
"""How far (in king steps) from the hit cell the captain moves its ship at least."""

TRIES = 300
"""Random groups grown per answer before the captain settles for staying."""


def my_shots(heard: Sequence[str], size: int) -> list[tuple[Cell, bool]]:
    """Every shot of this seat's, in order, and whether it hit."""
    shots = []
    for text in heard:
        told = _MY_SHOT.match(text)
        if told:
            shots.append((parse_cell(told.group(1), size, size), told.group(2) != "miss"))
    return shots


def their_shots(heard: Sequence[str], size: int) -> list[Cell]:
    """Every shot of the enemy's at this seat's ship, in order."""
    shots = []
    for text in heard:
        told = _THEIR_SHOT.match(text)
        if told:
            shots.append(parse_cell(told.group(1), size, size))
    return shots


def line_density(size: int, decks: int, ruled_out: set[Cell]) -> dict[Cell, int]:
    """How many straight or diagonal lines of ``decks`` cells clear of ``ruled_out`` cover
    each open cell: a ship of many decks is likelier where many of them fit."""
    scores: dict[Cell, int] = {}
    for row in range(size):
        for column in range(size):
            for dc, dr in LINES:
                line = [(column + dc * i, row + dr * i) for i in range(decks)]
                if all(0 <= c < size and 0 <= r < size for c, r in line) and not any(
                    cell in ruled_out for cell in line
                ):
                    for cell in line:
                        scores[cell] = scores.get(cell, 0) + 1
    return scores


def shot(seen: Seen) -> str:
    """The next cell to fire at: a neighbour of the last hit while one is open, else the
    open cell most lines of the decks left cross (ties broken by the dice)."""
    view = seen.view
    assert isinstance(view, SeaBattleView)
    size = view.size
    shots = my_shots(seen.heard, size)
    decks = seen.rules.fleet[0].length
    left = max(1, decks - sum(hit for _, hit in shots))
    last_hit = max((i for i, (_, hit) in enumerate(shots) if hit), default=-1)
    ruled_out = {cell for cell, _ in shots[last_hit + 1 :]}
    if last_hit >= 0:
        ruled_out.add(shots[last_hit][0])  # that deck is gone, if the ship stayed
    dice = seen.dice()
    scores = line_density(size, left, ruled_out)
    if last_hit >= 0:
        hit = shots[last_hit][0]
        near = [n for n in neighbours(hit, size, size, diagonal=True) if n not in ruled_out]
        if near:
            return cell_name(max(near, key=lambda c: (scores.get(c, 0), dice.random())))
    open_cells = [(c, r) for r in range(size) for c in range(size) if (c, r) not in ruled_out] or [
        (c, r) for r in range(size) for c in range(size)
    ]
    return cell_name(max(open_cells, key=lambda c: (scores.get(c, 0), dice.random())))


def grow_group(
    size: int, decks: int, allowed: set[Cell], dice: random.Random
) -> tuple[Cell, ...] | None:
    """A random group of ``decks`` cells of ``allowed`` joined through sides or corners."""
    if not allowed:
        return None
    start = dice.choice(sorted(allowed))
    group = [start]
    while len(group) < decks:
        frontier = sorted(
            {
                n
                for cell in group
                for n in neighbours(cell, size, size, diagonal=True)
                if n in allowed and n not in group
            }
        )
        if not frontier:
            return None
        group.append(dice.choice(frontier))
    return tuple(group)


def answer(seen: Seen) -> str:
    """The captain's answer after a hit: move to a group clear of the enemy's recent shots
    and well away from the hit, or stay if no such group is found."""
    view = seen.view
    assert isinstance(view, SeaBattleView)
    size = view.size
    own = view.fields[seen.seat].ships
    decks = len(own[0].cells) if own else 0
    fired = their_shots(seen.heard, size)
    if not decks or not fired:
        return "stay"
    hit = fired[-1]
    lately = set(fired[-LATELY:])
    allowed = {
        (c, r)
        for r in range(size)
        for c in range(size)
        if (c, r) not in lately and max(abs(c - hit[0]), abs(r - hit[1])) > CLEARANCE
    }
    dice = seen.dice("captain")
    for _ in range(TRIES):
        group = grow_group(size, decks, allowed, dice)
        if group is not None:
            cells = dutchman.check_group(size, decks, group)
            return "move " + " ".join(cell_name(cell) for cell in cells)
    return "stay"


def decide(seen: Seen) -> str:
    """The Dutchman's next move for the seat: its answer if one is owed, else a shot."""
    view = seen.view
    assert isinstance(view, SeaBattleView)
    if view.owed == (seen.seat, dutchman.MOVE):
        return answer(seen)
    return shot(seen)
