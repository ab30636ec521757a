"""Every message the bot sends leaves from the delivery wing (``bot/delivery``), not a cog.

A cog receives what a person did and hands it on; what goes back to Discord (a DM, a
channel post, an edit of a message already sent, an interaction's answer or follow-up) is
written in ``bot/delivery``, so the secrecy, ordering and exactly-once rules of sending
live in one place. This test reads the cogs' source with ``ast`` and names the file, line
and call of every send, edit or answer a cog makes itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SENDING = {"send", "edit", "reply", "add_reaction", "delete"}
"""Methods of discord.py's channels, messages and webhooks that send or change a message."""
ANSWERING = {
    "send_message",
    "edit_message",
    "defer",
    "send_modal",
    "edit_original_response",
    "delete_original_response",
}
"""Methods of an interaction and its response that answer it: its answer is a message too."""
FOLLOW_UP = "followup"
"""An interaction's follow-up webhook: anything done through it sends a message."""


def direct_sends(source: str, relative: str) -> list[str]:
    """The calls in a module that send or edit a Discord message themselves."""
    found = []
    for node in ast.walk(ast.parse(source, filename=relative)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        through_follow_up = any(
            isinstance(part, ast.Attribute) and part.attr == FOLLOW_UP
            for part in ast.walk(node.func)
        )
        if node.func.attr in SENDING | ANSWERING or through_follow_up:
            found.append(f"{relative}:{node.lineno}: {ast.unparse(node.func)}(...)")
    return found


COGS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "cogs").rglob("*.py"))


@pytest.mark.parametrize("relative", COGS)
def test_cogs_send_nothing_themselves(relative: str) -> None:
    found = direct_sends((ROOT / relative).read_text(encoding="utf-8"), relative)
    assert not found, "send it through bot/delivery instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "async def f(message):\n    await message.channel.send('hi')\n",
        "async def f(message):\n    await message.edit(view=None)\n",
        "async def f(channel, i):\n    await channel.get_partial_message(i).edit(content='')\n",
        "async def f(interaction):\n    await interaction.followup.send('hi')\n",
        "async def f(message):\n    await message.add_reaction('x')\n",
        "async def f(interaction):\n    await interaction.response.send_message('hi')\n",
        "async def f(interaction):\n    await interaction.response.defer()\n",
        "async def f(interaction):\n    await interaction.edit_original_response(content='')\n",
    ],
)
def test_the_check_catches_a_planted_send(source: str) -> None:
    assert direct_sends(source, "cogs/planted.py")


def test_the_check_allows_handing_on() -> None:
    source = (
        "async def f(self, interaction, reply):\n"
        "    if not interaction.response.is_done():\n"
        "        await reply.tell('hi')\n"
        "    await self.discord_sender.answer(interaction, game, message)\n"
        "    await self.inbox.hand_in(1, 'a1', None, reply)\n"
    )
    assert direct_sends(source, "cogs/planted.py") == []
