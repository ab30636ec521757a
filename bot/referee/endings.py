"""Ends from outside the rules, and the clock: resignation, abort, call-off, time-out.

Each goes through the unit of work's ``conclude`` like every other end, so a game ended
here is stored, rated and announced exactly like one the rules ended. Reminders live here
too: they are the clock's warning before it ends a game on time.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.announcements import timed_out
from bot.conclusions import abort, call_off, late_seats, resignation
from bot.logs import fields
from bot.referee.closed_dms import closed_dms_note, once_key
from bot.referee.reports import Notice, RefereeError, Report
from bot.referee.states import engine_for
from bot.referee.unit_of_work import LoadedGame, UnitOfWork

log = logging.getLogger("referee.referee")


@dataclass
class EndingService:
    """Resigning, aborting, calling off, timing out, and reminding the late."""

    work: UnitOfWork

    async def resign(
        self, user_id: int, game_id: int | None = None, *, answering: bool = False
    ) -> Report:
        """``answering``: the caller answers the player's own notice (``UnitOfWork.change``)."""
        async with self.work.change(user_id, game_id, "resign", answering=answering) as loaded:
            return await self.work.conclude(loaded, *resignation(loaded.seat))

    async def abort(
        self, user_id: int, game_id: int | None = None, *, answering: bool = False
    ) -> Report:
        """``answering``: the caller answers the player's own notice (``UnitOfWork.change``)."""
        async with self.work.change(user_id, game_id, "abort", answering=answering) as loaded:
            if loaded.engine.has_started(loaded.state):
                raise RefereeError(
                    "The first move has been made, so the game can no longer be aborted; "
                    "use `/resign` to give up."
                )
            return await self.work.conclude(loaded, *abort(loaded.seat))

    async def call_off(self, game_id: int, seat: int) -> Report | None:
        """End a game the bot cannot referee: ``seat``'s DMs are closed and no real move
        was made yet. It ends unplayed (nothing hidden is revealed, no rating changes) and
        the channel is told who must open their DMs. None if the game already began or
        ended: then a closed DM costs the game nothing, and the player uses ``/board``.
        """
        async with self.work.locked(game_id):
            record = await self.work.repository.get_game(game_id)
            if record is None or record.end_reason is not None:
                return None
            engine = engine_for(record.game)
            state = self.work.states.state_of(engine, record)
            if engine.has_started(state):
                return None
            return await self.work.conclude(
                LoadedGame(record, engine, state, seat), *call_off(seat)
            )

    async def dms_closed(self, game_id: int, seat: int) -> None:
        """``seat``'s DMs are closed. Before the first real move the game is called off
        (``call_off``: its end names who must open their DMs); during play the move stands
        and the channel asks the player to open their DMs and use ``/board``, once per
        public change however often the bot tries them; after the end nothing is said.

        The note is stored for the channel like any notice and published, so the
        deliverer posts it once and in order with the channel's other posts. A game's
        first DM is thus also the check that a player can be reached: no message is sent
        only to find out.
        """
        if await self.call_off(game_id, seat) is not None:
            log.info("game %s: called off, no DMs to seat %s", game_id, seat, extra=fields(game_id))
            return
        async with self.work.locked(game_id):
            record = await self.work.repository.get_game(game_id)
            if record is None or record.end_reason is not None:
                return  # called off meanwhile (both players' DMs closed) or over
            audience_texts = ((None, (closed_dms_note(record, seat),)),)
            held = await self.work.repository.hold_once(
                record, audience_texts, once=once_key(game_id, seat), mark=repr(record.updated_at)
            )
            if held:
                self.work.published(record, audience_texts)

    async def time_out(self, game_id: int, changed_at: float) -> Report | None:
        """End a game on time: whoever is to move lost it. None if it changed in public
        since ``changed_at`` (its last public change when the wait was read): a change in
        secret, like a setup edit, neither saves nor dooms anyone.

        Ends go through ``conclude`` like resignations, so a game ended on time is stored
        and counted exactly like any other end.
        """
        async with self.work.locked(game_id):
            record = await self.work.repository.get_game(game_id)
            if record is None or record.end_reason is not None or record.updated_at != changed_at:
                return None
            engine = engine_for(record.game)
            state = self.work.states.state_of(engine, record)
            late = late_seats(engine, state, record.computer_seat)
            if not late:
                return None  # the computer is never late: it is only ever resumed
            return await self.work.conclude(
                LoadedGame(record, engine, state, late[0]), *timed_out(late)
            )

    async def reminders(self, game_id: int, changed_at: float, text: str) -> tuple[Notice, ...]:
        """``text`` for each player the game is waiting for, with their board.

        Nothing when the game changed in public since ``changed_at`` (its last public change
        when the wait was read) or ended. The game is read and decoded here, one at a time,
        so the clock only ever decodes the games it is about to remind.
        """
        record = await self.work.repository.get_game(game_id)
        if record is None or record.end_reason is not None or record.updated_at != changed_at:
            return ()
        engine = engine_for(record.game)
        state = self.work.states.state_of(engine, record, keep=False)
        waiting = [s for s in sorted(engine.view(state, None).movers) if s != record.computer_seat]
        return tuple(Notice(record, seat, (text,), engine.view(state, seat)) for seat in waiting)
