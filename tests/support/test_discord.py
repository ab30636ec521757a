"""Proves the loopback Discord harness with a tiny throwaway bot.

The bot below uses only public discord.py APIs (CommandTree, autocomplete, files, a
DynamicItem button, DMs), so each test shows that the real library code path works
end-to-end against :mod:`tests.support.discord`, without touching the network.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from PIL import Image

from tests.conftest import in_one_server
from tests.support.discord import BotError, DiscordDriver, FakeUser, Limit, RandomFaults, RateLimits

BOARDS = ["River Crossing", "Archipelago", "Mountain Pass", "Open Sea"]


def render_board(label: str) -> bytes:
    """A small real PNG, so the test checks bytes survive the multipart round trip."""
    image = Image.new("RGB", (32, 16), (10, 20, 30))
    image.putpixel((0, 0), (len(label) % 256, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class RollButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"roll:(?P<count>\d+)"
):
    """A persistent counter button: its state lives only in the custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Rolled {count}",
                custom_id=f"roll:{count}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RollButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        nxt = RollButton(self.count + 1)
        view = discord.ui.View(timeout=None)
        view.add_item(nxt)
        await interaction.response.edit_message(content=f"Rolled {nxt.count} times", view=view)


class StubBot(discord.Client):
    """Minimal bot: default intents, a CommandTree synced in setup_hook, a DM echo."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.ready_fired = False
        self.button_message_id: int | None = None
        self._register_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(RollButton)
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_fired = True

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is not None:
            return
        await message.channel.send(f"echo: {message.content}")

    def _register_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Challenge another player")
        @app_commands.describe(opponent="Who to play", board="Which map")
        async def challenge(
            interaction: discord.Interaction, opponent: discord.User, board: str
        ) -> None:
            await interaction.response.send_message(
                f"{interaction.user.display_name} challenges {opponent.mention} on {board}",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, users=[opponent], roles=False
                ),
            )

        @challenge.autocomplete("board")
        async def board_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=b, value=b) for b in BOARDS if current.lower() in b.lower()
            ]

        @tree.command(description="Show the board privately")
        async def board(interaction: discord.Interaction) -> None:
            png = render_board(interaction.user.name)
            await interaction.response.send_message(
                "Your board", file=discord.File(io.BytesIO(png), "board.png"), ephemeral=True
            )

        @tree.command(description="Post a counter button")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(RollButton(0))
            assert interaction.channel is not None
            await interaction.response.send_message("Posting", ephemeral=True)
            message = await interaction.channel.send("Rolled 0 times", view=view)  # type: ignore[union-attr]
            self.button_message_id = message.id
            view.stop()  # only the DynamicItem template can route later clicks

        @tree.command(description="DM a player that it is their turn")
        async def notify(interaction: discord.Interaction, player: discord.User) -> None:
            try:
                await player.send("It is your turn")
            except discord.Forbidden as error:
                await interaction.response.send_message(f"cannot DM ({error.code})", ephemeral=True)
            else:
                await interaction.response.send_message("notified", ephemeral=True)

        @tree.command(description="Always fails")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")


@pytest.fixture
async def driver() -> AsyncIterator[DiscordDriver]:
    """A logged-in StubBot in one guild; every test also proves no route went unhandled."""
    async with in_one_server(StubBot(), "Harness Guild") as drv:
        yield drv


async def test_login_ready_and_command_sync(driver: DiscordDriver) -> None:
    bot = driver.client
    assert isinstance(bot, StubBot)
    assert bot.ready_fired
    assert bot.user is not None and bot.user.id == driver.server.bot_id
    assert bot.get_guild(driver.guild_id) is not None
    synced = {c["name"] for c in driver.server.commands[None]}
    assert {"challenge", "board", "counter", "notify", "boom"} <= synced


async def test_slash_with_user_and_string_options(driver: DiscordDriver, bob: FakeUser) -> None:
    hostile = driver.add_user("@everyone")
    result = await driver.slash(hostile, "challenge", opponent=bob, board="Archipelago")
    assert result.callback_type == 4
    response = result.response
    assert response is not None and response.kind == "response"
    assert response.content == f"@everyone challenges {bob.mention} on Archipelago"
    assert response.channel_id == driver.channel_id
    assert not response.ephemeral
    assert response.mention_everyone is False  # allowed_mentions defused the hostile name
    assert response.mentioned_user_ids == [bob.id]
    assert driver.server.last_in(driver.channel_id) == result.original


async def test_autocomplete_returns_bot_choices(driver: DiscordDriver, alice: FakeUser) -> None:
    choices = await driver.autocomplete(alice, "challenge", focused="board", board="")
    assert [c["value"] for c in choices] == [
        "River Crossing",
        "Archipelago",
        "Mountain Pass",
        "Open Sea",
    ]
    choices = await driver.autocomplete(alice, "challenge", focused="board", board="pass")
    assert choices == [{"name": "Mountain Pass", "value": "Mountain Pass"}]


async def test_png_attachment_is_delivered_byte_exact(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    result = await driver.slash(alice, "board")
    assert result.ephemeral
    assert result.original is not None
    (png,) = driver.pngs(result.original.id)
    assert png == render_board("alice")
    assert Image.open(io.BytesIO(png)).size == (32, 16)
    (sent,) = result.sent
    assert sent.files == [("board.png", png)]
    assert driver.private_to(alice) == [sent]


async def test_dynamic_item_button_edits_message(driver: DiscordDriver, alice: FakeUser) -> None:
    await driver.slash(alice, "counter")
    bot = driver.client
    assert isinstance(bot, StubBot) and bot.button_message_id is not None
    message_id = bot.button_message_id
    assert driver.button_ids(message_id) == ["roll:0"]

    first = await driver.click(alice, message_id, "roll:0")
    assert first.callback_type == 7
    assert driver.server.messages[message_id].content == "Rolled 1 times"
    assert driver.button_ids(message_id) == ["roll:1"]

    await driver.click(alice, message_id, "roll:1")
    assert driver.server.messages[message_id].content == "Rolled 2 times"
    assert [s.kind for s in driver.server.sent if s.message_id == message_id] == [
        "message",
        "update",
        "update",
    ]


async def test_dm_is_answered_by_dm(driver: DiscordDriver, alice: FakeUser) -> None:
    await driver.dm(alice, "hello bot")
    (reply,) = driver.dms_to(alice)
    assert reply.content == "echo: hello bot"
    assert reply.channel_id == driver.dm_channel_id(alice)
    assert [s.content for s in driver.responses_to(alice)] == ["echo: hello bot"]


async def test_closed_dms_raise_forbidden_50007(driver: DiscordDriver, alice: FakeUser) -> None:
    shy = driver.add_user("shy", dms_open=False)
    result = await driver.slash(alice, "notify", player=shy)
    assert result.content == "cannot DM (50007)"

    user = await driver.client.fetch_user(shy.id)
    with pytest.raises(discord.Forbidden) as caught:
        await user.send("direct attempt")
    assert caught.value.code == 50007
    assert driver.dms_to(shy) == []


async def test_rate_limited_send_is_retried_exactly_once(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    failure = driver.server.fail_next("POST", r"^/channels/\d+/messages$", 429, retry_after=0.05)
    await driver.dm(alice, "ping")
    assert failure.remaining == 0
    assert [f.status for f in driver.server.fired_failures] == [429]
    assert [m.content for m in driver.dms_to(alice)] == ["echo: ping"]
    assert [s.kind for s in driver.server.sent] == ["message"]


async def test_bot_errors_fail_loudly(driver: DiscordDriver, alice: FakeUser) -> None:
    with pytest.raises(BotError, match="kaboom"):
        await driver.slash(alice, "boom")
    assert not driver.server.interactions[max(driver.server.interactions)].acknowledged


async def test_driver_refuses_what_discord_would(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    with pytest.raises(ValueError, match="requires"):
        await driver.slash(alice, "challenge", opponent=bob)
    with pytest.raises(TypeError, match="no option"):
        await driver.slash(alice, "board", colour="red")
    with pytest.raises(LookupError):
        await driver.slash(alice, "nonexistent")


async def test_a_private_channel_is_viewed_only_by_whom_it_allows(
    driver: DiscordDriver, alice: FakeUser, bob: FakeUser
) -> None:
    """A channel added after READY reaches the client with its overwrites, so discord.py
    computes who can view it; the driver refuses what Discord's client would not offer."""
    channel_id = driver.add_channel("secret", visible_to=[alice])
    await driver.settle()
    guild = driver.client.get_guild(driver.guild_id)
    assert guild is not None
    channel = guild.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    everyone = guild.default_role
    assert not channel.permissions_for(everyone).view_channel
    assert channel.overwrites_for(discord.Object(alice.id)).view_channel is True

    await driver.slash(alice, "counter", channel_id=channel_id)
    with pytest.raises(PermissionError, match="cannot view"):
        await driver.slash(bob, "counter", channel_id=channel_id)


async def test_an_enforced_nonce_makes_a_resent_message_the_same_message(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    """As on Discord: a message sent again with the same nonce is not posted twice."""
    user = await driver.client.fetch_user(alice.id)
    first = await user.send("your move", nonce="7.0.12")
    again = await user.send("your move", nonce="7.0.12")
    other = await user.send("your move", nonce="7.0.13")
    assert again.id == first.id != other.id
    assert [m.content for m in driver.dms_to(alice)] == ["your move", "your move"]


async def test_every_request_is_kept_with_its_json_body(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    """A test can read all the bot sent, not only the messages: each call with its body."""
    user = await driver.client.fetch_user(alice.id)
    sent = await user.send("your move", nonce="7.0.14")
    (created,) = [
        r for r in driver.server.requests if r.path.endswith(f"{sent.channel.id}/messages")
    ]
    assert created.method == "POST" and created.status == 200
    assert created.body["content"] == "your move" and created.body["nonce"] == "7.0.14"
    (opened,) = [r for r in driver.server.requests if r.path == "/users/@me/channels"]
    assert opened.body == {"recipient_id": alice.id}


async def test_rate_limit_buckets_send_discords_headers_and_pace_the_client(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    """Five messages per five seconds per channel: discord.py reads the headers and waits
    before the bucket runs dry, so nothing is refused and the sixth waits its turn."""
    limits = RateLimits(limits={"POST /channels/{channel_id}/messages": Limit(5, 1.0)})
    driver.server.rate_limits = limits
    user = await driver.client.fetch_user(alice.id)
    started = time.monotonic()
    for number in range(6):
        await user.send(f"message {number}")
    assert time.monotonic() - started >= 0.8
    assert limits.refused == 0
    assert len(driver.dms_to(alice)) == 6


async def test_a_client_that_ignores_the_headers_gets_429_with_retry_after(
    driver: DiscordDriver,
) -> None:
    limits = RateLimits(limits={"POST /channels/{channel_id}/messages": Limit(2, 10.0)})
    driver.server.rate_limits = limits
    wait, headers = limits.check("POST /channels/{channel_id}/messages", {"channel_id": "1"}, 0.0)
    assert wait is None and headers["X-RateLimit-Remaining"] == "1"
    limits.check("POST /channels/{channel_id}/messages", {"channel_id": "1"}, 0.1)
    wait, headers = limits.check("POST /channels/{channel_id}/messages", {"channel_id": "1"}, 1.0)
    assert wait == pytest.approx(9.0) and headers["X-RateLimit-Remaining"] == "0"
    other, _ = limits.check("POST /channels/{channel_id}/messages", {"channel_id": "2"}, 1.0)
    assert other is None  # each channel is its own bucket
    assert limits.refused == 1


async def test_an_interaction_answered_after_three_seconds_is_unknown(
    driver: DiscordDriver, alice: FakeUser
) -> None:
    driver.server.interaction_deadline = 0.0
    with pytest.raises(BotError, match="10062"):
        await driver.slash(alice, "board")
    (interaction,) = driver.server.interactions.values()
    assert not interaction.acknowledged


async def test_random_faults_injects_seeded_429s_and_5xx_on_play_routes_only() -> None:
    random_faults = RandomFaults(seed=3, rate_limited=0.2, server_error=0.2)
    faults = [random_faults.fault("POST", "/channels/1/messages") for _ in range(200)]
    assert {f[0] for f in faults if f} <= {429, 500, 502, 503}
    assert 40 < sum(f is not None for f in faults) < 120
    assert random_faults.fault("GET", "/gateway/bot") is None
    again = RandomFaults(seed=3, rate_limited=0.2, server_error=0.2)
    assert [again.fault("POST", "/channels/1/messages") for _ in range(200)] == faults
