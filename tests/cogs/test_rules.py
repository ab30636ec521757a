"""``/rules`` explains every variant and every option word ``/play`` reads, for every game."""

from __future__ import annotations

import pytest

from bot.games import ENGINES
from bot.games.core import GameError
from tests.support.discord import DiscordDriver, FakeUser


def words_play_reads(key: str) -> tuple[set[str], set[str]]:
    """The variants ``/play`` offers and the option words it accepts for a game: every word
    its autocomplete offers for any variant, and every declared word it reads (taken, or
    refused only for the rule it would break alone, like `blind-report` without `salvo`)."""
    engine = ENGINES[key]
    offered = {
        word
        for preset in engine.presets.values()
        for typed in engine.option_suggestions(preset, "")
        for word in typed.split()
    }
    accepted = set()
    for word in engine.all_option_words:
        for name in engine.presets:
            try:
                engine.configure(name, word)
            except GameError as refusal:
                assert "has no option" not in str(refusal), (key, word)
            accepted.add(word)
    with pytest.raises(GameError, match="no option"):
        engine.configure(None, "nonsense")
    return set(engine.presets), offered | accepted


@pytest.mark.parametrize("key", list(ENGINES))
async def test_rules_explain_each_variant_and_option_in_a_line(
    driver: DiscordDriver, alice: FakeUser, key: str
) -> None:
    engine = ENGINES[key]
    variants, options = words_play_reads(key)
    assert options == set(engine.all_option_words)

    result = await driver.slash(alice, "rules", game=key)

    texts = [sent.content or "" for sent in result.sent]
    assert all(sent.ephemeral for sent in result.sent)
    assert all(0 < len(text) <= 2000 for text in texts)
    assert texts[0] == engine.describe(engine.presets[engine.default_variant])
    lines = "\n".join(texts).splitlines()
    for word in sorted(variants | options):
        found = [line for line in lines if line.startswith(f"• `{word}`: ")]
        assert found, word  # `corners` is both a Sea Battle variant and an option
        assert all(len(line) > len(f"• `{word}`: ") + 10 for line in found), found
    said = [line.split("`")[1] for line in lines if line.startswith("• `")]
    assert said == [*engine.presets, *engine.all_option_words]
