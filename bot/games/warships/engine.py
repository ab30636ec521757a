"""The Warships rule engine (docs/rules/warships.md), behind the common engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.games.base import GameEngine, JsonCodec
from bot.games.core import SEATS, IllegalActionError, Outcome, Phase, Transition, name_of, secrecy
from bot.games.draws import DrawAction, draw_words
from bot.games.grid import Cell, cell_name
from bot.games.setup import check_open, confirm_ready, movers, private
from bot.games.turns import check_turn, told
from bot.games.warships import actions as act
from bot.games.warships import board, moves, setup, turns
from bot.games.warships.rules import (
    OPTION_NOTES,
    OPTION_WORDS,
    PRESETS,
    VARIANT_NOTES,
    WarshipsRules,
    option_suggestions,
    with_words,
)
from bot.games.warships.state import (
    Cause,
    Piece,
    WarshipsState,
    state_from_json,
    state_to_json,
)
from bot.games.warships.units import SHIPS, Kind, Result, clash
from bot.games.warships.view import LossView, TokenView, WarshipsView

BOARD_KEY = (
    "BS battleship, MS missile ship, CR cruiser, DD destroyer, SS submarine, ES escort, "
    "MW minesweeper, LS landing ship, SB shore battery, MN mine; the key under the board "
    "gives each type's range. A red rim: a field an enemy battery bars; dots: neutral water; "
    "a yellow frame: the last move (a yellow X: a field it emptied); a yellow corner: your "
    "token the enemy has identified; a small number: turns ended on neutral water (4 interns)."
)
"""What the image's codes and marks mean: the image keeps only a row of tokens for its key."""


class Warships(GameEngine[WarshipsRules, WarshipsState, act.Action, WarshipsView]):
    key = "warships"
    json_codec = JsonCodec(WarshipsRules.from_json, state_to_json, state_from_json)
    agreed_draws = True
    title = "Warships"
    presets = PRESETS
    variant_notes = VARIANT_NOTES
    all_option_words = tuple(OPTION_WORDS)
    option_notes = OPTION_NOTES

    def new_game(self, rules: WarshipsRules, seed: int) -> WarshipsState:
        south = random.Random(f"warships:{seed}:south").randrange(2)
        state = WarshipsState(rules=rules, seed=seed, south=south)
        for seat in SEATS:
            state = setup.dealt(state, seat)
        if rules.quick:  # §5.5: the dealt setups stand and play begins at once
            for seat in SEATS:
                state = state.with_side(seat, replace(state.sides[seat], ready=True))
            state = replace(state, phase=Phase.PLAY, turn=setup.first_seat(state))
        return state

    # -- whose move ------------------------------------------------------------------------

    def to_move(self, state: WarshipsState) -> frozenset[int]:
        return movers(state)

    def legal_actions(self, state: WarshipsState, seat: int) -> Iterator[act.Action]:
        if seat not in self.to_move(state):
            return
        if state.phase is Phase.SETUP:
            yield from setup.setup_actions(state, seat)
            return
        yield from (act.LayMine(cell) for cell in sorted(moves.mine_fields(state, seat)))
        yield from draw_words(state.draw_offer, seat)
        found = False
        for action in turns.main_actions(state, seat):
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
        check_open(state, seat, "The setups are done", "setup")
        match action:
            case act.RandomSetup():
                text = (
                    "Here is a new random setup: all ships in port, all mines in reserve. "
                    "Edit it with `swap A1 B2` or `place mine E3`, or write `ready`."
                )
                return private(setup.dealt(state, seat), seat, text)
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
        moved = setup.swapped(state, seat, first, second)
        text = f"Swapped {cell_name(first)} and {cell_name(second)}."
        return private(setup.with_layout(state, seat, moved), seat, text)

    def _place_mine(self, state: WarshipsState, seat: int, cell: Cell) -> Transition:
        side = state.sides[seat]
        if side.reserve <= 0:
            raise IllegalActionError("All six of your mines are already in the port.")
        shore = state.shore(seat)
        if cell not in board.SETUP_FIELDS[shore]:
            setup.check_field(state.rules, shore, cell, Kind.MINE)
            raise IllegalActionError(f"Mines start in your port, not on {cell_name(cell)}.")
        if cell in state.at:
            raise IllegalActionError(f"{cell_name(cell)} is taken; pick an empty port field.")
        placed = {**setup.layout_of(state, seat), cell: Kind.MINE}
        new = setup.with_layout(state, seat, placed)
        text = f"Placed a mine on {cell_name(cell)}; {new.sides[seat].reserve} left in reserve."
        return private(new, seat, text)

    def _remove_mine(self, state: WarshipsState, seat: int, cell: Cell) -> Transition:
        layout = setup.layout_of(state, seat)
        if layout.get(cell) is not Kind.MINE:
            raise IllegalActionError(f"None of your mines lies on {cell_name(cell)}.")
        new = setup.with_layout(state, seat, {c: k for c, k in layout.items() if c != cell})
        text = f"Took the mine on {cell_name(cell)} back into reserve."
        return private(new, seat, text)

    def _whole(
        self, state: WarshipsState, seat: int, layout: tuple[tuple[Kind, tuple[Cell, ...]], ...]
    ) -> Transition:
        placed = {cell: kind for kind, cells in layout for cell in cells}
        shore = state.shore(seat)
        placed = dict(setup.fit_to_shore(state.rules, shore, placed))
        setup.check_layout(state.rules, shore, placed, whole=True)
        text = "Your setup is in place. Edit it, or write `ready` to confirm it."
        return private(setup.with_layout(state, seat, placed), seat, text)

    def _ready(self, state: WarshipsState, seat: int) -> Transition:
        setup.check_layout(state.rules, state.shore(seat), setup.layout_of(state, seat), whole=True)
        waiting = (
            "Your setup is confirmed. Waiting for your opponent.",
            f"{name_of(seat)} has set up their fleet.",
        )
        return confirm_ready(state, seat, waiting, setup.start_play)

    # -- play -------------------------------------------------------------------------------

    def _play(self, state: WarshipsState, seat: int, action: act.PlayAction) -> Transition:
        check_turn(state, seat, not_started="both setups must be ready first.")
        if isinstance(action, act.LayMine):
            new, events = turns.lay_mine(state, seat, action.cell)
            return Transition(new, tuple(events))
        if isinstance(action, DrawAction):
            return turns.draw(state, seat, action)
        if isinstance(action, act.Pass):
            if next(iter(turns.main_actions(state, seat)), None) is not None:
                raise IllegalActionError("You may pass only when none of your ships can act.")
            said = told(
                seat,
                "You pass.",
                "Your opponent passes: none of their ships can act.",
                f"{name_of(seat)} passes.",
            )
            return turns.end_turn(state, seat, said, removed=False, passed=True)
        piece = turns.own_ship(state, seat, action.start)
        if isinstance(action, act.Move):
            return turns.move(state, seat, piece, action)
        return turns.attack(state, seat, piece, action)

    # -- knowledge --------------------------------------------------------------------------

    def view(self, state: WarshipsState, seat: int | None) -> WarshipsView:
        phase = secrecy(state.phase, state.outcome)
        finished = phase is Phase.FINISHED
        hide_fleets = phase is Phase.SETUP
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

        def reserve(owner: int) -> int | None:
            """§5.2: an opponent's reserve would tell how many mines went into port."""
            return state.sides[owner].reserve if seat == owner or not hide_fleets else None

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
            reserves=(reserve(0), reserve(1)),
            ready=(state.sides[0].ready, state.sides[1].ready),
            turn=state.turn,
            last=state.last,
            outcome=state.outcome,
            draw_offer=state.draw_offer,
        )

    def conclude(self, state: WarshipsState, outcome: Outcome) -> WarshipsState:
        return replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome)

    def has_started(self, state: WarshipsState) -> bool:
        return state.turns > 0 or state.mined

    def suggestions(self, view: WarshipsView, typed: str, limit: int = 25) -> list[str]:
        """Legal moves starting with what was typed, computed from public facts and own types."""
        if view.seat is None or view.seat not in view.movers:
            return []
        prefix = " ".join(typed.lower().split())
        found: list[str] = []
        for action in self.legal_actions(seen_by(view, view.seat), view.seat):
            texts = [str(action)]
            if isinstance(action, act.Swap):  # a swap reads the same either way round
                texts.append(str(act.Swap(action.second, action.first)))
            text = next((t for t in texts if t.lower().startswith(prefix)), None)
            if text is not None:
                found.append(text)
                if len(found) >= limit:
                    break
        return found

    def legal_moves(self, view: WarshipsView) -> list[str]:
        """Legal moves computed from public facts and own types, each in its first spelling."""
        if view.seat is None or view.seat not in view.movers:
            return []
        return [str(action) for action in self.legal_actions(seen_by(view, view.seat), view.seat)]

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
        ranges = ", ".join(f"{kind.unit.name} {rules.range_of(kind)}" for kind in SHIPS)
        beats = "; ".join(
            f"{attacker.value} beats "
            + " ".join(
                defender.value
                for defender in Kind
                if clash(attacker, defender) is Result.ATTACKER_WINS
            )
            for attacker in SHIPS
            if attacker is not Kind.LANDING_SHIP
        )
        return (
            f"**Warships ({self.variant_name(rules)})**: a 12×18 board, A1 south-west to L18 "
            "north-east; each side has 26 face-down ships, 4 shore batteries and 6 mines. "
            f"Ranges: {ranges}. Ships move by king steps up to their range, never through "
            "tokens, enemy battery zones (missile ships excepted) or a guarded enemy exit; "
            "they attack within range, and both players see both types. "
            f"When attacking: {beats}; equal types both go; a mine takes its attacker with "
            "it. Win by landing your landing ship in the enemy port or by destroying theirs.\n"
            "**Setup** (by DM, in secret): you start with a random setup; `random` deals "
            "another, `swap A1 B2` exchanges two fields, `place mine E3` / `remove mine E3`, "
            "`ready` confirms; `save name` / `load name` keep setups.\n"
            "**Play**: `C5-C7` moves; `C5xD7` attacks (a battery as target: take-out); "
            "`C5-C7xD8` moves then attacks; `C5 defuse D7` defuses with a minesweeper; "
            "`mine E5` lays a mine next to your minesweeper before your action, "
            "`C5-C7 mine C8` after it; `pass` only when nothing can act; `offer draw`, "
            "`accept draw`.\n"
            "Options at `/play`: `harder`, `mobility`, `manoeuvres`, `quick`, `forget`.\n"
            f"**The board image**: {BOARD_KEY}"
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


# -- autocomplete ------------------------------------------------------------------------------


def seen_by(view: WarshipsView, seat: int) -> WarshipsState:
    """A stand-in state built from a player's view: enough to list that player's legal moves.

    Legality depends only on public facts and the mover's own types (§16.1), so unknown
    enemy tokens may stand in as any kind that is not a battery.
    """
    pieces = [Piece(t.cell, t.owner, t.kind or Kind.MINE, neutral=t.neutral) for t in view.tokens]
    base = WarshipsState(
        rules=view.rules,
        seed=0,
        south=view.south,
        phase=view.phase,
        turn=view.turn,
        draw_offer=view.draw_offer,
    )
    side = replace(base.sides[seat], reserve=view.reserves[seat] or 0)
    return base.with_pieces(pieces).with_side(seat, side)
