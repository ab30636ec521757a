"""A game that ends before its first real move reveals nothing that was hidden.

An abort is free and unrated, and so is a resignation or a loss on time before the first
real move: if any of them showed the board in full, ending games during setup would be a
free way to scout a saved setup. These tests run for every game and variant in
``ENGINES`` through the referee and the presenter, so a new game is held to it the moment
it is registered: two games that differ only in the secret setup edits of one player must
look the same to the other player and to the channel when they end, in the live message,
the announcement and ``/game <id>``, down to the image bytes and the file name.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from benchmarks.common import start_game
from bot.delivery.presenter import Message, present, render_board
from bot.games import ENGINES
from bot.games.core import SEATS, CorruptStateError, EndReason, Engine, Outcome, Phase, other
from bot.referee import Referee, Report
from bot.storage import GameRecord, SqliteRepository

SEAT_USERS = (1001, 1002)
"""The challenger sits in seat 0, the challenged player in seat 1."""
CASES = [(key, variant) for key, engine in ENGINES.items() for variant in engine.presets]
ENDINGS = ("abort", "resign", "time out")


async def new_game(referee: Referee, key: str, variant: str) -> GameRecord:
    return await start_game(referee, key, SEAT_USERS, variant=variant)


def state_of(engine: Engine, game: GameRecord) -> Any:
    return engine.from_json(game.state)


def can_ready(engine: Engine, state: Any, seat: int) -> bool:
    return any(str(action) == "ready" for action in engine.legal_actions(state, seat))


def confirmed(engine: Engine, state: Any) -> Any:
    """``state`` with every setup that can be confirmed confirmed."""
    for seat in SEATS:
        if can_ready(engine, state, seat):
            state = engine.act(state, seat, "ready").state
    return state


def secret_edits(
    engine: Engine, state: Any, seat: int, count: int, rng: random.Random
) -> list[str]:
    """Up to ``count`` moves of ``seat`` that change nothing the opponent or channel sees,
    now or once both setups are confirmed (and keep a complete setup complete)."""
    texts = []
    watcher = other(seat)
    complete = can_ready(engine, state, seat)
    for _ in range(count * 4):
        if len(texts) == count or seat not in engine.to_move(state):
            break
        options = list(itertools.islice(engine.legal_actions(state, seat), 60))
        if not options:
            break
        action = rng.choice(options)
        after = engine.apply(state, seat, action).state
        if complete and not can_ready(engine, after, seat):
            continue
        if all(
            engine.view(after, a) == engine.view(state, a)
            and engine.view(confirmed(engine, after), a) == engine.view(confirmed(engine, state), a)
            for a in (watcher, None)
        ):
            texts.append(str(action))
            state = after
    return texts


async def play(referee: Referee, game: GameRecord, seat: int, text: str) -> GameRecord:
    return (await referee.act(SEAT_USERS[seat], f"#{game.id} {text}")).game


async def ready_both(engine: Engine, referee: Referee, game: GameRecord) -> GameRecord:
    """Confirm both setups where the game has a setup and ``ready`` confirms it."""
    for seat in SEATS:
        if can_ready(engine, state_of(engine, game), seat):
            game = await play(referee, game, seat, "ready")
    return game


async def end(referee: Referee, game: GameRecord, how: str, seat: int) -> Report:
    if how == "abort":
        report = await referee.abort(SEAT_USERS[seat], game.id)
    elif how == "resign":
        report = await referee.resign(SEAT_USERS[seat], game.id)
    else:
        timed_out = await referee.time_out(game.id, game.updated_at)
        assert timed_out is not None
        report = timed_out
    assert report.finished
    return report


def seen(report: Report, audience: int | None) -> list[Message]:
    """What ``audience`` is sent of ``report``, as the presenter makes it."""
    return [present(notice) for notice in report.notices if notice.audience == audience]


def has_setup(key: str, variant: str) -> bool:
    engine = ENGINES[key]
    return engine.view(engine.new_game(engine.presets[variant], 7), None).phase is Phase.SETUP


async def twin_world(
    key: str, variant: str, hidden: int, edits: int, ready: bool, how: str, ender: int
) -> tuple[dict[str, Any], Any]:
    """One game where ``hidden`` made ``edits`` secret setup edits, then ended unplayed."""
    engine = ENGINES[key]
    repo = await SqliteRepository.open(":memory:")
    try:
        referee = Referee(repo, seed_source=itertools.count(7).__next__)
        game = await new_game(referee, key, variant)
        for seat in SEATS:  # a whole setup each, where the game deals one on request
            if any(str(a) == "random" for a in engine.legal_actions(state_of(engine, game), seat)):
                game = await play(referee, game, seat, "random")
        rng = random.Random(edits)
        for text in secret_edits(engine, state_of(engine, game), hidden, edits, rng):
            game = await play(referee, game, hidden, text)
        if ready:
            game = await ready_both(engine, referee, game)
        assert not engine.has_started(state_of(engine, game))
        report = await end(referee, game, how, ender)
        record, view, status = await referee.finished(game.id, game.seats[0])
        watcher = other(hidden)
        shown = {
            "watcher": seen(report, watcher),
            "channel": seen(report, None),
            "/game": (render_board(record, view), status),
            "/game view": view,
        }
        return shown, engine.view(state_of(engine, report.game), hidden)
    finally:
        await repo.close()


@pytest.mark.parametrize("how", ENDINGS)
@pytest.mark.parametrize("ready", [False, True], ids=["in setup", "set up"])
@pytest.mark.parametrize(("key", "variant"), CASES)
async def test_an_unplayed_game_ends_without_revealing_a_secret(
    key: str, variant: str, ready: bool, how: str
) -> None:
    for hidden, ender in itertools.product(SEATS, SEATS):
        if how == "time out" and ender != 0:
            continue  # a time-out has no one who asked for it
        one, hidden_one = await twin_world(key, variant, hidden, 0, ready, how, ender)
        two, hidden_two = await twin_world(key, variant, hidden, 5, ready, how, ender)
        for part in one:
            assert one[part] == two[part], (part, hidden, ender)
        boards = [m.board for m in one["watcher"] + one["channel"]] + [one["/game"][0]]
        assert not any("revealed" in board.alt for board in boards), "nothing was revealed"
        if has_setup(key, variant):
            assert hidden_one != hidden_two, "the twins must really differ"


async def test_a_played_game_reveals_everything_at_its_end(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Once the first real move is made, the end shows everyone the whole board."""
    engine = ENGINES["seabattle"]
    game = await new_game(referee, "seabattle", "classic")
    for seat in SEATS:
        game = await play(referee, game, seat, "random")
    game = await ready_both(engine, referee, game)
    shooter = state_of(engine, game).turn
    game = await play(referee, game, shooter, "A1")
    report = await referee.resign(SEAT_USERS[0], game.id)
    assert report.game.end_reason == EndReason.RESIGNATION.value
    _, view, _ = await referee.finished(game.id, game.seats[0])
    final = state_of(engine, report.game)
    for owner in SEATS:
        assert len(view.fields[owner].ships) == len(final.sides[owner].ships)


@pytest.mark.parametrize(("key", "variant"), CASES)
def test_an_unplayed_end_survives_storage(key: str, variant: str) -> None:
    """The mark that keeps the secrets is stored with the state and read back."""
    engine = ENGINES[key]
    state = engine.new_game(engine.presets[variant], 3)
    phase = engine.view(state, None).phase
    ended = engine.conclude(state, Outcome(None, EndReason.ABORTED, "aborted", unplayed=phase))
    reloaded = engine.from_json(engine.to_json(ended))
    assert reloaded == ended and engine.outcome(reloaded).unplayed is phase


def test_an_unplayed_end_in_a_finished_phase_is_refused() -> None:
    with pytest.raises(CorruptStateError):
        Outcome.from_json({"winner": None, "reason": "aborted", "detail": "", "unplayed": "x"})
