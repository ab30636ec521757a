"""A computer player for any game: legal moves from the view (``Engine.legal_moves``).

Every engine lists, from a view alone, the moves its viewer may make, so a player that
picks among them is legal in every game and every variant by construction. In a setup it
takes the engine's own random legal setup (the one a person gets at the start, or by
writing ``random``) and confirms it.
"""

from __future__ import annotations

from bot.ai.core import Seen
from bot.games import ENGINES
from bot.games.core import Phase


def legal_texts(game: str, seen: Seen) -> list[str]:
    """Every move the view's seat may make now, in the game's notation."""
    return ENGINES[game].legal_moves(seen.view)


def setup_move(game: str, seen: Seen) -> str:
    """Confirm the setup once it is complete, else ask the engine for a random legal one.

    The engine deals it from the game's seed, as it deals a person's: reproducible, since a
    restarted bot replays the same ``random`` from the log to the same setup, and as secret
    as a person's, since the seed is drawn by the bot and shown only as a seal until the
    game ends. The computer never sees the seed; it only asks for the deal.
    """
    offered = {move for _, move in ENGINES[game].quick_moves(seen.view)}
    return "ready" if "ready" in offered else "random"


class RandomPlayer:
    """Uniformly random legal moves: the casual level, and the benchmark's weakest rival."""

    def __init__(self, game: str) -> None:
        self.game = game

    def decide(self, seen: Seen) -> str:
        if seen.view.phase is Phase.SETUP:
            return setup_move(self.game, seen)
        moves = [m for m in legal_texts(self.game, seen) if "draw" not in m]
        return seen.dice().choice(moves or legal_texts(self.game, seen))
