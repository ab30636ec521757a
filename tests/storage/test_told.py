"""Each audience's notices are numbered by what that audience was told, on both stores.

A message's nonce reaches whoever reads the message, so it is made of this number, never
of the game's ply: the ply counts every change, the other player's secret setup edits too.
"""

from __future__ import annotations

from pathlib import Path

from bot.referee import Referee
from bot.storage import Repository, SqliteRepository
from bot.storage.outbox import Backlog, Batch
from tests.referee.test_referee import start_game
from tests.storage.helpers import old_database, sql


async def delivered(repo: Repository, backlog: Backlog) -> list[Batch]:
    """Every batch of the backlog, one notice each, as the deliverer would send them."""
    batches = []
    while (batch := await repo.outbox.claim(backlog, merge=False)) is not None:
        batches.append(batch)
        await repo.outbox.release(batch)
    return batches


async def test_each_audience_counts_only_its_own_notices(repo: Repository) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    editor, other = game.seats
    first = {backlog: await delivered(repo, backlog) for backlog in await repo.outbox.backlogs()}
    assert [p.told for batches in first.values() for p in batches] == [1, 1, 1]

    for _ in range(3):  # seat 0 re-deals in secret: only seat 0 hears of it
        await referee.act(editor, f"#{game.id} random")
    await referee.act(other, f"#{game.id} random")
    await referee.act(other, f"#{game.id} ready")  # the channel hears of this one

    told = {
        audience: [p.told for p in await delivered(repo, Backlog(game.id, audience))]
        for audience in (0, 1, None)
    }
    assert told == {0: [2, 3, 4], 1: [2, 3], None: [2]}


async def test_a_nonce_names_the_audiences_count_never_the_ply(repo: Repository) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    for backlog in await repo.outbox.backlogs():
        await delivered(repo, backlog)
    for _ in range(5):
        await referee.act(game.seats[0], f"#{game.id} random")
    await referee.act(game.seats[1], f"#{game.id} random")
    (batch,) = await delivered(repo, Backlog(game.id, 1))
    assert batch.nonce == f"{game.id}.1.n2"
    assert len(batch.nonce) <= 25


async def test_notices_waiting_in_an_older_database_are_numbered_as_they_stand(
    path: Path,
) -> None:
    with old_database(path, 16) as old:
        old.execute(
            "INSERT INTO games (id, game, rules, seed, channel_id, seat0_id, seat1_id,"
            " status, ply, state, created_at, updated_at)"
            " VALUES (1, 'seabattle', '{}', 1, 9, 2, 3, 'active', 5, '{}', 0, 0)"
        )
        old.executemany(
            "INSERT INTO notices (game_id, audience, ply, texts, created_at)"
            " VALUES (1, ?, ?, '[\"news\"]', 0)",
            [(0, 3), (0, 5), (-1, 5)],
        )
    repository = await SqliteRepository.open(path)
    try:
        told = {
            audience: [p.told for p in await delivered(repository, Backlog(1, audience))]
            for audience in (0, 1, None)
        }
        assert told == {0: [1, 2], 1: [], None: [1]}
    finally:
        await repository.close()
    assert sql(path, "SELECT told_seat0, told_seat1, told_channel FROM games") == [(2, 0, 1)]


async def test_a_notice_held_once_at_a_told_ply_waits_behind_the_claim_and_goes_once(
    repo: Repository,
) -> None:
    """The channel's note to a player whose DMs are closed is held at the ply the channel
    was already told of, while that notice is claimed: the release takes only the claimed
    notice, and the note is the backlog's next message, numbered after it."""
    game = await start_game(Referee(repo))
    backlog = Backlog(game.id, None)
    news = await repo.outbox.claim(backlog)
    assert news is not None and news.told == 1
    stored = await repo.get_game(game.id)
    assert stored is not None and stored.ply == news.last_ply
    note = ((None, ("{seat1}, open your DMs",)),)

    assert await repo.hold_once(stored, note, once="k", mark="at 1")
    assert not await repo.hold_once(stored, note, once="k", mark="at 1")  # asked again
    assert await repo.outbox.release(news)  # the note still waits

    (batch,) = await delivered(repo, backlog)
    assert (batch.plies, batch.texts, batch.told) == ((stored.ply,), (note[0][1],), 2)
    assert await repo.outbox.waiting() == 2  # the seats' first notices, untouched
    assert not await repo.hold_once(stored, note, once="k", mark="at 1")
    assert await repo.hold_once(stored, note, once="k", mark="at 2")  # a later change


async def test_notices_of_an_older_database_keep_their_numbers_under_the_new_key(
    path: Path,
) -> None:
    """Migration 18 keys notices by their number too; waiting ones keep theirs and their
    claim, and a second notice at the same ply can be held."""
    with old_database(path, 18) as old:
        old.execute(
            "INSERT INTO games (id, game, rules, seed, channel_id, seat0_id, seat1_id,"
            " status, ply, state, created_at, updated_at, told_channel)"
            " VALUES (1, 'seabattle', '{}', 1, 9, 2, 3, 'active', 5, '{}', 0, 0, 2)"
        )
        old.executemany(
            "INSERT INTO notices (game_id, audience, ply, texts, claimed, created_at, told)"
            " VALUES (1, -1, ?, '[\"news\"]', ?, 0, ?)",
            [(3, 1, 1), (5, 0, 2)],
        )
    repository = await SqliteRepository.open(path)
    try:
        game = await repository.get_game(1)
        assert game is not None
        assert await repository.hold_once(game, ((None, ("note",)),), once="k", mark="1")
        batch = await repository.outbox.claim(Backlog(1, None))
        assert batch is not None
        assert (batch.plies, batch.told) == ((3, 5, 5), 1)
        assert batch.texts == (("news",), ("news",), ("note",))
    finally:
        await repository.close()
    assert sql(path, "SELECT told FROM notices ORDER BY told") == [(1,), (2,), (3,)]
