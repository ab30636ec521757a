"""``/replay``, the Replay button and ``/export``, through the loopback Discord."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.verify import verify
from tests.support.cog_helpers import (
    channel_messages,
    game_in_play,
    resign,
    resigned_with_announcement,
    shoot,
    stored_log,
)
from tests.support.discord import DiscordDriver, FakeUser, InteractionResult


def replay_files(result: InteractionResult) -> dict[str, bytes]:
    """The files of the answer to a replay request (a deferred answer's follow-up)."""
    (answer,) = [s for s in result.sent if s.files]
    return dict(answer.files)


def frame_count(gif: bytes) -> int:
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF"
        return int(image.n_frames)


async def test_replay_is_refused_while_the_game_runs_and_sent_once_it_is_over(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    game = await game_in_play(driver, alice, bob)
    await shoot(driver, game.id, hit=True)
    early = await driver.slash(alice, "replay", id=game.id)
    assert early.ephemeral
    assert (
        early.content
        == f"Game #{game.id} is still being played; its replay is ready once it is over."
    )

    await resign(driver, alice)
    mine = await driver.slash(alice, "replay", id=game.id)
    files = replay_files(mine)
    assert set(files) == {f"seabattle-{game.id}-replay-seat0.gif", f"seabattle-{game.id}-moves.txt"}
    assert frame_count(files[f"seabattle-{game.id}-replay-seat0.gif"]) > 2
    moves = files[f"seabattle-{game.id}-moves.txt"].decode()
    log = await stored_log(driver, game.id)
    assert all(entry.text in moves for entry in log if entry.kind.value == "move")
    assert moves.rstrip().endswith("player 1: resigns")
    assert all(s.ephemeral for s in mine.sent)

    stranger = await driver.slash(carol, "replay", id=game.id, **{"as": "mine"})
    assert stranger.content == (
        f"You did not play in game #{game.id}; replay it as `channel` or `truth`."
    )
    truth = replay_files(await driver.slash(carol, "replay", id=game.id, **{"as": "truth"}))
    assert f"seabattle-{game.id}-replay-truth.gif" in truth


async def test_the_end_announcement_carries_a_replay_button(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    game, announcement = await resigned_with_announcement(driver, alice, bob)
    assert f"replay:{game.id}" in announcement.custom_ids
    for user, name in ((bob, "seat1"), (alice, "seat0"), (carol, "channel")):
        clicked = await driver.click(user, announcement.id, f"replay:{game.id}")
        assert f"seabattle-{game.id}-replay-{name}.gif" in replay_files(clicked)


async def test_export_sends_a_record_the_verifier_accepts(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    game = await game_in_play(driver, alice, bob)
    early = await driver.slash(carol, "export", id=game.id)
    assert early.content is not None and "still being played" in early.content
    await shoot(driver, game.id, hit=False)
    await resign(driver, alice)
    result = await driver.slash(carol, "export", id=game.id)
    assert result.ephemeral
    (answer,) = [s for s in result.sent if s.files]
    ((name, data),) = answer.files
    assert name == f"seabattle-{game.id}.json"
    record = json.loads(data)
    assert verify(record) == ([], len(record["announcements"]))
    channel = [m.content for m in channel_messages(driver, seals=True)]
    for seal in record["seals"]["entries"]:
        assert any(seal["digest"] in text for text in channel)  # told when play began
