"""``bot.catalog``: one registration per game, and the registry the bot finds games in."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.catalog import GAMES, entry, player
from bot.games import ENGINES


def test_every_engine_is_registered_once_with_the_same_engine() -> None:
    assert sorted(GAMES) == sorted(ENGINES)
    for key, registered in GAMES.items():
        assert registered.key == key
        assert registered.engine is ENGINES[key]
        assert entry(key) is registered


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_registration_draws_its_own_games_views(key: str) -> None:
    registered = GAMES[key]
    engine = registered.engine
    state = engine.new_game(engine.presets[engine.default_variant], seed=7)
    names = ("Ann", "Bo")
    for seat in (0, 1, None):
        view = engine.view(state, seat)
        assert registered.render(view, names).startswith(b"\x89PNG")
        assert registered.alt_text(view, names)
        assert isinstance(registered.frame(view, names), Image.Image)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_level_has_a_new_player_each_time(key: str) -> None:
    assert set(LEVELS) <= set(GAMES[key].players)
    for level in LEVELS:
        first, second = player(key, level), player(key, level)
        assert first is not second
        assert callable(first.decide)
    unknown = player(key, "no such level")
    assert type(unknown) is type(player(key, DEFAULT_LEVEL))
