"""The store's records beside the games themselves: the notices each audience is owed and
the saved setups (challenges: ``test_challenges``; migrations: ``test_migrations``).

Each promise holds on both stores, a SQLite file and a real PostgreSQL server (the
``repo`` fixture of this folder's ``conftest``), unless SQLite keeps it by its own means.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.referee import Referee
from bot.storage import LogKind, SqliteRepository, StaleGameError
from bot.storage.outbox import MERGED_TEXT_BUDGET, Backlog
from tests.referee.test_referee import ALICE, start_game

# -- the notices each audience is owed ----------------------------------------------------------


async def test_a_move_returns_the_live_message_posted_since_the_game_was_read(
    repo: SqliteRepository,
) -> None:
    """The Discord sender edits the live message the move returns: one posted meanwhile counts."""
    game = await start_game(Referee(repo))
    assert game.public_message_id is None
    await repo.set_public_message(game.id, 4242)
    moved = await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=game.state)
    assert moved.public_message_id == 4242


async def test_notices_are_held_per_audience_with_their_change_and_released_per_audience(
    repo: SqliteRepository,
) -> None:
    """The outbox: what to tell whom is stored in the move's own transaction, and each
    audience's progress is its own: one delivered backlog leaves the others waiting."""
    referee = Referee(repo)
    game = await start_game(referee)
    assert await repo.outbox.backlogs() == [
        Backlog(game.id, 0),
        Backlog(game.id, 1),
        Backlog(game.id, None),
    ]
    for backlog in await repo.outbox.backlogs():
        batch = await repo.outbox.claim(backlog)
        assert batch is not None and batch.plies == (0,)
        await repo.outbox.release(batch)
    told = ((0, ("Placed.",)), (None, ("Ready.", "Waiting.")))
    moved = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, audience_texts=told
    )
    assert await repo.outbox.backlogs() == [Backlog(game.id, 0), Backlog(game.id, None)]
    with pytest.raises(StaleGameError):  # a refused move holds nothing
        await repo.append(
            game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, audience_texts=told
        )
    assert await repo.outbox.waiting() == 2
    seat = await repo.outbox.claim(Backlog(game.id, 0))
    assert seat is not None and (seat.plies, seat.texts) == ((moved.ply,), (("Placed.",),))
    await repo.outbox.release(seat)
    assert await repo.outbox.backlogs() == [Backlog(game.id, None)]  # the channel still waits
    channel = await repo.outbox.claim(Backlog(game.id, None))
    assert channel is not None and channel.texts == (("Ready.", "Waiting."),)
    assert not channel.final


async def test_a_release_says_whether_the_backlog_holds_more_notices(
    repo: SqliteRepository,
) -> None:
    """The deliverer stops a backlog on the release's word, without another look: so the
    word is True exactly while notices other than the released ones wait in the backlog."""
    referee = Referee(repo)
    game = await start_game(referee)
    told = ((0, ("Placed.",)),)
    moved = await repo.append(
        game, seat=0, kind=LogKind.MOVE, text="random", state=game.state, audience_texts=told
    )
    first = await repo.outbox.claim(Backlog(game.id, 0), merge=False)
    assert first is not None and first.plies == (0,)
    assert await repo.outbox.release(first) is True  # the move's notice still waits
    second = await repo.outbox.claim(Backlog(game.id, 0), merge=False)
    assert second is not None and second.plies == (moved.ply,)
    assert await repo.outbox.release(second) is False
    channel = await repo.outbox.claim(Backlog(game.id, None))
    assert channel is not None
    await repo.append(moved, seat=1, kind=LogKind.MOVE, text="random", state=game.state,
                      audience_texts=((None, ("Later.",)),))  # fmt: skip
    assert await repo.outbox.release(channel) is True  # stored after the claim
    assert await repo.outbox.release(channel) is True  # releasing twice deletes nothing more
    later = await repo.outbox.claim(Backlog(game.id, None))
    assert later is not None and later.texts == (("Later.",),)
    assert await repo.outbox.release(later) is False


async def test_releases_made_at_once_each_say_whether_their_own_backlog_holds_more(
    repo: SqliteRepository,
) -> None:
    """Three backlogs released in the same instant (the shared store sends them as one
    statement): each answer is its own backlog's."""
    referee = Referee(repo)
    game = await start_game(referee)
    await repo.append(game, seat=0, kind=LogKind.MOVE, text="random", state=game.state,
                      audience_texts=((0, ("Placed.",)),))  # fmt: skip
    batches = [await repo.outbox.claim(Backlog(game.id, a), merge=False) for a in (0, 1, None)]
    assert [p.plies if p else None for p in batches] == [(0,), (0,), (0,)]
    answers = await asyncio.gather(*(repo.outbox.release(p) for p in batches if p))
    assert answers == [True, False, False]  # only the first seat's move notice waits
    assert await repo.outbox.backlogs() == [Backlog(game.id, 0)]


async def test_backlogs_waiting_since_a_moment_are_those_a_stopped_process_left(
    repo: SqliteRepository,
) -> None:
    """On a shared database the clock wakes only backlogs waiting a while: those the process
    that stored them (it delivers them at once) left behind when it stopped."""
    game = await start_game(Referee(repo))
    stored = repo.clock()
    everyone = [Backlog(game.id, 0), Backlog(game.id, 1), Backlog(game.id, None)]
    assert await repo.outbox.backlogs(before=stored - 60) == []
    assert await repo.outbox.backlogs(before=stored + 60) == everyone
    assert await repo.outbox.backlogs() == everyone


async def test_a_claim_survives_a_restart_so_a_retry_sends_the_same_message(path: Path) -> None:
    """Claimed notices stay claimed: after a crash the retry is the very same message,
    under the same nonce, even if more notices arrived meanwhile."""
    repository = await SqliteRepository.open(path)
    referee = Referee(repository)
    game = await start_game(referee)
    backlog = Backlog(game.id, 0)
    first = await repository.outbox.claim(backlog)
    assert first is not None
    record = await repository.get_game(game.id)
    assert record is not None
    await repository.append(
        record,
        seat=0,
        kind=LogKind.MOVE,
        text="random",
        state=record.state,
        audience_texts=((0, ("Later.",)),),
    )
    await repository.close()  # the process dies between sending and releasing

    repository = await SqliteRepository.open(path)
    try:
        again = await repository.outbox.claim(backlog)
        assert again == first and again.nonce == first.nonce
        await repository.outbox.release(again)
        later = await repository.outbox.claim(backlog)
        assert later is not None and later.texts == (("Later.",),)
        assert later.nonce != first.nonce
    finally:
        await repository.close()


async def test_a_backlog_is_merged_within_the_text_budget_and_the_channel_takes_all(
    repo: SqliteRepository,
) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    for backlog in await repo.outbox.backlogs():
        batch = await repo.outbox.claim(backlog)
        assert batch is not None
        await repo.outbox.release(batch)
    record = game
    long_text = "x" * (MERGED_TEXT_BUDGET // 3)
    for _ in range(5):
        record = await repo.append(
            record,
            seat=0,
            kind=LogKind.MOVE,
            text="random",
            state=record.state,
            audience_texts=((0, (long_text,)), (None, (f"ply {record.ply + 1}",))),
        )
    claimed = await repo.outbox.claim(Backlog(game.id, 0))
    assert claimed is not None and claimed.plies == (game.ply + 1,), "claimed with its move"
    await repo.outbox.release(claimed)
    seat = await repo.outbox.claim(Backlog(game.id, 0))
    assert seat is not None and 1 < len(seat.plies) < 4
    assert sum(len(t) for told in seat.texts for t in told) <= MERGED_TEXT_BUDGET + 10
    single = await repo.outbox.claim(Backlog(game.id, 1))
    assert single is None
    channel = await repo.outbox.claim(Backlog(game.id, None))
    assert channel is not None and len(channel.plies) == 5
    assert channel.texts[-1] == (f"ply {record.ply}",)


async def test_the_referee_builds_a_batch_with_the_board_as_it_stands(
    repo: SqliteRepository,
) -> None:
    referee = Referee(repo)
    game = await start_game(referee)
    report = await referee.act(ALICE, "random")
    batch = await repo.outbox.claim(Backlog(game.id, 0))
    assert batch is not None
    built = await referee.batch_report(batch)
    assert built is not None
    (notice,) = built.notices
    setup_texts = batch.texts[0]
    assert notice.texts == setup_texts + report.notices[0].texts
    assert notice.view == report.notices[0].view
    assert not built.results


async def test_saved_setups_are_kept_per_player_and_game_and_replaced_by_name(
    path: Path,
) -> None:
    repository = await SqliteRepository.open(path)
    try:
        await repository.save_setup(2, "seabattle", "wall", "first")
        await repository.save_setup(2, "seabattle", "wall", "second")
        await repository.save_setup(2, "seabattle", "arc", "third")
        await repository.save_setup(3, "seabattle", "mine", "fourth")
        await repository.save_setup(2, "luzhanqi", "other", "fifth")
        assert await repository.saved_setup(2, "seabattle", "wall") == "second"
        assert await repository.saved_setup_names(2, "seabattle") == ["arc", "wall"]
        assert await repository.saved_setup(3, "seabattle", "wall") is None
        assert await repository.saved_setup_names(2, "luzhanqi") == ["other"]
    finally:
        await repository.close()
