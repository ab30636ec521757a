"""Each audience's notices are numbered by what that audience was told, on both stores.

A message's nonce reaches whoever reads the message, so it is made of this number, never
of the game's ply: the ply counts every change, the other player's secret setup edits too.
"""

from __future__ import annotations

from pathlib import Path

from bot.referee import Referee
from bot.storage import Repository, SqliteRepository
from bot.storage.outbox import Lane, Parcel
from tests.storage.helpers import old_database, sql
from tests.test_referee import start_game


async def delivered(repo: Repository, lane: Lane) -> list[Parcel]:
    """Every parcel of the lane, one notice each, as the deliverer would send them."""
    parcels = []
    while (parcel := await repo.outbox.claim(lane, merge=False)) is not None:
        parcels.append(parcel)
        await repo.outbox.release(parcel)
    return parcels


async def test_each_audience_counts_only_its_own_notices(repo: Repository) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    editor, other = game.seats
    first = {lane: await delivered(repo, lane) for lane in await repo.outbox.lanes()}
    assert [p.told for parcels in first.values() for p in parcels] == [1, 1, 1]

    for _ in range(3):  # seat 0 re-deals in secret: only seat 0 hears of it
        await referee.act(editor, f"#{game.id} random")
    await referee.act(other, f"#{game.id} random")
    await referee.act(other, f"#{game.id} ready")  # the channel hears of this one

    told = {
        audience: [p.told for p in await delivered(repo, Lane(game.id, audience))]
        for audience in (0, 1, None)
    }
    assert told == {0: [2, 3, 4], 1: [2, 3], None: [2]}


async def test_a_nonce_names_the_audiences_count_never_the_ply(repo: Repository) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    for lane in await repo.outbox.lanes():
        await delivered(repo, lane)
    for _ in range(5):
        await referee.act(game.seats[0], f"#{game.id} random")
    await referee.act(game.seats[1], f"#{game.id} random")
    (parcel,) = await delivered(repo, Lane(game.id, 1))
    assert parcel.nonce == f"{game.id}.1.n2"
    assert len(parcel.nonce) <= 25


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
            audience: [p.told for p in await delivered(repository, Lane(1, audience))]
            for audience in (0, 1, None)
        }
        assert told == {0: [1, 2], 1: [], None: [1]}
    finally:
        await repository.close()
    assert sql(path, "SELECT told_seat0, told_seat1, told_channel FROM games") == [(2, 0, 1)]
