"""The computer's seat: what it knows when a game waits for its move, and nothing more.

The computer decides from its seat's view and the texts its seat was told, rebuilt from
the log after a restart, exactly what a person in its seat would have; never the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.ai import Seen, dice_seed_for
from bot.games.core import CorruptStateError, Engine
from bot.log_step import apply_entry
from bot.referee.states import STATE_CACHE_SIZE, engine_for
from bot.referee.unit_of_work import UnitOfWork
from bot.storage import GameRecord, LogKind


@dataclass(frozen=True)
class ComputerTurn:
    """A game waiting for the computer, and all its seat knows: nothing more."""

    game: GameRecord
    seen: Seen


@dataclass
class ComputerSeatService:
    """What the computer's seat is handed, and which games wait for it."""

    work: UnitOfWork
    memories: dict[int, tuple[int, object, tuple[str, ...]]] = field(default_factory=dict)
    """Per game against the computer: the ply, the state replayed to it, and what the
    computer's seat was told up to it (its memory, rebuilt from the log after a restart)."""

    async def computer_turn(self, game_id: int) -> ComputerTurn | None:
        """What the computer's seat knows, when a running game waits for its move.

        The computer is handed its seat's view and every text its seat was told so far,
        exactly what a person in its seat would have; never the state, nor the game's seed
        (from which the person's dealt setup is rebuilt), only dice of its own made from it.
        """
        record = await self.work.repository.get_game(game_id)
        seat = None if record is None else record.computer_seat
        if record is None or seat is None or record.end_reason is not None:
            return None
        engine = engine_for(record.game)
        view = engine.view(self.work.states.state_of(engine, record), seat)
        if seat not in view.movers:
            return None
        heard = await self._heard(engine, record, seat)
        rules = engine.rules_from_json(record.rules)
        dice_seed = dice_seed_for(record.seed, seat)
        return ComputerTurn(record, Seen(rules, view, heard, dice_seed, record.ply))

    async def _heard(self, engine: Engine, record: GameRecord, seat: int) -> tuple[str, ...]:
        """Every text addressed to ``seat`` so far, rebuilt from the log where not remembered."""
        cached = self.memories.get(record.id)
        if cached is None or cached[0] > record.ply:
            rules = engine.rules_from_json(record.rules)
            cached = (0, engine.new_game(rules, record.seed), ())
        ply, state, heard = cached
        if ply < record.ply:
            said = list(heard)
            for entry in await self.work.repository.log(record.id):
                if entry.ply <= ply:
                    continue
                if entry.seat is None:
                    raise CorruptStateError(f"entry {entry.ply} of game {record.id} has no seat")
                step = apply_entry(
                    engine, state, entry.seat, entry.kind.value, entry.text, record.computer_seat
                )
                state = step.state
                if entry.kind is LogKind.MOVE:
                    said.extend(event.text for event in step.events if event.audience == seat)
                ply = entry.ply
            heard = tuple(said)
            self.memories[record.id] = (ply, state, heard)
            while len(self.memories) > STATE_CACHE_SIZE:
                self.memories.pop(next(iter(self.memories)))
        return heard

    async def computer_games(self) -> list[GameRecord]:
        """Running games against the computer: after a restart, each is looked at again."""
        return await self.work.repository.active_computer_games()
