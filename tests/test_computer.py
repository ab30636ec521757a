"""Games against the computer through the referee: started at once, played by the computer
through the ordinary move path, unrated, resumed after a restart with exactly one move, and
never handed the game's seed, from which every random secret of the game is rebuilt."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from enum import Enum
from typing import Any

import pytest

import bot.computer
from bot.ai import Player, Seen
from bot.computer import Computer
from bot.games import ENGINES
from bot.games.core import Phase
from bot.referee import Referee, RefereeError, Report, StaleMoveError
from bot.storage import COMPUTER_SEAT, LogKind, SqliteRepository

PERSON, COMPUTER = 1001, 9000
GUILD, CHANNEL = 500, 700
GAMES = ("seabattle", "luzhanqi", "warships", "seachess", "marine")


def persons_move(game: str, view: Any, dice: random.Random) -> str:
    """The person's next move: through setup as quickly as the game allows, then any legal
    move but a draw offer, picked by ``dice``."""
    engine = ENGINES[game]
    if view.phase is Phase.SETUP:
        return "ready" if engine.setup_text(view) or game != "seabattle" else "random"
    return dice.choice([m for m in engine.legal_moves(view) if "draw" not in m])


async def start(
    referee: Referee, game: str, level: str = "strong", variant: str | None = None
) -> Report:
    return await referee.play_computer(
        game=game,
        variant=variant,
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=PERSON,
        computer_id=COMPUTER,
        level=level,
    )


class ComputerHarness:
    """The computer playing, and the reports it would have delivered."""

    def __init__(self, referee: Referee) -> None:
        self.computer = Computer(referee)
        referee.changes.subscribe(self.computer.published)
        self.delivered: list[Report] = []

    async def deliver(self, report: Report) -> None:
        self.delivered.append(report)
        self.computer.wake(report.game)

    async def after(self, report: Report) -> None:
        await self.deliver(report)
        await self.computer.settle()


async def play_out(referee: Referee, repo: SqliteRepository, game: str, level: str) -> int:
    """The person plays random legal moves; the computer answers. Returns the game's id."""
    harness = ComputerHarness(referee)
    report = await start(referee, game, level)
    game_id = report.game.id
    await harness.after(report)
    engine = ENGINES[game]
    dice = random.Random(game)
    for _ in range(3000):
        record = await repo.get_game(game_id)
        assert record is not None
        if record.end_reason is not None:
            break
        state = engine.from_json(record.state)
        view = engine.view(state, 0)
        assert 0 in view.movers, "the game waits for the computer, which should have moved"
        await harness.after(await referee.act(PERSON, persons_move(game, view, dice), game_id))
    else:
        pytest.fail("the game did not end")
    return game_id


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_against_the_computer_ends_unrated(
    referee: Referee, repo: SqliteRepository, game: str
) -> None:
    game_id = await play_out(referee, repo, game, "casual" if game != "seabattle" else "strong")
    record = await repo.get_game(game_id)
    assert record is not None and record.end_reason is not None
    assert record.computer_level is not None and not record.rated
    computer_moves = [e for e in await repo.log(game_id) if e.seat == COMPUTER_SEAT]
    assert computer_moves, "the computer never moved"
    assert all(e.kind is LogKind.MOVE for e in computer_moves)
    assert await repo.records.standings_of(PERSON) == [], "a game against the computer is rated"
    results = await repo.records.results_of(game_id)
    assert results and not any(result.rated for result in results)


async def test_the_computer_is_never_reminded_nor_late(
    referee: Referee, repo: SqliteRepository
) -> None:
    report = await start(referee, "seabattle")
    # Before the computer had a chance to set up, both seats wait; only the person is reminded.
    reminders = await referee.reminders(report.game.id, report.game.updated_at, "Your move?")
    assert [n.audience for n in reminders] == [0]


async def test_an_unknown_level_is_refused(referee: Referee) -> None:
    with pytest.raises(RefereeError, match="no level"):
        await start(referee, "seabattle", level="grandmaster")


async def test_a_restart_in_the_computers_turn_resumes_with_exactly_one_move(
    referee: Referee, repo: SqliteRepository
) -> None:
    report = await start(referee, "seabattle")
    game_id = report.game.id
    # The process stops before the computer set up: a fresh one (new referee, new computer)
    # resumes every game against the computer, twice over, and it still moves once.
    fresh = Referee(repo, seed_source=lambda: 7)
    harness = ComputerHarness(fresh)
    await harness.computer.resume()
    await harness.computer.resume()
    await harness.computer.settle()
    entries = await repo.log(game_id)
    assert [e.text.split()[0] for e in entries] == ["fleet", "ready"]
    assert all(e.seat == COMPUTER_SEAT for e in entries)


async def test_a_move_decided_for_an_older_ply_is_not_played(
    referee: Referee, repo: SqliteRepository
) -> None:
    report = await start(referee, "seabattle")
    await referee.act(COMPUTER, "random", report.game.id, at_ply=0)
    with pytest.raises(StaleMoveError):
        await referee.act(COMPUTER, "random", report.game.id, at_ply=0)
    assert len(await repo.log(report.game.id)) == 1


async def test_a_rematch_against_the_computer_points_to_play(referee: Referee) -> None:
    """A challenge to the computer would wait for an answer that never comes."""
    report = await start(referee, "seabattle")
    await referee.resign(PERSON, report.game.id)
    with pytest.raises(RefereeError, match="use `/play` with me"):
        await referee.rematch(report.game.id, PERSON)


GAME_SEED = 0x1D2C_3B4A_5968_7786
"""A seed no dice, ply or count in a game could equal by chance."""


def mentions(value: object, seed: int) -> bool:
    """Whether ``value`` holds ``seed`` anywhere: as a number, or written in a text."""
    if isinstance(value, bool | Enum) or value is None:
        return False
    if isinstance(value, int):
        return value == seed
    if isinstance(value, str):
        return str(seed) in value or f"{seed:x}" in value.lower()
    if dataclasses.is_dataclass(value):
        return any(mentions(getattr(value, f.name), seed) for f in dataclasses.fields(value))
    if isinstance(value, Mapping):
        return any(mentions(k, seed) or mentions(v, seed) for k, v in value.items())
    if isinstance(value, tuple | list | set | frozenset):
        return any(mentions(item, seed) for item in value)
    return False


class Watched:
    """A computer player that keeps every argument it was handed."""

    def __init__(self, chosen: Player, handed: list[object]) -> None:
        self.chosen = chosen
        self.handed = handed

    def decide(self, seen: Seen) -> str:
        self.handed.append(seen)
        return self.chosen.decide(seen)


@pytest.mark.parametrize(
    ("game", "variant"), [*((game, None) for game in GAMES), ("luzhanqi", "flip")]
)
async def test_the_computer_is_never_handed_the_games_seed(
    repo: SqliteRepository, monkeypatch: pytest.MonkeyPatch, game: str, variant: str | None
) -> None:
    """Not in its view, its told texts, its dice or any argument: its dice are its own."""
    handed: list[object] = []
    choose = bot.computer.player
    monkeypatch.setattr(
        bot.computer, "player", lambda game, level: Watched(choose(game, level), handed)
    )
    referee = Referee(repo, seed_source=lambda: GAME_SEED)
    harness = ComputerHarness(referee)
    report = await start(referee, game, variant=variant)
    game_id = report.game.id
    await harness.after(report)
    engine, dice = ENGINES[game], random.Random(game)
    for _ in range(6):
        record = await repo.get_game(game_id)
        assert record is not None and record.seed == GAME_SEED
        view = engine.view(engine.from_json(record.state), 0)
        if record.end_reason is not None or 0 not in view.movers:
            break
        await harness.after(await referee.act(PERSON, persons_move(game, view, dice), game_id))
    assert len(handed) >= 2, "the computer decided too rarely to tell"
    assert not any(mentions(seen, GAME_SEED) for seen in handed)


async def test_the_computers_dice_are_the_same_after_a_restart(
    repo: SqliteRepository,
) -> None:
    """Its dice follow from the game, so a restarted bot decides as the first one would."""
    first = Referee(repo, seed_source=lambda: GAME_SEED)
    report = await start(first, "luzhanqi")
    before = await first.computer_turn(report.game.id)
    after = await Referee(repo, seed_source=lambda: 7).computer_turn(report.game.id)
    assert before is not None and before == after
