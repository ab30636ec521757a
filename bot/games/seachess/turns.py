"""One turn of Seachess: the two-step acceptance test of §7.2a, private and public refusals
(§7.2–7.3), the effects of the move, the start of the next turn (§5.4), check (§7.5),
checkmate and stalemate (§7.1a) and the draws of §8.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from bot.games.core import (
    EndReason,
    Event,
    IllegalActionError,
    Outcome,
    Phase,
    Transition,
    name_of,
)
from bot.games.draws import check_acceptable
from bot.games.seachess import actions as act
from bot.games.seachess.changes import Barred, Notes
from bot.games.seachess.effects import perform
from bot.games.seachess.moves import candidates
from bot.games.seachess.pieces import COLOURS, Kind
from bot.games.seachess.position import Position, attackers, in_check
from bot.games.seachess.state import SeachessState, position_key
from bot.games.seachess.submarines import count_turn, surface
from bot.games.seachess.texts import check_texts, explain, final_texts
from bot.games.turns import check_turn

QUIET_LIMIT = 100
REPETITIONS = 4


def accepted_in(pos: Position, seat: int, action: act.Action) -> bool:
    """Whether ``action`` leaves ``seat``'s commando ship safe in ``pos`` (§7.1)."""
    trial = pos.copy()
    try:
        perform(trial, seat, action)
    except Barred:
        return False
    return not in_check(trial, seat)


def playable(state: SeachessState, seat: int) -> Iterator[act.Action]:
    """Every move §7.2a accepts: legal in the mover's view and in the true position."""
    known = state.known_to(seat)
    same = not any(o != seat for _, o in state.mines) and not any(
        s.owner != seat for s in state.subs
    )
    truth = known if same else state.position()
    for action in list(candidates(known, seat)):
        if accepted_in(known, seat, action) and (same or accepted_in(truth, seat, action)):
            yield action


def view_legal(known: Position, seat: int) -> Iterator[act.Action]:
    """Moves legal in a view position alone: what autocomplete may offer."""
    for action in list(candidates(known, seat)):
        if accepted_in(known, seat, action):
            yield action


def play(state: SeachessState, seat: int, action: act.Action) -> Transition:
    check_turn(state, seat)
    if isinstance(action, act.OfferDraw | act.AcceptDraw):
        return _draw(state, seat, isinstance(action, act.OfferDraw))
    text = str(action)
    if text in state.refused:  # §7.3: refused again, silently
        raise IllegalActionError(f"`{text}` was already refused this turn; try another move.")
    known = state.known_to(seat)
    if action not in set(candidates(known, seat)):
        raise IllegalActionError(explain(known, seat, action))
    trial = known.copy()
    try:
        perform(trial, seat, action)
    except Barred as barred:
        raise IllegalActionError(
            "Your commando ship cannot castle now: it is in check, or would cross or land on "
            "an attacked square."
            if not barred.mine
            else "A mine blocks your commando ship."
        ) from None
    if in_check(trial, seat):
        raise IllegalActionError("That would leave your commando ship in check.")
    truth = state.position()
    notes = Notes()
    try:
        perform(truth, seat, action, notes)
        mine = None if not in_check(truth, seat) else False
    except Barred as barred:
        mine = barred.mine
    if mine is not None:
        return _public_refusal(state, seat, action, mine)
    return _finish(state, seat, truth, notes)


def _public_refusal(state: SeachessState, seat: int, action: act.Action, mine: bool) -> Transition:
    """§7.3: refused because of the opponent's hidden material; everyone hears of it."""
    why = "a mine blocks the commando ship" if mine else "your commando ship would be in check"
    attempt = "a hidden move" if isinstance(action, act.HIDDEN) else f"`{action}`"
    said = f"{COLOURS[seat]} tried {attempt}; it was refused as impossible."
    return Transition(
        replace(state, refused=(*state.refused, str(action))),
        (
            Event(seat, f"Impossible: {why}. Your move still stands; try another."),
            Event(1 - seat, said),
            Event(None, said),
        ),
    )


def _draw(state: SeachessState, seat: int, offer: bool) -> Transition:
    foe = 1 - seat
    if offer:
        if state.draw_offer is not None:
            raise IllegalActionError("A draw offer already stands.")
        return Transition(
            replace(state, draw_offer=seat),
            (
                Event(seat, "You offer a draw; it stands until your opponent's next move."),
                Event(
                    foe,
                    f"{COLOURS[seat]} offers a draw: write `accept draw` on your move, "
                    "or play on to decline.",
                ),
                Event(None, f"{name_of(seat)} offers a draw."),
            ),
        )
    check_acceptable(state, seat)
    outcome = Outcome(None, EndReason.RULES, "draw agreed")
    ended = replace(state, phase=Phase.FINISHED, draw_offer=None, outcome=outcome)
    return Transition(ended, final_texts(ended))


def _finish(state: SeachessState, seat: int, truth: Position, notes: Notes) -> Transition:
    """The move stands: count it, start the opponent's turn, announce, judge the end."""
    foe = 1 - seat
    count_turn(truth, seat)
    truth.ply += 1
    truth.turn = foe
    for sub in sorted(truth.subs, key=lambda s: (s.square, s.owner)):
        if sub.owner == foe and sub.surfaces_at == truth.ply:  # §5.4
            surface(truth, sub, notes, "its dive is over", "")
    events = [Event(seat, text) for text in notes.mover]
    events += [Event(audience, text) for text in notes.public for audience in (foe, None)]
    checks = (in_check(truth, 0), in_check(truth, 1))
    for checked in (foe, seat):
        if checks[checked]:
            found = list(attackers(truth, truth.king(checked) or 0, 1 - checked))
            events += check_texts(checked, found)
    reset = notes.removal or notes.boat
    key = position_key(truth)
    history = (key,) if reset else (*state.history, key)
    new = state.with_position(truth)
    new = replace(
        new,
        quiet=0 if reset else state.quiet + 1,
        history=history,
        refused=(),
        draw_offer=state.draw_offer if state.draw_offer == seat else None,
        checks=checks,
        last=notes.last,
        record=(*state.record, " ".join(notes.author) or "?"),
    )
    outcome = _judge(new, foe)
    if outcome is None:
        return Transition(new, tuple(events))
    ended = replace(new, phase=Phase.FINISHED, outcome=outcome)
    return Transition(ended, tuple(events) + final_texts(ended))


def _judge(state: SeachessState, mover: int) -> Outcome | None:
    """§7.1a and §8, tested at the start of ``mover``'s turn."""
    if next(playable(state, mover), None) is None:
        if state.checks[mover]:
            return Outcome(1 - mover, EndReason.RULES, "checkmate")
        return Outcome(None, EndReason.RULES, "stalemate")
    if all(p.kind is Kind.COMMANDO for _, p in state.pieces) and not state.subs:
        return Outcome(None, EndReason.RULES, "only the commando ships are left")
    if state.quiet >= QUIET_LIMIT:
        return Outcome(None, EndReason.RULES, "100 turns without a capture or boat move")
    if state.history.count(state.history[-1]) >= REPETITIONS:
        return Outcome(None, EndReason.RULES, "the same position for the fourth time")
    return None
