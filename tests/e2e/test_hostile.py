"""Hostile input against the bot as ``python -m bot`` runs it: a clear answer, never a ping.

Names and texts carry ``@everyone``, ``@here``, role and user mentions, text far too long
and odd unicode (right-to-left overrides, zero-width and combining marks, fullwidth
letters). The bot answers each in plain words, changes nothing, and every message it
sends, edits or answers with carries ``allowed_mentions`` that ping no one but the one
person a message is for.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from tests.support.cog_helpers import resign, state_of
from tests.support.e2e_world import World, assert_never_pinged, running_bot

ROLE = 1_200_000_000_000_000_000
ODD = "\u202eB5\u200b\u0301\u0301 Ｂ５ 🏴\u200d☠️"


def hostile(world: World) -> str:
    return f"@everyone @here <@&{ROLE}> <@{world.alice.id}> <@!{world.bob.id}> {ODD}"


CLEAR_ANSWERS = (
    "is not a cell: write a letter and a number, like `B7`.",
    "That message is too long to be a move.",
)


async def test_hostile_names_and_texts_get_clear_answers_and_ping_no_one(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path) as world:
        driver = world.driver
        mallory = driver.add_user(f"@everyone {ODD}", global_name=f"<@&{ROLE}> @here")
        await driver.settle()
        seq = driver.server.last_seq

        # A challenge from a hostile name, with hostile rule words: refused plainly.
        refused = await driver.slash(
            mallory, "play", game="seabattle", opponent=world.bob, variant=hostile(world)
        )
        assert refused.ephemeral and (refused.content or "").startswith("Sea Battle has no variant")
        assert not any(unicodedata.category(c) in ("Cf", "Cc") for c in refused.content or "")
        message = await world.challenge(mallory, world.bob)
        assert message.mentions == [world.bob.payload]
        await world.accept(world.bob, message)
        for user in (mallory, world.bob):
            await driver.dm(user, "random")
            await driver.dm(user, "ready")
        record = await world.game()
        before = (record.ply, record.state)

        for text in (
            hostile(world),
            "@everyone " + "x" * 1900,
            ODD,
            "<@&" + str(ROLE) + ">",
            "#1 @here",
        ):
            await driver.dm(mallory, text)
            by_dm = driver.dms_to(mallory)[-1].content
            by_command = (await driver.slash(mallory, "move", guild=False, text=text[:100])).content
            for answer in (by_dm, by_command or ""):
                assert answer.endswith(CLEAR_ANSWERS), answer
                assert not any(unicodedata.category(c) in ("Cf", "Cc") for c in answer), answer
        after = await world.game()
        assert (after.ply, after.state) == before
        assert state_of(after).phase.value == "play"

        await resign(driver, mallory)
        assert_never_pinged(world, seq, expected={world.bob.id})
        channel = [m for m in driver.server.messages_in(driver.channel_id) if m.id != message.id]
        assert all(m.mentions == [] and not m.mention_everyone for m in channel)
