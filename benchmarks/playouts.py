"""Whole games played through the referee with random legal moves, for benchmarks and tests.

Each player sets up the way players do (``random``, then ``ready``) and then plays a
uniformly random legal move; a game still running after ``max_plies`` moves is resigned by
the player to move, so every playout ends and stays as long as asked.
"""

from __future__ import annotations

import random

from benchmarks.common import setup_moves, start_game
from bot.games import ENGINES
from bot.referee import Referee
from bot.storage import GameRecord


async def play_out(
    referee: Referee,
    game_key: str,
    *,
    variant: str | None = None,
    options: str | None = None,
    players: tuple[int, int] = (1001, 1002),
    seed: int = 2026,
    max_plies: int = 120,
) -> GameRecord:
    """A finished game of ``game_key`` between ``players``, as stored."""
    engine = ENGINES[game_key]
    rng = random.Random(seed)
    game = await start_game(referee, game_key, players, variant=variant, options=options)
    pending = setup_moves(engine, engine.from_json(game.state))
    plies = 0
    while True:
        record = await referee.repository.get_game(game.id)
        assert record is not None
        if record.end_reason is not None:
            return record
        if pending:
            seat, text = pending.pop(0)
        else:
            state = engine.from_json(record.state)
            seat = sorted(engine.to_move(state))[0]
            if plies >= max_plies:
                await referee.resign(players[seat], game.id)
                continue
            text = str(rng.choice(list(engine.legal_actions(state, seat))))
        plies += 1
        await referee.act(players[seat], f"#{game.id} {text}")
