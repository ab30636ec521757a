"""The loopback gateway: the protocol as a raw client sees it, and the bot riding out a drop."""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.client import build_bot
from bot.settings import Settings
from tests.support.cog_helpers import game_in_play, open_water, player, seat_to_move, stored_game
from tests.support.discord import DiscordDriver, FakeDiscord, FakeUser


@pytest.fixture
async def server() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        fake.gateway.token = "right-token"
        yield fake


class RawClient:
    """A bare websocket client that inflates zlib-stream frames like discord.py does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._inflate = zlib.decompressobj()

    async def receive(self) -> dict[str, Any]:
        message = await self.ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.BINARY, message
        return json.loads(self._inflate.decompress(message.data))  # type: ignore[no-any-return]

    async def send(self, op: int, data: object) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": data}))


async def connect(server: FakeDiscord, session: aiohttp.ClientSession) -> RawClient:
    ws = await session.ws_connect(f"{server.gateway.url}?v=10&encoding=json&compress=zlib-stream")
    return RawClient(ws)


async def test_hello_identify_ready_heartbeat_and_resume(server: FakeDiscord) -> None:
    guild_id = server.next_id()
    server.add_guild(guild_id, "Harbour", int(server.owner_user["id"]))
    async with aiohttp.ClientSession() as session:
        client = await connect(server, session)
        hello = await client.receive()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await client.send(1, None)
        assert (await client.receive())["op"] == 11
        await client.send(2, {"token": "right-token", "intents": 1 | 1 << 12, "properties": {}})
        ready = await client.receive()
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["resume_gateway_url"] == server.gateway.url
        created = await client.receive()
        assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(guild_id))
        session_id = ready["d"]["session_id"]

        server.gateway.drop()
        await client.ws.receive(timeout=5)
        assert client.ws.close_code == 4000
        server.gateway.dispatch("TYPING_START", {"channel_id": "1"})  # missed while away

        again = await connect(server, session)
        assert (await again.receive())["op"] == 10
        await again.send(6, {"token": "right-token", "session_id": session_id, "seq": 2})
        replayed = await again.receive()
        assert (replayed["t"], replayed["s"]) == ("TYPING_START", 3)
        assert (await again.receive())["t"] == "RESUMED"
        assert (server.gateway.identifies, server.gateway.resumes) == (1, 1)


@pytest.mark.parametrize(
    ("identify", "code"),
    [
        pytest.param({"token": "wrong", "intents": 1}, 4004, id="bad-token"),
        pytest.param({"token": "right-token", "intents": 1 << 15}, 4014, id="privileged-intent"),
    ],
)
async def test_identify_is_refused_with_discords_close_code(
    server: FakeDiscord, identify: dict[str, Any], code: int
) -> None:
    async with aiohttp.ClientSession() as session:
        client = await connect(server, session)
        await client.receive()
        await client.send(2, identify)
        message = await client.ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.CLOSE and client.ws.close_code == code


async def test_an_unknown_session_cannot_resume(server: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        client = await connect(server, session)
        await client.receive()
        await client.send(6, {"token": "right-token", "session_id": "nope", "seq": 1})
        assert await client.receive() == {"op": 9, "d": False}


async def a_miss_across(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser, interruption: Callable[[], None]
) -> tuple[FakeUser, str]:
    """A miss fired by DM right after ``interruption`` of the gateway connection: the bot
    comes back with one IDENTIFY and one RESUME, and the move counts once. Returns who
    fired and where."""
    record = await game_in_play(driver, alice, bob)
    shooter = player(driver, record, seat_to_move(record))
    water = open_water(record, 1 - seat_to_move(record))[0]

    interruption()
    await driver.dm(shooter, water)

    assert (await stored_game(driver, record.id)).ply == record.ply + 1
    assert (driver.gateway.identifies, driver.gateway.resumes) == (1, 1)
    return shooter, water


async def test_the_bot_resumes_after_a_drop_and_the_game_goes_on(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """A move sent while the connection is down arrives once, replayed on RESUME."""
    shooter, water = await a_miss_across(driver, alice, bob, driver.gateway.drop)
    assert driver.dms_to(shooter)[-1].content.count(water) >= 1


async def test_the_bot_follows_a_reconnect_request_and_resumes(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    await a_miss_across(driver, alice, bob, driver.gateway.request_reconnect)


async def test_an_unknown_compression_is_refused_with_a_decode_error(server: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"{server.gateway.url}?v=10&encoding=json&compress=brotli")
        message = await ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.CLOSE and ws.close_code == 4002


async def test_gateway_bot_names_the_loopback_websocket(server: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{server.api_base}/gateway/bot", headers={"Authorization": "Bot x"}) as got,
    ):
        body = await got.json()
    assert body["url"] == server.gateway.url and body["shards"] == 1


async def test_the_driven_client_really_speaks_over_the_websocket(driver: DiscordDriver) -> None:
    assert isinstance(driver.client.ws, discord.gateway.DiscordWebSocket)
    assert driver.gateway.identifies == 1 and driver.gateway.heartbeats >= 1
    assert driver.client.ws.sequence == driver.gateway.last_seq


async def test_shards_get_their_own_servers_and_dms_go_to_shard_0(server: FakeDiscord) -> None:
    """Discord splits servers over shards by ``(guild_id >> 22) % shard_count`` and sends
    DMs to shard 0; two processes on shards 0 and 1 each hear only their own."""
    on = {0: 1000 << 22 | 7, 1: 1001 << 22 | 7}  # servers on shard 0 and 1 of 2
    for shard, guild_id in on.items():
        assert (guild_id >> 22) % 2 == shard
        server.add_guild(guild_id, f"Harbour {shard}", int(server.owner_user["id"]))
    async with aiohttp.ClientSession() as session:
        clients = {}
        for shard in (0, 1):
            client = await connect(server, session)
            assert (await client.receive())["op"] == 10
            identify = {"token": "right-token", "intents": 1 | 1 << 12, "shard": [shard, 2]}
            await client.send(2, {**identify, "properties": {}})
            ready = await client.receive()
            assert ready["d"]["shard"] == [shard, 2]
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(on[shard])]
            created = await client.receive()
            assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(on[shard]))
            clients[shard] = client

        server.gateway.dispatch("TYPING_START", {"channel_id": "9", "guild_id": str(on[1])})
        server.gateway.dispatch("TYPING_START", {"channel_id": "8"})  # a DM channel
        heard = await clients[1].receive()
        assert heard["d"] == {"channel_id": "9", "guild_id": str(on[1])}
        heard = await clients[0].receive()
        assert heard["d"] == {"channel_id": "8"}, "a DM must reach shard 0 only"
        assert (server.gateway.identifies, len(server.gateway.shards)) == (2, 2)


async def test_a_shard_outside_the_count_is_refused(server: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        client = await connect(server, session)
        assert (await client.receive())["op"] == 10
        await client.send(2, {"token": "right-token", "intents": 1, "shard": [2, 2]})
        message = await client.ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.CLOSE and client.ws.close_code == 4010


async def test_a_sharded_bot_plays_in_a_server_on_shard_1_with_its_dms_on_shard_0(
    tmp_path: Path,
) -> None:
    """discord.py's AutoShardedClient keeps one connection per shard, each numbering its
    own events; the driver waits for every connection before it calls the bot settled."""
    settings = Settings(token="test-token", database_path=tmp_path / "referee.sqlite3")
    bot = build_bot(replace(settings, shard_count=2))
    async with DiscordDriver.start(bot) as driver:
        guild = driver.add_guild("Harbour", shard=(1, 2))
        other = driver.add_guild("Lagoon", shard=(0, 2))
        alice, bob = driver.add_user("alice"), driver.add_user("bob")
        record = await game_in_play(driver, alice, bob)
        shooter = player(driver, record, seat_to_move(record))
        water = open_water(record, 1 - seat_to_move(record))[0]
        await driver.dm(shooter, water)

        assert (await stored_game(driver, record.id)).ply == record.ply + 1
        assert {g.id for g in bot.guilds} == {guild.id, other.id}
        shards = driver.gateway.shards
        assert sorted(shards) == [0, 1] and driver.gateway.identifies == 2
        heard = {n: [(e["t"], e["d"].get("guild_id")) for e in s.events] for n, s in shards.items()}
        assert ("INTERACTION_CREATE", str(guild.id)) in heard[1]
        assert all(guild_id != str(guild.id) for _, guild_id in heard[0])
        assert ("MESSAGE_CREATE", None) in heard[0]
        assert all(event != "MESSAGE_CREATE" or guild_id for event, guild_id in heard[1])
        assert driver._internals.received_seqs() == driver.gateway.shard_seqs()
        assert driver.server.unhandled == []
