"""Reading games without changing them: boards, help, finished games, replays, exports.

Everything here answers from a view (or, for a finished game, from the log), so it needs
no game's lock; what a running game shows its players and the channel is decided by the
engine's ``view`` alone. The deliverer's ``batch_report`` is such a reading too: the board
as it stands when a batch is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.announcements import status_line
from bot.exports import FORMAT as EXPORT_FORMAT
from bot.games import ENGINES
from bot.games.core import Engine, View
from bot.referee.access import DIRECT_MESSAGE, Place, may_see
from bot.referee.closed_dms import is_note
from bot.referee.reports import Notice, RefereeError, Report
from bot.referee.states import engine_for
from bot.referee.unit_of_work import UnitOfWork
from bot.replays import (
    AUDIENCE_WORDS,
    TRUTH,
    Audience,
    Replay,
    moments,
    move_list,
    replayed,
    states_of,
)
from bot.storage import GameRecord, LogEntry
from bot.storage.outbox import Batch
from bot.storage.results import ResultQueries

_UNPLAYED = (
    "Game #{game_id} ended before its first real move, so what was hidden stays hidden: "
    "replay it as {what}."
)


@dataclass
class QueryService:
    """Boards, help, status lines, finished games, replays, exports and batches."""

    work: UnitOfWork

    @property
    def records(self) -> ResultQueries:
        """Leaderboards, profiles and histories: read-only questions over results and
        ratings, answered by the store without any game's lock."""
        return self.work.repository.records

    async def board(
        self, user_id: int, game_id: int | None = None, place: Place = DIRECT_MESSAGE
    ) -> Notice:
        """The player's private board again; someone not playing a running game gets its
        public board (a spectator pressing **My board** on the channel's live message),
        if they may look at it from ``place`` (``bot.referee.access``). Anyone else is told
        they do not play in it, as for a number no game has."""
        if game_id is not None:
            watched = await self.work.repository.get_game(game_id)
            if (
                watched is not None
                and watched.end_reason is None
                and user_id not in watched.seats
                and may_see(watched, user_id, place)
            ):
                return self._spectated(watched)
        record = await self.work.game_of(user_id, game_id, purpose="board")
        engine = engine_for(record.game)
        state = self.work.states.state_of(engine, record)
        seat = record.seat_of(user_id)
        assert seat is not None
        view = engine.view(state, seat)
        return Notice(record, seat, (status_line(view, engine.outcome(state)),), view)

    def _spectated(self, record: GameRecord) -> Notice:
        engine = engine_for(record.game)
        state = self.work.states.state_of(engine, record)
        view = engine.view(state, None)
        said = (
            f"You are not playing in game #{record.id}, so here is its public board. "
            f"{status_line(view, engine.outcome(state))}"
        )
        return Notice(record, None, (said,), view)

    async def help(self, user_id: int) -> str:
        """The rules and notation of the games a player is in, or how to start one."""
        games = await self.work.repository.active_games_of(user_id)
        if not games:
            titles = " or ".join(engine.title for engine in ENGINES.values())
            return f"Start a game of {titles} with `/play` in a server; `/rules` explains each."
        texts = []
        for record in games[:3]:
            engine = engine_for(record.game)
            texts.append(
                f"Game #{record.id}: {engine.describe(engine.rules_from_json(record.rules))}"
            )
        return "\n\n".join(texts)

    async def finished(
        self, game_id: int, user_id: int, place: Place = DIRECT_MESSAGE
    ) -> tuple[GameRecord, View, str]:
        """A finished game, its public view and how it ended.

        The view reveals all, unless the game ended before its first real move: then it
        shows what the channel saw then (``core.secrecy``).

        A running game is refused: its public view would be only a board without the
        summary, and its end is what this is for.
        """
        record = await self._finished_game(
            game_id,
            user_id,
            place,
            still_playing="its board is shown here once it is over. "
            "`/games` lists the games running in a server.",
        )
        engine = engine_for(record.game)
        state = self.work.states.state_of(engine, record)
        view = engine.view(state, None)
        return record, view, status_line(view, engine.outcome(state))

    async def _finished_game(
        self, game_id: int, user_id: int, place: Place, *, still_playing: str
    ) -> GameRecord:
        """The record of a game that is over, or the sentence refusing to show it: one that
        does not exist or that the asker may not look at from ``place`` (the same sentence,
        so a guessed number confirms nothing), or one still running (``still_playing`` says
        when it may be seen)."""
        record = await self.work.repository.get_game(game_id)
        if record is None or not may_see(record, user_id, place):
            raise RefereeError(f"There is no game #{game_id}.")
        if record.end_reason is None:
            raise RefereeError(f"Game #{game_id} is still being played; {still_playing}")
        return record

    async def replay_of(
        self,
        game_id: int,
        user_id: int,
        audience: str | None = None,
        place: Place = DIRECT_MESSAGE,
    ) -> Replay:
        """A finished game replayed for ``audience``: ``mine``, ``channel`` or ``truth``.

        Anyone who may look at a finished game from ``place`` (``bot.referee.access``) may
        see it as the channel did or with both sides revealed;
        ``mine`` (the default for a player) is the asker's own seat. A running game gets no
        replay at all: even the channel's would tell the players nothing new, and a seat's
        would be an open door for whoever asked.
        """
        record = await self._finished_game(
            game_id, user_id, place, still_playing="its replay is ready once it is over."
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
        engine = engine_for(record.game)
        entries = await self.work.repository.log(game_id)
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

    async def variants_of(self, game_ids: list[int]) -> dict[int, str]:
        """The variant each of these games was played in, by id (a page of a history)."""
        variants = {}
        for game_id in game_ids:
            record = await self.work.repository.get_game(game_id)
            if record is not None:
                engine = engine_for(record.game)
                variants[game_id] = engine.variant_name(engine.rules_from_json(record.rules))
        return variants

    async def games_in(self, user_id: int, place: Place) -> list[tuple[GameRecord, str]]:
        """Active games of the server ``place`` is in that the asker may look at (those of
        channels they can view, and their own), with a public one-line status each."""
        if place.guild_id is None:
            return []
        lines = []
        for record in await self.work.repository.active_games_in(place.guild_id):
            if not may_see(record, user_id, place):
                continue
            engine = engine_for(record.game)
            state = self.work.states.state_of(engine, record)
            lines.append((record, status_line(engine.view(state, None), engine.outcome(state))))
        return lines

    async def export(
        self, game_id: int, user_id: int, place: Place = DIRECT_MESSAGE
    ) -> dict[str, object]:
        """A finished game's whole record for ``python -m bot.verify``: rules, seed,
        players, result, every action, every announcement per audience, and the opened
        seals, laid out as ``bot.exports`` reads them; for whoever may look at the game
        from ``place``."""
        record = await self._finished_game(
            game_id, user_id, place, still_playing="its record is published once it is over."
        )
        engine = engine_for(record.game)
        ended = engine.outcome(self.work.states.state_of(engine, record))
        if ended is not None and ended.unplayed is not None:
            raise RefereeError(
                f"Game #{game_id} ended before its first real move, so it stays hidden: "
                "it has no record to publish."
            )
        sealed = await self.work.repository.seals(game_id)
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
            "computer_seat": record.computer_seat,
            "actions": [
                {"ply": e.ply, "seat": e.seat, "kind": e.kind.value, "text": e.text}
                for e in await self.work.repository.log(game_id)
            ],
            "announcements": [
                {"ply": ply, "tidings": [[audience, list(texts)] for audience, texts in told]}
                for ply, told in await self.work.repository.announcements(game_id)
            ],
            "seals": {
                "ply": None if sealed is None else sealed[0],
                "entries": [] if sealed is None else [s.to_json() for s in sealed[1]],
            },
        }

    async def batch_report(self, batch: Batch) -> Report | None:
        """What a claimed batch tells its audience, with the board as it stands now.

        A player's merged backlog carries every text in order; the channel's live message
        shows only the newest texts, since it always shows the newest state; the seals the
        channel keeps as messages of their own are posted from every notice of the batch
        (``kept_apart``); the notes asking players to open their DMs are posted apart
        and never shown as its texts (``bot.referee.closed_dms``). Boards are rendered
        from the view built here, only when the batch is sent. None when the game no
        longer exists. The game the claim read with the batch, if it did, is as new.
        """
        game = batch.game or await self.work.repository.get_game(batch.game_id)
        if game is None:
            return None
        engine = engine_for(game.game)
        views = self.work.states.views_of(engine, game, self.work.states.state_of(engine, game))
        if batch.audience is None:
            news = [told for told in batch.texts if not is_note(told)]
            texts = news[-1] if news else ()
        else:
            texts = tuple(text for told in batch.texts for text in told)
        notice = Notice(game, batch.audience, texts, views[batch.audience])
        results = await self.work.results(game) if batch.final else ()
        return Report(game, (notice,), results=results)

    async def running_games_of(self, user_id: int) -> list[GameRecord]:
        """The player's running games (the games a command's ``game`` option offers)."""
        return await self.work.repository.active_games_of(user_id)

    async def players_in_games(self) -> list[int]:
        """Every player of a running game: whose DMs are read at start for missed moves."""
        return await self.work.repository.active_players()

    async def last_dm_read(self, user_id: int) -> int | None:
        """The newest DM of the player's the bot acted on, if it keeps one."""
        return await self.work.repository.inbox.last_read(user_id)

    async def dm_read(self, user_id: int, message_id: int) -> None:
        """The bot acted on this DM of the player's: at start it is not read again."""
        await self.work.repository.inbox.mark_read(user_id, message_id)


def replay(engine: Engine, game: GameRecord, entries: list[LogEntry]) -> object:
    """Rebuild a game's state from its seed and log; storage tests compare it to the snapshot."""
    *_, state = replayed(engine, game, entries)
    return state
