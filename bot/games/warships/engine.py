"""The Warships rule engine (rules/warships.md), behind the common engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.core import (
    SEATS,
    EndReason,
    Engine,
    Event,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    Phase,
    Transition,
    name_of,
    other,
)
from bot.games.grid import Cell, cell_name
from bot.games.warships import actions as act
from bot.games.warships import board, moves, setup
from bot.games.warships.combat import Clash, resolve
from bot.games.warships.rules import (
    PRESETS,
    WarshipsRules,
    option_suggestions,
    with_words,
)
from bot.games.warships.state import (
    Cause,
    LastAction,
    Loss,
    Piece,
    WarshipsState,
    state_from_json,
    state_to_json,
)
from bot.games.warships.units import Kind, article
from bot.games.warships.view import LossView, TokenView, WarshipsView

QUIET_LIMIT = 200
"""§14.4: turns in a row (100 of each player) with no token removed and no mine laid."""
NEUTRAL_LIMIT = 4
"""§13.2: the counter value at which a unit is interned."""


class Warships(Engine[WarshipsRules, WarshipsState, act.Action, WarshipsView]):
    key = "warships"
    title = "Warships"
    presets = PRESETS

    def new_game(self, rules: WarshipsRules, seed: int) -> WarshipsState:
        south = random.Random(f"warships:{seed}:south").randrange(2)
        state = WarshipsState(rules=rules, seed=seed, south=south)
        for seat in SEATS:
            state = _dealt(state, seat)
        if rules.quick:  # §5.5: the dealt setups stand and play begins at once
            for seat in SEATS:
                state = state.with_side(seat, replace(state.sides[seat], ready=True))
            state = replace(state, phase=Phase.PLAY, turn=_first(state))
        return state

    # -- whose move ------------------------------------------------------------------------

    def to_move(self, state: WarshipsState) -> frozenset[int]:
        if state.phase is Phase.SETUP:
            return frozenset(seat for seat in SEATS if not state.sides[seat].ready)
        if state.phase is Phase.PLAY and state.turn is not None:
            return frozenset({state.turn})
        return frozenset()

    def legal_actions(self, state: WarshipsState, seat: int) -> Iterator[act.Action]:
        if seat not in self.to_move(state):
            return
        if state.phase is Phase.SETUP:
            yield from _setup_actions(state, seat)
            return
        yield from (act.LayMine(cell) for cell in sorted(moves.mine_fields(state, seat)))
        found = False
        for action in main_actions(state, seat):
            found = True
            yield action
        if not found:
            yield act.Pass()

    # -- moves ------------------------------------------------------------------------------

    def parse_action(self, state: WarshipsState, seat: int, text: str) -> act.Action:
        return act.parse(text, state.phase)

    def apply(self, state: WarshipsState, seat: int, action: act.Action) -> Transition:
        if state.phase is Phase.FINISHED:
            raise IllegalActionError("This game is over.")
        if isinstance(action, act.PlayAction):
            return self._play(state, seat, action)
        if state.phase is not Phase.SETUP:
            raise IllegalActionError("The setups are done and can no longer change.")
        if state.sides[seat].ready:
            raise IllegalActionError(
                "You have confirmed your setup; it can no longer change. "
                "Wait for your opponent to confirm theirs."
            )
        match action:
            case act.RandomSetup():
                text = (
                    "Here is a new random setup: all ships in port, all mines in reserve. "
                    "Edit it with `swap A1 B2` or `place mine E3`, or write `ready`."
                )
                return _private(_dealt(state, seat), seat, text)
            case act.Swap(first, second):
                return self._swap(state, seat, first, second)
            case act.PlaceMine(cell):
                return self._place_mine(state, seat, cell)
            case act.RemoveMine(cell):
                return self._remove_mine(state, seat, cell)
            case act.WholeSetup(layout):
                return self._whole(state, seat, layout)
            case act.Ready():
                return self._ready(state, seat)
        raise IllegalActionError("That is not a Warships move.")

    # -- setup ------------------------------------------------------------------------------

    def _swap(self, state: WarshipsState, seat: int, first: Cell, second: Cell) -> Transition:
        layout = _layout(state, seat)
        shore = state.shore(seat)
        if first == second:
            raise IllegalActionError("Name two different fields to swap.")
        if first not in layout and second not in layout:
            raise IllegalActionError(
                f"Neither {cell_name(first)} nor {cell_name(second)} holds one of your ships "
                "or mines."
            )
        moved = dict(layout)
        moved.pop(first, None)
        moved.pop(second, None)
        if first in layout:
            moved[second] = layout[first]
        if second in layout:
            moved[first] = layout[second]
        setup.check_layout(state.rules, shore, moved, whole=False)
        text = f"Swapped {cell_name(first)} and {cell_name(second)}."
        return _private(_with_layout(state, seat, moved), seat, text)

    def _place_mine(self, state: WarshipsState, seat: int, cell: Cell) -> Transition:
        side = state.sides[seat]
        if side.reserve <= 0:
            raise IllegalActionError("All six of your mines are already in the port.")
        shore = state.shore(seat)
        if cell not in board.SETUP_FIELDS[shore]:
            setup.check_field(state.rules, shore, cell, Kind.MINE)
            raise IllegalActionError(f"Mines start in your port, not on {cell_name(cell)} (§5.3).")
        if cell in state.at:
            raise IllegalActionError(f"{cell_name(cell)} is taken; pick an empty port field.")
        placed = {**_layout(state, seat), cell: Kind.MINE}
        new = _with_layout(state, seat, placed)
        text = f"Placed a mine on {cell_name(cell)}; {new.sides[seat].reserve} left in reserve."
        return _private(new, seat, text)

    def _remove_mine(self, state: WarshipsState, seat: int, cell: Cell) -> Transition:
        layout = _layout(state, seat)
        if layout.get(cell) is not Kind.MINE:
            raise IllegalActionError(f"None of your mines lies on {cell_name(cell)}.")
        new = _with_layout(state, seat, {c: k for c, k in layout.items() if c != cell})
        text = f"Took the mine on {cell_name(cell)} back into reserve."
        return _private(new, seat, text)

    def _whole(
        self, state: WarshipsState, seat: int, layout: tuple[tuple[Kind, tuple[Cell, ...]], ...]
    ) -> Transition:
        placed = {cell: kind for kind, cells in layout for cell in cells}
        shore = state.shore(seat)
        placed = dict(setup.fit_to_shore(state.rules, shore, placed))
        setup.check_layout(state.rules, shore, placed, whole=True)
        text = "Your setup is in place. Edit it, or write `ready` to confirm it."
        return _private(_with_layout(state, seat, placed), seat, text)

    def _ready(self, state: WarshipsState, seat: int) -> Transition:
        setup.check_layout(state.rules, state.shore(seat), _layout(state, seat), whole=True)
        new = state.with_side(seat, replace(state.sides[seat], ready=True))
        if not new.sides[other(seat)].ready:
            return Transition(
                new,
                (
                    Event(seat, "Your setup is confirmed. Waiting for your opponent."),
                    Event(None, f"{name_of(seat)} has set up their fleet."),
                ),
            )
        first = _first(new)
        new = replace(new, phase=Phase.PLAY, turn=first)
        return Transition(
            new,
            (
                Event(first, "Both fleets are set. You move first (§5.1)."),
                Event(other(first), "Both fleets are set. Your opponent moves first (§5.1)."),
                Event(None, f"Both fleets are set. {name_of(first)} moves first."),
            ),
        )

    # -- play -------------------------------------------------------------------------------

    def _play(self, state: WarshipsState, seat: int, action: act.PlayAction) -> Transition:
        if state.phase is not Phase.PLAY:
            raise IllegalActionError("The game has not started: both setups must be ready first.")
        if state.turn != seat:
            raise NotYourTurnError("It is your opponent's turn; wait for their move.")
        if isinstance(action, act.LayMine):
            new, events = _lay_mine(state, seat, action.cell)
            return Transition(new, tuple(events))
        if isinstance(action, act.Pass):
            if next(iter(main_actions(state, seat)), None) is not None:
                raise IllegalActionError(
                    "You may pass only when none of your ships can act (§6.3)."
                )
            said = (
                Event(seat, "You pass."),
                Event(other(seat), "Your opponent passes: none of their ships can act."),
                Event(None, f"{name_of(seat)} passes."),
            )
            return _end_turn(state, seat, said, removed=False, passed=True)
        piece = _own_ship(state, seat, action.start)
        if isinstance(action, act.Move):
            return _move(state, seat, piece, action)
        return _attack(state, seat, piece, action)

    # -- knowledge --------------------------------------------------------------------------

    def view(self, state: WarshipsState, seat: int | None) -> WarshipsView:
        finished = state.phase is Phase.FINISHED
        hide_fleets = state.phase is Phase.SETUP
        tokens = []
        for piece in state.pieces:
            mine = seat == piece.owner
            if hide_fleets and not mine and piece.kind is not Kind.BATTERY:
                continue  # §5.2: setups are secret until both are confirmed
            known_to_enemy = piece.public or (piece.identified and not state.rules.forget)
            visible = finished or mine or piece.public or (seat is not None and known_to_enemy)
            tokens.append(
                TokenView(
                    piece.cell,
                    piece.owner,
                    piece.kind if visible else None,
                    known=mine and known_to_enemy,
                    neutral=piece.neutral,
                )
            )
        losses = tuple(
            LossView(
                loss.owner,
                loss.kind
                if finished
                or loss.public
                or seat == loss.owner
                or (seat is not None and loss.cause is Cause.CLASH)
                else None,
                loss.cell,
                loss.cause is Cause.INTERNED,
            )
            for loss in state.losses
        )
        return WarshipsView(
            seat=seat,
            phase=state.phase,
            variant=self.variant_name(state.rules),
            rules=state.rules,
            south=state.south,
            tokens=tuple(tokens),
            losses=losses,
            reserves=(state.sides[0].reserve, state.sides[1].reserve),
            ready=(state.sides[0].ready, state.sides[1].ready),
            turn=state.turn,
            last=state.last,
            outcome=state.outcome,
        )

    def outcome(self, state: WarshipsState) -> Outcome | None:
        return state.outcome

    def conclude(self, state: WarshipsState, outcome: Outcome) -> WarshipsState:
        return replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome)

    def has_started(self, state: WarshipsState) -> bool:
        return state.turns > 0 or state.mined

    def suggestions(self, view: WarshipsView, typed: str, limit: int = 25) -> list[str]:
        """Legal moves starting with what was typed, computed from public facts and own types."""
        if view.seat is None or view.seat not in view.movers:
            return []
        prefix = " ".join(typed.lower().split())
        if view.phase is Phase.SETUP:
            words = ["random", "ready", "swap ", "place mine ", "remove mine "]
            return [w.strip() for w in words if w.startswith(prefix)][:limit]
        state = seen_by(view)
        found: list[str] = []
        for action in self.legal_actions(state, view.seat):
            text = str(action)
            if text.lower().startswith(prefix):
                found.append(text)
                if len(found) >= limit:
                    break
        return found

    def quick_moves(self, view: WarshipsView) -> tuple[tuple[str, str], ...]:
        if view.phase is not Phase.SETUP or view.seat not in view.movers:
            return ()
        return (("Random setup", "random"), ("Ready", "ready"))

    def variant_name(self, rules: WarshipsRules) -> str:
        base = next((name for name, preset in PRESETS.items() if preset == rules), None)
        return base or "classic + " + ", ".join(rules.words)

    def with_options(self, rules: WarshipsRules, words: Sequence[str]) -> WarshipsRules:
        return with_words(rules, words)

    def option_suggestions(self, rules: WarshipsRules, typed: str, limit: int = 25) -> list[str]:
        return option_suggestions(rules, typed, limit)

    def setup_text(self, view: WarshipsView) -> str | None:
        if view.phase is not Phase.SETUP or view.seat is None:
            return None
        placed = {
            t.cell: t.kind
            for t in view.tokens
            if t.owner == view.seat and t.kind is not None and t.kind is not Kind.BATTERY
        }
        return str(act.WholeSetup.of(placed))

    def describe(self, rules: WarshipsRules) -> str:
        return (
            f"**Warships ({self.variant_name(rules)})**: a 12×18 board, A1 south-west to L18 "
            "north-east; each side has 26 face-down ships, 4 shore batteries and 6 mines. "
            "Ranges: battleship 2, missile ship 1, cruiser 2, destroyer 4, submarine 2, "
            "escort 3, minesweeper 2, landing ship 1. Ships move by king steps up to their "
            "range, never through tokens, enemy battery zones or a guarded enemy exit; they "
            "attack within range, and both players see both types. Win by landing your "
            "landing ship in the enemy port or by destroying theirs.\n"
            "**Setup** (by DM, in secret): you start with a random setup; `random` deals "
            "another, `swap A1 B2` exchanges two fields, `place mine E3` / `remove mine E3`, "
            "`ready` confirms; `save name` / `load name` keep setups.\n"
            "**Play**: `C5-C7` moves; `C5xD7` attacks (a battery as target: take-out); "
            "`C5-C7xD8` moves then attacks; `C5 defuse D7` defuses with a minesweeper; "
            "`mine E5` lays a mine before your action, ` mine E5` after it "
            "(`C5-C7 mine C8`); `pass` only when nothing can act.\n"
            "Options at `/play`: `harder`, `mobility`, `manoeuvres`, `quick`, `forget`."
        )

    def setup_instructions(self, rules: WarshipsRules) -> str:
        if rules.quick:
            return "Quick setup: your fleet was placed at random and play begins now."
        area = (
            " Up to 12 ships may go on your initial-manoeuvre area (rows 3–6 of your side)."
            if rules.manoeuvres
            else ""
        )
        return (
            "Your fleet starts in a random legal setup in your port (mines in reserve). "
            "Write `random` for another, `swap A1 B2` to exchange two fields, "
            f"`place mine E3` to put a mine in port, and `ready` to confirm.{area} "
            "`/rules` has the full rules."
        )

    def rules_from_json(self, data: Mapping[str, Any]) -> WarshipsRules:
        return WarshipsRules.from_json(data)

    def to_json(self, state: WarshipsState) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> WarshipsState:
        return state_from_json(data)


# -- setup helpers ----------------------------------------------------------------------------


def _first(state: WarshipsState) -> int:
    """§5.1: who moves first, drawn independently of who plays South."""
    return random.Random(f"warships:{state.seed}:first").randrange(2)


def _layout(state: WarshipsState, seat: int) -> dict[Cell, Kind]:
    return {p.cell: p.kind for p in state.own(seat) if p.kind is not Kind.BATTERY}


def _with_layout(state: WarshipsState, seat: int, layout: Mapping[Cell, Kind]) -> WarshipsState:
    others = [p for p in state.pieces if p.owner != seat]
    shore = state.shore(seat)
    mines = sum(1 for kind in layout.values() if kind is Kind.MINE)
    new = state.with_pieces(others + setup.pieces_for(seat, shore, layout))
    return new.with_side(seat, replace(state.sides[seat], reserve=6 - mines))


def _dealt(state: WarshipsState, seat: int) -> WarshipsState:
    side = state.sides[seat]
    rng = random.Random(f"warships:{state.seed}:setup:{seat}:{side.random_draws}")
    layout = setup.random_layout(state.shore(seat), rng)
    new = _with_layout(state, seat, layout)
    return new.with_side(seat, replace(new.sides[seat], random_draws=side.random_draws + 1))


def _setup_actions(state: WarshipsState, seat: int) -> Iterator[act.SetupAction]:
    yield act.RandomSetup()
    yield act.Ready()
    layout = _layout(state, seat)
    shore = state.shore(seat)
    fields = sorted(setup.placement_fields(state.rules, shore))
    for i, first in enumerate(fields):
        for second in fields[i + 1 :]:
            if first in layout or second in layout:
                swapped = act.Swap(first, second)
                try:
                    Warships()._swap(state, seat, first, second)
                except IllegalActionError:
                    continue
                yield swapped
    for cell in fields:
        kind = layout.get(cell)
        if kind is Kind.MINE:
            yield act.RemoveMine(cell)
        elif kind is None and cell in board.SETUP_FIELDS[shore] and state.sides[seat].reserve:
            yield act.PlaceMine(cell)


# -- play helpers -----------------------------------------------------------------------------


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


def seen_by(view: WarshipsView) -> WarshipsState:
    """A stand-in state built from a player's view: enough to list that player's legal moves.

    Legality depends only on public facts and the mover's own types (§16.1), so unknown
    enemy tokens may stand in as any kind that is not a battery.
    """
    pieces = [
        Piece(t.cell, t.owner, t.kind or Kind.MINE, neutral=t.neutral) for t in view.tokens
    ]
    base = WarshipsState(
        rules=view.rules, seed=0, south=view.south, phase=view.phase, turn=view.turn
    )
    side = replace(base.sides[view.seat or 0], reserve=view.reserves[view.seat or 0])
    return base.with_pieces(pieces).with_side(view.seat or 0, side)


def _own_ship(state: WarshipsState, seat: int, cell: Cell) -> Piece:
    piece = state.at.get(cell)
    name = cell_name(cell)
    if piece is None or piece.owner != seat:
        raise IllegalActionError(f"You have no ship on {name}.")
    if piece.kind is Kind.BATTERY:
        raise IllegalActionError(f"Your shore battery on {name} never moves or acts (§11.3).")
    if piece.kind is Kind.MINE:
        raise IllegalActionError(f"Your mine on {name} never moves (§12.2).")
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
        raise IllegalActionError("A move must end on a different field (§8.1).")
    if not board.is_field(end):
        raise IllegalActionError(f"{name} is the island, not a field (§2.3).")
    if end in state.at:
        raise IllegalActionError(f"{name} is taken; ships never share a field (§8.2 c).")
    if end in state.guarded_exits[enemy]:
        raise IllegalActionError(
            f"{name} is an enemy exit that a battery still guards (§11.2)."
        )
    if end in state.zones[enemy] and piece.kind is not Kind.MISSILE_SHIP:
        raise IllegalActionError(
            f"{name} lies in an enemy battery's zone; only missile ships may enter (§11.1)."
        )
    reach = state.rules.range_of(piece.kind)
    raise IllegalActionError(
        f"Your {unit} on {cell_name(piece.cell)} cannot get to {name} within {reach} "
        "step(s): walls, tokens and battery zones are in the way, or it is too far (§8)."
    )


def _move(state: WarshipsState, seat: int, piece: Piece, action: act.Move) -> Transition:
    _check_path(state, piece, action.end)
    moved = replace(piece, cell=action.end)
    new = state.with_pieces([moved if p is piece else p for p in state.pieces])
    new = replace(new, last=LastAction(seat, piece.cell, action.end))
    route = f"{cell_name(piece.cell)}-{cell_name(action.end)}"
    said = [
        Event(seat, f"Your {_unit(piece)} moved {route}."),
        Event(other(seat), f"Your opponent moved {route}."),
        Event(None, f"{name_of(seat)} moved {route}."),
    ]
    enemy_port = board.PORTS[state.shore(other(seat))]
    if piece.kind is Kind.LANDING_SHIP and action.end in enemy_port:  # §14.1
        return _finish(new, seat, said, Outcome(seat, EndReason.RULES, "landed in the enemy port"))
    return _after_action(new, seat, said, action.mines, removed=False)


def _attack(state: WarshipsState, seat: int, piece: Piece, action: act.Attack) -> Transition:
    if piece.kind is Kind.LANDING_SHIP:
        raise IllegalActionError("The landing ship never attacks; it may only move (§7).")
    if action.defuse and piece.kind is not Kind.MINESWEEPER:
        raise IllegalActionError("Only a minesweeper can defuse a mine (§12.4).")
    steps = _check_path(state, piece, action.via) if action.via else 0
    origin = action.origin
    target = state.at.get(action.target)
    tname = cell_name(action.target)
    if target is None or target.owner == seat:
        raise IllegalActionError(f"There is no enemy token on {tname}.")
    if origin in board.NEUTRAL or action.target in board.NEUTRAL:
        raise IllegalActionError(
            "Units on neutral water can neither attack nor be attacked (§13.1)."
        )
    if target.kind is Kind.BATTERY and (action.defuse or piece.kind is not Kind.MISSILE_SHIP):
        raise IllegalActionError("Only a missile ship can take out a shore battery (§9.3).")
    mover = replace(piece, cell=origin)
    if action.target not in moves.targets(state, mover, origin, steps, defuse=action.defuse):
        raise IllegalActionError(
            f"{tname} is out of reach of your {_unit(piece)} from {cell_name(origin)} (§9.1)."
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
    return [
        Event(
            seat,
            f"Your {mine} ({path}) {verb} {tname}: it was {article(theirs)} {theirs}; "
            f"{result[0]}.",
        ),
        Event(
            other(seat),
            f"Your opponent's {mine} ({path}) {verb} your {theirs} on {tname}: {result[1]}.",
        ),
        Event(None, f"{name_of(seat)} moved {path} and attacked {tname}: {gone} emptied."),
    ]


def _lay_mine(state: WarshipsState, seat: int, cell: Cell) -> tuple[WarshipsState, list[Event]]:
    name = cell_name(cell)
    if state.sides[seat].reserve <= 0:
        raise IllegalActionError("You have no mines left in reserve (§12.1).")
    if cell not in moves.mine_fields(state, seat):
        raise IllegalActionError(
            f"A mine cannot go on {name}: it must be an empty field one step from one of your "
            "minesweepers, neither on neutral water, and outside enemy battery zones (§12.1)."
        )
    side = state.sides[seat]
    new = state.with_pieces([*state.pieces, Piece(cell, seat, Kind.MINE, laid=True)])
    new = replace(new.with_side(seat, replace(side, reserve=side.reserve - 1)), mined=True)
    return new, [
        Event(seat, f"You laid a mine on {name} ({side.reserve - 1} left in reserve)."),
        Event(other(seat), f"Your opponent laid a mine on {name}."),
        Event(None, f"{name_of(seat)} laid a mine on {name}."),
    ]


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
        return _finish(state, seat, said, decided)
    for cell in mines:
        try:
            state, laid = _lay_mine(state, seat, cell)
        except IllegalActionError as refusal:
            said.append(Event(seat, f"Your mine on {cell_name(cell)} was not laid. {refusal}"))
            continue
        said.extend(laid)
    return _end_turn(state, seat, tuple(said), removed=removed, passed=False)


def _end_turn(
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
                f"Your {_unit(piece)} on {name} was interned: "
                "four turns on neutral water (§13.2).",
            )
        )
        events.append(Event(other(seat), f"The token on {name} was interned (§13.2)."))
        events.append(Event(None, f"The token on {name} was interned."))
    new = replace(
        state.with_pieces(pieces),
        losses=tuple(losses),
        turns=state.turns + 1,
        passes=state.passes + 1 if passed else 0,
        quiet=0 if removed or state.mined else state.quiet + 1,
        mined=False,
        turn=other(seat),
    )
    if passed:
        new = replace(new, last=LastAction(seat))
    decided = _decided(new)
    if decided is None and new.passes >= 2:
        decided = Outcome(None, EndReason.RULES, "both players passed (§6.3)")
    if decided is None and new.quiet >= QUIET_LIMIT:
        decided = Outcome(None, EndReason.RULES, "200 turns without a loss or a mine (§14.4)")
    if decided is not None:
        return _finish(new, seat, events, decided)
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
        return Outcome(None, EndReason.RULES, "neither side can open an enemy exit (§14.3)")
    if stuck:
        return Outcome(other(stuck[0]), EndReason.RULES, "the enemy has no missile ship left")
    return None


def _finish(
    state: WarshipsState, seat: int, said: Sequence[Event], outcome: Outcome
) -> Transition:
    """§6.5, §14.5: the game ends at once and every token is revealed."""
    new = replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome, mined=False)
    over = f"The game is over: {outcome.detail}. All tokens are revealed."
    events = [*said, Event(0, over), Event(1, over), Event(None, over)]
    return Transition(new, tuple(events))


def _private(state: WarshipsState, seat: int, text: str) -> Transition:
    return Transition(state, (Event(seat, text),))
