"""One log step: a stored game replayed entry by entry lands on what the referee stored.

The referee, replays, the computer's seat and the verifier all apply the log with
``bot.log_step``; these tests hold the step to the referee's own record of each change:
the snapshot it stored and every announcement it kept, for a move and for each end from
outside the rules (resignation, abort, call-off, time-out).
"""

from __future__ import annotations

import json

import pytest

from benchmarks.playouts import play_out
from bot.announcements import game_begun
from bot.fairness import play_begins
from bot.games import ENGINES
from bot.games.core import EndReason, Outcome
from bot.log_step import MOVE, EntryError, announced, apply_entry
from bot.referee import Referee
from bot.storage import GameRecord

ENDS = ["resign", "abort", "call off", "time"]


async def ended_game(referee: Referee, key: str, how: str) -> GameRecord:
    """A game of ``key`` ended from outside the rules the way ``how`` says."""
    if how == "resign":
        return await play_out(referee, key, max_plies=6)
    challenge = await referee.challenge(
        game=key, variant=None, guild_id=1, channel_id=2, challenger_id=11, opponent_id=12
    )
    game = (await referee.accept(challenge.id, 12)).game
    if how == "abort":
        report = await referee.abort(11, game.id)
    elif how == "call off":
        report = await referee.call_off(game.id, 1)  # type: ignore[assignment]
    else:
        report = await referee.time_out(game.id, game.updated_at)  # type: ignore[assignment]
    assert report is not None
    return report.game


@pytest.mark.parametrize("how", ENDS)
@pytest.mark.parametrize("key", sorted(ENGINES))
async def test_the_log_replayed_step_by_step_is_what_the_referee_stored(
    referee: Referee, key: str, how: str
) -> None:
    game = await ended_game(referee, key, how)
    engine = ENGINES[key]
    sealed = await referee.repository.seals(game.id)
    seals = () if sealed is None else sealed[1]
    rules = engine.rules_from_json(game.rules)
    state = engine.new_game(rules, game.seed)
    opening = seals if play_begins(engine, None, state) else ()
    told = {0: announced(engine, state, game_begun(engine, rules, state), sealed=opening)}
    for entry in await referee.repository.log(game.id):
        assert entry.seat is not None
        before = state
        step = apply_entry(
            engine, state, entry.seat, entry.kind.value, entry.text, game.computer_seat
        )
        state = step.state
        assert step.logged == (None if entry.kind.value == MOVE else step.outcome)
        began = play_begins(engine, before, state)
        told[entry.ply] = announced(
            engine, state, step.events, sealed=seals if began else (), opened=seals
        )
    assert engine.to_json(state) == game.state
    assert told == dict(await referee.repository.announcements(game.id))


def test_an_end_the_referee_could_not_make_is_refused_or_made_as_it_would_be() -> None:
    engine = ENGINES["seabattle"]
    state = engine.new_game(engine.rules_from_json(engine.configure(None, "").to_json()), 1)
    resigned = Outcome(1, EndReason.RESIGNATION, "by resignation").to_json()
    step = apply_entry(engine, state, 1, "end", json.dumps(resigned), None)
    assert step.logged is not None and step.logged.winner == 1
    assert step.outcome is not None and step.outcome.winner == 0
    with pytest.raises(EntryError, match="not an outcome"):
        apply_entry(engine, state, 0, "end", "{}", None)
    ruled = Outcome(None, EndReason.RULES, "a draw").to_json()
    with pytest.raises(EntryError, match="never with an end entry"):
        apply_entry(engine, state, 0, "end", json.dumps(ruled), None)
