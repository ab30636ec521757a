"""One turn of play (Warships rules §6–§14): the action, mines, and the end-of-turn checks.

Each function takes a state and returns a ``Transition``; refusals are ``IllegalActionError``
sentences that name the rule and use only public facts and the mover's own types (§16.1).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.games.core import (
    SEATS,
    EndReason,
    Event,
    IllegalActionError,
    Outcome,
    Phase,
    Transition,
    name_of,
    other,
)
from bot.games.draws import DrawAction, play_draw
from bot.games.grid import Cell, cell_name
from bot.games.turns import told
from bot.games.warships import actions as act
from bot.games.warships import board, moves
from bot.games.warships.combat import Clash, resolve
from bot.games.warships.state import Cause, LastAction, Loss, Piece, WarshipsState
from bot.games.warships.units import Kind
from bot.games.words import article

QUIET_LIMIT = 200
"""§14.4: turns in a row (100 of each player) with no token removed and no mine laid."""
NEUTRAL_LIMIT = 4
"""§13.2: the counter value at which a unit is interned."""


def main_actions(state: WarshipsState, seat: int) -> Iterator[act.Move | act.Attack]:
    """Every move, attack, take-out and defusing ``seat`` may make now (§7)."""
    for piece in state.own(seat):
        if not piece.kind.is_ship:
            continue
        reachable = moves.destinations(state, piece)
        for end in sorted(reachable):
            yield act.Move(piece.cell, end)
        for via, steps in [(None, 0), *sorted(reachable.items())]:
            origin = via or piece.cell
            for target in moves.targets(state, piece, origin, steps):
                yield act.Attack(piece.cell, via, target)
            if piece.kind is Kind.MINESWEEPER:
                for target in moves.targets(state, piece, origin, steps, defuse=True):
                    yield act.Attack(piece.cell, via, target, defuse=True)


def own_ship(state: WarshipsState, seat: int, cell: Cell) -> Piece:
    piece = state.at.get(cell)
    name = cell_name(cell)
    if piece is None or piece.owner != seat:
        raise IllegalActionError(f"You have no ship on {name}.")
    if piece.kind is Kind.BATTERY:
        raise IllegalActionError(f"Your shore battery on {name} never moves or acts.")
    if piece.kind is Kind.MINE:
        raise IllegalActionError(f"Your mine on {name} never moves.")
    return piece


def _unit(piece: Piece) -> str:
    return piece.kind.unit.name


def _check_path(state: WarshipsState, piece: Piece, end: Cell) -> int:
    """The steps of the shortest legal path to ``end``, or a refusal naming the rule (§8)."""
    reachable = moves.destinations(state, piece)
    if end in reachable:
        return reachable[end]
    name, unit = cell_name(end), _unit(piece)
    enemy = other(piece.owner)
    if end == piece.cell:
        raise IllegalActionError("A move must end on a different field.")
    if not board.is_field(end):
        raise IllegalActionError(f"{name} is the island, not a field.")
    if end in state.at:
        raise IllegalActionError(f"{name} is taken; ships never share a field.")
    if end in state.guarded_exits[enemy]:
        raise IllegalActionError(f"{name} is an enemy exit that a battery still guards.")
    if end in state.zones[enemy] and piece.kind is not Kind.MISSILE_SHIP:
        raise IllegalActionError(
            f"{name} lies in an enemy battery's zone; only missile ships may enter."
        )
    raise IllegalActionError(
        f"Your {unit} on {cell_name(piece.cell)} cannot get to {name}: "
        + moves.blocked(state, piece, end)
    )


def move(state: WarshipsState, seat: int, piece: Piece, action: act.Move) -> Transition:
    _check_path(state, piece, action.end)
    moved = replace(piece, cell=action.end)
    new = state.with_pieces([moved if p is piece else p for p in state.pieces])
    new = replace(new, last=LastAction(seat, piece.cell, action.end))
    route = f"{cell_name(piece.cell)}-{cell_name(action.end)}"
    said = list(
        told(
            seat,
            f"Your {_unit(piece)} moved {route}.",
            f"Your opponent moved {route}.",
            f"{name_of(seat)} moved {route}.",
        )
    )
    enemy_port = board.PORTS[state.shore(other(seat))]
    if piece.kind is Kind.LANDING_SHIP and action.end in enemy_port:  # §14.1
        return _finish(new, said, Outcome(seat, EndReason.RULES, "landed in the enemy port"))
    return _after_action(new, seat, said, action.mines, removed=False)


def attack(state: WarshipsState, seat: int, piece: Piece, action: act.Attack) -> Transition:
    if piece.kind is Kind.LANDING_SHIP:
        raise IllegalActionError("The landing ship never attacks; it may only move.")
    if action.defuse and piece.kind is not Kind.MINESWEEPER:
        raise IllegalActionError("Only a minesweeper can defuse a mine.")
    steps = _check_path(state, piece, action.via) if action.via else 0
    origin = action.origin
    target = state.at.get(action.target)
    tname = cell_name(action.target)
    if target is None or target.owner == seat:
        raise IllegalActionError(f"There is no enemy token on {tname}.")
    if origin in board.NEUTRAL or action.target in board.NEUTRAL:
        raise IllegalActionError(
            "Units on neutral water can neither attack nor be attacked."
        )
    if target.kind is Kind.BATTERY and (action.defuse or piece.kind is not Kind.MISSILE_SHIP):
        raise IllegalActionError("Only a missile ship can take out a shore battery.")
    mover = replace(piece, cell=origin)
    if action.target not in moves.targets(state, mover, origin, steps, defuse=action.defuse):
        raise IllegalActionError(
            f"{tname} is out of reach of your {_unit(piece)} from {cell_name(origin)}."
        )
    outcome = resolve(piece.kind, target.kind, defuse=action.defuse)
    emptied: list[Cell] = []
    pieces: list[Piece] = []
    losses = list(state.losses)
    for p in state.pieces:
        if p is piece:
            if outcome.attacker_lost:
                losses.append(Loss(seat, p.kind, origin, Cause.CLASH))
                emptied.append(origin)
            else:
                pieces.append(replace(mover, identified=True))
        elif p is target:
            if outcome.defender_lost:
                losses.append(Loss(p.owner, p.kind, p.cell, Cause.CLASH, public=p.public))
                emptied.append(p.cell)
            else:
                pieces.append(replace(p, identified=True))
        else:
            pieces.append(p)
    new = replace(
        state.with_pieces(pieces),
        losses=tuple(losses),
        last=LastAction(seat, piece.cell, origin, action.target, tuple(sorted(emptied))),
    )
    said = _clash_news(seat, piece, origin, target, action, outcome, emptied)
    return _after_action(new, seat, said, action.mines, removed=True)


def _clash_news(
    seat: int,
    piece: Piece,
    origin: Cell,
    target: Piece,
    action: act.Attack,
    outcome: Clash,
    emptied: list[Cell],
) -> list[Event]:
    """§9.4 / §10: both players learn both types and the result; the channel the fields."""
    mine, theirs = _unit(piece), target.kind.unit.name
    path = cell_name(piece.cell) + (f"-{cell_name(origin)}" if action.via else "")
    tname = cell_name(target.cell)
    verb = "defused" if action.defuse else "took out" if target.kind is Kind.BATTERY else "attacked"
    if outcome.attacker_lost and outcome.defender_lost:
        result = ("both were removed", "both were removed")
    elif outcome.attacker_lost:
        result = (f"your {mine} was lost", f"their {mine} was lost and your {theirs} stays")
    else:
        result = (f"their {theirs} was removed", f"your {theirs} was lost")
    gone = " and ".join(cell_name(c) for c in sorted(emptied)) or "no field"
    aim = "took out the battery on" if target.kind is Kind.BATTERY else "attacked"
    who = name_of(seat)
    public = (
        f"{who} moved {path} and {aim} {tname}: {gone} emptied."
        if action.via
        else f"{who} {aim} {tname} from {path}: {gone} emptied."
    )
    mover = f"Your {mine} ({path}) {verb} {tname}: it was {article(theirs)} {theirs}; {result[0]}."
    victim = f"Your opponent's {mine} ({path}) {verb} your {theirs} on {tname}: {result[1]}."
    return list(told(seat, mover, victim, public))


def draw(state: WarshipsState, seat: int, action: DrawAction) -> Transition:
    """§14.4: offer a draw (the turn goes on), or accept the opponent's standing offer."""
    return play_draw(state, seat, action, _finish)


def lay_mine(state: WarshipsState, seat: int, cell: Cell) -> tuple[WarshipsState, list[Event]]:
    name = cell_name(cell)
    if state.sides[seat].reserve <= 0:
        raise IllegalActionError("You have no mines left in reserve.")
    if cell not in moves.mine_fields(state, seat):
        raise IllegalActionError(
            f"A mine cannot go on {name}: it must be an empty field one step from one of your "
            "minesweepers, neither on neutral water, and outside enemy battery zones."
        )
    side = state.sides[seat]
    new = state.with_pieces([*state.pieces, Piece(cell, seat, Kind.MINE, laid=True)])
    new = replace(new.with_side(seat, replace(side, reserve=side.reserve - 1)), mined=True)
    return new, list(
        told(
            seat,
            f"You laid a mine on {name} ({side.reserve - 1} left in reserve).",
            f"Your opponent laid a mine on {name}.",
            f"{name_of(seat)} laid a mine on {name}.",
        )
    )


def _after_action(
    state: WarshipsState,
    seat: int,
    said: list[Event],
    mines: tuple[Cell, ...],
    *,
    removed: bool,
) -> Transition:
    """§6.5 end checks, then the mines laid after the action, then the end of the turn."""
    decided = _decided(state)
    if decided is not None:
        return _finish(state, said, decided)
    for cell in mines:
        try:
            state, laid = lay_mine(state, seat, cell)
        except IllegalActionError as refusal:
            said.append(Event(seat, f"Your mine on {cell_name(cell)} was not laid. {refusal}"))
            continue
        said.extend(laid)
    return end_turn(state, seat, tuple(said), removed=removed, passed=False)


def end_turn(
    state: WarshipsState,
    seat: int,
    said: Sequence[Event],
    *,
    removed: bool,
    passed: bool,
) -> Transition:
    """§6.2: neutral-water counters and internments (§13.2), end checks (§14), next player."""
    events = list(said)
    pieces: list[Piece] = []
    losses = list(state.losses)
    for piece in state.pieces:
        if piece.owner != seat or not piece.kind.is_ship:
            pieces.append(piece)
            continue
        count = piece.neutral + 1 if piece.cell in board.NEUTRAL else 0
        if count < NEUTRAL_LIMIT:
            pieces.append(replace(piece, neutral=count))
            continue
        removed = True
        name = cell_name(piece.cell)
        losses.append(Loss(seat, piece.kind, piece.cell, Cause.INTERNED))
        events.append(
            Event(
                seat,
                f"Your {_unit(piece)} on {name} was interned: four turns on neutral water.",
            )
        )
        events.append(Event(other(seat), f"The token on {name} was interned."))
        events.append(Event(None, f"The token on {name} was interned."))
    new = replace(
        state.with_pieces(pieces),
        losses=tuple(losses),
        turns=state.turns + 1,
        passes=state.passes + 1 if passed else 0,
        quiet=0 if removed or state.mined else state.quiet + 1,
        mined=False,
        turn=other(seat),
        draw_offer=None if state.draw_offer == other(seat) else state.draw_offer,
    )
    if passed:
        new = replace(new, last=LastAction(seat))
    decided = _decided(new)
    if decided is None and new.passes >= 2:
        decided = Outcome(None, EndReason.RULES, "both players passed")
    if decided is None and new.quiet >= QUIET_LIMIT:
        decided = Outcome(None, EndReason.RULES, "200 turns without a loss or a mine")
    if decided is not None:
        return _finish(new, events, decided)
    return Transition(new, tuple(events))


def _decided(state: WarshipsState) -> Outcome | None:
    """§14.2 and §14.3, checked after every action and every internment."""
    for seat in SEATS:
        if state.count(seat, Kind.LANDING_SHIP) == 0:
            return Outcome(other(seat), EndReason.RULES, "destroyed the enemy landing ship")
    stuck = [
        seat
        for seat in SEATS
        if state.count(seat, Kind.MISSILE_SHIP) == 0
        and len(state.guarded_exits[other(seat)]) == len(board.EXITS[0])
    ]
    if len(stuck) == 2:
        return Outcome(None, EndReason.RULES, "neither side can open an enemy exit")
    if stuck:
        return Outcome(other(stuck[0]), EndReason.RULES, "the enemy has no missile ship left")
    return None


ENDINGS = {
    "agreed to a draw": "the players agreed to a draw",
    "landed in the enemy port": "a landing ship reached the enemy port",
    "destroyed the enemy landing ship": "a landing ship was lost",
    "the enemy has no missile ship left": (
        "a side has no missile ship left while both enemy exits stay guarded"
    ),
}
"""The end as told to everyone; ``Outcome.detail`` stays short for the winner's status line."""


def _finish(state: WarshipsState, said: Sequence[Event], outcome: Outcome) -> Transition:
    """§6.5, §14.5: the game ends at once and every token is revealed."""
    new = replace(
        state, phase=Phase.FINISHED, turn=None, outcome=outcome, mined=False, draw_offer=None
    )
    why = ENDINGS.get(outcome.detail, outcome.detail)
    over = f"The game is over: {why}. All tokens are revealed."
    events = [*said, Event(0, over), Event(1, over), Event(None, over)]
    return Transition(new, tuple(events))
