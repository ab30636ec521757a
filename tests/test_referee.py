"""The referee's use cases, played without Discord against a real (in-memory) SQLite store.

The referee is where the rules meet the players: it decides which game a message is about,
refuses what must be refused with a sentence and without touching the store, and says to
each audience exactly what that audience may learn. These tests drive it the way the cogs
do, with user ids and texts only, and check what it stores and what it would send.
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.games import ENGINES
from bot.games.core import EndReason, GameError, NotYourTurnError, Phase, other
from bot.games.grid import Cell, cell_name
from bot.games.seabattle.state import SeaBattleState
from bot.games.seabattle.view import Mark, SeaBattleView
from bot.referee import MAX_MOVE_LENGTH, Notice, Place, Referee, Report
from bot.storage import (
    ChallengeRecord,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    Repository,
    SqliteRepository,
)

E = ENGINES["seabattle"]
ALICE, BOB, CAROL = 1001, 1002, 1003
"""User ids. Alice challenges, so she sits in seat 0 and Bob in seat 1."""
GUILD, OTHER_GUILD = 500, 600
CHANNEL = 700
CELL_NAME = re.compile(r"\b([A-T])(\d{1,2})\b")
"""A cell written in a text (the largest preset is 15x15, so this is generous)."""


# -- fixtures and helpers -----------------------------------------------------------------------


async def start_game(
    referee: Referee,
    *,
    challenger: int = ALICE,
    opponent: int = BOB,
    variant: str | None = None,
    guild: int | None = GUILD,
) -> GameRecord:
    """Challenge and accept: the only way a game comes into being."""
    challenge = await referee.challenge(
        game="seabattle",
        variant=variant,
        guild_id=guild,
        channel_id=CHANNEL,
        challenger_id=challenger,
        opponent_id=opponent,
    )
    report = await referee.accept(challenge.id, opponent)
    return report.game


async def set_fleets(referee: Referee, game: GameRecord) -> GameRecord:
    """Both players take a random fleet and confirm it; the game is then in play."""
    for user in game.seats:
        await referee.act(user, f"#{game.id} random")
        game = (await referee.act(user, f"#{game.id} ready")).game
    assert E.from_json(game.state).phase is Phase.PLAY
    return game


def told(report: Report, audience: int | None) -> Notice:
    """The notice for ``audience``, which the test expects to exist."""
    notice = report.to(audience)
    assert notice is not None, f"audience {audience} was told nothing"
    return notice


def state_of(game: GameRecord) -> SeaBattleState:
    state: SeaBattleState = E.from_json(game.state)
    return state


def random_move(rng: random.Random, game: GameRecord, state: SeaBattleState) -> tuple[int, str]:
    """A random legal move for a random seat that may act in the stored ``state``.

    In setup a complete fleet is confirmed half of the time, so setups end quickly while
    still trying placements, removals, clearing and random fleets along the way. In play
    a shot is drawn from the engine's legal actions, but weighted towards the enemy fleet
    (some shots aimed at it, some beside a hit) so that a game on the 15x15 board ends in
    about a hundred moves instead of four hundred: the suite stays fast, and every kind of
    shot (miss, hit, sinking, the last sinking) still comes up in every game.
    """
    seat = rng.choice(sorted(E.to_move(state)))
    actions = [str(action) for action in E.legal_actions(state, seat)]
    assert actions, f"seat {seat} may move but has no legal action"
    if "ready" in actions and rng.random() < 0.5:
        return game.seats[seat], "ready"
    if state.phase is Phase.PLAY:
        draw = rng.random()
        if draw < 0.3:
            aim = ship_cells(state, other(seat))
        elif draw < 0.7:
            aim = wounded_neighbours(state, seat)
        else:
            aim = set()
        named = {cell_name(cell) for cell in aim}
        focused = [action for action in actions if action in named]
        if focused:
            return game.seats[seat], rng.choice(focused)
    return game.seats[seat], rng.choice(actions)


def wounded_neighbours(state: SeaBattleState, seat: int) -> set[Cell]:
    """Cells beside ``seat``'s hits on ships still afloat: where a player shoots next."""
    target = other(seat)
    sunk = {cell for ship in state.sunk(target) for cell in ship.cells}
    hits = (state.shots[seat] & ship_cells(state, target)) - sunk
    return {
        (column + dc, row + dr)
        for column, row in hits
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
    }


def ship_cells(state: SeaBattleState, owner: int) -> set[Cell]:
    """``owner``'s own pieces: ship cells, and mines and minesweepers (§4.6-4.7)."""
    side = state.sides[owner]
    return {cell for ship in side.ships for cell in ship.cells} | {*side.mines, *side.sweepers}


def cells_named(text: str) -> set[str]:
    """The cells a text names, leaving out examples of notation written in backticks."""
    return {match.group(0) for match in CELL_NAME.finditer(re.sub(r"`[^`]*`", "", text))}


async def world(repo: Repository) -> list[Any]:
    """Every challenge, game and log entry of a test's store, to prove nothing changed.

    Each test here makes at most a handful of challenges and games, so ids 1-6 are all.
    """
    rows: list[Any] = []
    for key in range(1, 7):
        rows += [await repo.get_challenge(key), await repo.get_game(key), await repo.log(key)]
    return rows


async def refused(
    repo: Repository, attempt: Callable[[], Awaitable[object]], match: str
) -> GameError:
    """Run a request that must be refused: a GameError sentence, and the store untouched."""
    before = await world(repo)
    with pytest.raises(GameError, match=match) as caught:
        await attempt()
    message = str(caught.value)
    assert message[:1].isupper() or message.startswith("`"), message
    assert message.endswith((".", "!")), message
    assert await world(repo) == before, f"a refused request changed the store: {message}"
    return caught.value


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


# -- refusals -----------------------------------------------------------------------------------


async def test_challenge_refusals(repo: SqliteRepository, referee: Referee) -> None:
    """A challenge that cannot become a game is refused before anything is stored."""

    def challenge(**overrides: Any) -> Callable[[], Awaitable[ChallengeRecord]]:
        fields: dict[str, Any] = {
            "game": "seabattle",
            "variant": None,
            "guild_id": GUILD,
            "channel_id": CHANNEL,
            "challenger_id": ALICE,
            "opponent_id": BOB,
        }
        fields.update(overrides)
        return lambda: referee.challenge(**fields)

    await refused(repo, challenge(opponent_id=ALICE), "cannot challenge yourself")
    await refused(repo, challenge(opponent_is_bot=True), "Other bots cannot play")
    error = await refused(repo, challenge(variant="hexagonal"), "no variant `hexagonal`")
    assert all(f"`{name}`" in str(error) for name in E.presets), "the choices are not listed"
    await refused(repo, challenge(game="chess"), "There is no game called `chess`")
    created = await challenge(variant="corners")()
    assert created.rules == E.presets["corners"].to_json()


async def test_accept_and_decline_refusals(repo: SqliteRepository, referee: Referee) -> None:
    """Only the challenged player answers, and only once; a closed challenge stays closed."""
    challenge = await referee.challenge(
        game="seabattle",
        variant=None,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
    )
    await refused(repo, lambda: referee.accept(challenge.id, CAROL), "not addressed to you")
    await refused(repo, lambda: referee.accept(challenge.id, ALICE), "only your opponent")
    await refused(repo, lambda: referee.decline(challenge.id, CAROL), "not addressed to you")
    await refused(repo, lambda: referee.accept(999, BOB), "no longer exists")

    report = await referee.accept(challenge.id, BOB)
    assert report.game.seats == (ALICE, BOB)
    await refused(repo, lambda: referee.accept(challenge.id, BOB), "already accepted")
    await refused(repo, lambda: referee.decline(challenge.id, BOB), "already accepted")
    await refused(repo, lambda: referee.decline(challenge.id, ALICE), "already closed")
    assert [g.id for g in await repo.active_games_of(BOB)] == [report.game.id]

    declined = await referee.challenge(
        game="seabattle",
        variant=None,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=CAROL,
        opponent_id=BOB,
    )
    assert (await referee.decline(declined.id, BOB)).status is ChallengeStatus.DECLINED
    await refused(repo, lambda: referee.accept(declined.id, BOB), "already declined")
    withdrawn = await referee.challenge(
        game="seabattle",
        variant=None,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=CAROL,
        opponent_id=BOB,
    )
    assert (await referee.decline(withdrawn.id, CAROL)).status is ChallengeStatus.WITHDRAWN
    await refused(repo, lambda: referee.accept(withdrawn.id, BOB), "already withdrawn")
    assert await repo.active_games_of(CAROL) == []


async def test_moves_without_a_game_or_in_someone_elses(
    repo: SqliteRepository, referee: Referee
) -> None:
    """A move must belong to one of the sender's running games."""
    await refused(repo, lambda: referee.act(ALICE, "B5"), r"You have no game running\.")
    game = await start_game(referee)
    await refused(repo, lambda: referee.act(ALICE, "#999 B5"), "You are not playing in game #999.")
    await refused(repo, lambda: referee.act(CAROL, f"#{game.id} B5"), f"in game #{game.id}")
    await refused(repo, lambda: referee.act(CAROL, "B5"), "You have no game running")
    await refused(repo, lambda: referee.board(CAROL), "You have no game running")
    await refused(repo, lambda: referee.resign(CAROL, game.id), "not playing")


async def test_a_bare_move_in_two_games_is_refused_and_names_both(
    repo: SqliteRepository, referee: Referee
) -> None:
    """With two games running the referee cannot guess; `#<id>` then picks the right one."""
    first = await set_fleets(referee, await start_game(referee))
    second = await set_fleets(referee, await start_game(referee, challenger=CAROL, opponent=ALICE))
    for game in (first, second):  # Alice to shoot in both: her opponent misses once
        alice = game.seats.index(ALICE)
        if state_of(game).turn != alice:
            await referee.act(game.seats[other(alice)], f"#{game.id} {water(game, alice)}")
    fresh = [await repo.get_game(game.id) for game in (first, second)]
    assert fresh[0] is not None and fresh[1] is not None
    first, second = fresh[0], fresh[1]
    error = await refused(repo, lambda: referee.act(ALICE, "Z99"), "You are in several games")
    assert f"#{first.id} Sea Battle (classic) vs " in str(error)
    assert f"#{second.id} Sea Battle (classic) vs " in str(error)
    assert f"`#{first.id}` followed by your move" in str(error), "it shows how to name a game"
    await refused(repo, lambda: referee.board(ALICE), "several games")
    error = await refused(repo, lambda: referee.resign(ALICE), "several games")
    assert f"`/resign game:{first.id}`" in str(error), "commands name their `game` option"

    shooter = state_of(second).turn
    assert shooter is not None
    user = second.seats[shooter]
    report = await referee.act(user, f"#{second.id} B5")
    assert report.game.id == second.id and report.game.ply == second.ply + 1
    assert (await repo.get_game(first.id)) == first, "the other game was touched"
    assert state_of(report.game).log[-1] == (shooter, (1, 4))

    board = await referee.board(ALICE, first.id)
    assert board.game.id == first.id and board.audience == 0


def water(game: GameRecord, seat: int) -> str:
    """A cell of ``seat``'s field with no ship that the other seat has not shot: a miss."""
    state = state_of(game)
    ships = {cell for ship in state.sides[seat].ships for cell in ship.cells}
    size = state.rules.size
    return next(
        cell_name((column, row))
        for row in range(size)
        for column in range(size)
        if (column, row) not in ships and (column, row) not in state.shots[other(seat)]
    )


async def test_a_bare_move_goes_where_its_player_sees_it_can_be_played(
    repo: SqliteRepository, referee: Referee, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Among several games a move goes to the only one that can take it, judged on the
    player's own views alone: the engine's reading of the hidden state is never asked."""
    games = [
        await set_fleets(referee, await start_game(referee)),
        await set_fleets(referee, await start_game(referee, opponent=CAROL)),
    ]
    for game in games:  # Alice (seat 0) to shoot in both
        if state_of(game).turn != 0:
            await referee.act(game.seats[1], f"#{game.id} {water(game, 0)}")
    first, second = [await repo.get_game(game.id) for game in games]
    assert first is not None and second is not None
    shot = water(first, 1)
    first = (await referee.act(ALICE, f"#{first.id} {shot}")).game
    await referee.act(BOB, f"#{first.id} {water(first, 0)}")

    def hidden(*args: object) -> None:
        raise AssertionError("routing read the hidden state")

    with monkeypatch.context() as patched:
        for method in ("parse_action", "legal_actions", "apply"):
            patched.setattr(E, method, hidden)
        assert await referee.aim(ALICE, shot) == second.id, "Alice shot it in the first"
        assert await referee.aim(ALICE, f"#{first.id} {shot}") == first.id
        either = next(
            cell_name((column, 9)) for column in range(10) if cell_name((column, 9)) != shot
        )
        error = await refused(repo, lambda: referee.aim(ALICE, either), "several games")
        assert f"#{first.id} Sea Battle (classic)" in str(error)
        assert f"#{second.id} Sea Battle (classic)" in str(error)
        await refused(repo, lambda: referee.aim(ALICE, "Z1"), "several games")  # nowhere
        assert await referee.aim(BOB, "Z1") == first.id  # one game: whatever he wrote
    await referee.act(ALICE, f"#{second.id} {water(second, 1)}")  # a miss: Carol's turn
    with monkeypatch.context() as patched:
        for method in ("parse_action", "legal_actions", "apply"):
            patched.setattr(E, method, hidden)
        assert await referee.aim(ALICE, "Z1") == first.id, "the one game where she may act"


async def test_out_of_turn_illegal_and_overlong_moves_change_nothing(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Refusals from the rules come back as the engine's sentences, with nothing stored."""
    game = await set_fleets(referee, await start_game(referee))
    shooter = state_of(game).turn
    assert shooter is not None
    waiting = game.seats[other(shooter)]
    error = await refused(repo, lambda: referee.act(waiting, "B5"), "opponent's turn")
    assert isinstance(error, NotYourTurnError)
    await refused(repo, lambda: referee.act(game.seats[shooter], "Z99"), "off the board")
    await refused(repo, lambda: referee.act(game.seats[shooter], "ready"), "now shoot")
    await refused(repo, lambda: referee.act(game.seats[shooter], "  "), "empty")

    too_long = "B5" + " " * (MAX_MOVE_LENGTH - 1)
    assert len(too_long) == MAX_MOVE_LENGTH + 1
    await refused(repo, lambda: referee.act(game.seats[shooter], too_long), "too long")
    just_fits = " " * (MAX_MOVE_LENGTH - 2) + "B5"
    report = await referee.act(game.seats[shooter], just_fits)
    assert state_of(report.game).log == ((shooter, (1, 4)),)

    again = state_of(report.game).turn
    if again == shooter:  # a hit with an extra shot: the same cell is now refused
        await refused(repo, lambda: referee.act(game.seats[shooter], "B5"), "already shot")


async def test_abort_during_setup_ends_without_a_result(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Abort ends a game without a result while the fleets are being set."""
    game = await start_game(referee)
    await referee.act(BOB, "random")
    report = await referee.abort(BOB)
    assert report.finished
    assert report.game.status is GameStatus.FINISHED
    assert report.game.winner is None and report.game.end_reason == EndReason.ABORTED.value
    assert {n.audience for n in report.notices} == {0, 1, None}
    assert "{seat1} aborted" in told(report, None).texts[0]
    assert told(report, None).texts[-1] == "The game was aborted."
    assert await repo.active_games_of(ALICE) == []
    await refused(repo, lambda: referee.act(ALICE, f"#{game.id} random"), "is over")
    await refused(repo, lambda: referee.abort(ALICE, game.id), "is over")


async def test_abort_is_refused_after_the_first_shot(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Confirmed fleets are not yet a real move; the first shot is, and then only resign."""
    unshot = await set_fleets(referee, await start_game(referee))
    report = await referee.abort(ALICE, unshot.id)
    assert report.game.end_reason == EndReason.ABORTED.value

    game = await set_fleets(referee, await start_game(referee))
    shooter = state_of(game).turn
    assert shooter is not None
    await referee.act(game.seats[shooter], "A1")
    await refused(repo, lambda: referee.abort(ALICE), "can no longer be aborted")
    await refused(repo, lambda: referee.abort(BOB), "`/resign`")


async def test_a_seat_without_dms_calls_the_game_off_only_before_the_first_shot(
    repo: SqliteRepository, referee: Referee
) -> None:
    """Called off in setup, a game ends unplayed, unrated and silent to the closed seat;
    after the first shot a closed DM costs the game nothing."""
    game = await start_game(referee)
    await referee.act(ALICE, "random")
    report = await referee.call_off(game.id, 1)
    assert report is not None and report.game.end_reason == EndReason.ABORTED.value
    assert {n.audience for n in report.notices} == {0, None}  # nothing for the closed seat
    assert "{seat1} direct messages, so the game is called off" in told(report, None).texts[0]
    outcome = ENGINES["seabattle"].outcome(state_of(report.game))
    assert outcome is not None and outcome.unplayed is not None
    assert await repo.records.results_of(game.id) == []
    assert await referee.call_off(game.id, 0) is None  # over: called off once

    started = await set_fleets(referee, await start_game(referee))
    shooter = state_of(started).turn
    assert shooter is not None
    await referee.act(started.seats[shooter], "A1")
    assert await referee.call_off(started.id, 1 - shooter) is None
    assert (await repo.get_game(started.id)).end_reason is None  # type: ignore[union-attr]


async def test_resign_gives_the_opponent_the_win(repo: SqliteRepository, referee: Referee) -> None:
    """Resigning is a result: the other seat wins, for the reason `resignation`."""
    game = await set_fleets(referee, await start_game(referee))
    report = await referee.resign(BOB)
    assert report.finished and report.game.status is GameStatus.FINISHED
    assert report.game.winner == 0 and report.game.end_reason == EndReason.RESIGNATION.value
    assert {n.audience for n in report.notices} == {0, 1, None}
    assert told(report, 1).texts[0] == "You resigned. The game is over."
    assert "you win" in told(report, 0).texts[0]
    assert told(report, None).texts[0] == "{seat1} resigned; {seat0} wins."
    outcome = state_of(report.game).outcome
    assert outcome is not None and outcome.winner == 0 and outcome.reason is EndReason.RESIGNATION
    assert report.game.ply == game.ply + 1
    await refused(repo, lambda: referee.resign(ALICE), "You have no game running")


async def test_the_channel_status_after_a_resignation_does_not_say_the_winner_resigned(
    referee: Referee,
) -> None:
    """The public last word on a resigned game names the winner and how they won, and
    cannot be read as if the winner had resigned."""
    await set_fleets(referee, await start_game(referee))
    report = await referee.resign(BOB)
    status = told(report, None).texts[-1]
    assert status == "{seat0} won (by resignation).", status


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

    async def first_shooter(seed: int) -> tuple[int, dict[str, Any]]:
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
            await referee.challenge(
                game=key,
                variant=variant,
                options=options,
                guild_id=GUILD,
                channel_id=CHANNEL,
                challenger_id=ALICE,
                opponent_id=BOB,
            )
        said = str(refusal.value)
        spans = said.split("`")[1::2]
        assert "\n" not in said and "\u202e" not in said
        assert len(said.split("`")) % 2 == 1, said
        assert all(len(span) <= 40 for span in spans), said
