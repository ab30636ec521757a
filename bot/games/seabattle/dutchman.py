"""The Flying Dutchman (Sea Battle rules §5): one ship of 5 to 8 decks on a 20x20 field,
joined through sides or corners, that its captain may move in secret after every hit.

Any cell may be shot again (§5.3), since the ship moves; a hit destroys the deck on that
cell, and the owner then chooses (``stay``, or ``move A1 B2 C3 ...``) before the shooter
shoots again. The shooter is never told whether the ship moved.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.games.core import EndReason, IllegalActionError, Outcome, Phase, Transition, name_of, other
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.fleet import Ship, king_connected, reading_order
from bot.games.seabattle.mines import Pending
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.turns import missed
from bot.games.turns import check_turn, told

MOVE = "move"
"""The kind of a pending choice: the Dutchman's captain moves the ship, or not."""


def check_group(size: int, decks: int, cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """``cells`` as a legal Dutchman of ``decks`` decks, in reading order; raises otherwise."""
    if len(set(cells)) != len(cells):
        raise IllegalActionError("You named a cell twice: the ship's decks are all different.")
    if len(cells) != decks:
        raise IllegalActionError(
            f"The Flying Dutchman has {decks} decks here: name {decks} cells."
        )
    if not all(0 <= c < size and 0 <= r < size for c, r in cells):
        raise IllegalActionError("The ship must lie on the board.")
    if not king_connected(cells):
        raise IllegalActionError(
            "The ship's cells must form one group, each joined to another by a side or a "
            "corner."
        )
    return reading_order(cells)


def sample_groups(size: int, decks: int) -> Iterator[tuple[Cell, ...]]:
    """A bounded set of legal groups: every straight row of ``decks`` cells. Any group
    joined through sides or corners is legal; these stand for them in ``legal_actions``."""
    for row in range(size):
        for column in range(size - decks + 1):
            yield tuple((column + i, row) for i in range(decks))


def shoot(state: SeaBattleState, seat: int, cell: Cell) -> Transition:
    """§5.3-5.4: any cell, shot before or not; a hit destroys one deck."""
    if state.pending is not None and state.pending.seat == seat:
        raise IllegalActionError(choice_sentence(state))
    check_turn(state, seat, not_started="both ships must be set first.", waiting_for="shot")
    target = other(seat)
    ship = state.sides[target].ships[0]
    hit = cell in ship.cells
    new = replace(state, log=(*state.log, (seat, cell)), answers=(*state.answers, hit))
    name = cell_name(cell)
    shooter, owner = name_of(seat), name_of(target)
    if not hit:
        return Transition(replace(new, turn=target), missed(seat, name))
    remaining = tuple(c for c in ship.cells if c != cell)
    if not remaining:  # the last deck: the wreck stays on the board for the reveal
        outcome = Outcome(seat, EndReason.RULES, "sank the Flying Dutchman")
        done = replace(new, phase=Phase.FINISHED, turn=None, outcome=outcome)
        return Transition(
            done,
            told(
                seat,
                f"{name}: sunk! That was its last deck: you win!",
                f"Your opponent shot at {name} and sank your ship: you lose.",
                f"{shooter} fires at {name}: sunk! {shooter} wins!",
            ),
        )
    side = replace(new.sides[target], ships=(Ship(0, remaining),))
    new = replace(new.with_side(target, side), pending=Pending(MOVE, target, seat), turn=target)
    lost = lost_decks(new, target)
    return Transition(
        new,
        told(
            seat,
            f"{name}: hit! Their ship has lost {lost} deck{'s' if lost != 1 else ''}. "
            "Its captain may move it in secret; then you shoot again.",
            f"Your opponent shot at {name} and destroyed a deck. " + choice_sentence(new),
            f"{shooter} fires at {name}: hit! {owner} may move the ship in secret; "
            f"then {shooter} shoots again.",
        ),
    )


def lost_decks(state: SeaBattleState, owner: int) -> int:
    """How many decks ``owner``'s ship has lost: public, since every hit is announced."""
    return state.decks_lost[owner]


def choice_sentence(state: SeaBattleState) -> str:
    pending = state.pending
    assert pending is not None
    left = len(state.sides[pending.seat].ships[0].cells)
    cells = "its new cell" if left == 1 else f"its {left} new cells, joined by sides or corners,"
    return (
        f"Move your ship in secret, or leave it: write `stay`, or `move` and {cells} "
        f"like `move {example(left)}`."
    )


def example(decks: int) -> str:
    return " ".join(cell_name((i, i // 2)) for i in range(decks))


def decide(state: SeaBattleState, seat: int, cells: tuple[Cell, ...] | None) -> Transition:
    """§5.4: the captain keeps the ship where it is (``cells`` None) or moves it; the
    shooter hears the same either way."""
    pending = state.pending
    if pending is None or pending.what != MOVE or pending.seat != seat:
        raise IllegalActionError("Your ship may move only just after it is hit.")
    side = state.sides[seat]
    now = side.ships[0].cells
    if cells is not None:
        cells = check_group(state.rules.size, len(now), cells)
        side = replace(side, ships=(Ship(0, cells),))
    new = replace(state.with_side(seat, side), pending=None, turn=pending.then)
    where = " ".join(cell_name(c) for c in (cells or now))
    said = "Your ship stays" if cells is None else "Your ship now lies"
    return Transition(
        new,
        told(
            seat,
            f"{said} on {where}. Your opponent shoots again.",
            "Your opponent's captain has decided. Shoot again.",
            f"{name_of(seat)}'s captain has decided. {name_of(pending.then)} shoots again.",
        ),
    )
