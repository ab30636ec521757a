"""How a Luzhanqi game ends: the checks after every ply (8.2-8.4, A10, A11, W2), the end
itself, and the draw by agreement (8.5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.core import SEATS, EndReason, Event, Outcome, Phase, Transition, name_of, other
from bot.games.draws import DrawAction, play_draw
from bot.games.luzhanqi import moves
from bot.games.luzhanqi.rules import WinRule
from bot.games.luzhanqi.state import LuzhanqiState


def end_game(
    state: LuzhanqiState, outcome: Outcome, said: Sequence[Event], texts: Sequence[str]
) -> Transition:
    """Finish the game; ``texts`` are what the winner (or seat 0 in a draw) and the
    other seat are told. The channel gets the result with names."""
    new = replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome, draw_offer=None)
    winner = outcome.winner
    first = winner if winner is not None else 0
    events = list(said)
    events.append(Event(first, texts[0]))
    events.append(Event(other(first), texts[1]))
    if winner is None:
        events.append(Event(None, f"The game is drawn: {outcome.detail}."))
    else:
        events.append(Event(None, f"{name_of(winner)} wins: {outcome.detail}."))
    return Transition(new, tuple(events))


def draw(state: LuzhanqiState, seat: int, action: DrawAction) -> Transition:
    """8.5: a draw offered during one's own turn (the turn goes on, and the offer stands
    until the opponent's next turn ends), or the opponent's standing offer accepted, which
    ends the game drawn at once."""
    mine = "You accepted the draw: the game is drawn."
    theirs = "Your opponent accepted your draw offer: the game is drawn."
    texts = (mine, theirs) if seat == 0 else (theirs, mine)

    def drawn(new: LuzhanqiState, said: Sequence[Event], outcome: Outcome) -> Transition:
        return end_game(new, outcome, said, texts)

    return play_draw(state, seat, action, drawn)


def w2_end(mover: int, mover_can: bool, rival_can: bool) -> tuple[Outcome, tuple[str, str]] | None:
    """W2 after a ply: whoever has no movable piece left has lost, whether or not they
    moved; a clash that removes the last movable pieces of both sides is a draw. Returns
    the outcome and what the winner (or seat 0 in a draw) and the other seat are told."""
    if mover_can and rival_can:
        return None
    if not mover_can and not rival_can:
        said = "Neither side has a movable piece left: a draw."
        return Outcome(None, EndReason.RULES, "no movable pieces left"), (said, said)
    if mover_can:
        return Outcome(mover, EndReason.RULES, "removed every movable enemy piece"), (
            "You removed every movable enemy piece: you win!",
            "All your movable pieces are gone: you lose.",
        )
    return Outcome(other(mover), EndReason.RULES, "lost every movable piece of their own"), (
        "Your opponent lost their last movable piece: you win!",
        "Your last movable piece is gone: you lose.",
    )


def finish_ply(state: LuzhanqiState, seat: int, said: list[Event]) -> Transition:
    """Pass the turn, then apply the end rules 8.2-8.4, A10, A11 and W2."""
    lapsed = state.draw_offer == other(seat)  # 8.5: playing on declines
    new = replace(
        state,
        plies=state.plies + 1,
        turn=other(seat),
        draw_offer=None if lapsed else state.draw_offer,
    )
    rival = other(seat)
    mine, theirs = new.colour_of(seat), new.colour_of(rival)
    if new.rules.win is WinRule.W2 and mine and theirs:  # 10.4, A10: for both sides
        w2 = w2_end(seat, new.movable_left(mine) > 0, new.movable_left(theirs) > 0)
        if w2 is not None:
            return end_game(new, w2[0], said, w2[1])
    can_move = [has_action(new, s) for s in SEATS]
    if not any(can_move):  # 8.3 / R-7
        return end_game(
            new,
            Outcome(None, EndReason.RULES, "neither side can move"),
            said,
            ("Neither side can move any more: the game is drawn.",) * 2,
        )
    if not can_move[rival]:  # 8.2
        return end_game(
            new,
            Outcome(seat, EndReason.RULES, "the opponent had no legal move"),
            said,
            (
                "Your opponent has no legal move left: you win!",
                "You have no legal move left: you lose.",
            ),
        )
    if new.quiet >= new.rules.quiet_limit:  # 8.4 / A11
        return end_game(
            new,
            Outcome(None, EndReason.RULES, f"{new.quiet} plies without an attack"),
            said,
            (f"{new.quiet} plies without an attack: the game is drawn.",) * 2,
        )
    return Transition(new, tuple(said))


def has_action(state: LuzhanqiState, seat: int) -> bool:
    """Whether ``seat`` has any move or flip (draw words aside): rules 8.2 and A10."""
    if state.rules.flip and any(p is not None and not p.face_up for p in state.board):
        return True
    colour = state.colour_of(seat)
    return colour is not None and moves.has_move(
        state.board, colour, state.rules, state.mines_left()
    )
