"""The Seachess rule engine (docs/rules/seachess.md), behind the common engine contract."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from bot.games.base import GameEngine, JsonCodec
from bot.games.core import Event, Outcome, Phase, Transition, secrecy
from bot.games.draws import draw_words
from bot.games.seachess import actions as act
from bot.games.seachess.rules import PRESETS, VARIANT_NOTES, SeachessRules
from bot.games.seachess.state import (
    SeachessState,
    start_position,
    state_from_json,
    state_to_json,
)
from bot.games.seachess.texts import published
from bot.games.seachess.turns import play, playable, view_legal
from bot.games.seachess.view import SeachessView, SubMarker


class Seachess(GameEngine[SeachessRules, SeachessState, act.Action, SeachessView]):
    key = "seachess"
    json_codec = JsonCodec(SeachessRules.from_json, state_to_json, state_from_json)
    agreed_draws = True
    title = "Seachess"
    presets = PRESETS
    variant_notes = VARIANT_NOTES

    def new_game(self, rules: SeachessRules, seed: int) -> SeachessState:
        return start_position(rules, seed)

    def to_move(self, state: SeachessState) -> frozenset[int]:
        return frozenset({state.turn}) if state.phase is Phase.PLAY else frozenset()

    def legal_actions(self, state: SeachessState, seat: int) -> Iterator[act.Action]:
        if seat not in self.to_move(state):
            return
        yield from playable(state, seat)
        yield from draw_words(state.draw_offer, seat)

    def parse_action(self, state: SeachessState, seat: int, text: str) -> act.Action:
        return act.parse(text)

    def apply(self, state: SeachessState, seat: int, action: act.Action) -> Transition:
        return play(state, seat, action)

    def view(self, state: SeachessState, seat: int | None) -> SeachessView:
        over = secrecy(state.phase, state.outcome) is Phase.FINISHED  # an unplayed end hides
        pieces = tuple(
            (sq, replace(p, loaded=False))
            if p.kind is act.Kind.CRUISER and p.owner != seat and not over
            else (sq, p)
            for sq, p in state.pieces
        )
        return SeachessView(
            seat=seat,
            phase=state.phase,
            variant=self.variant_name(state.rules),
            pieces=pieces,
            mines=tuple((sq, o) for sq, o in state.mines if over or o == seat),
            subs=tuple(
                SubMarker(
                    s.owner,
                    s.dived_from,
                    s.surfaces_at,
                    s.square if over or s.owner == seat else None,
                )
                for s in sorted(state.subs, key=lambda s: (s.surfaces_at, s.owner, s.dived_from))
            ),
            castling=state.castling,
            ep=state.ep,
            airborne=state.airborne,
            turn=state.turn,
            ply=state.ply,
            checks=state.checks,
            last=state.last,
            refused=state.refused if seat == state.turn and not over else (),
            draw_offer=state.draw_offer,
            outcome=state.outcome,
            record=state.record if over else (),
            revealed=over,
        )

    def conclude(self, state: SeachessState, outcome: Outcome) -> SeachessState:
        return replace(state, phase=Phase.FINISHED, outcome=outcome)

    def epilogue(self, state: SeachessState) -> tuple[Event, ...]:
        """§9.4: a resigned or timed-out game publishes its move list too."""
        if not state.record:
            return ()
        return (published(state.record),)

    def has_started(self, state: SeachessState) -> bool:
        return state.ply > 0

    def legal_moves(self, view: SeachessView) -> list[str]:
        """Moves legal in the viewer's own view (§7.2a), less those the referee refused."""
        seat = view.seat
        if seat is None or seat not in view.movers:
            return []
        found = (*view_legal(view.position(), seat), *draw_words(view.draw_offer, seat))
        return [text for text in map(str, found) if text not in view.refused]

    def variant_name(self, rules: SeachessRules) -> str:
        return "standard"

    def describe(self, rules: SeachessRules) -> str:
        return (
            "**Seachess**: chess at sea on 128 squares (files a–l, ranks 3–10 open sea, "
            "havens c1–j2 and c11–j12). Checkmate the enemy commando ship (K, a king). "
            "Cruiser C (rook) plants one hidden mine on its own square; torpedo boat T (rook) "
            "fires one torpedo diagonally ahead of its facing, up to two squares; both reload "
            "by moving into their haven. Destroyer D (bishop) surfaces enemy submarines next "
            "to it and catches submerged ones it lands on. Submarine S (knight) dives for "
            "half its visible turns (at most 4), moves under pieces and emerges to capture. "
            "Carrier A moves up to two squares (the horse move can be blocked) and its "
            "aircraft captures on the squares exactly three away; while it flies nothing "
            "else moves. Boats (B) move like pawns, 2–4 squares from the start, en passant "
            "on the third rank, promote on the last rank. A mine destroys whatever moves "
            "onto or through it, and blocks lines. Illegal tries are refused privately, or "
            "publicly when only hidden enemy material makes them impossible.\n"
            "**Moves** (by DM or `/move`): `e2-e4` (captures too), `d11-d12=C` promotes, "
            "`O-O` castles with the torpedo boat, `O-O-O` with the cruiser, `mine e5`, "
            "`dive e4-f6`, `sub f6-g8`, `emerge f6`, `emerge f6xg8`, `torpedo j5xh7`, "
            "`air f5xc8`, `land`, `offer draw`, `accept draw`. At the end the channel gets "
            "every move with the hidden ones filled in, in the author's notation "
            "(`Ce5-M(h)`, `Se4v-f6(h)`, `sSf6^x`, `Tj5xt h7`, `Af5xa c8`, `Af5<a`)."
        )

    def setup_instructions(self, rules: SeachessRules) -> str:
        return (
            "There is no setup: White (the challenger) moves first. Write moves like `e2-e4`; "
            "`/rules` has the whole notation."
        )

    def side_sentence(self, state: SeachessState, seat: int) -> str:
        """The challenger plays White (ruling 5)."""
        if seat == 0:
            return "You play White and move first."
        return "You play Black; White moves first."
