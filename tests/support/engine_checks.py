"""Checks that every game's engine must pass, written once for the property tests of each.

A state survives the store (JSON out and back in), any text is either a move or a refusal
that leaves the state as it was, and stored data that no game could reach is refused on
load. Each game's property tests feed these its own states, texts and broken data.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from bot.games.core import SEATS, CorruptStateError, Engine, GameError


def few(examples: int) -> settings:
    """Hypothesis settings for tests whose every example plays moves: no deadline."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def seeded(examples: int) -> settings:
    """Few, fixed examples, each a game built from a seed. Shrinking is off: a smaller seed is
    not a simpler game, so it would only spend time; a failure reports its seed."""
    return settings(few(examples), derandomize=True, phases=(Stage.explicit, Stage.generate))


def stored(engine: Engine, state: Any) -> Any:
    """``state`` as the store keeps it: the engine's JSON, written out and read back."""
    return json.loads(json.dumps(engine.to_json(state)))


def assert_survives_storage(engine: Engine, states: Iterable[Any]) -> None:
    """Every state loads back from the store equal to itself."""
    for state in states:
        assert engine.from_json(stored(engine, state)) == state


def assert_actions_read_back(
    engine: Engine, state: Any, seat: int, rng: random.Random, count: int
) -> list[Any]:
    """Up to ``count`` of ``seat``'s legal actions, drawn by ``rng``, read back from their
    text as themselves and are played without a refusal; all the legal actions are returned."""
    legal = list(engine.legal_actions(state, seat))
    for action in rng.sample(legal, min(count, len(legal))):
        text = str(action)
        assert engine.parse_action(state, seat, text) == action
        assert str(engine.parse_action(state, seat, text)) == text
        engine.apply(state, seat, action)  # raises if the rules refuse it
    return legal


def assert_movers_actions_read_back(
    engine: Engine, states: Iterable[Any], rng: random.Random, count: int
) -> list[list[Any]]:
    """In every state, the seats to move pass :func:`assert_actions_read_back` and the others
    have no legal action; the legal actions of each seat to move are returned."""
    found: list[list[Any]] = []
    for state in states:
        movers = engine.to_move(state)
        found += [assert_actions_read_back(engine, state, seat, rng, count) for seat in movers]
        for seat in SEATS:
            if seat not in movers:
                assert list(engine.legal_actions(state, seat)) == []
    return found


def assert_move_or_harmless_refusal(engine: Engine, state: Any, seat: int, text: str) -> None:
    """``text`` from ``seat`` is a move or a refusal, and either way ``state`` is unchanged."""
    before = json.dumps(engine.to_json(state))
    with contextlib.suppress(GameError):
        engine.act(state, seat, text)
    assert json.dumps(engine.to_json(state)) == before


def any_text_test(
    engine: Engine,
    states: Callable[[], Sequence[Any]],
    texts: st.SearchStrategy[str],
    examples: int,
) -> Callable[..., None]:
    """The test that any text, typed by either seat in any of ``states()``, is a move or a
    refusal that changes nothing; ``states`` is called when the first example is drawn, so
    the games behind it are not played when the module is imported."""

    @few(examples)
    @given(
        state=st.deferred(lambda: st.sampled_from(states())),
        text=texts,
        seat=st.sampled_from(SEATS),
    )
    def test(state: Any, text: str, seat: int) -> None:
        assert_move_or_harmless_refusal(engine, state, seat, text)

    return test


def assert_edits_refused(
    engine: Engine, data: Any, edits: Iterable[Callable[[Any], object]]
) -> None:
    """Each edit of a copy of the stored ``data`` makes data the engine refuses to load."""
    broken = []
    for edit in edits:
        copy = json.loads(json.dumps(data))
        edit(copy)
        broken.append(copy)
    for copy in broken:
        with pytest.raises(CorruptStateError):
            engine.from_json(copy)
