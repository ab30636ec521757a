"""The Sea Battle rule engine (docs/rules/sea-battle.md), behind the common engine contract."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

from bot.games.base import GameEngine, JsonCodec
from bot.games.core import GameError, IllegalActionError, Outcome, Phase, Transition, other
from bot.games.grid import cell_name, neighbours, parse_cell
from bot.games.seabattle import actions as act
from bot.games.seabattle import dutchman, salvo, setup, texts
from bot.games.seabattle.fleet import Ship
from bot.games.seabattle.rules import (
    OPTION_NOTES,
    OPTION_WORDS,
    PRESETS,
    SUBMARINE,
    VARIANT_NOTES,
    SeaBattleRules,
    option_suggestions,
    with_options,
)
from bot.games.seabattle.seeing import carry_fields, field_of, view_of
from bot.games.seabattle.state import (
    SeaBattleState,
    Side,
    carry_named_log,
    state_from_json,
    state_to_json,
)
from bot.games.seabattle.turns import disclosable, disclose, shoot
from bot.games.seabattle.view import Mark, SeaBattleView
from bot.games.setup import movers


class SeaBattle(GameEngine[SeaBattleRules, SeaBattleState, act.Action, SeaBattleView]):
    key = "seabattle"
    json_codec = JsonCodec(SeaBattleRules.from_json, state_to_json, state_from_json)
    title = "Sea Battle"
    presets = PRESETS
    variant_notes = VARIANT_NOTES
    all_option_words = tuple(OPTION_WORDS)
    option_notes = OPTION_NOTES

    def new_game(self, rules: SeaBattleRules, seed: int) -> SeaBattleState:
        return SeaBattleState(rules=rules, seed=seed)

    # -- whose move ------------------------------------------------------------------------

    def to_move(self, state: SeaBattleState) -> frozenset[int]:
        return movers(state)

    def legal_actions(self, state: SeaBattleState, seat: int) -> Iterator[act.Action]:
        if seat not in self.to_move(state):
            return
        if state.phase is Phase.SETUP:
            yield from setup.legal_setup(state, seat)
            return
        if state.pending is not None and state.pending.what == dutchman.MOVE:
            yield act.Stay()
            left = len(state.sides[seat].ships[0].cells)
            for cells in dutchman.sample_groups(state.rules.size, left):
                yield act.MoveShip(cells)
            return
        if state.pending is not None:
            pending = state.pending
            yield from (act.Disclose(cell) for cell in disclosable(state, seat, pending.what))
            return
        if state.rules.dutchman:  # §5.3: any cell, shot before or not
            size = state.rules.size
            yield from (act.Shot((c, r)) for r in range(size) for c in range(size))
            return
        if state.rules.salvo:
            yield from (act.Salvo(cells) for cells in salvo.sample_salvos(state, seat))
            return
        fired = state.shots[seat]
        # A known mine (§4.7) and a cell shown empty (§2.9) are shot only with ``confirm``.
        asked = {cell for who, cell in state.disclosures if who != seat}
        size = state.rules.size
        if _may_show_empty(state, seat):
            shown = field_of(state, other(seat), seat)
            asked |= {
                (column, row)
                for row in range(size)
                for column in range(size)
                if shown.mark((column, row)) is Mark.CLEAR
            }
        for row in range(size):
            for column in range(size):
                if (column, row) not in fired:
                    yield act.Shot((column, row), (column, row) in asked)

    # -- moves ------------------------------------------------------------------------------

    def parse_action(self, state: SeaBattleState, seat: int, text: str) -> act.Action:
        # Each hint is written only in the phase whose refusals quote it: a shot is read on
        # every move, and writing both hints for it took twice as long as reading it.
        rules = state.rules
        setup_help = texts.setup_help(rules) if state.phase is Phase.SETUP else ""
        salvoing = rules.salvo and state.phase is Phase.PLAY
        example = texts.salvo_example(salvo.salvo_size(state, seat)) if salvoing else ""
        return act.parse(
            text,
            state.phase,
            rules.size,
            salvo=rules.salvo,
            shapes=rules.free_form,
            setup_help=setup_help,
            salvo_example=example,
        )

    def apply(self, state: SeaBattleState, seat: int, action: act.Action) -> Transition:
        transition = self._applied(state, seat, action)
        carry_named_log(state, transition.state)
        return transition

    def _applied(self, state: SeaBattleState, seat: int, action: act.Action) -> Transition:
        if state.phase is Phase.FINISHED:
            raise IllegalActionError("This game is over.")
        if isinstance(action, act.Disclose):
            return disclose(state, seat, action.cell)
        if isinstance(action, act.Stay | act.MoveShip):
            if not state.rules.dutchman or state.phase is not Phase.PLAY:
                raise IllegalActionError(
                    "Only the Flying Dutchman moves, just after a hit."
                )
            cells = action.cells if isinstance(action, act.MoveShip) else None
            return dutchman.decide(state, seat, cells)
        if state.rules.dutchman and isinstance(action, act.Shot):
            return dutchman.shoot(state, seat, action.cell)
        if state.rules.salvo and isinstance(action, act.Shot | act.Salvo):
            cells = action.cells if isinstance(action, act.Salvo) else (action.cell,)
            return salvo.fire(state, seat, cells)
        if isinstance(action, act.Salvo):
            raise IllegalActionError("This game is not Salvo: shoot one cell at a time, like `B5`.")
        if isinstance(action, act.Shot):
            empty = state.phase is Phase.PLAY and _known_empty(state, seat, action.cell)
            transition = shoot(state, seat, action.cell, action.confirmed, empty)
            carry_fields(state, transition.state)
            return transition
        return setup.apply_setup(state, seat, action)

    # -- knowledge --------------------------------------------------------------------------

    def view(self, state: SeaBattleState, seat: int | None) -> SeaBattleView:
        return view_of(state, seat, self.variant_name(state.rules))

    def conclude(self, state: SeaBattleState, outcome: Outcome) -> SeaBattleState:
        return replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome)

    def has_started(self, state: SeaBattleState) -> bool:
        return bool(state.log)

    def legal_moves(self, view: SeaBattleView) -> list[str]:
        """Autocomplete's list with nothing typed and no limit: the setup words, or the
        cells not yet shot (near hits first), a disclosure owed, a Dutchman's move. A
        salvo's cells are listed one at a time, as autocomplete builds a salvo."""
        return self.suggestions(view, "", limit=sys.maxsize)

    def suggestions(self, view: SeaBattleView, typed: str, limit: int = 25) -> list[str]:
        """Setup words, or in play the cells not yet shot, cells next to a hit first."""
        prefix = "".join(typed.split()).upper()
        if view.seat is None or view.seat not in view.movers:
            return []
        if view.phase is Phase.SETUP:
            words = ["random", "ready", "clear"]
            return [w for w in words if w.startswith(prefix.lower())][:limit]
        if view.owed == (view.seat, dutchman.MOVE):
            return self._move_suggestions(view, typed, limit)
        if view.choices:  # §4.6-4.7: a disclosure is owed
            moves = [f"reveal {cell_name(cell)}" for cell in view.choices]
            wanted = " ".join(typed.lower().split())
            return [m for m in moves if m.lower().startswith(wanted) or m[7:].startswith(prefix)][
                :limit
            ]
        if view.salvo_size is not None:
            return self._salvo_suggestions(view, typed, limit)
        target = view.fields[other(view.seat)]
        size = view.size
        near_hit = {
            near
            for row in range(size)
            for column in range(size)
            if target.mark((column, row)) is Mark.HIT
            for near in neighbours((column, row), size, size, diagonal=False)
        }
        open_cells = [
            (column, row)
            for row in range(size)
            for column in range(size)
            if target.mark((column, row)) in (Mark.SEA, Mark.DISCLOSED)
        ]
        # A disclosed ship cell (§4.6) is a sure hit: offered first.
        open_cells.sort(
            key=lambda cell: (target.mark(cell) is not Mark.DISCLOSED, cell not in near_hit)
        )
        names = [cell_name(cell) for cell in open_cells]
        known_mines = [
            f"{cell_name((column, row))} confirm"
            for row in range(size)
            for column in range(size)
            if target.mark((column, row)) is Mark.KNOWN_MINE
        ]
        return [name for name in [*names, *known_mines] if name.startswith(prefix)][:limit]

    def _move_suggestions(self, view: SeaBattleView, typed: str, limit: int) -> list[str]:
        """§5.4: ``stay``, or ``move`` built cell by cell, each next to one already named."""
        assert view.seat is not None
        words = typed.upper().replace(",", " ").split()
        if not words or (not "MOVE".startswith(words[0]) and words[0] != "MOVE"):
            return [m for m in ("stay", "move ") if m.startswith(typed.strip().lower())][:limit]
        ends_word = typed.endswith((" ", ","))
        cells_typed = words[1:]
        done, partial = (cells_typed, "") if ends_word else (cells_typed[:-1], cells_typed[-1:])
        size = view.size
        named: list[tuple[int, int]] = []
        for word in done:
            try:
                named.append(parse_cell(word, size, size))
            except GameError:
                return []
        decks = len(view.fields[view.seat].ships[0].cells) if view.fields[view.seat].ships else 0
        text = " ".join(["move", *(cell_name(c) for c in named)])
        if len(named) >= decks:
            return [text]
        start = "".join(partial)
        options = [
            (c, r)
            for r in range(size)
            for c in range(size)
            if (c, r) not in named
            and (not named or any(max(abs(c - x), abs(r - y)) == 1 for x, y in named))
            and cell_name((c, r)).startswith(start)
        ]
        return [f"{text} {cell_name(cell)}" for cell in options][:limit]

    def _salvo_suggestions(self, view: SeaBattleView, typed: str, limit: int) -> list[str]:
        """§4.3: the cells typed so far, completed by one more open cell until k are named."""
        assert view.seat is not None and view.salvo_size is not None
        words = typed.upper().replace(",", " ").split()
        ends_word = typed.endswith((" ", ",")) or not words
        done, partial = (words, "") if ends_word else (words[:-1], words[-1])
        target = view.fields[other(view.seat)]
        size = view.size
        named: list[str] = []
        for word in done:
            try:
                named.append(cell_name(parse_cell(word, size, size)))
            except GameError:
                return []
        if len(named) >= view.salvo_size:
            return [" ".join(named)]
        open_names = [
            cell_name((column, row))
            for row in range(size)
            for column in range(size)
            if target.mark((column, row)) in (Mark.SEA, Mark.CLEAR)
            and cell_name((column, row)) not in named
            and cell_name((column, row)).startswith(partial)
        ]
        return [" ".join([*named, name]) for name in open_names][:limit]

    # -- presentation and storage -------------------------------------------------------------

    def quick_moves(self, view: SeaBattleView) -> tuple[tuple[str, str], ...]:
        """During setup: a random fleet and, once the fleet is complete, confirming it; for
        the Flying Dutchman's captain after a hit, leaving the ship where it is (§5.4)."""
        if view.seat is not None and view.owed == (view.seat, dutchman.MOVE):
            return (("Stay", "stay"),)
        if view.phase is not Phase.SETUP or view.seat not in view.movers:
            return ()
        moves = [("Random fleet", "random")]
        if not view.to_place and not any(view.items_left):
            moves.append(("Ready", "ready"))
        return tuple(moves)

    def setup_text(self, view: SeaBattleView) -> str | None:
        """The viewer's fleet as one ``fleet`` move, so it can be saved and laid out again."""
        if view.seat is None:
            return None
        field = view.fields[view.seat]
        cells = [(c, r) for r in range(view.size) for c in range(view.size)]
        side = Side(
            ships=tuple(Ship(-1 if s.kind == SUBMARINE else 0, s.cells) for s in field.ships),
            mines=tuple(c for c in cells if field.mark(c) in (Mark.MINE, Mark.MINE_HIT)),
            sweepers=tuple(c for c in cells if field.mark(c) in (Mark.SWEEPER, Mark.SWEEPER_HIT)),
        )
        return setup.side_text(side, submarine=-1)

    def variant_name(self, rules: SeaBattleRules) -> str:
        """The nearest preset's name, then the option words that turn it into ``rules``."""
        return _variant_name(rules)

    def with_options(self, rules: SeaBattleRules, words: Sequence[str]) -> SeaBattleRules:
        return with_options(rules, words)

    def option_suggestions(self, rules: SeaBattleRules, typed: str, limit: int = 25) -> list[str]:
        return option_suggestions(rules, typed, limit)

    def describe(self, rules: SeaBattleRules) -> str:
        return texts.describe(rules, self.variant_name(rules))

    def setup_instructions(self, rules: SeaBattleRules) -> str:
        return texts.setup_instructions(rules)


def _known_empty(state: SeaBattleState, seat: int, cell: tuple[int, int]) -> bool:
    """Whether ``seat``'s own view of the enemy field shows ``cell`` empty, beside a sunk
    ship (§2.9): read from that view alone, so the answer tells nothing hidden."""
    if not _may_show_empty(state, seat):
        return False
    return field_of(state, other(seat), seat).mark(cell) is Mark.CLEAR


def _may_show_empty(state: SeaBattleState, seat: int) -> bool:
    """Whether ``seat``'s board can show any cell empty: only around a sunk ship (§2.9)."""
    return state.rules.marks_around_sunk and bool(state.sunk(other(seat)))


@lru_cache(maxsize=64)
def _variant_name(rules: SeaBattleRules) -> str:
    """Every view names its variant, and trying each preset costs a fifth of a millisecond;
    a game's rules never change, so each is named once."""
    names: list[list[str]] = []
    for name, preset in PRESETS.items():
        words = [word for word in rules.options if word not in preset.options]
        try:
            if with_options(preset, words) == rules:
                names.append([name, *words])
        except GameError:
            continue
    if not names:
        return "custom"
    shortest: list[str] = min(names, key=len)
    return " ".join(shortest)
