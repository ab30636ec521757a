"""Where a unit may go and what it may hit (rules/warships.md §8, §9, §11, §12.1).

Every test here reads only public facts (token positions, batteries) and the mover's own
types, so a refusal never tells a player anything about the enemy's hidden types (§16.1).
"""

from __future__ import annotations

from collections import deque

from bot.games.core import other
from bot.games.grid import Cell
from bot.games.warships import board
from bot.games.warships.state import Piece, WarshipsState
from bot.games.warships.units import Kind


def may_enter(state: WarshipsState, seat: int, kind: Kind, cell: Cell) -> bool:
    """§8.2 c–e: the field is empty, outside enemy battery zones, and not a guarded exit."""
    enemy = other(seat)
    if cell in state.at or cell in state.guarded_exits[enemy]:
        return False
    return kind is Kind.MISSILE_SHIP or cell not in state.zones[enemy]


def destinations(state: WarshipsState, piece: Piece) -> dict[Cell, int]:
    """Every field ``piece`` may move to, with the fewest steps that reach it (§8.5)."""
    allowance = state.rules.range_of(piece.kind)
    found: dict[Cell, int] = {piece.cell: 0}
    queue = deque([piece.cell])
    while queue:
        cell = queue.popleft()
        steps = found[cell]
        if steps == allowance:
            continue
        for near in board.open_steps(cell):
            if near not in found and may_enter(state, piece.owner, piece.kind, near):
                found[near] = steps + 1
                queue.append(near)
    del found[piece.cell]
    return found


def reach(state: WarshipsState, seat: int, kind: Kind, origin: Cell, distance: int) -> set[Cell]:
    """The fields a unit at ``origin`` can fire at from ``distance`` steps (§9.1, §9.6).

    Fire passes over tokens, zones and neutral water but not walls or the island, and no
    chain enters an enemy exit that still has a battery. A missile ship fires over walls:
    its reach is any field within ``distance`` (ruling 4).
    """
    if distance <= 0:
        return set()
    if kind is Kind.MISSILE_SHIP:
        return {
            cell
            for cell in board.ALL_FIELDS
            if 0 < board.chebyshev(origin, cell) <= distance
        }
    guarded = state.guarded_exits[other(seat)]
    seen = {origin}
    frontier = [origin]
    for _ in range(distance):
        step: list[Cell] = []
        for cell in frontier:
            for near in board.open_steps(cell):
                if near not in seen and near not in guarded:
                    seen.add(near)
                    step.append(near)
        frontier = step
    seen.discard(origin)
    return seen


def targets(
    state: WarshipsState, piece: Piece, origin: Cell, moved: int, *, defuse: bool = False
) -> list[Cell]:
    """Enemy tokens ``piece`` may attack (or defuse) from ``origin`` after ``moved`` steps."""
    if piece.kind is Kind.LANDING_SHIP or not piece.kind.is_ship or origin in board.NEUTRAL:
        return []
    if defuse and piece.kind is not Kind.MINESWEEPER:
        return []
    distance = state.rules.range_of(piece.kind) - (moved if state.rules.harder else 0)
    found = []
    for cell in sorted(reach(state, piece.owner, piece.kind, origin, distance)):
        enemy = state.at.get(cell)
        if enemy is None or enemy.owner == piece.owner or cell in board.NEUTRAL:
            continue
        if enemy.kind is Kind.BATTERY and (defuse or piece.kind is not Kind.MISSILE_SHIP):
            continue  # §9.3: only a missile ship may target a battery
        found.append(cell)
    return found


def mine_fields(state: WarshipsState, seat: int) -> set[Cell]:
    """Empty fields where ``seat`` may lay a reserve mine now (§12.1)."""
    if state.sides[seat].reserve <= 0:
        return set()
    enemy_zone = state.zones[other(seat)]
    return {
        near
        for piece in state.pieces
        if piece.owner == seat and piece.kind is Kind.MINESWEEPER
        and piece.cell not in board.NEUTRAL
        for near in board.open_steps(piece.cell)
        if near not in state.at and near not in board.NEUTRAL and near not in enemy_zone
    }
