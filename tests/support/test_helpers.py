"""The tests' own helpers for reading what the bot said, where a slip would hide a defect."""

from __future__ import annotations

from types import SimpleNamespace

from tests.support.cog_helpers import names
from tests.support.discord import Sent
from tests.support.e2e_world import dms_naming


def test_a_shot_is_named_only_as_a_whole_cell_name() -> None:
    assert names("Bob fires at H1: a miss.", "H1")
    assert names("H1", "H1")
    assert not names("Last shot H10.", "H1")
    assert not names("AH1 is not a cell", "H1")
    assert not names(None, "H1")


def test_every_message_names_the_empty_text() -> None:
    assert names("anything", "") and names(None, "") and names("", "")


def test_a_dm_naming_a_longer_cell_is_not_counted_as_naming_a_shorter_one() -> None:
    sent = [
        Sent(seq=1, kind="message", channel_id=7, message_id=1, content="You hit H1."),
        Sent(seq=2, kind="message", channel_id=7, message_id=2, content="Last shot H10."),
    ]
    driver = SimpleNamespace(server=SimpleNamespace(sent=sent), dm_channel_id=lambda user: 7)
    world = SimpleNamespace(driver=driver)
    found = dms_naming(world, None, "H1", 0)  # type: ignore[arg-type]
    assert [s.message_id for s in found] == [1]
