"""``/play`` and its challenge: Accept and Decline buttons, and the game they start."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.client import RefereeBot
from bot.delivery.discord_replies import defer_publicly, fill_in, post_challenge, replace, withdraw
from bot.games import ENGINES
from bot.games.core import GameError
from bot.logs import fields
from bot.storage import ChallengeRecord
from cogs.buttons import AcceptButton, DeclineButton, RematchButton
from cogs.replies import tell

log = logging.getLogger("referee.challenges")

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.key) for e in ENGINES.values()]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]


def challenge_text(challenge: ChallengeRecord, note: str = "") -> str:
    engine = ENGINES[challenge.game]
    variant = engine.variant_name(engine.rules_from_json(challenge.rules))
    rated = "rated" if challenge.rated else "unrated"
    if challenge.open_to_anyone:
        text = (
            f"<@{challenge.challenger_id}> challenges anyone here to **{engine.title}** "
            f"({variant}, {rated}). Accept to play by direct message."
        )
    else:
        text = (
            f"<@{challenge.opponent_id}>, <@{challenge.challenger_id}> challenges you to "
            f"**{engine.title}** ({variant}, {rated}). Accept to play by direct message."
        )
    return f"{text}\n{note}" if note else text


NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
}
"""What the bot needs in a game's channel: its live message carries the public board."""


def missing_permissions(permissions: discord.Permissions) -> str:
    """The needed permissions the bot lacks, as a phrase (empty when it has them all)."""
    lacking = [name for flag, name in NEEDED.items() if not getattr(permissions, flag)]
    if len(lacking) <= 1:
        return "".join(lacking)
    return ", ".join(lacking[:-1]) + " and " + lacking[-1]


def shown_name(user: discord.User | discord.Member) -> str:
    """The name the player goes by where the game is played: a server member's nickname,
    else their global display name, else their username.

    Needs no privileged intent: an interaction carries its user as a member with their
    nickname, and so does a user option (Discord resolves the member in the payload).
    """
    return user.display_name


def challenge_buttons(challenge_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptButton(challenge_id))
    view.add_item(DeclineButton(challenge_id))
    return view


class ChallengeCommands(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Challenge someone to a game refereed by DM.")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game",
        opponent="Who you challenge (leave it out: anyone here may accept)",
        variant="Which rules (default: the game's classic rules)",
        options="Optional rules for the variant, as words (see /rules)",
        rated="Whether the result changes both players' ratings (default: yes)",
        level="Against me (the computer): how strongly I play (default: strong)",
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: discord.User | None = None,
        variant: str | None = None,
        options: app_commands.Range[str, 1, 100] | None = None,
        rated: bool = True,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            await tell(
                interaction,
                f"I cannot run a game in this channel: I need {missing} here. "
                "Ask a server admin, or challenge from another channel.",
            )
            return
        me = self.bot.user
        if me is not None and opponent is not None and opponent.id == me.id:
            chosen = level.value if level is not None else DEFAULT_LEVEL
            await self.play_computer(interaction, game.value, variant, options, chosen)
            return
        challenge = await self.bot.referee.challenge(
            game=game.value,
            variant=variant,
            options=options,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id if opponent else None,
            opponent_is_bot=bool(opponent and opponent.bot),
            rated=rated,
            names=(shown_name(interaction.user), shown_name(opponent) if opponent else None),
        )
        await self._post(interaction, challenge)

    async def _post(self, interaction: discord.Interaction, challenge: ChallengeRecord) -> None:
        """Post a challenge in the channel, pinging only its opponent (nobody for an open one)."""
        pinged = [] if challenge.open_to_anyone else [challenge.opponent_id]
        message_id = await post_challenge(
            interaction, challenge_text(challenge), challenge_buttons(challenge.id), pinged
        )
        if message_id is not None:
            await self.bot.referee.challenge_posted(challenge.id, message_id)

    async def play_computer(
        self,
        interaction: discord.Interaction,
        game: str,
        variant: str | None,
        options: str | None,
        level: str,
    ) -> None:
        """A game against the computer starts at once, unrated; its first DM is its welcome
        (a player whose DMs are closed has it called off, see ``Referee.dms_closed``)."""
        engine = ENGINES[game]
        # A wrong variant, or a game more than a player may have against the computer, is
        # refused before the public defer, so the refusal reaches the player alone.
        engine.configure(variant, options or "")
        await self.bot.referee.computer_game_allowed(interaction.user.id)
        await defer_publicly(interaction)
        try:
            report = await self.bot.referee.play_computer(
                game=game,
                variant=variant,
                options=options,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id,
                computer_id=self.bot.user.id if self.bot.user else 0,
                level=level,
                name=shown_name(interaction.user),
            )
        except GameError:
            # Refused after all (another /play took the last place meanwhile): the public
            # placeholder goes, so the refusal reaches the player alone.
            await withdraw(interaction)
            raise
        variant_name = engine.variant_name(engine.rules_from_json(report.game.rules))
        log.info(
            "game %s: started against the computer", report.game.id, extra=fields(report.game.id)
        )
        await fill_in(
            interaction,
            f"<@{interaction.user.id}> plays **{engine.title}** ({variant_name}, "
            f"unrated) against me, the computer ({level}): game #{report.game.id} is on. "
            "Moves go by direct message.",
            drop_buttons=False,
        )

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Rematch button of an end announcement: a new challenge, seats turned round."""
        challenge = await self.bot.referee.rematch(game_id, interaction.user.id)
        await self._post(interaction, challenge)

    @play.autocomplete("variant")
    async def variant_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        engine = ENGINES.get(getattr(interaction.namespace, "game", "") or "")
        names = engine.presets if engine else {}
        return [
            app_commands.Choice(name=name, value=name)
            for name in names
            if name.startswith(typed.lower().strip())
        ][:25]

    @play.autocomplete("options")
    async def option_choices(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        engine = ENGINES.get(getattr(interaction.namespace, "game", "") or "")
        if engine is None:
            return []
        try:
            rules = engine.configure(getattr(interaction.namespace, "variant", None))
        except GameError:
            return []
        return [
            app_commands.Choice(name=text, value=text)
            for text in engine.option_suggestions(rules, typed)
        ][:25]

    async def accept(self, interaction: discord.Interaction, challenge_id: int) -> None:
        """The challenged player (or anyone, for an open challenge) accepts: the game starts.

        No message goes out only to check that both players can get DMs: each player's
        first DM is the game's welcome with their board, and a player whose DMs are closed
        has the game called off unplayed, the channel told who must open them.
        """
        challenge = await self.bot.referee.open_challenge(challenge_id, interaction.user.id)
        await defer_publicly(interaction)
        report = await self.bot.referee.accept(
            challenge_id, interaction.user.id, shown_name(interaction.user)
        )
        by = f" by <@{interaction.user.id}>" if challenge.open_to_anyone else ""
        log.info(
            "game %s: created from challenge %s",
            report.game.id,
            challenge_id,
            extra=fields(report.game.id, challenge_id=challenge_id),
        )
        await fill_in(
            interaction,
            f"{challenge_text(challenge)}\n✅ Accepted{by}: game #{report.game.id} is on.",
            drop_buttons=True,
        )

    async def decline(self, interaction: discord.Interaction, challenge_id: int) -> None:
        challenge = await self.bot.referee.decline(challenge_id, interaction.user.id)
        verb = "withdrawn" if challenge.status.value == "withdrawn" else "declined"
        await replace(interaction, f"{challenge_text(challenge)}\n✖️ The challenge was {verb}.")


async def setup(bot: RefereeBot) -> None:
    bot.add_dynamic_items(AcceptButton, DeclineButton, RematchButton)
    await bot.add_cog(ChallengeCommands(bot))
