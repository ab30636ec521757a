"""The Luzhanqi rule engine (docs/rules/luzhanqi.md), behind the common engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.games.base import GameEngine, JsonCodec
from bot.games.core import SEATS, GameError, IllegalActionError, Outcome, Phase, Transition, name_of
from bot.games.draws import draw_words
from bot.games.luzhanqi import actions as act
from bot.games.luzhanqi import moves, texts
from bot.games.luzhanqi.board import (
    CAMPS,
    STATIONS,
    Colour,
    Station,
    half,
    half_ranks,
    name,
    swap_example,
)
from bot.games.luzhanqi.deployment import (
    SLOTS,
    Layout,
    check_layout,
    check_piece,
    layout_text,
    random_layout,
)
from bot.games.luzhanqi.endings import draw
from bot.games.luzhanqi.pieces import ARMY, Kind, Piece
from bot.games.luzhanqi.rules import (
    OPTION_NOTES,
    OPTION_WORDS,
    PRESETS,
    VARIANT_NOTES,
    LuzhanqiRules,
    option_words,
)
from bot.games.luzhanqi.rules import with_options as rules_with_options
from bot.games.luzhanqi.state import LuzhanqiState, Side, state_from_json, state_to_json
from bot.games.luzhanqi.turns import flip_piece, move_piece
from bot.games.luzhanqi.view import LuzhanqiView, losses_seen, visible_pieces
from bot.games.setup import check_open, confirm_ready, movers, private
from bot.games.turns import check_turn, told


class Luzhanqi(GameEngine[LuzhanqiRules, LuzhanqiState, act.Action, LuzhanqiView]):
    key = "luzhanqi"
    json_codec = JsonCodec(LuzhanqiRules.from_json, state_to_json, state_from_json)
    title = "Luzhanqi"
    presets = PRESETS
    variant_notes = VARIANT_NOTES
    all_option_words = tuple(OPTION_WORDS)
    option_notes = OPTION_NOTES
    agreed_draws = True

    # -- a new game ---------------------------------------------------------------------------

    def new_game(self, rules: LuzhanqiRules, seed: int) -> LuzhanqiState:
        if rules.flip:  # A1, A2: dealt face down, a random first player, colours unknown
            pieces = [Piece(c, k, face_up=False) for c in Colour for k in ARMY]
            random.Random(f"luzhanqi:{seed}:deal").shuffle(pieces)
            stations = [s for s in STATIONS if s not in CAMPS]
            board: list[Piece | None] = [None] * len(STATIONS)
            for where, piece in zip(stations, pieces, strict=True):
                board[where] = piece
            first = random.Random(f"luzhanqi:{seed}:first").randrange(2)
            return LuzhanqiState(
                rules, seed, Phase.PLAY, red_seat=None, board=tuple(board), turn=first
            )
        red_seat = random.Random(f"luzhanqi:{seed}:colours").randrange(2)  # 4.6
        sides = tuple(
            Side(random_layout(random.Random(f"luzhanqi:{seed}:layout:{seat}:0")), random_draws=1)
            for seat in SEATS
        )
        return LuzhanqiState(rules, seed, Phase.SETUP, red_seat, sides=sides)  # type: ignore[arg-type]

    # -- whose move ---------------------------------------------------------------------------

    def to_move(self, state: LuzhanqiState) -> frozenset[int]:
        return movers(state)

    def legal_actions(self, state: LuzhanqiState, seat: int) -> Iterator[act.Action]:
        if seat not in self.to_move(state):
            return
        if state.phase is Phase.SETUP:
            yield act.RandomLayout()
            yield act.Ready()
            yield from self._legal_swaps(state, seat)
            return
        yield from _play_actions(
            state.board, state.colour_of(seat), state.rules, state.mines_left()
        )
        yield from draw_words(state.draw_offer, seat)

    def _legal_swaps(self, state: LuzhanqiState, seat: int) -> Iterator[act.Swap]:
        layout = state.sides[seat].layout
        stations = half(_colour(state, seat))
        for i in range(len(layout)):
            for j in range(i + 1, len(layout)):
                if layout[i] != layout[j] and _swap_allowed(layout, i, j):
                    yield act.Swap(stations[i], stations[j])

    # -- moves --------------------------------------------------------------------------------

    def parse_action(self, state: LuzhanqiState, seat: int, text: str) -> act.Action:
        return act.parse(text, state.phase, state.rules.flip)

    def apply(self, state: LuzhanqiState, seat: int, action: act.Action) -> Transition:
        if state.phase is Phase.FINISHED:
            raise IllegalActionError("This game is over.")
        if isinstance(action, act.Move | act.Flip | act.OfferDraw | act.AcceptDraw):
            check_turn(state, seat, not_started="both armies must be deployed first.")
            if isinstance(action, act.OfferDraw | act.AcceptDraw):
                return draw(state, seat, action)
            if isinstance(action, act.Flip):
                return flip_piece(state, seat, action.where)
            return move_piece(state, seat, action.start, action.target)
        check_open(state, seat, "The armies are deployed", "deployment")
        match action:
            case act.Swap(first, second):
                return self._swap(state, seat, first, second)
            case act.RandomLayout():
                return self._deal(state, seat)
            case act.Deploy(layout):
                return self._deploy(state, seat, layout)
            case act.Ready():
                return self._ready(state, seat)
        raise IllegalActionError("That is not a Luzhanqi move.")

    # -- deployment (section 4) ---------------------------------------------------------------

    def _swap(self, state: LuzhanqiState, seat: int, first: Station, second: Station) -> Transition:
        colour = _colour(state, seat)
        stations = half(colour)
        for where in (first, second):
            if where not in stations:
                what = (
                    "a camp, which stays empty"
                    if where in CAMPS
                    else f"not on your half, which is {half_ranks(colour)}"
                )
                raise IllegalActionError(
                    f"{name(where)} is {what}: swap two of your own pieces."
                )
        if first == second:
            raise IllegalActionError("Name two different stations to swap.")
        layout = list(state.sides[seat].layout)
        i, j = stations.index(first), stations.index(second)
        layout[i], layout[j] = layout[j], layout[i]
        check_piece(layout[i], i, first)
        check_piece(layout[j], j, second)
        side = replace(state.sides[seat], layout=tuple(layout))
        text = (
            f"Swapped your {layout[j].title} on {name(first)} and your {layout[i].title} on "
            f"{name(second)}. Write `ready` when your deployment suits you."
        )
        return private(state.with_side(seat, side), seat, text)

    def _deal(self, state: LuzhanqiState, seat: int) -> Transition:
        side = state.sides[seat]
        rng = random.Random(f"luzhanqi:{state.seed}:layout:{seat}:{side.random_draws}")
        dealt = replace(side, layout=random_layout(rng), random_draws=side.random_draws + 1)
        example = swap_example(_colour(state, seat))
        text = f"Here is a new random deployment. Edit it with `{example}`, or write `ready`."
        return private(state.with_side(seat, dealt), seat, text)

    def _deploy(self, state: LuzhanqiState, seat: int, layout: Layout) -> Transition:
        check_layout(layout, _colour(state, seat))
        side = replace(state.sides[seat], layout=layout)
        example = swap_example(_colour(state, seat))
        text = f"Your deployment is set as loaded. Edit it with `{example}`, or write `ready`."
        return private(state.with_side(seat, side), seat, text)

    def _ready(self, state: LuzhanqiState, seat: int) -> Transition:
        check_layout(state.sides[seat].layout, _colour(state, seat))
        waiting = (
            "Your deployment is confirmed. Waiting for your opponent.",
            f"{name_of(seat)} has deployed their army.",
        )
        return confirm_ready(state, seat, waiting, _start_play)

    # -- knowledge ------------------------------------------------------------------------------

    def view(self, state: LuzhanqiState, seat: int | None) -> LuzhanqiView:
        return LuzhanqiView(
            seat=seat,
            phase=state.phase,
            variant=self.variant_name(state.rules),
            rules=state.rules,
            colours=(state.colour_of(0), state.colour_of(1)),
            pieces=visible_pieces(state, seat),
            turn=state.turn,
            ready=(state.sides[0].ready, state.sides[1].ready),
            last=state.last,
            mines_left=(
                (state.count(Colour.RED, Kind.LANDMINE), state.count(Colour.BLUE, Kind.LANDMINE))
                if state.rules.flip
                else None
            ),
            flags_shown=state.flags_shown,
            outcome=state.outcome,
            quiet=state.quiet,
            plies=state.plies,
            losses=losses_seen(state, seat),
            draw_offer=state.draw_offer,
        )

    def conclude(self, state: LuzhanqiState, outcome: Outcome) -> LuzhanqiState:
        return replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome, draw_offer=None)

    def has_started(self, state: LuzhanqiState) -> bool:
        return state.plies > 0

    def legal_moves(self, view: LuzhanqiView) -> list[str]:
        if view.seat is None or view.seat not in view.movers:
            return []
        if view.phase is Phase.SETUP:
            return list(_setup_texts(view))
        actions = _play_actions(view.pieces, view.colour, view.rules, view.mines_by_colour())
        return [*map(str, actions), *map(str, draw_words(view.draw_offer, view.seat))]

    def quick_moves(self, view: LuzhanqiView) -> tuple[tuple[str, str], ...]:
        if view.phase is Phase.SETUP and view.seat in view.movers:
            return (("New random deployment", "random"), ("Ready", "ready"))
        return ()

    def setup_text(self, view: LuzhanqiView) -> str | None:
        if view.phase is not Phase.SETUP or view.colour is None or view.seat not in view.movers:
            return None
        kinds = [view.pieces[where] for where in half(view.colour)]
        if any(p is None or p.kind is None for p in kinds):
            return None
        return layout_text(tuple(p.kind for p in kinds if p is not None and p.kind is not None))

    # -- rules and variants ---------------------------------------------------------------------

    def configure(self, variant: str | None, options: str = "") -> LuzhanqiRules:
        """Also reads ``variant C`` and ``variant c`` as the preset ``variant-c``."""
        spelled = None if variant is None else "-".join(variant.lower().split())
        return super().configure(spelled, options)

    def with_options(self, rules: LuzhanqiRules, words: Sequence[str]) -> LuzhanqiRules:
        return rules_with_options(rules, words)

    def option_suggestions(self, rules: LuzhanqiRules, typed: str, limit: int = 25) -> list[str]:
        words = typed.lower().replace(",", " ").split()
        done = words if typed.endswith(" ") or not words else words[:-1]
        partial = "" if typed.endswith(" ") or not words else words[-1]
        choices = []
        for word in ("m1", "m2", "m3", "w1", "w2", "turns", "straight"):
            if word.startswith(partial) and word not in done:
                try:
                    rules_with_options(rules, [*done, word])
                except GameError:
                    continue
                choices.append(" ".join([*done, word]))
        return choices[:limit]

    def variant_name(self, rules: LuzhanqiRules) -> str:
        for preset_name, preset in PRESETS.items():
            if preset.flip == rules.flip and preset.camps_protect == rules.camps_protect:
                words = option_words(rules, preset)
                return " ".join([preset_name, *words])
        return "custom"

    def describe(self, rules: LuzhanqiRules) -> str:
        return texts.describe(rules, self.variant_name(rules))

    def setup_instructions(self, rules: LuzhanqiRules) -> str:
        return texts.setup_instructions(rules)

    def side_sentence(self, state: LuzhanqiState, seat: int) -> str:
        return texts.side_sentence(state, seat)


def _colour(state: LuzhanqiState, seat: int) -> Colour:
    colour = state.colour_of(seat)
    assert colour is not None, "deployment games assign colours at the start"
    return colour


def _start_play(new: LuzhanqiState) -> Transition:
    """Both armies are deployed: they take the board as laid out and Red moves first."""
    board: list[Piece | None] = [None] * len(STATIONS)
    for each in SEATS:
        colour = _colour(new, each)
        for where, kind in zip(half(colour), new.sides[each].layout, strict=True):
            board[where] = Piece(colour, kind)
    red = new.seat_of(Colour.RED)
    assert red is not None
    new = replace(new, phase=Phase.PLAY, board=tuple(board), turn=red)
    return Transition(
        new,
        told(
            red,
            "Both armies are deployed. You play Red and move first.",
            "Both armies are deployed. You play Blue; Red moves first.",
            f"Both armies are deployed. {name_of(red)} plays Red and moves first.",
        ),
    )


def _swap_allowed(layout: Layout, i: int, j: int) -> bool:
    try:
        check_piece(layout[j], i, SLOTS[i])
        check_piece(layout[i], j, SLOTS[j])
    except IllegalActionError:
        return False
    return True


def _setup_texts(view: LuzhanqiView) -> list[str]:
    """The deployment moves open to the viewer: the words, then every allowed swap."""
    texts = ["ready", "random"]
    if view.colour is None:
        return texts
    stations = half(view.colour)
    kinds = [view.pieces[where] for where in stations]
    layout = tuple(p.kind for p in kinds if p is not None and p.kind is not None)
    if len(layout) != len(stations):
        return texts
    for i in range(len(layout)):
        for j in range(i + 1, len(layout)):
            if layout[i] != layout[j] and _swap_allowed(layout, i, j):
                texts.append(str(act.Swap(stations[i], stations[j])))
    return texts


def _play_actions(
    board: moves.Board, colour: Colour | None, rules: LuzhanqiRules, mines: moves.MinesLeft
) -> Iterator[act.PlayAction]:
    """Every move and flip open to the player of ``colour`` on ``board`` (A2, 5.x)."""
    if rules.flip:
        for where, piece in enumerate(board):
            if piece is not None and not piece.face_up:
                yield act.Flip(where)
    if colour is not None:
        for start, target in moves.legal_moves(board, colour, rules, mines):
            yield act.Move(start, target)
