"""``python -m bot.verify``: every claim of an export checked, doctored ones refused by name.

The exports are real finished games (won by the rules, resigned, lost on time) of several
games, made through the referee as ``/export`` makes them; each doctored copy changes one
claim the way a cheat would, and each malformed file gets one sentence, never a traceback.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks.playouts import play_out
from bot import fairness
from bot.games import ENGINES
from bot.games.core import Phase
from bot.referee import Referee, RefereeError
from bot.storage import SqliteRepository
from bot.verify import main, verify
from tests.test_computer import play_out as computer_game

PLAYERS = (1001, 1002)
CASES = [
    ("seabattle", "corners", "win"),
    ("luzhanqi", "classic", "win"),
    ("warships", "classic", "resign"),
    ("seachess", "standard", "resign"),
    ("seabattle", "classic", "time"),
    ("marine", "classic", "time"),
    ("luzhanqi", "flip", "time"),
]
"""Games ended by the rules, by resignation and on time, each for more than one game."""
REASONS = {"win": "rules", "resign": "resignation", "time": "timeout"}
_made: dict[tuple[str, str, str], dict[str, Any]] = {}


async def started(referee: Referee, key: str, variant: str, moves: int) -> int:
    """A game of ``key`` set up by both players and ``moves`` random moves into play."""
    engine = ENGINES[key]
    challenge = await referee.challenge(
        game=key, variant=variant, guild_id=1, channel_id=2,
        challenger_id=PLAYERS[0], opponent_id=PLAYERS[1],
    )  # fmt: skip
    game = (await referee.accept(challenge.id, PLAYERS[1])).game
    if engine.from_json(game.state).phase is Phase.SETUP:
        for seat in (0, 1):
            for word in ("random", "ready"):
                await referee.act(PLAYERS[seat], word, game.id)
    rng = random.Random(7)
    for _ in range(moves):
        record = await referee.repository.get_game(game.id)
        assert record is not None and record.end_reason is None
        state = engine.from_json(record.state)
        seat = sorted(engine.to_move(state))[0]
        move = str(rng.choice(list(engine.legal_actions(state, seat))))
        await referee.act(PLAYERS[seat], move, game.id)
    return game.id


async def exported_by_a_player(referee: Referee, game_id: int) -> dict[str, Any]:
    """A finished game's export as its first player downloads it, through JSON as a file."""
    record = await referee.repository.get_game(game_id)
    assert record is not None
    return json.loads(json.dumps(await referee.export(game_id, record.seats[0])))


async def exported(key: str, variant: str, how: str) -> dict[str, Any]:
    """A finished game's export as a file holds it (made once per module, copied per use)."""
    if (key, variant, how) not in _made:
        repository = await SqliteRepository.open(":memory:")
        referee = Referee(repository, seed_source=itertools.count(1).__next__)
        try:
            if how == "time":
                game_id = await started(referee, key, variant, moves=5)
                record = await referee.repository.get_game(game_id)
                assert record is not None
                assert await referee.time_out(game_id, record.updated_at) is not None
            else:
                plies = 2000 if how == "win" else 16
                game_id = (await play_out(referee, key, variant=variant, max_plies=plies)).id
            _made[key, variant, how] = await exported_by_a_player(referee, game_id)
        finally:
            await repository.close()
    record = copy.deepcopy(_made[key, variant, how])
    assert record["end"] == REASONS[how]
    return record


def run(record: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``python -m bot.verify`` on ``record`` written to a file: its exit code and output."""
    path = tmp_path / "game.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    code = main([str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def refused(record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, said = run(record, tmp_path, capsys)
    assert code == 1, said
    assert "NOT VERIFIED" in said and "verified." not in said
    return said


@pytest.mark.parametrize(("key", "variant", "how"), CASES)
async def test_an_honest_export_is_verified(
    key: str, variant: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(key, variant, how)
    code, said = run(record, tmp_path, capsys)
    assert code == 0, said
    assert "verified." in said
    assert {s["who"] for s in record["seals"]["entries"]} == {"seat0", "seat1", "seats", "seed"}
    for seal in record["seals"]["entries"]:
        assert seal["digest"] in said  # to compare with what the channel was told


@pytest.mark.parametrize(("key", "variant", "how"), CASES)
async def test_a_flipped_winner_is_refused(
    key: str, variant: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(key, variant, how)
    record["winner"] = 0 if record["winner"] != 0 else 1
    assert "winner" in refused(record, tmp_path, capsys)


@pytest.mark.parametrize(("key", "variant", "how"), CASES)
async def test_swapped_seats_are_refused(
    key: str, variant: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(key, variant, how)
    record["seats"].reverse()
    assert "seats" in refused(record, tmp_path, capsys)


@pytest.mark.parametrize(("key", "variant", "how"), CASES)
async def test_a_changed_end_reason_is_refused(
    key: str, variant: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(key, variant, how)
    claimed = "timeout" if record["end"] != "timeout" else "resignation"
    record["end"] = claimed
    said = refused(record, tmp_path, capsys)
    assert f"ended by {claimed}" in said and f"by {REASONS[how]}" in said


@pytest.mark.parametrize(("key", "variant", "how"), CASES)
async def test_a_log_without_its_last_entry_and_announcement_is_refused(
    key: str, variant: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The final resignation, time-out or winning move taken out with what it announced."""
    record = await exported(key, variant, how)
    last = record["actions"].pop()
    record["announcements"] = [a for a in record["announcements"] if a["ply"] != last["ply"]]
    said = refused(record, tmp_path, capsys)
    assert "still running" in said and f"ended by {record['end']}" in said


@pytest.mark.parametrize(("key", "variant", "how"), CASES[::3])
async def test_a_gap_in_the_log_is_refused(
    key: str, variant: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(key, variant, how)
    gone = record["actions"].pop(3)
    assert f"ply {gone['ply']} is missing" in refused(record, tmp_path, capsys)
    record["actions"].insert(3, copy.deepcopy(record["actions"][2]))
    assert f"ply {gone['ply'] - 1} is in the log twice" in refused(record, tmp_path, capsys)


@pytest.mark.parametrize(("key", "variant"), [("warships", "classic"), ("seachess", "standard")])
async def test_a_resignation_rewritten_to_the_resigners_favour_is_refused(
    key: str, variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The end entry, the winner and every announcement agreeing on a false winner."""
    record = await exported(key, variant, "resign")
    end = record["actions"][-1]
    outcome = json.loads(end["text"])
    outcome["winner"] = end["seat"]
    end["text"] = json.dumps(outcome)
    record["winner"] = end["seat"]
    record["announcements"] = record["announcements"][:-1]
    said = refused(record, tmp_path, capsys)
    assert f"ply {end['ply']}" in said and "resignation by seat" in said


@pytest.mark.parametrize(("key", "variant"), [("seabattle", "classic"), ("marine", "classic")])
async def test_an_end_by_time_claimed_for_a_seat_not_on_move_is_refused(
    key: str, variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported(key, variant, "time")
    end = record["actions"][-1]
    outcome = json.loads(end["text"])
    end["seat"], outcome["winner"] = 1 - end["seat"], end["seat"]
    end["text"] = json.dumps(outcome)
    record["winner"] = outcome["winner"]
    said = refused(record, tmp_path, capsys)
    assert "time-out" in said and "is not to move" in said


async def test_an_abort_after_the_first_move_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a game not yet begun can be aborted, and such a game is never exported."""
    record = await exported("warships", "classic", "resign")
    end = record["actions"][-1]
    end["text"] = json.dumps({"winner": None, "reason": "aborted", "detail": "aborted"})
    record["winner"], record["end"] = None, "aborted"
    record["announcements"] = record["announcements"][:-1]
    assert "abort" in refused(record, tmp_path, capsys)


@pytest.mark.parametrize("key", ["seabattle", "luzhanqi"])
async def test_an_aborted_game_has_no_export(referee: Referee, key: str) -> None:
    variant = "flip" if key == "luzhanqi" else "classic"
    game_id = await started(referee, key, variant, moves=0)
    await referee.abort(PLAYERS[0], game_id)
    with pytest.raises(RefereeError, match="before its first real move"):
        await referee.export(game_id, PLAYERS[0])


def _without(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        for step in path[:-1]:
            record = record[step]
        del record[path[-1]]

    return change


def _setting(path: tuple[Any, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        for step in path[:-1]:
            record = record[step]
        record[path[-1]] = value

    return change


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a format to come", _setting(("format",), 99), "format `99`"),
    ("no game", _without(("game",)), "`game`"),
    ("an unknown game", _setting(("game",), "chess"), "no game called `chess`"),
    ("rules that are no rules", _setting(("rules",), {"size": "x"}), "rules"),
    ("a variant the rules are not", _setting(("variant",), "giant"), "variant"),
    ("a seed that is no number", _setting(("seed",), "lucky"), "seed"),
    ("one seat", _setting(("seats",), ["1001"]), "seats"),
    ("a seal without a salt", _without(("seals", "entries", 0, "salt")), "salt"),
    ("a ply that is no number", _setting(("actions", 2, "ply"), "three"), "ply"),
    ("an announcement ply that is no number", _setting(("announcements", 0, "ply"), None), "ply"),
    ("an action of no known kind", _setting(("actions", 2, "kind"), "undo"), "kind"),
    ("a seat that is none", _setting(("actions", 2, "seat"), 7), "seat"),
    ("actions that are no list", _setting(("actions",), {"1": "A1"}), "actions"),
    ("an audience that is none", _setting(("announcements", 0, "tidings", 0, 0), 5), "audience"),
]


@pytest.mark.parametrize(
    ("change", "named"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
async def test_a_malformed_export_gets_one_sentence(
    change: Callable[[dict[str, Any]], None], named: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    record = await exported("seabattle", "classic", "time")
    change(record)
    code, said = run(record, tmp_path, capsys)
    assert code == 2, said
    assert said.count("\n") == 1 and said.endswith(".\n"), said
    assert named in said and "game.json" in said


@pytest.mark.parametrize(
    ("move", "named"),
    [("Z99", "ply 6: `Z99` cannot be replayed"), ("resign please", "cannot be replayed")],
)
async def test_an_action_that_does_not_parse_or_is_illegal_is_refused(
    move: str, named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported("seabattle", "classic", "time")
    record["actions"][5]["text"] = move
    assert named in refused(record, tmp_path, capsys)


async def test_the_same_shot_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await exported("seabattle", "classic", "time")
    shots = [a for a in record["actions"] if a["seat"] == 0 and a["ply"] > 4]
    shots[1]["text"] = shots[0]["text"]
    assert f"ply {shots[1]['ply']}" in refused(record, tmp_path, capsys)


@pytest.mark.parametrize(
    ("content", "named"),
    [(None, "no such file"), ("{not json", "not JSON"), ("[1, 2]", "not an exported game")],
)
def test_an_unreadable_file_gets_one_sentence_from_the_command_line(
    content: str | None, named: str, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    done = subprocess.run(
        [sys.executable, "-m", "bot.verify", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr.count("\n") == 1 and named in done.stderr, done.stderr


async def test_an_export_from_before_the_seats_were_sealed_is_read_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game sealed before the seats were, exported in the first format, still checks out;
    the verifier says plainly that who sat where is the one claim it could not check."""
    sealing = fairness.seal

    def unsealed_seats(*args: Any, **kwargs: Any) -> tuple[fairness.Seal, ...]:
        return tuple(s for s in sealing(*args, **kwargs) if s.who != fairness.SEATS)

    monkeypatch.setattr("bot.referee.unit_of_work.seal", unsealed_seats)
    _made.pop(("warships", "classic", "resign"), None)
    try:
        record = await exported("warships", "classic", "resign")
    finally:
        _made.pop(("warships", "classic", "resign"), None)
    record["format"] = 1
    del record["computer_seat"]
    code, said = run(record, tmp_path, capsys)
    assert code == 0, said
    assert "verified." in said and "seats were not sealed" in said
    record["winner"] = 1 - record["winner"]
    assert "winner" in refused(record, tmp_path, capsys)


async def test_verify_still_answers_with_its_problems(referee: Referee) -> None:
    record = await exported("luzhanqi", "flip", "time")
    assert verify(record) == ([], len(record["announcements"]))
    record["seats"].reverse()
    problems, _ = verify(record)
    assert any("seats" in p for p in problems)
    assert verify(["not", "a", "game"])[0] == ["the file is not an exported game (a JSON object)."]


WRONG_VALUES: list[object] = [None, True, -1, 1.5, "x", [], {}, [0, 1, 2]]


def _paths(record: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every field of the export's top level, its seals, and its first action, seal and
    announcement: where a hand-edited file goes wrong."""
    paths: list[tuple[Any, ...]] = [(key,) for key in record]
    paths += [("seals", key) for key in record["seals"]]
    paths += [("seals", "entries", 0, key) for key in record["seals"]["entries"][0]]
    paths += [("actions", 0, key) for key in record["actions"][0]]
    paths += [("actions", -1, key) for key in record["actions"][-1]]
    paths += [("announcements", 0, key) for key in record["announcements"][0]]
    paths += [("announcements", 0, "tidings", 0, index) for index in (0, 1)]
    paths += [("announcements", 0, "tidings", 0, 1, 0)]
    return paths


async def test_any_field_of_any_wrong_kind_gets_a_sentence_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    honest = await exported("marine", "classic", "time")
    for path in _paths(honest):
        for value in WRONG_VALUES:
            record = copy.deepcopy(honest)
            _setting(path, value)(record)
            code, said = run(record, tmp_path, capsys)  # raises nothing
            assert code in (0, 1, 2), (path, value, said)
            if code != 0:
                assert said.strip(), (path, value)


async def test_a_game_against_the_computer_is_verified_with_its_seat(
    referee: Referee, repo: SqliteRepository, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The computer's seat is in the export: it is never the one late on time, and the
    verifier rebuilds a time-out the way the referee decides it."""
    game_id = await computer_game(referee, repo, "marine", "casual")
    record = await exported_by_a_player(referee, game_id)
    assert record["computer_seat"] == 1
    code, said = run(record, tmp_path, capsys)
    assert code == 0 and "verified." in said, said
