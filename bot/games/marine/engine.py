"""The Marine Game rule engine (docs/rules/marine-game.md), behind the common engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from bot.games.base import GameEngine, JsonCodec
from bot.games.core import Outcome, Phase, Transition
from bot.games.draws import DrawAction, draw_words, play_draw
from bot.games.marine import actions as act
from bot.games.marine import moves, turns
from bot.games.marine.pieces import OPENING
from bot.games.marine.rules import PRESETS, VARIANT_NOTES, MarineRules
from bot.games.marine.state import MarineState, in_order, state_from_json, state_to_json
from bot.games.marine.view import MarineView
from bot.games.turns import check_turn


class MarineGame(GameEngine[MarineRules, MarineState, act.Action, MarineView]):
    key = "marine"
    json_codec = JsonCodec(MarineRules.from_json, state_to_json, state_from_json)
    agreed_draws = True
    title = "Marine Game"
    presets = PRESETS
    variant_notes = VARIANT_NOTES

    def new_game(self, rules: MarineRules, seed: int) -> MarineState:
        """§4: the opening position; who plays South (and so moves first) comes from the seed."""
        south = random.Random(f"marine:{seed}:south").randrange(2)
        return MarineState(
            rules=rules, seed=seed, south=south, pieces=in_order(OPENING), turn=south
        )

    def to_move(self, state: MarineState) -> frozenset[int]:
        return frozenset({state.turn}) if state.turn is not None else frozenset()

    def legal_actions(self, state: MarineState, seat: int) -> Iterator[act.Action]:
        if seat != state.turn:
            return
        yield from moves.legal_moves(state.at, state.side_of(seat))
        yield from draw_words(state.draw_offer, seat)

    def parse_action(self, state: MarineState, seat: int, text: str) -> act.Action:
        return act.parse(text)

    def apply(self, state: MarineState, seat: int, action: act.Action) -> Transition:
        check_turn(state, seat)
        if isinstance(action, DrawAction):
            return play_draw(state, seat, action, turns.finish)
        return turns.move(state, seat, action)

    def view(self, state: MarineState, seat: int | None) -> MarineView:
        """§9: everything is public; every audience gets the same board."""
        return MarineView(
            seat=seat,
            phase=state.phase,
            variant=self.variant_name(state.rules),
            rules=state.rules,
            south=state.south,
            pieces=state.pieces,
            turn=state.turn,
            last=state.last,
            losses=state.losses,
            plies=state.plies,
            quiet=state.quiet,
            draw_offer=state.draw_offer,
            outcome=state.outcome,
        )

    def conclude(self, state: MarineState, outcome: Outcome) -> MarineState:
        return replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome, draw_offer=None)

    def has_started(self, state: MarineState) -> bool:
        return state.plies > 0

    def suggestions(self, view: MarineView, typed: str, limit: int = 25) -> list[str]:
        """Legal actions starting with what was typed, from the view's board alone."""
        prefix = "".join(typed.upper().split())
        found = self.legal_moves(view)
        return [t for t in found if t.upper().replace(" ", "").startswith(prefix)][:limit]

    def legal_moves(self, view: MarineView) -> list[str]:
        """Legal actions from the view's board alone (everything is public)."""
        if view.seat is None or view.seat not in view.movers:
            return []
        found = moves.legal_moves(view.at, view.side_of(view.seat))
        return [str(action) for action in (*found, *draw_words(view.draw_offer, view.seat))]

    def variant_name(self, rules: MarineRules) -> str:
        return next((name for name, preset in PRESETS.items() if preset == rules), "custom")

    def describe(self, rules: MarineRules) -> str:
        return (
            "**Marine Game**: a board of 20 hexes `A`-`T` with 58 numbered corners. Each "
            "side has 3 U-boats (in hexes), 2 cruisers and 4 destroyers (on corners). South "
            "starts at the bottom (harbour hex `T`, corners `50`, `51`) and moves first; "
            "North at the top (hex `A`, corners `8`, `9`). Everything is public.\n"
            "**Moves**: a cruiser or destroyer goes along one or two hex sides to an empty "
            "corner, never through a piece: `46-41`, `46-35`. A U-boat goes to a neighbouring "
            "hex without a U-boat: `R-O`. One piece per turn, no passing.\n"
            "**Taking** (only the piece that moved, at its new point): a cruiser takes enemy "
            "destroyers one side away, a destroyer takes enemy U-boats in hexes it is a corner "
            "of, a U-boat takes enemy cruisers on its hex's corners. Moving into the reach of "
            "the type that takes yours is suicide: cruiser next to an enemy U-boat's hex, "
            "destroyer one side from an enemy cruiser, U-boat in a hex with an enemy destroyer "
            "on a corner. Taking and suicide can happen in one move.\n"
            "**Winning**: bring a cruiser or destroyer onto a corner of the enemy harbour "
            "(`8`, `9` for South; `50`, `51` for North) or a U-boat into the enemy harbour hex "
            "(`A` for South, `T` for North), and survive the move. A player without a legal "
            f"move loses. {rules.quiet_plies} plies without a piece taken are a draw; "
            "`offer draw` and `accept draw` agree one."
        )

    def setup_instructions(self, rules: MarineRules) -> str:
        return (
            "There is no setup. Write moves like `46-41` (cruiser or destroyer, corner to "
            "corner) or `R-O` (U-boat, hex to hex); `/rules` has the full rules."
        )

    def side_sentence(self, state: MarineState, seat: int) -> str:
        if state.side_of(seat) == 0:
            return "You play South, at the bottom of the board, and move first."
        return "You play North, at the top of the board; South moves first."
