"""The referee: every use case of the bot, in terms of user ids and texts only.

Each act follows one path: take the game's lock, load, apply through the engine, store
atomically, then return ``Notice`` values saying what each audience learns. The referee
knows nothing of Discord objects, so it is tested by playing whole games without Discord,
and a cog only has to deliver what it returns.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import TypeVar
from weakref import WeakValueDictionary

from bot.ai import LEVELS, Seen
from bot.announcements import (
    CALLED_OFF,
    aborted,
    called_off,
    game_begun,
    resigned,
    status_line,
    tidings,
    timed_out,
)
from bot.fairness import Seal, opened_events, play_begins, seal, sealed_events
from bot.games import ENGINES
from bot.games.core import (
    CorruptStateError,
    EndReason,
    Engine,
    Event,
    GameError,
    Outcome,
    Phase,
    View,
    other,
)
from bot.games.grid import shorten
from bot.logs import fields
from bot.names import clean as clean_name
from bot.outbox import Parcel
from bot.ratings import counts_for_rating
from bot.replays import AUDIENCE_WORDS, TRUTH, Audience, Replay, moments, move_list, states_of
from bot.results import Result
from bot.storage import (
    OPEN_TO_ANYONE,
    ChallengeRecord,
    ChallengeStatus,
    Ending,
    GameRecord,
    LogEntry,
    LogKind,
    OpenChallengeError,
    Repository,
    StaleGameError,
    Tidings,
)
from bot.verify import FORMAT as EXPORT_FORMAT

log = logging.getLogger("referee.referee")
T = TypeVar("T")

_GAME_PREFIX = re.compile(r"^\s*#\s*(\d{1,9})\s*(.*)$", re.S)
MAX_MOVE_LENGTH = 600
"""Long enough for a whole saved setup played as one move."""
_SAVED_SETUP_WORD = re.compile(r"^(save|load)\b\s*(.*)$", re.I | re.S)
_SETUP_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
MAX_SAVED_SETUPS = 25
_UNPLAYED = (
    "Game #{game_id} ended before its first real move, so what was hidden stays hidden: "
    "replay it as {what}."
)
DRAW_WORDS = frozenset({"draw", "offer draw", "accept draw"})
"""Words for a draw by agreement, the same in every game that allows one."""
STATE_CACHE_SIZE = 1024
"""Games whose latest decoded state is kept in memory (oldest dropped first)."""


class RefereeError(GameError):
    """A request the referee refuses; the message is a sentence for the person who asked."""


class StaleMoveError(RefereeError):
    """A move decided for a game that has moved on since: it was not played."""


class GameFault(RefereeError):
    """Something broke inside one game (a bug, a full disk): the game stays as it was."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"Something went wrong with game #{game_id} on my side, so your request changed "
            "nothing: the game is as it was. Try again later, or check it with `/board`."
        )
        self.game_id = game_id


@dataclass(frozen=True)
class Notice:
    """What one audience is told: texts, and the board as that audience may see it.

    ``audience`` is a seat or ``None`` for the channel; ``user_id`` is the seat's player.
    Channel texts still hold the ``{seat0}``/``{seat1}`` placeholders.
    """

    game: GameRecord
    audience: int | None
    texts: tuple[str, ...]
    view: View

    @property
    def user_id(self) -> int | None:
        return None if self.audience is None else self.game.seats[self.audience]


@dataclass(frozen=True)
class Report:
    """The result of a use case: the game as stored now, and the notices to deliver."""

    game: GameRecord
    notices: tuple[Notice, ...]
    stored: bool = True
    """False for an answer that changed no game (a saved setup): nothing to confirm."""
    results: tuple[Result, ...] = ()
    """For a finished game with a result: each seat's result and rating change."""

    @property
    def finished(self) -> bool:
        return self.game.end_reason is not None

    def to(self, audience: int | None) -> Notice | None:
        return next((n for n in self.notices if n.audience == audience), None)


class Referee:
    def __init__(
        self, repository: Repository, seed_source: Callable[[], int] = lambda: secrets.randbits(62)
    ) -> None:
        self.repository = repository
        self._seed_source = seed_source
        self._states: dict[int, tuple[int, object]] = {}
        self._memories: dict[int, tuple[int, object, tuple[str, ...]]] = {}
        """Per game against the computer: the ply, the state replayed to it, and what the
        computer's seat was told up to it (its memory, rebuilt from the log after a restart)."""
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        """A lock lives while someone holds or awaits it, so ids typed by anyone cannot pile up."""

    # -- challenges ---------------------------------------------------------------------------

    async def challenge(
        self,
        *,
        game: str,
        variant: str | None,
        options: str | None = None,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        opponent_is_bot: bool = False,
        rated: bool = True,
        names: tuple[str | None, str | None] = (None, None),
    ) -> ChallengeRecord:
        """Record a challenge; ``names`` are the challenger's and the opponent's display
        names, kept (cleaned) for the game's board images. Without ``opponent_id`` the
        challenge is open: anyone in the channel but the challenger may accept it."""
        engine = _engine(game)
        if opponent_id is None:
            opponent_id = OPEN_TO_ANYONE
        if opponent_id == challenger_id:
            raise RefereeError("You cannot challenge yourself; pick another player.")
        if opponent_is_bot:
            raise RefereeError(
                "Other bots cannot play; challenge a person, or choose me to play the computer."
            )
        rules = engine.configure(variant, options or "")
        try:
            return await self.repository.create_challenge(
                game=game,
                rules=rules.to_json(),
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                rated=rated,
                names=(clean_name(names[0]), clean_name(names[1])),
            )
        except OpenChallengeError:
            raise RefereeError(
                "You already challenged this player and they have not answered yet; wait "
                "for their answer, or withdraw that challenge with its **Decline** button."
            ) from None

    async def open_challenge(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        """The challenge the opponent may answer; refuses anyone else and closed ones."""
        challenge = await self.repository.get_challenge(challenge_id)
        if challenge is None:
            raise RefereeError("That challenge no longer exists.")
        if challenge.status is not ChallengeStatus.OPEN:
            raise RefereeError(f"That challenge is already {challenge.status.value}.")
        if user_id != challenge.opponent_id:
            if user_id == challenge.challenger_id:
                if challenge.open_to_anyone:
                    raise RefereeError(
                        "You sent this challenge; wait for someone to accept it "
                        "(**Decline** withdraws it)."
                    )
                raise RefereeError("You sent this challenge; only your opponent can answer it.")
            if not challenge.open_to_anyone:
                raise RefereeError("This challenge is not addressed to you.")
        return challenge

    async def rematch(self, game_id: int, user_id: int) -> ChallengeRecord:
        """A challenge to the same game, variant and options, with the seats turned round.

        Only a player of the finished game may ask, and the opponent answers it like any
        challenge. Seat 0 and seat 1 change places, so colours and sides change; where the
        rules draw the first player at random, the new game draws anew.
        """
        record = await self.repository.get_game(game_id)
        if record is None:
            raise RefereeError(f"There is no game #{game_id}.")
        seat = record.seat_of(user_id)
        if seat is None:
            raise RefereeError(f"Only the players of game #{game_id} can ask for a rematch.")
        if record.end_reason is None:
            raise RefereeError(f"Game #{game_id} is still being played.")
        if record.computer_level is not None:
            raise RefereeError(
                "For another game against me, use `/play` with me as the opponent: it starts "
                "at once."
            )
        return await self.repository.create_challenge(
            game=record.game,
            rules=record.rules,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            challenger_id=user_id,
            opponent_id=record.seats[other(seat)],
            rated=record.rated,
            names=(record.names[seat], record.names[other(seat)]),
            swapped=seat == 0,  # the asker was first: now the opponent is
        )

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeRecord:
        challenge = await self.repository.get_challenge(challenge_id)
        if challenge is not None and user_id == challenge.challenger_id:
            status = ChallengeStatus.WITHDRAWN
        else:
            challenge = await self.open_challenge(challenge_id, user_id)
            if challenge.open_to_anyone:
                raise RefereeError(
                    "This challenge is open to anyone: accept it, or leave it for someone else."
                )
            status = ChallengeStatus.DECLINED
        if (
            challenge.status is not ChallengeStatus.OPEN
            or not await self.repository.close_challenge(challenge_id, status)
        ):
            raise RefereeError("That challenge is already closed.")
        refreshed = await self.repository.get_challenge(challenge_id)
        assert refreshed is not None
        return refreshed

    async def accept(self, challenge_id: int, user_id: int, name: str | None = None) -> Report:
        """Create the game from an open challenge. Its first DMs are its reachability
        check: a player whose DMs are closed has the game called off (``call_off``).

        ``name`` is the accepting player's display name now, if the caller knows it."""
        challenge = await self.open_challenge(challenge_id, user_id)
        names = (challenge.names[0], clean_name(name) or challenge.names[1])
        return await self._start(challenge, user_id, names)

    async def play_computer(
        self,
        *,
        game: str,
        variant: str | None,
        options: str | None = None,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        computer_id: int,
        level: str,
        name: str | None = None,
    ) -> Report:
        """Start a game against the computer at once: the person first, the computer second.

        It is never rated: a person's rating measures them against people.
        """
        engine = _engine(game)
        if level not in LEVELS:
            listed = ", ".join(f"`{name}`" for name in LEVELS)
            raise RefereeError(f"The computer has no level `{shorten(level)}`; choose {listed}.")
        rules = engine.configure(variant, options or "")
        challenge = await self.repository.create_challenge(
            game=game,
            rules=rules.to_json(),
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=user_id,
            opponent_id=computer_id,
            rated=False,
        )
        names = (clean_name(name), f"Computer ({level})")
        return await self._start(challenge, computer_id, names, computer_level=level)

    async def _start(
        self,
        challenge: ChallengeRecord,
        opponent_id: int,
        names: tuple[str, str],
        computer_level: str | None = None,
    ) -> Report:
        """Create the game from a challenge its opponent (a person, or the computer) took."""
        engine = _engine(challenge.game)
        seed = self._seed_source()
        rules = engine.rules_from_json(challenge.rules)
        state = engine.new_game(rules, seed)
        events = game_begun(engine, rules, state)
        seals = self._seals(engine, None, state, seed)
        events = events + sealed_events(seals)
        views = _Views(engine, state)
        tidings = self._tidings(views, events)
        game = await self.repository.accept_challenge(
            challenge.id,
            seed=seed,
            seats=in_seats(challenge, (challenge.challenger_id, opponent_id)),
            state=engine.to_json(state),
            tidings=tidings,
            seals=seals,
            names=in_seats(challenge, names),
            computer_level=computer_level,
        )
        if game is None:
            raise RefereeError("That challenge is already closed.")
        return Report(game, self._notices(game, views, tidings))

    # -- moves --------------------------------------------------------------------------------

    async def aim(self, user_id: int, text: str, game_id: int | None = None) -> int:
        """The game a move is for, checked as far as it can be without playing it: what a
        process that queues moves for a worker answers at once (no game, several games,
        not the player's game, a game that is over). Whether the move is legal is for
        ``act`` to say, when the move is played."""
        if len(text) > MAX_MOVE_LENGTH:
            raise RefereeError("That message is too long to be a move.")
        game_id, _ = self._split_prefix(text, game_id)
        game_id = await self._game_id(user_id, game_id, purpose="move")
        await self._load(game_id, user_id)
        return game_id

    async def act(
        self,
        user_id: int,
        text: str,
        game_id: int | None = None,
        *,
        at_ply: int | None = None,
        queued: int | None = None,
    ) -> Report:
        """Play one move written in the game's notation, optionally prefixed ``#<id>``.

        ``at_ply`` refuses the move unless the game still stands where its mover saw it:
        the computer's move, decided while the game waited, counts once or not at all.
        ``queued`` names the queued move being played (``bot.worker``): it leaves the
        queue with the move, once.
        """
        if len(text) > MAX_MOVE_LENGTH:
            raise RefereeError("That message is too long to be a move.")
        game_id, move = self._split_prefix(text, game_id)
        saved = _SAVED_SETUP_WORD.match(move.strip())
        async with self._seated(user_id, game_id, "move") as table:
            engine, state, seat = table.engine, table.state, table.seat
            if at_ply is not None and table.record.ply != at_ply:
                raise StaleMoveError("The game moved on before that move arrived.")
            if saved is not None:
                name = _setup_name(saved.group(2))
                if saved.group(1).lower() == "save":
                    return await self._save_setup(table, name)
                move = await self._saved_setup(table, name)
            if move.strip().lower() in DRAW_WORDS:
                move = _draw_move(table, move.strip().lower())
            action = engine.parse_action(state, seat, move)
            transition = engine.apply(state, seat, action)
            return await self._commit(
                table, LogKind.MOVE, str(action), transition.state, transition.events, queued
            )

    async def _save_setup(self, table: _Table, name: str) -> Report:
        """Keep the player's setup under ``name`` for later games; the game is unchanged."""
        engine, record, seat = table.engine, table.record, table.seat
        view = engine.view(table.state, seat)
        text = engine.setup_text(view)
        if text is None:
            raise RefereeError("There is nothing to save yet: set up your side first.")
        user_id = record.seats[seat]
        names = await self.repository.saved_setup_names(user_id, record.game)
        if name not in names and len(names) >= MAX_SAVED_SETUPS:
            raise RefereeError(
                f"You already keep {MAX_SAVED_SETUPS} {engine.title} setups; save over one of "
                f"them by its name ({', '.join(names)})."
            )
        await self.repository.save_setup(user_id, record.game, name, text)
        said = f"Saved this setup as `{name}`; write `load {name}` in a later game to use it."
        return Report(record, (Notice(record, seat, (said,), view),), stored=False)

    async def _saved_setup(self, table: _Table, name: str) -> str:
        """The move a saved setup stands for; the rules then check it like any move."""
        record = table.record
        user_id = record.seats[table.seat]
        text = await self.repository.saved_setup(user_id, record.game, name)
        if text is None:
            names = await self.repository.saved_setup_names(user_id, record.game)
            listed = (
                f"your saved setups are {', '.join(f'`{n}`' for n in names)}"
                if names
                else "save one first with `save <name>` while you set up"
            )
            raise RefereeError(f"You have no saved setup called `{name}`; {listed}.")
        return text

    async def resign(self, user_id: int, game_id: int | None = None) -> Report:
        async with self._seated(user_id, game_id, "resign") as table:
            seat = table.seat
            outcome = Outcome(other(seat), EndReason.RESIGNATION, "by resignation")
            return await self._conclude(table, outcome, resigned(seat))

    async def abort(self, user_id: int, game_id: int | None = None) -> Report:
        async with self._seated(user_id, game_id, "abort") as table:
            if table.engine.has_started(table.state):
                raise RefereeError(
                    "The first move has been made, so the game can no longer be aborted; "
                    "use `/resign` to give up."
                )
            outcome = Outcome(None, EndReason.ABORTED, "aborted")
            return await self._conclude(table, outcome, aborted(table.seat))

    async def call_off(self, game_id: int, seat: int) -> Report | None:
        """End a game the bot cannot referee: ``seat``'s DMs are closed and no real move
        was made yet. It ends unplayed (nothing hidden is revealed, no rating changes) and
        the channel is told who must open their DMs. None if the game already began or
        ended: then a closed DM costs the game nothing, and the player uses ``/board``.
        """
        async with self._lock(game_id):
            record = await self.repository.get_game(game_id)
            if record is None or record.end_reason is not None:
                return None
            engine = _engine(record.game)
            state = self._state_of(engine, record)
            if engine.has_started(state):
                return None
            table = _Table(record, engine, state, seat)
            outcome = Outcome(None, EndReason.ABORTED, CALLED_OFF)
            return await self._conclude(table, outcome, called_off(seat))

    # -- waiting times ------------------------------------------------------------------------

    async def time_out(self, game_id: int, ply: int) -> Report | None:
        """End a game on time: whoever is to move lost it. None if it moved meanwhile.

        Ends go through ``_conclude`` like resignations, so a game ended on time is stored
        and counted exactly like any other end.
        """
        async with self._lock(game_id):
            record = await self.repository.get_game(game_id)
            if record is None or record.end_reason is not None or record.ply != ply:
                return None
            engine = _engine(record.game)
            state = self._state_of(engine, record)
            late = [s for s in sorted(engine.view(state, None).movers) if s != record.computer_seat]
            if not late:
                return None  # the computer is never late: it is only ever resumed
            table = _Table(record, engine, state, late[0])
            outcome, events = timed_out(late)
            return await self._conclude(table, outcome, events)

    async def reminders(self, game_id: int, ply: int, text: str) -> tuple[Notice, ...]:
        """``text`` for each player the game is waiting for, with their board.

        Nothing when the game moved past ``ply`` or ended since the wait was read. The game is
        read and decoded here, one at a time, so the clock only ever decodes the games it
        is about to remind.
        """
        record = await self.repository.get_game(game_id)
        if record is None or record.end_reason is not None or record.ply != ply:
            return ()
        engine = _engine(record.game)
        state = self._state_of(engine, record)
        waiting = [s for s in sorted(engine.view(state, None).movers) if s != record.computer_seat]
        return tuple(Notice(record, seat, (text,), engine.view(state, seat)) for seat in waiting)

    async def expire(self, challenge_id: int) -> ChallengeRecord | None:
        """Close a challenge nobody answered; None if it was answered meanwhile."""
        if not await self.repository.close_challenge(challenge_id, ChallengeStatus.EXPIRED):
            return None
        return await self.repository.get_challenge(challenge_id)

    async def board(self, user_id: int, game_id: int | None = None) -> Notice:
        """The player's private board again; someone not playing a running game gets its
        public board (a spectator pressing **My board** on the channel's live message)."""
        if game_id is not None:
            watched = await self.repository.get_game(game_id)
            if watched is not None and watched.end_reason is None and user_id not in watched.seats:
                return self._spectated(watched)
        record = await self.game_of(user_id, game_id, purpose="board")
        engine = _engine(record.game)
        state = self._state_of(engine, record)
        seat = record.seat_of(user_id)
        assert seat is not None
        view = engine.view(state, seat)
        return Notice(record, seat, (status_line(view, engine.outcome(state)),), view)

    def _spectated(self, record: GameRecord) -> Notice:
        engine = _engine(record.game)
        state = self._state_of(engine, record)
        view = engine.view(state, None)
        said = (
            f"You are not playing in game #{record.id}, so here is its public board. "
            f"{status_line(view, engine.outcome(state))}"
        )
        return Notice(record, None, (said,), view)

    async def help(self, user_id: int) -> str:
        """The rules and notation of the games a player is in, or how to start one."""
        games = await self.repository.active_games_of(user_id)
        if not games:
            titles = " or ".join(engine.title for engine in ENGINES.values())
            return f"Start a game of {titles} with `/play` in a server; `/rules` explains each."
        texts = []
        for record in games[:3]:
            engine = _engine(record.game)
            texts.append(
                f"Game #{record.id}: {engine.describe(engine.rules_from_json(record.rules))}"
            )
        return "\n\n".join(texts)

    async def suggestions(self, user_id: int, typed: str) -> list[str]:
        """Autocomplete for ``/move``: legal moves matching what was typed, from views only."""
        game_id, move = self._split_prefix(typed, None)
        games = await self.repository.active_games_of(user_id)
        if game_id is not None:
            games = [g for g in games if g.id == game_id]
        prefix_games = len(games) > 1 or game_id is not None
        choices: list[str] = []
        for record in games:
            engine = _engine(record.game)
            seat = record.seat_of(user_id)
            assert seat is not None
            view = engine.view(self._state_of(engine, record), seat)
            for move_text in engine.suggestions(view, move):
                choices.append(f"#{record.id} {move_text}" if prefix_games else move_text)
        return choices[:25]

    # -- the computer's seat -----------------------------------------------------------------

    async def computer_turn(self, game_id: int) -> ComputerTurn | None:
        """What the computer's seat knows, when a running game waits for its move.

        The computer is handed its seat's view and every text its seat was told so far,
        exactly what a person in its seat would have; never the state.
        """
        record = await self.repository.get_game(game_id)
        seat = None if record is None else record.computer_seat
        if record is None or seat is None or record.end_reason is not None:
            return None
        engine = _engine(record.game)
        view = engine.view(self._state_of(engine, record), seat)
        if seat not in view.movers:
            return None
        heard = await self._heard(engine, record, seat)
        rules = engine.rules_from_json(record.rules)
        return ComputerTurn(record, Seen(rules, view, heard, record.seed, record.ply))

    async def _heard(self, engine: Engine, record: GameRecord, seat: int) -> tuple[str, ...]:
        """Every text addressed to ``seat`` so far, rebuilt from the log where not remembered."""
        cached = self._memories.get(record.id)
        if cached is None or cached[0] > record.ply:
            rules = engine.rules_from_json(record.rules)
            cached = (0, engine.new_game(rules, record.seed), ())
        ply, state, heard = cached
        if ply < record.ply:
            said = list(heard)
            for entry in await self.repository.log(record.id):
                if entry.ply <= ply:
                    continue
                if entry.kind is LogKind.MOVE and entry.seat is not None:
                    transition = engine.act(state, entry.seat, entry.text)
                    state = transition.state
                    said.extend(event.text for event in transition.for_audience(seat))
                else:
                    state = engine.conclude(state, Outcome.from_json(json.loads(entry.text)))
                ply = entry.ply
            heard = tuple(said)
            self._memories[record.id] = (ply, state, heard)
            while len(self._memories) > STATE_CACHE_SIZE:
                self._memories.pop(next(iter(self._memories)))
        return heard

    async def computer_games(self) -> list[GameRecord]:
        """Running games against the computer: after a restart, each is looked at again."""
        return await self.repository.active_computer_games()

    # -- queries ------------------------------------------------------------------------------

    async def game_of(self, user_id: int, game_id: int | None, *, purpose: str) -> GameRecord:
        """The active game a request is about: the named one, or the player's only game."""
        return await self._load(await self._game_id(user_id, game_id, purpose=purpose), user_id)

    async def _game_id(self, user_id: int, game_id: int | None, *, purpose: str) -> int:
        """Which game a request means; a named game is read later, once, under its lock."""
        if game_id is not None:
            return game_id
        games = await self.repository.active_games_of(user_id)
        if not games:
            raise RefereeError("You have no game running. Start one with `/play` in a server.")
        if len(games) > 1:
            listed = ", ".join(f"#{g.id} ({_engine(g.game).title})" for g in games[:10])
            first = games[0].id
            how = (
                f"write the game number first, like `#{first}` followed by your move"
                if purpose == "move"
                else f"give the command's `game` option, like `/{purpose} game:{first}`"
            )
            raise RefereeError(f"You are in several games: {listed}. Say which: {how}.")
        return games[0].id

    @asynccontextmanager
    async def _seated(
        self, user_id: int, game_id: int | None, purpose: str
    ) -> AsyncIterator[_Table]:
        """The player's game, locked and loaded, for one change: nothing else lands meanwhile."""
        game_id = await self._game_id(user_id, game_id, purpose=purpose)
        async with self._lock(game_id):
            record = await self._load(game_id, user_id)
            engine = _engine(record.game)
            seat = record.seat_of(user_id)
            assert seat is not None  # _load refuses a game the user does not play
            try:
                yield _Table(record, engine, self._state_of(engine, record), seat)
            except GameError:
                raise
            except Exception as error:
                # Nothing was stored (a change is one transaction, stored last), so the
                # game is as it was; the player hears so, the log keeps the cause.
                log.exception("game %s: %s failed", game_id, purpose, extra=fields(game_id))
                raise GameFault(game_id) from error

    async def _load(self, game_id: int, user_id: int) -> GameRecord:
        """The game as stored now; under a lock, no other move can land meanwhile."""
        record = await self.repository.get_game(game_id)
        if record is None or user_id not in record.seats:
            raise RefereeError(f"You are not playing in game #{game_id}.")
        if record.end_reason is not None:
            raise RefereeError(f"Game #{game_id} is over.")
        return record

    async def finished(self, game_id: int) -> tuple[GameRecord, View, str]:
        """A finished game, its public view and how it ended.

        The view reveals all, unless the game ended before its first real move: then it
        shows what the channel saw then (``core.secrecy``).

        A running game is refused: its public view would be only a board without the
        summary, and its end is what this is for.
        """
        record = await self.repository.get_game(game_id)
        if record is None:
            raise RefereeError(f"There is no game #{game_id}.")
        if record.end_reason is None:
            raise RefereeError(
                f"Game #{game_id} is still being played; its board is shown here once it is "
                "over. `/games` lists the games running in a server."
            )
        engine = _engine(record.game)
        state = self._state_of(engine, record)
        view = engine.view(state, None)
        return record, view, status_line(view, engine.outcome(state))

    async def replay_of(self, game_id: int, user_id: int, audience: str | None = None) -> Replay:
        """A finished game replayed for ``audience``: ``mine``, ``channel`` or ``truth``.

        Anyone may see any finished game as the channel did or with both sides revealed;
        ``mine`` (the default for a player) is the asker's own seat. A running game gets no
        replay at all: even the channel's would tell the players nothing new, and a seat's
        would be an open door for whoever asked.
        """
        record = await self.repository.get_game(game_id)
        if record is None:
            raise RefereeError(f"There is no game #{game_id}.")
        if record.end_reason is None:
            raise RefereeError(
                f"Game #{game_id} is still being played; its replay is ready once it is over."
            )
        seat = record.seat_of(user_id)
        word = (audience or ("mine" if seat is not None else "channel")).strip().lower()
        if word not in AUDIENCE_WORDS:
            raise RefereeError("Replay a game as `mine`, `channel` or `truth`.")
        who: Audience
        if word == "mine":
            if seat is None:
                raise RefereeError(
                    f"You did not play in game #{game_id}; replay it as `channel` or `truth`."
                )
            who = seat
        else:
            who = TRUTH if word == "truth" else None
        engine = _engine(record.game)
        entries = await self.repository.log(game_id)
        states = states_of(engine, record, entries)
        ended = engine.outcome(states[-1])
        if ended is not None and ended.unplayed is not None:
            # Ended before its first real move: it reveals nothing hidden, so no side by
            # side boards and no move list, which would show the setups.
            if who == TRUTH:
                raise RefereeError(_UNPLAYED.format(game_id=game_id, what="`mine` or `channel`"))
            return Replay(record, who, moments(engine, states, who), "")
        moves = move_list(engine, record, entries, states)
        return Replay(record, who, moments(engine, states, who), moves)

    async def games_in(self, guild_id: int) -> list[tuple[GameRecord, str]]:
        """Active games of a server with a public one-line status each."""
        lines = []
        for record in await self.repository.active_games_in(guild_id):
            engine = _engine(record.game)
            state = self._state_of(engine, record)
            lines.append((record, status_line(engine.view(state, None), engine.outcome(state))))
        return lines

    # -- internals ----------------------------------------------------------------------------

    def _split_prefix(self, text: str, game_id: int | None) -> tuple[int | None, str]:
        match = _GAME_PREFIX.match(text)
        if match:
            return int(match.group(1)), match.group(2)
        return game_id, text

    def _state_of(self, engine: Engine, record: GameRecord) -> object:
        """The game's state, decoded and validated once per stored ply.

        A ply number names one snapshot for good (the storage guard makes each ply unique),
        so a state this process decoded or produced at that ply can be reused as it is.
        """
        cached = self._states.get(record.id)
        if cached is not None and cached[0] == record.ply:
            return cached[1]
        state = engine.from_json(record.state)
        self._remember(record, state)
        return state

    def _remember(self, record: GameRecord, state: object) -> None:
        self._states[record.id] = (record.ply, state)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.pop(next(iter(self._states)))

    @asynccontextmanager
    async def _lock(self, game_id: int) -> AsyncIterator[None]:
        """The game for one change: this process's lock first, so its own callers queue
        here, then the store's, which another process sharing the database also takes."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock, self.repository.game_lock(game_id):
            yield

    async def _commit(
        self,
        table: _Table,
        kind: LogKind,
        text: str,
        state: object,
        events: tuple[Event, ...],
        queued: int | None = None,
    ) -> Report:
        """Log ``text``, store ``state`` and hold what each audience is to be told, at once.

        A move that lost a race is refused, not retried.
        """
        engine = table.engine
        views = _Views(engine, state)
        outcome = views.outcome
        ending = None
        if outcome is not None:
            # An end from outside the rules is judged by the game as it stood before it.
            started = engine.has_started(table.state if kind is LogKind.END else state)
            ending = Ending(
                outcome.winner,
                outcome.reason.value,
                rated=counts_for_rating(table.record.rated, outcome, started),
            )
        seals = self._seals(engine, table.state, state, table.record.seed)
        events = events + sealed_events(seals)
        if outcome is not None and outcome.unplayed is None:  # an unplayed end stays sealed
            found = await self.repository.seals(table.record.id)
            if found is not None:
                events = events + opened_events(found[1])
        tidings = self._tidings(views, events)
        try:
            stored = await self.repository.append(
                table.record,
                seat=table.seat,
                kind=kind,
                text=text,
                state=engine.to_json(state),
                ending=ending,
                tidings=tidings,
                seals=seals,
                queued=queued,
            )
        except StaleGameError:
            raise RefereeError(
                "That move arrived twice or crossed another one; it was not counted again. "
                "Check your latest board with `/board`."
            ) from None
        self._remember(stored, state)
        return Report(
            stored, self._notices(stored, views, tidings), results=await self._results(stored)
        )

    def _seals(
        self, engine: Engine, before: object | None, after: object, seed: int
    ) -> tuple[Seal, ...]:
        """Fresh seals when this change begins play (``bot.fairness``), else none."""
        if not play_begins(engine, before, after):
            return ()
        return seal(engine, after, seed, lambda: secrets.token_hex(16))

    async def export(self, game_id: int) -> dict[str, object]:
        """A finished game's whole record for ``python -m bot.verify``: rules, seed,
        every action, every announcement per audience, and the opened seals."""
        record = await self.repository.get_game(game_id)
        if record is None:
            raise RefereeError(f"There is no game #{game_id}.")
        if record.end_reason is None:
            raise RefereeError(
                f"Game #{game_id} is still being played; its record is published once it is over."
            )
        engine = _engine(record.game)
        ended = engine.outcome(self._state_of(engine, record))
        if ended is not None and ended.unplayed is not None:
            raise RefereeError(
                f"Game #{game_id} ended before its first real move, so it stays hidden: "
                "it has no record to publish."
            )
        sealed = await self.repository.seals(game_id)
        return {
            "format": EXPORT_FORMAT,
            "game": record.game,
            "title": engine.title,
            "id": record.id,
            "variant": engine.variant_name(engine.rules_from_json(record.rules)),
            "rules": record.rules,
            "seed": record.seed,
            "seats": [str(user_id) for user_id in record.seats],
            "winner": record.winner,
            "end": record.end_reason,
            "actions": [
                {"ply": e.ply, "seat": e.seat, "kind": e.kind.value, "text": e.text}
                for e in await self.repository.log(game_id)
            ],
            "announcements": [
                {"ply": ply, "tidings": [[audience, list(texts)] for audience, texts in told]}
                for ply, told in await self.repository.announcements(game_id)
            ],
            "seals": {
                "ply": None if sealed is None else sealed[0],
                "entries": [] if sealed is None else [s.to_json() for s in sealed[1]],
            },
        }

    async def _results(self, game: GameRecord) -> tuple[Result, ...]:
        """A finished game's results and rating changes, as stored with its end."""
        if game.end_reason is None:
            return ()
        return tuple(await self.repository.records.results_of(game.id))

    async def _conclude(self, table: _Table, outcome: Outcome, events: tuple[Event, ...]) -> Report:
        """End a game from outside its rules: logged as an END entry with the outcome.

        A game ended before its first real move is marked unplayed, so its views go on
        keeping every secret of the phase it was in (``secrecy``).
        """
        engine = table.engine
        if not engine.has_started(table.state):
            outcome = replace(outcome, unplayed=engine.view(table.state, None).phase)
        final = engine.conclude(table.state, outcome)
        events += engine.epilogue(final)
        return await self._commit(table, LogKind.END, json.dumps(outcome.to_json()), final, events)

    def _tidings(self, views: _Views, events: tuple[Event, ...]) -> Tidings:
        """What each audience is told of a change (``bot.announcements.tidings``)."""
        return tidings(views.engine, views.state, events)

    def _notices(self, game: GameRecord, views: _Views, tidings: Tidings) -> tuple[Notice, ...]:
        """The tidings with each audience's view of the board as it stands."""
        return tuple(Notice(game, audience, texts, views[audience]) for audience, texts in tidings)

    # -- delivery -----------------------------------------------------------------------------

    async def parcel_report(self, parcel: Parcel) -> Report | None:
        """What a claimed parcel tells its audience, with the board as it stands now.

        A player's merged backlog carries every text in order; the channel's live message
        shows only the newest texts, since it always shows the newest state. Boards are
        rendered from the view built here, only when the parcel is sent. None when the game
        no longer exists.
        """
        game = await self.repository.get_game(parcel.game_id)
        if game is None:
            return None
        engine = _engine(game.game)
        views = _Views(engine, self._state_of(engine, game))
        if parcel.audience is None:
            texts = parcel.texts[-1]
        else:
            texts = tuple(text for told in parcel.texts for text in told)
        notice = Notice(game, parcel.audience, texts, views[parcel.audience])
        results = await self._results(game) if parcel.final else ()
        return Report(game, (notice,), results=results)


class _Views:
    """Each audience's view of one state, built once and shared by texts and boards."""

    def __init__(self, engine: Engine, state: object) -> None:
        self.engine = engine
        self.state = state
        self._built: dict[int | None, View] = {}
        self.outcome = engine.outcome(state)

    def __getitem__(self, audience: int | None) -> View:
        if audience not in self._built:
            self._built[audience] = self.engine.view(self.state, audience)
        return self._built[audience]


@dataclass(frozen=True)
class ComputerTurn:
    """A game waiting for the computer, and all its seat knows: nothing more."""

    game: GameRecord
    seen: Seen


@dataclass(frozen=True)
class _Table:
    """One player at one game, as loaded under the game's lock."""

    record: GameRecord
    engine: Engine
    state: object
    seat: int


def in_seats(challenge: ChallengeRecord, pair: tuple[T, T]) -> tuple[T, T]:
    """The challenger's and the accepter's ids (or names) in seat order: the challenger
    first, unless the challenge turns the seats round (a rematch)."""
    return (pair[1], pair[0]) if challenge.swapped else pair


def _draw_move(table: _Table, word: str) -> str:
    """The draw move a word stands for: ``draw`` accepts a standing offer, or makes one.

    Games whose rules allow no agreed draw refuse the word plainly, instead of reading it
    as a malformed move.
    """
    engine = table.engine
    if not engine.agreed_draws:
        raise RefereeError(f"{engine.title} has no draw by agreement: play on, or `/resign`.")
    if word != "draw":
        return word
    legal = {str(action) for action in engine.legal_actions(table.state, table.seat)}
    return "accept draw" if "accept draw" in legal else "offer draw"


def draw_button(engine: Engine, view: View) -> tuple[str, str] | None:
    """A board's draw button, when its viewer may offer or accept a draw now."""
    if not engine.agreed_draws or view.seat is None or view.phase is not Phase.PLAY:
        return None
    if "accept draw" in engine.suggestions(view, "accept draw"):
        return ("Accept draw", "draw")
    if "offer draw" in engine.suggestions(view, "offer draw"):
        return ("Offer draw", "draw")
    return None


def _setup_name(typed: str) -> str:
    """A saved setup's name as typed after ``save`` or ``load``, checked."""
    name = typed.strip().lower()
    if not _SETUP_NAME.match(name):
        raise RefereeError(
            "Name a setup with up to 32 letters, digits, `-` or `_`, like `save fortress`."
        )
    return name


def _engine(key: str) -> Engine:
    try:
        return ENGINES[key]
    except KeyError:
        raise RefereeError(f"There is no game called `{shorten(key)}`.") from None


def replay(engine: Engine, game: GameRecord, entries: list[LogEntry]) -> object:
    """Rebuild a game's state from its seed and log; storage tests compare it to the snapshot."""
    state = engine.new_game(engine.rules_from_json(game.rules), game.seed)
    for entry in entries:
        if entry.kind is LogKind.MOVE:
            if entry.seat is None:
                raise CorruptStateError(f"move {entry.ply} of game {game.id} has no seat")
            state = engine.act(state, entry.seat, entry.text).state
        else:
            state = engine.conclude(state, Outcome.from_json(json.loads(entry.text)))
    return state
