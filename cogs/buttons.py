"""Persistent buttons.

Their custom_id carries only a public id and a public word, so they keep working after a
restart (discord.py rebuilds them from the id) and never carry a secret.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.delivery.discord_sender import Buttons
from cogs.replies import answering_errors, tell


def _cog(interaction: discord.Interaction, name: str) -> Any:
    """The cog that handles a button: looked up by name, so buttons need no import of it."""
    return interaction.client.get_cog(name)  # type: ignore[attr-defined]


def _guard(interaction: discord.Interaction, what: str, game_id: int | None = None) -> Any:
    """discord.py only logs a failing button, so each click answers its own errors."""
    return answering_errors(lambda text: tell(interaction, text), what, game_id)


class AcceptButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"challenge:accept:(?P<id>\d+)"
):
    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(
            discord.ui.Button(
                label="Accept",
                style=discord.ButtonStyle.success,
                custom_id=f"challenge:accept:{challenge_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"accepting challenge {self.challenge_id}"):
            await _cog(interaction, "ChallengeCommands").accept(interaction, self.challenge_id)


class DeclineButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"challenge:decline:(?P<id>\d+)"
):
    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(
            discord.ui.Button(
                label="Decline",
                style=discord.ButtonStyle.secondary,
                custom_id=f"challenge:decline:{challenge_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DeclineButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"declining challenge {self.challenge_id}"):
            await _cog(interaction, "ChallengeCommands").decline(interaction, self.challenge_id)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"move:(?P<id>\d+):(?P<move>[a-z]{1,20})"
):
    """A one-word move (``random``, ``ready``) for a game, pressed instead of typed."""

    def __init__(self, game_id: int, move: str, label: str | None = None) -> None:
        self.game_id = game_id
        self.move = move
        super().__init__(
            discord.ui.Button(
                label=label or move.capitalize(),
                style=discord.ButtonStyle.primary,
                custom_id=f"move:{game_id}:{move}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["id"]), match["move"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"game {self.game_id}: button {self.move}", self.game_id):
            await _cog(interaction, "MoveCommands").press(interaction, self.game_id, self.move)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"board:(?P<id>\d+)"):
    """On the channel's game message: shows the clicking player their private board."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label="My board", style=discord.ButtonStyle.secondary, custom_id=f"board:{game_id}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"game {self.game_id}: board button", self.game_id):
            await _cog(interaction, "MoveCommands").show_board(interaction, self.game_id)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"replay:(?P<id>\d+)"):
    """On a game's end announcement: the clicker's own replay (the channel's, for others)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label="Replay", style=discord.ButtonStyle.secondary, custom_id=f"replay:{game_id}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"game {self.game_id}: replay button", self.game_id):
            await _cog(interaction, "Replays").send_replay(interaction, self.game_id, None)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button], template=r"resign:(?P<id>\d+)"):
    """Confirms a resignation asked for by ``/resign`` or the DM word ``resign``; once
    pressed it is shown ``disabled``, so a used question cannot be answered again."""

    def __init__(self, game_id: int, *, disabled: bool = False) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label="Resign",
                style=discord.ButtonStyle.danger,
                custom_id=f"resign:{game_id}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"game {self.game_id}: resign button", self.game_id):
            await _cog(interaction, "MoveCommands").resign_confirmed(interaction, self.game_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rematch:(?P<id>\d+)"):
    """On a game's end announcement: challenges the opponent to the same game again."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label="Rematch", style=discord.ButtonStyle.primary, custom_id=f"rematch:{game_id}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with _guard(interaction, f"game {self.game_id}: rematch button", self.game_id):
            await _cog(interaction, "ChallengeCommands").rematch(interaction, self.game_id)


BUTTONS = Buttons(move=MoveButton, board=BoardButton, replay=ReplayButton, rematch=RematchButton)
"""The buttons the Discord sender puts on the messages it sends."""
