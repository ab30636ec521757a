"""The unit of work every service of the referee shares: lock, load, commit.

Every use case that changes a game takes the same path, kept here once: find the game a
request means, take its lock (this process's, then the store's), load it (``change``),
and after the log step (``bot.log_step``) has made the change, store the new state with
what each audience is told in one transaction (``commit``). Decoded states are cached per
ply (``bot.referee.states``), so a game is decoded once per move, not once per reader.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from weakref import WeakValueDictionary

from bot.fairness import Seal, play_begins, seal
from bot.games.core import Engine, Event, GameError, Outcome, View
from bot.log_step import Step, announced, ended
from bot.logs import fields
from bot.names import clean as clean_name
from bot.ratings import counts_for_rating
from bot.referee.publisher import ChangePublisher, StoredChange
from bot.referee.reports import GameFault, Notice, RefereeError, Report
from bot.referee.states import StateCache, Views, engine_for
from bot.storage import AudienceTexts, Ending, GameRecord, LogKind, Repository, StaleGameError
from bot.storage.results import Result

log = logging.getLogger("referee.referee")


class UnitOfWork:
    """The one path a change to a game takes, and what every service of the referee shares:
    the store, the seed source, the per-game locks and the cache of decoded states.

    The services (``bot.referee.challenges``, ``moves``, ``endings``, ``computer_seat``,
    ``queries``) are each handed the one unit of work; ``bot.referee.Referee`` puts them
    together.
    """

    def __init__(self, repository: Repository, seed_source: Callable[[], int]) -> None:
        self.repository = repository
        self.seed_source = seed_source
        """Each new game's seed (``secrets`` by default; tests give a fixed one)."""
        self.states = StateCache()
        self.changes = ChangePublisher()
        """Where every stored change is published, once (``bot.referee.publisher``)."""
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        """A lock lives while someone holds or awaits it, so ids typed by anyone cannot pile up."""

    async def game_of(self, user_id: int, game_id: int | None, *, purpose: str) -> GameRecord:
        """The active game a request is about: the named one, or the player's only game."""
        return await self.load(await self.game_id_for(user_id, game_id, purpose=purpose), user_id)

    async def game_id_for(self, user_id: int, game_id: int | None, *, purpose: str) -> int:
        """Which game a request means; a named game is read later, once, under its lock."""
        if game_id is not None:
            return game_id
        games = await self.repository.active_games_of(user_id)
        if not games:
            raise RefereeError("You have no game running. Start one with `/play` in a server.")
        if len(games) > 1:
            raise several_games(user_id, games, purpose)
        return games[0].id

    @asynccontextmanager
    async def change(
        self, user_id: int, game_id: int | None, purpose: str, *, answering: bool = False
    ) -> AsyncIterator[LoadedGame]:
        """The player's game, locked and loaded, for one change: nothing else lands meanwhile.

        ``purpose`` names the change in refusals and in the log; ``answering`` says the
        caller sends the player's own notice itself, as the answer to their command."""
        game_id = await self.game_id_for(user_id, game_id, purpose=purpose)
        async with self.locked(game_id):
            record = await self.load(game_id, user_id)
            engine = engine_for(record.game)
            seat = record.seat_of(user_id)
            assert seat is not None  # load refuses a game the user does not play
            try:
                state = self.states.state_of(engine, record)
                yield LoadedGame(record, engine, state, seat, answering=answering)
            except GameError:
                raise
            except Exception as error:
                # Nothing was stored (a change is one transaction, stored last), so the
                # game is as it was; the player hears so, the log keeps the cause.
                log.exception("game %s: %s failed", game_id, purpose, extra=fields(game_id))
                raise GameFault(game_id) from error

    async def load(self, game_id: int, user_id: int) -> GameRecord:
        """The game as stored now; under a lock, no other move can land meanwhile."""
        record = await self.repository.get_game(game_id)
        if record is None or user_id not in record.seats:
            raise RefereeError(f"You are not playing in game #{game_id}.")
        if record.end_reason is not None:
            raise RefereeError(f"Game #{game_id} is over.")
        return record

    @asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[None]:
        """The game for one change: this process's lock first, so its own callers queue
        here, then the store's, which another process sharing the database also takes."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock, self.repository.game_lock(game_id):
            yield

    async def commit(
        self, loaded: LoadedGame, kind: LogKind, text: str, step: Step, queued: int | None = None
    ) -> Report:
        """Log ``text``, store the state ``step`` leaves and hold what each audience is to be
        told, at once. A move that lost a race is refused, not retried.
        """
        engine, state = loaded.engine, step.state
        views = Views(engine, state)
        outcome = views.outcome
        ending = None
        if outcome is not None:
            # An end from outside the rules is judged by the game as it stood before it.
            started = engine.has_started(loaded.state if kind is LogKind.END else state)
            ending = Ending(
                outcome.winner,
                outcome.reason.value,
                rated=counts_for_rating(loaded.record.rated, outcome, started),
            )
        before = self.states.views_of(engine, loaded.record, loaded.state)
        seals = self.new_seals(engine, before, views, loaded.record.seed, loaded.record.seats)
        opened: tuple[Seal, ...] = ()
        if outcome is not None and outcome.unplayed is None:  # an unplayed end stays sealed
            found = await self.repository.seals(loaded.record.id)
            opened = () if found is None else found[1]
        audience_texts = announced(
            engine, state, step.events, sealed=seals, opened=opened, view_for=views.__getitem__
        )
        try:
            stored = await self.repository.append(
                loaded.record,
                seat=loaded.seat,
                kind=kind,
                text=text,
                state=engine.to_json(state),
                ending=ending,
                audience_texts=audience_texts,
                seals=seals,
                queued=queued,
            )
        except StaleGameError:
            raise RefereeError(
                "That move arrived twice or crossed another one; it was not counted again. "
                "Check your latest board with `/board`."
            ) from None
        self.states.remember(stored, views)
        answered = loaded.seat if loaded.answering else None
        self.published(stored, audience_texts, answered_seat=answered)
        return Report(
            stored, self.notices(stored, views, audience_texts), results=await self.results(stored)
        )

    def published(
        self, game: GameRecord, audience_texts: AudienceTexts, *, answered_seat: int | None = None
    ) -> None:
        """Announce a change just stored with ``audience_texts``: every stored change, once."""
        told = tuple(audience for audience, _ in audience_texts)
        self.changes.publish(StoredChange(game, told, answered_seat))

    def new_seals(
        self,
        engine: Engine,
        before: Views | None,
        after: Views,
        seed: int,
        seats: tuple[int, int],
    ) -> tuple[Seal, ...]:
        """Fresh seals when this change begins play (``bot.fairness``), else none."""

        def public(state: object) -> View:
            built = after if state is after.state else before
            assert built is not None
            return built[None]

        if not play_begins(engine, None if before is None else before.state, after.state, public):
            return ()
        return seal(engine, after.state, seed, seats, lambda: secrets.token_hex(16))

    async def results(self, game: GameRecord) -> tuple[Result, ...]:
        """A finished game's results and rating changes, as stored with its end."""
        if game.end_reason is None:
            return ()
        return tuple(await self.repository.records.results_of(game.id))

    async def conclude(
        self, loaded: LoadedGame, outcome: Outcome, events: tuple[Event, ...]
    ) -> Report:
        """End a game from outside its rules: logged as an END entry with the outcome
        (``bot.conclusions``, which the verifier checks the entry against)."""
        step = ended(loaded.engine, loaded.state, outcome, events)
        assert step.outcome is not None
        return await self.commit(loaded, LogKind.END, json.dumps(step.outcome.to_json()), step)

    def notices(
        self, game: GameRecord, views: Views, audience_texts: AudienceTexts
    ) -> tuple[Notice, ...]:
        """The audience texts with each audience's view of the board as it stands."""
        return tuple(
            Notice(game, audience, texts, views[audience]) for audience, texts in audience_texts
        )


@dataclass(frozen=True)
class LoadedGame:
    """One player's game, as loaded under the game's lock: the record, its engine, its
    decoded state, and the seat of the player the change is for."""

    record: GameRecord
    engine: Engine
    state: object
    seat: int
    answering: bool = False
    """Whether the caller answers the player's own notice itself (``change``)."""


def game_label(game: GameRecord, user_id: int) -> str:
    """A game as its player picks it among theirs, by number, game, variant and opponent:
    ``#13 Marine Game (classic) vs Bob``. The opponent goes by the name the game keeps."""
    engine = engine_for(game.game)
    variant = engine.variant_name(engine.rules_from_json(game.rules))
    seat = game.seat_of(user_id)
    if seat is None:
        return f"#{game.id} {engine.title} ({variant})"
    opponent = clean_name(game.names[1 - seat]) or f"<@{game.seats[1 - seat]}>"
    return f"#{game.id} {engine.title} ({variant}) vs {opponent}"


def several_games(user_id: int, games: list[GameRecord], purpose: str) -> RefereeError:
    """The refusal of a request that does not say which of ``games`` it is for."""
    listed = ", ".join(game_label(game, user_id) for game in games[:10])
    first = games[0].id
    how = (
        f"write the game number first, like `#{first}` followed by your move"
        if purpose == "move"
        else f"give the command's `game` option, like `/{purpose} game:{first}`"
    )
    return RefereeError(f"You are in several games: {listed}. Say which: {how}.")
