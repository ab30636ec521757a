"""The referee's use cases, played without Discord against a real (in-memory) SQLite store.

The referee is where the rules meet the players: it decides which game a message is about,
refuses what must be refused with a sentence and without touching the store, and says to
each audience exactly what that audience may learn. These tests drive it the way the cogs
do, with user ids and texts only, and check what it stores and what it would send. Its
refusals are in test_referee_refusals.py, its endings short of the rules in
test_referee_endings.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import pytest

from bot.games import ENGINES
from bot.games.core import EndReason, GameError, Phase, other
from bot.games.grid import cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark, SeaBattleView
from bot.referee import Notice, Place, Referee, Report
from bot.storage import GameStatus, SqliteRepository
from tests.support.referee_games import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    OTHER_GUILD,
    E,
    challenge,
    random_move,
    refused,
    set_fleets,
    ship_cells,
    start_game,
    state_of,
    told,
)
from tests.support.referee_games import (
    CHANNEL as CHANNEL,  # for the modules that import it from here
)

CELL_NAME = re.compile(r"\b([A-T])(\d{1,2})\b")
"""A cell written in a text (the largest preset is 15x15, so this is generous)."""


def cells_named(text: str) -> set[str]:
    """The cells a text names, leaving out examples of notation written in backticks."""
    return {match.group(0) for match in CELL_NAME.finditer(re.sub(r"`[^`]*`", "", text))}


# -- whole games --------------------------------------------------------------------------------


def check_notices(
    old: SeaBattleState, new: SeaBattleState, mover: int, text: str, report: Report
) -> None:
    """What each audience of one move is told, and that no one learns a hidden ship cell."""
    audiences = [notice.audience for notice in report.notices]
    assert len(audiences) == len(set(audiences)), "an audience was told twice"
    if old.phase is Phase.SETUP and text != "ready":
        assert set(audiences) == {mover}, f"`{text}` in setup must tell only the mover"
    elif old.phase is Phase.SETUP and new.phase is Phase.SETUP:
        assert set(audiences) == {mover, None}, "`ready` tells the mover and the channel"
    else:
        assert set(audiences) == {0, 1, None}, f"`{text}` must tell both players and the channel"
    for notice in report.notices:
        check_notice(notice, old, new)


def check_notice(notice: Notice, old: SeaBattleState, state: SeaBattleState) -> None:
    """One notice: addressed right, with the audience's own view and no one else's secrets.

    Cell names are the same on both fields, so a text may name only cells its audience
    already knows about: shot cells for everyone, and a player's own ships (as they were
    before the move or after it, since a removal names the cells it cleared).
    """
    game = notice.game
    known = {cell_name(cell) for _, cell in state.log}
    view = notice.view
    assert isinstance(view, SeaBattleView)
    assert view.seat == notice.audience, "a notice carries another audience's view"
    assert notice.texts, "a notice without text"
    finished = state.phase is Phase.FINISHED
    if notice.audience is None:
        assert notice.user_id is None
        for text in notice.texts:
            # A whole word: a seal's hexadecimal digest may hold the same four digits.
            named = re.search(rf"\b({ALICE}|{BOB})\b", text)
            assert named is None, f"the channel text names an id: {text}"
            filled = text.replace("{seat0}", "Alice").replace("{seat1}", "Bob")
            assert "{" not in filled and "}" not in filled, f"a stray placeholder: {text}"
        if not finished:
            assert all(
                mark is not Mark.SHIP
                for field in view.fields
                for row in field.marks
                for mark in row
            ), "the public view shows an unsunk ship"
    else:
        assert notice.user_id == game.seats[notice.audience]
        own = ship_cells(old, notice.audience) | ship_cells(state, notice.audience)
        told = {cell for seat, cell in state.disclosures if seat != notice.audience}
        known |= {cell_name(cell) for cell in own | told}
        if not finished:
            enemy = view.fields[other(notice.audience)]
            assert all(mark is not Mark.SHIP for row in enemy.marks for mark in row)
    for text in notice.texts:
        unknown = cells_named(text) - known
        assert not unknown, f"{text!r} names cells its audience may not know: {unknown}"


@pytest.mark.parametrize("preset", list(E.presets))
async def test_whole_random_game_from_challenge_to_the_end(
    repo: SqliteRepository, referee: Referee, preset: str
) -> None:
    """Every legal move the engine offers is accepted by the referee, and a game ends."""
    rng = random.Random(f"referee:{preset}")
    game = await start_game(referee, variant=preset)
    assert game.rules == E.presets[preset].to_json()
    assert game.seats == (ALICE, BOB) and game.ply == 0 and game.status is GameStatus.ACTIVE
    state = state_of(game)
    said: list[str] = []
    for _ in range(5000):
        if game.status is GameStatus.FINISHED:
            break
        user, text = random_move(rng, game, state)
        report = await referee.act(user, text)
        assert report.game.ply == game.ply + 1
        new = state_of(report.game)
        check_notices(state, new, game.seats.index(user), text, report)
        public = report.to(None)
        if public is not None:
            said += public.texts
        game, state = report.game, new
    else:
        pytest.fail("the game did not end")
    for news in (r"\bmiss\b", r"\bhit\b", r"\b(sunk|sank)\b", r"\bfleet\b", r"\bfirst\b"):
        assert any(re.search(news, text) for text in said), f"no channel text matched {news!r}"

    assert report.finished and game.winner is not None
    assert game.end_reason == EndReason.RULES.value
    loser = other(game.winner)
    assert ship_cells(state, loser) <= state.shots[game.winner], "won without sinking the fleet"
    assert told(report, game.winner).texts[-1] == "You won!"
    assert told(report, loser).texts[-1] == "You lost."
    assert told(report, None).texts[-1].startswith(f"{{seat{game.winner}}} won")
    assert len(await repo.log(game.id)) == game.ply
    assert await repo.active_games_of(ALICE) == []
    await refused(repo, lambda: referee.act(ALICE, "B5"), "You have no game running")
    await refused(repo, lambda: referee.act(ALICE, f"#{game.id} B5"), f"Game #{game.id} is over")
    await refused(repo, lambda: referee.resign(BOB, game.id), "is over")


# -- notices ------------------------------------------------------------------------------------


async def test_who_is_told_about_each_kind_of_move(referee: Referee) -> None:
    """Setup is secret; `ready` is public news; a shot is news for everyone."""
    game = await start_game(referee)

    placed = await referee.act(ALICE, "A1 A4")
    assert [n.audience for n in placed.notices] == [0], "a placement is private"
    assert "battleship" in told(placed, 0).texts[0] and "A1" in told(placed, 0).texts[0]
    for private in ("remove A2", "random", "clear", "random"):
        report = await referee.act(ALICE, private)
        assert [n.audience for n in report.notices] == [0], f"`{private}` was not private"
    report = await referee.act(BOB, "random")
    assert [n.audience for n in report.notices] == [1]

    ready = await referee.act(ALICE, "ready")
    assert [n.audience for n in ready.notices] == [0, None]
    assert told(ready, None).texts == (
        "{seat0} has set their fleet.",
        "Setting up: waiting for {seat1}.",
    )
    both = await referee.act(BOB, "ready")
    assert [n.audience for n in both.notices] == [0, 1, None]
    first = state_of(both.game).turn
    assert first is not None
    assert "You shoot first" in told(both, first).texts[0]
    assert f"{{seat{first}}} shoots first" in told(both, None).texts[0]
    assert told(both, None).texts[-1] == f"{{seat{first}}} to move."

    shot = await referee.act(game.seats[first], "C3")
    assert [n.audience for n in shot.notices] == [0, 1, None]
    assert told(shot, None).texts[0].startswith(f"{{seat{first}}} fires at C3: ")
    assert told(shot, first).texts[-1] in ("Your move.", "Your opponent's move.")
    check_notices(state_of(both.game), state_of(shot.game), first, "C3", shot)


async def test_board_and_status_lines(referee: Referee) -> None:
    """`/board` shows the player's own view and whose move it is, in that player's words."""
    game = await start_game(referee)
    notice = await referee.board(ALICE)
    assert notice.audience == 0 and notice.user_id == ALICE and notice.view.seat == 0
    assert notice.texts == ("Set up your side, then write `ready`.",)
    await referee.act(ALICE, "random")
    await referee.act(ALICE, "ready")
    assert (await referee.board(ALICE)).texts == ("Your side is set; waiting for your opponent.",)
    await referee.act(BOB, "random")
    game = (await referee.act(BOB, "ready")).game
    first = state_of(game).turn
    assert first is not None
    assert (await referee.board(game.seats[first])).texts == ("Your move.",)
    assert (await referee.board(game.seats[other(first)])).texts == ("Your opponent's move.",)


async def test_suggestions_carry_the_game_number_when_there_are_several(
    referee: Referee,
) -> None:
    """Autocomplete must produce a text that `act` routes to the same game."""
    assert await referee.suggestions(ALICE, "") == []
    first = await start_game(referee)
    assert await referee.suggestions(ALICE, "r") == ["random", "ready"]
    second = await start_game(referee, challenger=CAROL, opponent=ALICE)
    both = await referee.suggestions(ALICE, "ra")
    assert both == [f"#{first.id} random", f"#{second.id} random"]
    assert await referee.suggestions(ALICE, f"#{second.id} ra") == [f"#{second.id} random"]
    assert await referee.suggestions(ALICE, "#999 ra") == []

    report = await referee.act(ALICE, both[1])
    assert report.game.id == second.id and report.game.ply == 1

    game = await set_fleets(referee, first)
    shooter = state_of(game).turn
    assert shooter is not None
    mover, waiting = game.seats[shooter], game.seats[other(shooter)]
    prefix = f"#{first.id} " if mover == ALICE else ""
    assert await referee.suggestions(mover, "b1") == [f"{prefix}B1", f"{prefix}B10"]
    assert len(await referee.suggestions(mover, "")) == 25, "autocomplete shows at most 25"
    waiting_sees = await referee.suggestions(waiting, "b")
    assert not any(choice.startswith((f"#{first.id} ", "B")) for choice in waiting_sees)


async def test_games_in_lists_only_the_active_games_of_that_server(referee: Referee) -> None:
    """`/games` shows a server's running games, each with a public status line."""
    setting_up = await start_game(referee)
    in_play = await set_fleets(referee, await start_game(referee, challenger=CAROL, opponent=BOB))
    elsewhere = await start_game(referee, guild=OTHER_GUILD)
    ended = await start_game(referee, challenger=BOB, opponent=CAROL)
    await referee.abort(CAROL, ended.id)
    await referee.act(ALICE, f"#{setting_up.id} random")
    await referee.act(ALICE, f"#{setting_up.id} ready")

    def anywhere_in(guild_id: int) -> Place:
        return Place(guild_id, lambda channel_id: True)

    dave = 1004  # plays in none of them
    listed = await referee.games_in(dave, anywhere_in(GUILD))
    assert [game.id for game, _ in listed] == [setting_up.id, in_play.id]
    first = state_of(in_play).turn
    assert [line for _, line in listed] == [
        "Setting up: waiting for {seat1}.",
        f"{{seat{first}}} to move.",
    ]
    assert [game.id for game, _ in await referee.games_in(dave, anywhere_in(OTHER_GUILD))] == [
        elsewhere.id
    ]
    assert await referee.games_in(dave, anywhere_in(999)) == []
    assert await referee.games_in(dave, Place(GUILD)) == []  # no channel of theirs in view
    assert [g.id for g, _ in await referee.games_in(CAROL, Place(GUILD))] == [in_play.id]


async def test_the_seed_source_decides_the_first_shooter_reproducibly(
    repo: SqliteRepository,
) -> None:
    """Injecting the seed makes a game, and who opens it, reproducible in tests."""

    async def first_shooter(seed: int) -> tuple[int, Mapping[str, Any]]:
        store = await SqliteRepository.open(":memory:")
        try:
            referee = Referee(store, seed_source=lambda: seed)
            game = await set_fleets(referee, await start_game(referee))
            assert game.seed == seed and state_of(game).seed == seed
            turn = state_of(game).turn
            assert turn is not None
            return turn, game.state
        finally:
            await store.close()

    referee = Referee(repo, seed_source=lambda: 7)
    game = await start_game(referee)
    assert game.seed == 7
    seven = await first_shooter(7)
    assert seven == await first_shooter(7), "the same seed dealt a different game"
    openers = {(await first_shooter(seed))[0] for seed in range(12)}
    assert openers == {0, 1}, "the seed does not decide who shoots first"


HOSTILE_WORDS = ["`x`\nping @everyone", "\u202eevil`", "a" * 80 + "`"]
"""Typed as a variant or an option: code-span breakers, a newline, a direction mark."""


@pytest.mark.parametrize("key", list(ENGINES))
@pytest.mark.parametrize("typed", HOSTILE_WORDS)
async def test_play_refusals_echo_variants_and_options_safely(
    referee: Referee, key: str, typed: str
) -> None:
    """A refused variant or option word comes back short, on one line, with no backtick
    and no invisible character, like every other echoed input."""
    for variant, options in ((typed, ""), (None, typed)):
        with pytest.raises(GameError) as refusal:
            await challenge(referee, key, variant=variant, options=options)
        said = str(refusal.value)
        spans = said.split("`")[1::2]
        assert "\n" not in said and "\u202e" not in said
        assert len(said.split("`")) % 2 == 1, said
        assert all(len(span) <= 40 for span in spans), said
