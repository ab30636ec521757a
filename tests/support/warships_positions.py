"""Named Warships positions written as small text diagrams, and random play for property tests.

A diagram shows a window of the board: a header of column letters, then one line per row
(north first). ``.`` is an empty field; a unit code in capitals belongs to seat 0 (South),
in lower case to seat 1 (North). ``MN*`` marks a mine laid in play, ``DD!`` a token the
opponent has identified. Fields outside the window are empty, except that every battery
stands on its field and each side keeps a landing ship and a missile ship far away in its
port (so that no end condition fires by accident) unless the diagram places its own.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from bot.games.core import IllegalActionError, Phase, Transition
from bot.games.grid import Cell, cell_name
from bot.games.warships import Warships, board, moves
from bot.games.warships.rules import WarshipsRules
from bot.games.warships.state import Piece, WarshipsState
from bot.games.warships.turns import main_actions
from bot.games.warships.units import SHIPS, UNITS, Kind

ENGINE = Warships()
SPARES = {
    0: {Kind.LANDING_SHIP: "A1", Kind.MISSILE_SHIP: "B1"},
    1: {Kind.LANDING_SHIP: "L18", Kind.MISSILE_SHIP: "K18"},
}


def f(name: str) -> Cell:
    return board.field(name)


def position(
    diagram: str,
    *,
    rules: WarshipsRules | None = None,
    turn: int = 0,
    without: str = "",
    spares: bool = True,
    reserves: tuple[int, int] = (6, 6),
    neutral: dict[str, int] | None = None,
) -> WarshipsState:
    """A position in play, seat 0 South; ``without`` names battery fields already taken out."""
    lines = [line.split() for line in diagram.strip().splitlines()]
    columns = [ord(letter) - ord("A") for letter in lines[0]]
    pieces: dict[Cell, Piece] = {}
    for row_line in lines[1:]:
        row = int(row_line[0]) - 1
        for column, mark in zip(columns, row_line[1:], strict=True):
            if mark == ".":
                continue
            code = mark.rstrip("*!")
            owner = 0 if code.isupper() else 1
            pieces[(column, row)] = Piece(
                (column, row),
                owner,
                Kind(code.upper()),
                identified="!" in mark,
                laid="*" in mark,
            )
    gone = {f(name) for name in without.split()}
    for shore in board.Shore:
        for cell in board.BATTERY_FIELDS[shore]:
            if cell not in gone and cell not in pieces:
                pieces[cell] = Piece(cell, int(shore), Kind.BATTERY)
    if spares:
        for seat, kinds in SPARES.items():
            for kind, name in kinds.items():
                if not any(p.owner == seat and p.kind is kind for p in pieces.values()):
                    pieces[f(name)] = Piece(f(name), seat, kind)
    for name, count in (neutral or {}).items():
        pieces[f(name)] = replace(pieces[f(name)], neutral=count)
    state = WarshipsState(rules=rules or WarshipsRules(), seed=1, south=0, phase=Phase.PLAY)
    state = state.with_pieces(list(pieces.values()))
    for seat in (0, 1):
        side = replace(state.sides[seat], ready=True, reserve=reserves[seat])
        state = state.with_side(seat, side)
    return replace(state, turn=turn)


def complete(state: WarshipsState) -> WarshipsState:
    """``state`` with each side's missing tokens: ships on free fields of its own port (in
    field order), mines in reserve. A diagram names only the tokens it is about; a state
    that is to be stored and read back needs all 36 of each side."""
    pieces = list(state.pieces)
    for seat in (0, 1):
        present = Counter(p.kind for p in pieces if p.owner == seat)
        present.update(loss.kind for loss in state.losses if loss.owner == seat)
        taken = {p.cell for p in pieces}
        free = iter(sorted(board.SETUP_FIELDS[state.shore(seat)] - taken))
        for kind in SHIPS:
            for _ in range(UNITS[kind].count - present[kind]):
                pieces.append(Piece(next(free), seat, kind))
        mines = UNITS[Kind.MINE].count - present[Kind.MINE]
        state = state.with_side(seat, replace(state.sides[seat], reserve=mines))
    return state.with_pieces(pieces)


def act(state: WarshipsState, text: str, seat: int | None = None) -> Transition:
    """``text`` played by ``seat`` (by default whoever is to move)."""
    return ENGINE.act(state, (state.turn or 0) if seat is None else seat, text)


def refused(state: WarshipsState, text: str, words: str, seat: int | None = None) -> None:
    """``text`` is refused with a sentence containing ``words``."""
    with pytest.raises(IllegalActionError) as error:
        act(state, text, seat)
    assert words in str(error.value)


def kind_at(state: WarshipsState, name: str) -> Kind | None:
    piece = state.at.get(f(name))
    return None if piece is None else piece.kind


def owner_at(state: WarshipsState, name: str) -> int | None:
    piece = state.at.get(f(name))
    return None if piece is None else piece.owner


def play_step(state: WarshipsState, seat: int, rng: random.Random) -> str:
    """A random legal move text, found without listing every legal move (fast playouts).

    Now and then it lays a mine (alone, or after a move) and minesweepers sometimes defuse,
    so random games reach laid, defused and triggered mines too.
    """
    if state.phase is Phase.SETUP:
        return "ready" if rng.random() < 0.5 else rng.choice(["random", "swap A1 B2", "ready"])
    spots = sorted(moves.mine_fields(state, seat))
    if spots and rng.random() < 0.05:
        return f"mine {cell_name(rng.choice(spots))}"
    ships = [p for p in state.own(seat) if p.kind.is_ship]
    rng.shuffle(ships)
    for piece in ships:
        reachable = moves.destinations(state, piece)
        options: list[str] = []
        for via, steps in [(None, 0), *reachable.items()]:
            origin = via or piece.cell
            path = cell_name(piece.cell) + (f"-{cell_name(via)}" if via else "")
            for target in moves.targets(state, piece, origin, steps):
                options.append(f"{path}x{cell_name(target)}")
            for target in moves.targets(state, piece, origin, steps, defuse=True):
                options.append(f"{path} defuse {cell_name(target)}")
        if options and rng.random() < 0.6:
            return rng.choice(options)
        if reachable:
            end = rng.choice(sorted(reachable))
            text = f"{cell_name(piece.cell)}-{cell_name(end)}"
            if piece.kind is Kind.MINESWEEPER and state.sides[seat].reserve and rng.random() < 0.3:
                text += f" mine {cell_name(rng.choice(sorted(board.open_steps(end))))}"
            return text
    if next(iter(main_actions(state, seat)), None) is None:
        return "pass"
    return str(next(iter(main_actions(state, seat))))


def random_game(
    rules: WarshipsRules, seed: int, limit: int = 400
) -> tuple[list[tuple[int, str]], WarshipsState]:
    """A seeded random game (at most ``limit`` moves) and its move log."""
    rng = random.Random(seed)
    state = ENGINE.new_game(rules, seed)
    log: list[tuple[int, str]] = []
    while state.phase is not Phase.FINISHED and len(log) < limit:
        seat = min(ENGINE.to_move(state))
        text = play_step(state, seat, rng)
        try:
            state = ENGINE.act(state, seat, text).state
        except Exception:  # a setup swap may be refused; any other refusal is a bug
            if state.phase is not Phase.SETUP:
                raise
            continue
        log.append((seat, text))
    return log, state


def two_tokens(f5: str, g6: str = ".", **options: Any) -> WarshipsState:
    """The position most clauses are tried on: a token on F5 and one on G6, a diagonal step
    apart on open water (codes and ``options`` as for :func:`position`)."""
    return position(
        f"""
           F  G
        6  .  {g6}
        5  {f5}  .
        """,
        **options,
    )
