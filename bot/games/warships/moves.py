"""Where a unit may go and what it may hit (Warships rules §8, §9, §11, §12.1).

Every test here reads only public facts (token positions, batteries) and the mover's own
types, so a refusal never tells a player anything about the enemy's hidden types (§16.1).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from bot.games.core import other
from bot.games.grid import Cell, cell_name
from bot.games.warships import board
from bot.games.warships.state import Piece, WarshipsState
from bot.games.warships.units import Kind
from bot.games.words import with_article


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
        return {cell for cell in board.ALL_FIELDS if 0 < board.chebyshev(origin, cell) <= distance}
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
        if piece.owner == seat
        and piece.kind is Kind.MINESWEEPER
        and piece.cell not in board.NEUTRAL
        for near in board.open_steps(piece.cell)
        if near not in state.at and near not in board.NEUTRAL and near not in enemy_zone
    }


# -- why a move is refused (§8) ---------------------------------------------------------------

Passable = Callable[[Cell], bool]


def _distances(start: Cell, passable: Passable, limit: int) -> dict[Cell, int]:
    """Fewest king steps from ``start`` to each field within ``limit``, walls respected."""
    found = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if found[cell] == limit:
            continue
        for near in board.open_steps(cell):
            if near not in found and passable(near):
                found[near] = found[cell] + 1
                queue.append(near)
    return found


def _crossed(start: Cell, end: Cell, passable: Passable, limit: int) -> set[Cell] | None:
    """The fields that some path of at most ``limit`` steps from ``start`` to ``end``
    crosses, through fields ``passable`` allows; ``None`` when there is no such path."""
    ahead = _distances(start, lambda cell: passable(cell) or cell == end, limit)
    if end not in ahead:
        return None
    back = _distances(end, lambda cell: passable(cell) or cell == start, limit)
    return {
        cell
        for cell, steps in ahead.items()
        if cell not in (start, end) and steps + back.get(cell, limit + 1) <= limit
    }


def _listed(cells: Iterable[Cell]) -> str:
    names = [cell_name(cell) for cell in sorted(cells)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _tokens_named(state: WarshipsState, seat: int, cells: set[Cell]) -> str:
    """The tokens on ``cells``: one's own by type (known to them), the enemy's only as tokens."""
    own = sorted(c for c in cells if c in state.at and state.at[c].owner == seat)
    enemy = [c for c in cells if c in state.at and state.at[c].owner != seat]
    parts = [f"your {state.at[c].kind.unit.name} on {cell_name(c)}" for c in own]
    if enemy:
        parts.append(
            ("enemy tokens on " if len(enemy) > 1 else "an enemy token on ") + _listed(enemy)
        )
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _barriers_named(state: WarshipsState, seat: int, cells: set[Cell]) -> str:
    """The enemy's guarded exits and the batteries whose zones lie on ``cells``."""
    enemy = other(seat)
    exits = cells & state.guarded_exits[enemy]
    batteries = {
        p.cell
        for p in state.own(enemy)
        if p.kind is Kind.BATTERY and board.zone(p.cell) & (cells - exits)
    }
    parts = []
    if batteries:
        parts.append(
            f"the zone{'s' if len(batteries) > 1 else ''} of the enemy "
            f"batter{'ies' if len(batteries) > 1 else 'y'} on {_listed(batteries)}"
        )
    if exits:
        parts.append(f"the guarded enemy exit {_listed(exits)}")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def blocked(state: WarshipsState, piece: Piece, end: Cell) -> str:
    """Why no path within ``piece``'s range reaches ``end``, an empty field it may stand
    on: too far, walls, tokens, or the enemy's battery zones and guarded exits (§8).

    It names what stands on the shortest paths the walls leave: all of it public (token
    positions, batteries and their zones, §16), with the mover's own tokens by their type,
    which the mover knows, and an enemy token only as a token, so a refusal never tells a
    hidden type (§16.1).
    """
    reach = state.rules.range_of(piece.kind)
    unit = piece.kind.unit.name
    most = f"{with_article(unit)} moves at most {reach} step{'s' if reach > 1 else ''}"
    start, seat = piece.cell, piece.owner
    if board.chebyshev(start, end) > reach:
        return f"too far; {most}."
    barred = set(state.guarded_exits[other(seat)])
    if piece.kind is not Kind.MISSILE_SHIP:
        barred |= state.zones[other(seat)]
    anywhere = _crossed(start, end, lambda cell: True, reach)
    if anywhere is None:
        around = _distances(start, lambda cell: True, len(board.ALL_FIELDS))[end]
        return f"walls are in the way: round them it takes {around} steps, and {most}."
    past_tokens = _crossed(start, end, lambda cell: cell not in barred, reach)
    if past_tokens is not None:
        return f"blocked by {_tokens_named(state, seat, past_tokens)}."
    past_barriers = _crossed(start, end, lambda cell: cell not in state.at, reach)
    if past_barriers is not None:
        return f"blocked by {_barriers_named(state, seat, past_barriers)}."
    tokens = _tokens_named(state, seat, anywhere)
    barriers = _barriers_named(state, seat, anywhere & barred)
    both = [part for part in (tokens if tokens else "", barriers) if part]
    return "blocked by " + "; and by ".join(both) + "."
