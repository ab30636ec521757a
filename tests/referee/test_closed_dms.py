"""The channel's note to a player whose DMs are closed, as the referee stores it.

It is a channel notice held by a change of its own: published like every stored change,
said once per public change however often the bot finds the DMs closed, never before the
first real move (the game is called off then) and never after the end.
"""

from __future__ import annotations

import random

from bot.referee import Referee, StoredChange, is_note
from bot.storage import GameRecord, SqliteRepository
from bot.storage.outbox import Backlog
from tests.referee.test_referee import random_move, set_fleets, start_game, state_of


async def channel_notes(repo: SqliteRepository, game_id: int) -> list[tuple[str, ...]]:
    """The notes among everything the channel is owed now, which is then delivered."""
    notes = []
    while (batch := await repo.outbox.claim(Backlog(game_id, None))) is not None:
        notes += [texts for texts in batch.texts if is_note(texts)]
        await repo.outbox.release(batch)
    return notes


async def shoot(referee: Referee, game: GameRecord, rng: random.Random) -> GameRecord:
    user, move = random_move(rng, game, state_of(game))
    return (await referee.act(user, f"#{game.id} {move}")).game


async def test_the_note_is_held_once_per_public_change_and_never_after_the_end(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await set_fleets(referee, await start_game(referee))
    rng = random.Random(3)
    game = await shoot(referee, game, rng)
    await channel_notes(repo, game.id)
    published: list[StoredChange] = []
    referee.changes.subscribe(published.append)

    await referee.dms_closed(game.id, 1)
    await referee.dms_closed(game.id, 1)  # a retry of the same notice, or a reminder
    note = (
        "{seat1}, I cannot send you your board for **Sea Battle #1**: allow direct "
        "messages from this server's members, then use `/board`."
    )
    assert await channel_notes(repo, game.id) == [(note,)]
    assert [(change.game.id, change.told) for change in published] == [(game.id, (None,))]
    stored = await repo.get_game(game.id)
    assert stored is not None and (stored.ply, stored.updated_at) == (game.ply, game.updated_at)

    await referee.dms_closed(game.id, 1)  # asked again, nothing changed in public since
    assert await channel_notes(repo, game.id) == []

    game = await shoot(referee, game, rng)
    await referee.dms_closed(game.id, 1)
    assert await channel_notes(repo, game.id) == [(note,)]

    await referee.resign(game.seats[0], game.id)
    await referee.dms_closed(game.id, 1)
    assert await channel_notes(repo, game.id) == []


async def test_closed_dms_before_the_first_shot_call_the_game_off_without_a_note(
    repo: SqliteRepository, referee: Referee
) -> None:
    game = await set_fleets(referee, await start_game(referee))
    await channel_notes(repo, game.id)
    await referee.dms_closed(game.id, 0)
    stored = await repo.get_game(game.id)
    assert stored is not None and stored.end_reason == "aborted"
    assert await channel_notes(repo, game.id) == []
