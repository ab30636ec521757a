"""A Marine Game turn (Marine Game rules §5-§9): the move, its takings, the end checks,
and what the mover, the opponent and the channel are told about it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.games.core import EndReason, Event, Outcome, Phase, Transition, name_of, other
from bot.games.draws import AGREED
from bot.games.marine import moves, taking
from bot.games.marine.actions import Move
from bot.games.marine.board import BATTLESHIP_HARBOURS, U_BOAT_HARBOURS
from bot.games.marine.pieces import SIDE_NAMES, Piece, where
from bot.games.marine.state import LastMove, MarineState
from bot.games.words import with_article

HARBOUR = "reached the enemy harbour"
STUCK = "the opponent had no legal move"
QUIET = "plies in a row without a piece taken"


def reached_harbour(piece: Piece) -> bool:
    """§7.1: a battleship on the enemy battleship harbour or a U-boat in the enemy U-boat one."""
    enemy = 1 - piece.side
    if isinstance(piece.point, str):
        return piece.point == U_BOAT_HARBOURS[enemy]
    return piece.point in BATTLESHIP_HARBOURS[enemy]


def move(state: MarineState, seat: int, action: Move) -> Transition:
    """Move one piece (§5), take what §6 takes, then see whether the game is over (§7, §8)."""
    side = state.side_of(seat)
    piece, via = moves.check(state.at, side, action)
    arrived = replace(piece, point=action.end)
    at = {p: q for p, q in state.at.items() if p != action.start}
    at[action.end] = arrived
    victims, suicide = taking.resolve(at, arrived)
    taken = (*victims, *((arrived,) if suicide else ()))
    for gone in taken:
        del at[gone.point]
    last = LastMove(side, piece.kind, action.start, action.end, via, tuple(taken))
    new = replace(
        state.with_pieces(list(at.values())),
        turn=other(seat),
        last=last,
        losses=(*state.losses, *taken),
        plies=state.plies + 1,
        quiet=0 if taken else state.quiet + 1,
        draw_offer=None if state.draw_offer == other(seat) else state.draw_offer,
    )
    said = _news(seat, piece, last)
    # §8.3: a win by §7.1 first, then the draw of §8.2, which ends the game before the
    # opponent's turn comes; only then §7.2, which belongs to that turn
    if not suicide and reached_harbour(arrived):
        return finish(new, said, Outcome(seat, EndReason.RULES, HARBOUR))
    if new.quiet >= state.rules.quiet_plies:
        detail = f"{state.rules.quiet_plies} {QUIET}"
        return finish(new, said, Outcome(None, EndReason.RULES, detail))
    if not moves.has_move(new.at, 1 - side):
        return finish(new, said, Outcome(seat, EndReason.RULES, STUCK))
    return Transition(new, tuple(said))


ENDINGS = {
    HARBOUR: "a piece reached the enemy harbour",
    STUCK: "the player to move had no legal move",
    AGREED: "the players agreed to a draw",
}


def finish(state: MarineState, said: Sequence[Event], outcome: Outcome) -> Transition:
    """The game ends at once; everyone is told why."""
    new = replace(state, phase=Phase.FINISHED, turn=None, outcome=outcome, draw_offer=None)
    why = ENDINGS.get(outcome.detail, outcome.detail)
    over = f"The game is over: {why}."
    return Transition(new, (*said, Event(0, over), Event(1, over), Event(None, over)))


def _news(seat: int, piece: Piece, last: LastMove) -> list[Event]:
    """§9: the move and every piece it took, with its owner, for each audience."""
    route = f"{last.start}-{last.end}" + (f" (by {last.via})" if last.via is not None else "")
    enemy = [p for p in last.taken if p.side != piece.side]
    suicide = len(enemy) != len(last.taken)
    noun = piece.kind.noun
    side = SIDE_NAMES[piece.side]

    def lost(pieces: list[Piece], owner: str) -> str:
        names = [f"{owner} {p.kind.noun} {where(p.point)}" for p in pieces]
        return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)

    mine = f"You moved your {noun} {route}."
    theirs = f"Your opponent moved their {noun} {route}."
    public = f"{name_of(seat)} ({side}) moved {with_article(noun)} {route}."
    if enemy:
        mine += f" It took {lost(enemy, 'the enemy')}."
        theirs += f" It took {lost(enemy, 'your')}."
        owner = SIDE_NAMES[1 - piece.side] + "'s"
        public += f" It took {lost(enemy, owner)}."
    if suicide:
        hunter = taking.PREDATOR[piece.kind].noun
        mine += f" Your {noun} was taken on arrival by an enemy {hunter}."
        theirs += f" Their {noun} was taken on arrival by your {hunter}."
        public += f" The {noun} was taken on arrival by {with_article(hunter)}."
    return [Event(seat, mine), Event(other(seat), theirs), Event(None, public)]
