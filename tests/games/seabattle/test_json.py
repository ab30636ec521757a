"""What Sea Battle stores: every state a player can reach round-trips through JSON, stored
data that no game could reach is refused on load, the text carried from move to move is the
text written anew, and a game stored by an older version reads as it was."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from bot.games.core import CorruptStateError, Phase
from bot.storage.records import dump
from tests.support.seabattle_playouts import GAME_SEEDS, PRESETS, full_game, walk_play
from tests.support.seabattle_positions import ENGINE as E
from tests.support.seabattle_positions import MODES, random_ready_game


@pytest.mark.parametrize(
    "preset",
    list(PRESETS),
)
def test_json_round_trips_at_every_step(preset: str) -> None:
    """Storage saves after every move: each state must load back equal, through real JSON."""
    for seed in GAME_SEEDS[:2]:
        for state in full_game(preset, seed)[2]:
            text = json.dumps(E.to_json(state))
            assert E.from_json(json.loads(text)) == state, seed


def test_json_round_trips_a_partial_fleet_with_same_length_kinds() -> None:
    """§4.2 fleet, §2.4 setup: place the cruiser and the submarine (both 3 cells), take the
    cruiser back, save and load. Every state a player can reach must be storable."""
    state = E.new_game(E.presets["milton-bradley"], 0)
    for text in ("A1 A3", "C1 C3", "remove A1"):
        state = E.act(state, 0, text).state
    assert [E.presets["milton-bradley"].fleet[s.kind].name for s in state.sides[0].ships] == [
        "submarine"
    ]
    assert E.from_json(json.loads(json.dumps(E.to_json(state)))) == state


def off_board(data: dict[str, Any]) -> None:
    size = data["rules"]["size"]
    kind, cells = data["sides"][0]["ships"][0]
    data["sides"][0]["ships"][0] = [kind, [f"{chr(ord('A') + size)}{c[1:]}" for c in cells]]


def shot_twice(data: dict[str, Any]) -> None:
    data["log"].append(data["log"][0])


def overlap(data: dict[str, Any]) -> None:
    ships = data["sides"][1]["ships"]
    kind, cells = ships[-1]
    ships[-1] = [kind, ships[0][1][: len(cells)]]


def bent(data: dict[str, Any]) -> None:
    ships = data["sides"][0]["ships"]
    kind, cells = ships[0]
    first = cells[0]
    ships[0] = [
        kind,
        [first, *[f"{chr(ord(first[0]) + i)}{int(first[1:]) + i}" for i in (1, 2)]],
    ]


def one_ship_too_many(data: dict[str, Any]) -> None:
    data["sides"][0]["ships"].append(copy.deepcopy(data["sides"][0]["ships"][-1]))


def shooter_three(data: dict[str, Any]) -> None:
    data["log"][0] = "3" + data["log"][0][1:]


def setting(value: Any, *path: str | int) -> Callable[[dict[str, Any]], None]:
    """An edit that sets the value at ``path`` (keys and indexes from the top) to ``value``."""

    def edit(data: dict[str, Any]) -> None:
        *way, last = path
        place: Any = data
        for key in way:
            place = place[key]
        place[last] = value

    return edit


CORRUPTIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "ship moved off board": off_board,
    "cell shot twice": shot_twice,
    "ships overlap": overlap,
    "ship bent": bent,
    "one ship too many": one_ship_too_many,
    "shot by seat 3": shooter_three,
    "play without a turn": setting(None, "turn"),
    "turn of seat 2": setting(2, "turn"),
    "unready fleet in play": setting(False, "sides", 1, "ready"),
    "finished without outcome": setting("finished", "phase"),
    "unknown phase": setting("halftime", "phase"),
    "impossible rules": setting(99, "rules", "size"),
    "unknown touching": setting("sometimes", "rules", "touching"),
    **{f"version {version!r}": setting(version, "version") for version in (0, 3, None, "2")},
    "no version": lambda data: data.pop("version"),
}
"""Ways stored data can go bad, each as an edit of a saved game in play."""


@cache
def saved_game(preset: str) -> dict[str, Any]:
    state = random_ready_game(preset, 5)
    for _, _, transition in walk_play(state, random.Random(5), limit=6):
        state = transition.state
    assert state.phase is Phase.PLAY and state.log
    return E.to_json(state)


FREE_FORM_LEGAL = {"ships overlap", "ship bent"}
"""Edits that leave a Flying Dutchman legal: it has one ship, of any shape (§5.2)."""


@pytest.mark.parametrize(
    ("preset", "case"),
    [
        (preset, case)
        for case in CORRUPTIONS
        for preset in PRESETS
        if not (MODES[preset].dutchman and case in FREE_FORM_LEGAL)
    ],
)
def test_corrupted_json_is_refused(preset: str, case: str) -> None:
    """Stored data is re-validated on load: bad data raises CorruptStateError, never loads."""
    data = copy.deepcopy(saved_game(preset))
    CORRUPTIONS[case](data)
    with pytest.raises(CorruptStateError):
        E.from_json(data)


def set_kind(value: int) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"][-1][0] = value

    return edit


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(set_kind(99), id="ship kind 99"),
        pytest.param(set_kind(-1), id="ship kind -1"),
        pytest.param(lambda data: data.pop("rules"), id="no rules"),
        pytest.param(lambda data: data.pop("sides"), id="no sides"),
    ],
)
def test_corrupted_json_is_refused_not_crashed(edit: Callable[[dict[str, Any]], None]) -> None:
    """The contract says ``from_json`` raises CorruptStateError on bad data; any other
    exception, or loading a fleet that the rules do not allow, breaks storage's error path."""
    data = copy.deepcopy(saved_game("classic"))
    edit(data)
    with pytest.raises(CorruptStateError):
        E.from_json(data)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_log_carried_from_move_to_move_is_the_log_named_anew(mode: str) -> None:
    """Each move hands the next state its log's cell names (``carry_named_log``), as the
    referee stores every state it reaches: the stored text of every state of a seeded game
    must be exactly what the same state writes with nothing carried, and read back the same."""
    rng = random.Random(f"named log {mode}")
    state = random_ready_game(mode, rng.randrange(1 << 30))
    carried = moves = 0
    for _ in range(300):
        stored = dump(E.to_json(state))  # as the referee stores each state it reaches
        anew = replace(state)  # the same state, nothing worked out yet
        assert "named_log" not in anew.__dict__
        assert dump(E.to_json(anew)) == stored, (mode, len(state.log))
        assert E.from_json(json.loads(stored)) == state
        movers = sorted(E.to_move(state))
        if not movers:
            break
        seat = rng.choice(movers)
        state = E.apply(state, seat, rng.choice(list(E.legal_actions(state, seat)))).state
        moves += 1
        carried += "named_log" in state.__dict__
    assert carried == moves > 30, "the names were not carried over from move to move"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_game_stored_by_version_1_reads_as_it_was(preset: str) -> None:
    """Version 1 stored each shot as ``[0, "B7"]``: games stored before version 2 read the
    same, and are stored again in version 2."""
    _, _, states = full_game(preset, GAME_SEEDS[0])
    state = states[len(states) // 2]
    data = E.to_json(state)
    assert data["version"] == 2 and all(isinstance(shot, str) for shot in data["log"])
    older = {**data, "version": 1, "log": [[int(shot[0]), shot[1:]] for shot in data["log"]]}
    read = E.from_json(json.loads(json.dumps(older)))
    assert read == state
    assert E.to_json(read) == data
