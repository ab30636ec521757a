"""The declarative codec every game's stored state goes through (bot.games.codec).

Each game declares its fields and the rules a loaded state must satisfy; the codec reads,
writes and refuses for all of them. These tests hold the codec's own promises: a state is
written back exactly as read, a malformed value is refused as unreadable (never raised as
another exception), the first rule broken speaks, and a key absent from older games reads
as its default.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pytest

from bot.games import codec
from bot.games.codec import Codec, Field, ListOf, Maybe, Plain, Record, Row, Rule
from bot.games.core import CorruptStateError, Outcome, Phase
from tests.games.seabattle.test_json import saved_game
from tests.support.seabattle_positions import ENGINE as SEA_BATTLE


@dataclass(frozen=True)
class Rules:
    """A board of ``size`` cells in a row."""

    size: int

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size}


class Token(NamedTuple):
    cell: int
    owner: int


@dataclass(frozen=True)
class State:
    rules: Rules
    phase: Phase
    tokens: tuple[Token, ...] = ()
    marks: tuple[tuple[int, int], ...] = ()
    last: tuple[int, int] | None = None
    quiet: int = 0
    notes: tuple[str, ...] = field(default=())
    outcome: Outcome | None = None


def _on_board(state: State) -> str | None:
    for token in state.tokens:
        if not 0 <= token.cell < state.rules.size:
            return f"token {token.cell} is off the board"
    return None


CODEC: Codec[State] = Codec(
    "Test game",
    lambda raw: Rules(int(raw["size"])),
    Record(
        State,
        codec.PHASE,
        Field("tokens", ListOf(Row(Token, codec.INT, codec.SEAT, split=tuple))),
        Field("marks", ListOf(Row(codec.pair, codec.INT, codec.INT, split=tuple)), missing=()),
        Field("last", Maybe(Row(codec.pair, codec.INT, codec.INT, split=tuple, exact=False))),
        Field("quiet", codec.INT),
        Field("notes", ListOf(Plain(str)), missing=(), written=lambda s: bool(s.notes)),
        codec.OUTCOME,
    ),
    (
        Rule("a counter is negative", lambda s: s.quiet < 0),
        codec.outcome_when_finished("only a finished game has an outcome"),
        _on_board,
    ),
    impossible="The stored test game is impossible: {}.",
)

STORED: dict[str, Any] = {
    "version": 1,
    "rules": {"size": 5},
    "phase": "play",
    "tokens": [[0, 0], [4, 1]],
    "marks": [[1, 2]],
    "last": [0, 4],
    "quiet": 2,
    "outcome": None,
}


def edited(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(STORED)
    data.update(changes)
    return data


def test_a_state_is_written_back_exactly_as_it_was_read() -> None:
    state = CODEC.load(copy.deepcopy(STORED))
    assert state.tokens == (Token(0, 0), Token(4, 1))
    assert state.marks == ((1, 2),)
    assert json.dumps(CODEC.dump(state)) == json.dumps(STORED)


def test_an_absent_key_reads_as_its_default_and_an_empty_one_is_not_written() -> None:
    older = edited()
    del older["marks"]
    state = CODEC.load(older)
    assert state.marks == ()
    assert "notes" not in CODEC.dump(state)
    noted = CODEC.load(edited(notes=["x"]))
    assert CODEC.dump(noted)["notes"] == ["x"]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"tokens": [[0, 0, 1]]}, r"too many values to unpack \(expected 2\)"),
        ({"tokens": [[0]]}, r"not enough values to unpack \(expected 2, got 1\)"),
        ({"tokens": [3]}, "cannot unpack non-iterable int object"),
        ({"tokens": [[0, 2]]}, "2 is not a seat"),
        ({"tokens": [[0, True]]}, "True is not a seat"),
        ({"phase": "nowhere"}, "'nowhere' is not a valid Phase"),
        ({"last": [1]}, "list index out of range"),
        ({"rules": {}}, "'size'"),
    ],
)
def test_a_malformed_value_is_refused_as_unreadable(changes: dict[str, Any], reason: str) -> None:
    with pytest.raises(CorruptStateError, match=f"^The stored Test game is unreadable: {reason}"):
        CODEC.load(edited(**changes))


def test_a_loose_row_passes_over_items_after_its_columns() -> None:
    assert CODEC.load(edited(last=[0, 4, 9])).last == (0, 4)


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"quiet": -1}, "a counter is negative"),
        ({"phase": "finished"}, "only a finished game has an outcome"),
        ({"tokens": [[7, 0]]}, "token 7 is off the board"),
        ({"quiet": -1, "tokens": [[7, 0]]}, "a counter is negative"),
    ],
)
def test_the_first_rule_broken_refuses_the_state_in_its_own_words(
    changes: dict[str, Any], sentence: str
) -> None:
    with pytest.raises(CorruptStateError) as caught:
        CODEC.load(edited(**changes))
    assert str(caught.value) == f"The stored test game is impossible: {sentence}."


@pytest.mark.parametrize("data", [edited(version=2), edited(version=None), ["not", "a", "game"]])
def test_a_version_not_read_is_refused(data: Any) -> None:
    with pytest.raises(CorruptStateError, match=r"^Unknown Test state version\.$"):
        CODEC.load(data)


def test_a_sea_battle_game_whose_rules_lost_their_fleet_is_refused_not_crashed() -> None:
    """Rules naming the submarine with no fleet at all made the loader raise IndexError,
    which storage's error path does not expect: every game now refuses it as unreadable."""
    data = copy.deepcopy(saved_game("classic"))
    data["rules"].update(fleet=[], submarine=True)
    with pytest.raises(CorruptStateError, match="unreadable"):
        SEA_BATTLE.from_json(data)


@dataclass(frozen=True)
class Mark:
    cell: int


def test_a_row_of_one_column_is_written_as_a_list_of_one() -> None:
    row = Row(Mark, codec.INT)
    assert row.write(Mark(3)) == [3]
    assert row.read([3], None) == Mark(3)
