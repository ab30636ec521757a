"""Seeded games between two computer players, straight through the engine.

Each player is handed exactly what the bot hands the computer: its seat's view, every text
its seat was told, the rules and the game's seed. The figures: the first player's wins,
draws and losses, and its thinking time per move.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bot.ai.core import Player, Seen, dice_seed_for
from bot.games import ENGINES
from bot.games.core import GameError
from bot.games.marine import moves
from bot.games.marine.view import MarineView

MAX_PLIES = 3000
"""A game still running after this many moves counts as a draw."""


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    think: list[float] = field(default_factory=list)
    illegal: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def p95_ms(self) -> float:
        ordered = sorted(self.think)
        return ordered[int(len(ordered) * 0.95)] * 1000 if ordered else 0.0


def duel(
    game: str,
    variant: str | None,
    seed: int,
    players: tuple[Player, Player],
    tally: Tally,
    options: str = "",
    max_plies: int = MAX_PLIES,
) -> None:
    """One game; ``players[0]`` is the measured one and sits in seat ``seed % 2``."""
    engine = ENGINES[game]
    rules = engine.configure(variant, options)
    state = engine.new_game(rules, seed)
    measured = seed % 2
    by_seat = {measured: players[0], 1 - measured: players[1]}
    heard: dict[int, list[str]] = {0: [], 1: []}
    for ply in range(max_plies):
        outcome = engine.outcome(state)
        if outcome is not None:
            break
        for seat in sorted(engine.view(state, None).movers):
            seen = Seen(
                rules, engine.view(state, seat), tuple(heard[seat]), dice_seed_for(seed, seat), ply
            )
            start = time.perf_counter()
            text = by_seat[seat].decide(seen)
            if seat == measured:
                tally.think.append(time.perf_counter() - start)
            try:
                transition = engine.act(state, seat, text)
            except GameError:
                tally.illegal += 1
                raise
            state = transition.state
            for other_seat in (0, 1):
                heard[other_seat].extend(e.text for e in transition.for_audience(other_seat))
            break  # one move per step: in setup the other seat moves next step
    outcome = engine.outcome(state)
    if outcome is None or outcome.winner is None:
        tally.draws += 1
    elif outcome.winner == measured:
        tally.wins += 1
    else:
        tally.losses += 1


class MarineGreedy:
    """The Marine Game baseline: a win or the richest safe capture, else a step to harbour."""

    def decide(self, seen: Seen) -> str:
        from bot.ai.marine import TO_HARBOUR, play

        view = seen.view
        assert isinstance(view, MarineView)
        side = view.side_of(seen.seat)
        at = view.at
        dice = seen.dice("greedy")
        best: list[tuple[float, str]] = []
        for move in moves.legal_moves(at, side):
            _, won, gained = play(at, move)
            piece = at[move.start]
            closer = TO_HARBOUR[side][move.start] - TO_HARBOUR[side][move.end]
            score = 1e9 if won else gained * 1000 + closer if gained >= 0 else -1e6
            best.append((score + dice.random() * 0.5, str(move)))
            del piece
        return max(best)[1]


class LuzhanqiGreedy:
    """The Luzhanqi baseline: attacks with an officer it believes wins (a major general or
    above, against a blank piece), else moves a piece as far toward the enemy as it can."""

    def decide(self, seen: Seen) -> str:
        from bot.ai.generic import RandomPlayer, setup_move
        from bot.games.core import Phase
        from bot.games.luzhanqi import moves as lz_moves
        from bot.games.luzhanqi.actions import Move as LzMove
        from bot.games.luzhanqi.board import Colour, rank_of
        from bot.games.luzhanqi.view import LuzhanqiView

        view = seen.view
        assert isinstance(view, LuzhanqiView)
        if view.phase is Phase.SETUP:
            return setup_move("luzhanqi", seen)
        colour = view.colour
        if colour is None or view.rules.flip:
            return RandomPlayer("luzhanqi").decide(seen)
        ahead = 1 if colour is Colour.RED else -1
        dice = seen.dice("greedy")
        options = []
        for start, target in lz_moves.legal_moves(
            view.pieces, colour, view.rules, view.mines_by_colour()
        ):
            mover, defender = view.pieces[start], view.pieces[target]
            rank = mover.kind.rank if mover is not None and mover.kind is not None else None
            if defender is not None:
                score = 100.0 if rank is not None and rank >= 7 else -100.0
            else:
                score = float((rank_of(target) - rank_of(start)) * ahead)
            options.append((score + dice.random() * 0.5, str(LzMove(start, target))))
        return max(options)[1] if options else RandomPlayer("luzhanqi").decide(seen)


def play_series(
    game: str, variant: str | None, games: int, measured: Player, rival: Player, seed_base: int = 0
) -> Tally:
    tally = Tally()
    for seed in range(seed_base, seed_base + games):
        duel(game, variant, seed, (measured, rival), tally)
    return tally


def random_seed(label: str) -> int:
    return random.Random(label).randrange(1 << 30)
