"""Playing moves: a player's text, checked, applied by the engine and stored at its ply.

Besides the game's own notation a move may be a word the referee reads for every game:
``#<id>`` to pick one of several games, ``save``/``load`` for a saved setup, ``draw`` for a
draw by agreement. ``at_ply`` (the ply guard) makes a move decided while the game waited
count once or not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.core import Engine, Phase, View
from bot.log_step import played
from bot.referee.game_numbers import split_game_number
from bot.referee.reports import Notice, RefereeError, Report, StaleMoveError
from bot.referee.states import engine_for
from bot.referee.unit_of_work import LoadedGame, UnitOfWork, several_games
from bot.storage import GameRecord, LogKind

MAX_MOVE_LENGTH = 600
"""Long enough for a whole saved setup played as one move."""
_SAVED_SETUP_WORD = re.compile(r"^(save|load)\b\s*(.*)$", re.I | re.S)
_SETUP_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
MAX_SAVED_SETUPS = 25
DRAW_WORDS = frozenset({"draw", "offer draw", "accept draw"})
"""Words for a draw by agreement, the same in every game that allows one."""


@dataclass
class MoveService:
    """A move aimed, played, or suggested while it is typed; saved setups."""

    work: UnitOfWork

    async def aim(self, user_id: int, text: str, game_id: int | None = None) -> int:
        """The game a move is for, checked as far as it can be without playing it: what a
        process that queues moves for a worker answers at once (no game, several games,
        not the player's game, a game that is over). Whether the move is legal is for
        ``act`` to say, when the move is played."""
        if len(text) > MAX_MOVE_LENGTH:
            raise RefereeError("That message is too long to be a move.")
        game_id, move = _named_game(text, game_id)
        if game_id is None:
            game_id = await self._routed(user_id, move)
        game_id = await self.work.game_id_for(user_id, game_id, purpose="move")
        await self.work.load(game_id, user_id)
        return game_id

    async def _routed(self, user_id: int, move: str) -> int | None:
        """The game a move that names none is for, among the player's running games: the
        only one; else the only one where it is theirs to act; else the only one of those
        whose view suggests the move. None when there is no game at all.

        Each step is judged on the player's own view of a game alone (whose turn it is is
        public, and suggestions come from the view), never on what is hidden from them, so
        where a move goes tells them nothing new. Where several games remain, they are
        listed and the move refused.
        """
        games = await self.work.repository.active_games_of(user_id)
        if len(games) < 2:
            return games[0].id if games else None
        views = [(game, self._own_view(game, user_id)) for game in games]
        movers = [(game, view) for game, view in views if view.seat in view.movers]
        if len(movers) == 1:
            return movers[0][0].id
        takers = [game for game, view in movers if _suggested(engine_for(game.game), view, move)]
        if len(takers) == 1:
            return takers[0].id
        raise several_games(user_id, takers or [game for game, _ in movers] or games, "move")

    def _own_view(self, game: GameRecord, user_id: int) -> View:
        engine = engine_for(game.game)
        return engine.view(self.work.states.state_of(engine, game), game.seat_of(user_id))

    async def act(
        self,
        user_id: int,
        text: str,
        game_id: int | None = None,
        *,
        at_ply: int | None = None,
        queued: int | None = None,
        answering: bool = False,
    ) -> Report:
        """Play one move written in the game's notation, optionally prefixed ``#<id>``.

        ``at_ply`` refuses the move unless the game still stands where its mover saw it:
        the computer's move, decided while the game waited, counts once or not at all.
        ``queued`` names the queued move being played (``bot.worker``): it leaves the
        queue with the move, once. ``answering`` says the caller sends the mover's own
        notice itself, as the answer to their command (``UnitOfWork.change``).
        """
        if len(text) > MAX_MOVE_LENGTH:
            raise RefereeError("That message is too long to be a move.")
        game_id, move = _named_game(text, game_id)
        if game_id is None:
            game_id = await self._routed(user_id, move)
        saved = _SAVED_SETUP_WORD.match(move.strip())
        async with self.work.change(user_id, game_id, "move", answering=answering) as loaded:
            engine, state, seat = loaded.engine, loaded.state, loaded.seat
            if at_ply is not None and loaded.record.ply != at_ply:
                raise StaleMoveError("The game moved on before that move arrived.")
            if saved is not None:
                name = _setup_name(saved.group(2))
                if saved.group(1).lower() == "save":
                    return await self._save_setup(loaded, name)
                move = await self._saved_setup(loaded, name)
            if move.strip().lower() in DRAW_WORDS:
                move = _draw_move(loaded, move.strip().lower())
            action = engine.parse_action(state, seat, move)
            step = played(engine, state, seat, action)
            return await self.work.commit(loaded, LogKind.MOVE, str(action), step, queued)

    async def _save_setup(self, loaded: LoadedGame, name: str) -> Report:
        """Keep the player's setup under ``name`` for later games; the game is unchanged."""
        engine, record, seat = loaded.engine, loaded.record, loaded.seat
        view = engine.view(loaded.state, seat)
        text = engine.setup_text(view)
        if text is None:
            raise RefereeError("There is nothing to save yet: set up your side first.")
        user_id = record.seats[seat]
        names = await self.work.repository.saved_setup_names(user_id, record.game)
        if name not in names and len(names) >= MAX_SAVED_SETUPS:
            raise RefereeError(
                f"You already keep {MAX_SAVED_SETUPS} {engine.title} setups; save over one of "
                f"them by its name ({', '.join(names)})."
            )
        await self.work.repository.save_setup(user_id, record.game, name, text)
        said = f"Saved this setup as `{name}`; write `load {name}` in a later game to use it."
        return Report(record, (Notice(record, seat, (said,), view),), stored=False)

    async def _saved_setup(self, loaded: LoadedGame, name: str) -> str:
        """The move a saved setup stands for; the rules then check it like any move."""
        record = loaded.record
        user_id = record.seats[loaded.seat]
        text = await self.work.repository.saved_setup(user_id, record.game, name)
        if text is None:
            names = await self.work.repository.saved_setup_names(user_id, record.game)
            listed = (
                f"your saved setups are {', '.join(f'`{n}`' for n in names)}"
                if names
                else "save one first with `save <name>` while you set up"
            )
            raise RefereeError(f"You have no saved setup called `{name}`; {listed}.")
        return text

    async def suggestions(self, user_id: int, typed: str) -> list[str]:
        """Autocomplete for ``/move``: legal moves matching what was typed, from views only."""
        try:
            game_id, move = split_game_number(typed, typing=True)
        except RefereeError:
            return []  # the game number is wrong as typed so far: no move fits it
        games = await self.work.repository.active_games_of(user_id)
        if game_id is not None:
            games = [g for g in games if g.id == game_id]
        prefix_games = len(games) > 1 or game_id is not None
        choices: list[str] = []
        for record in games:
            engine = engine_for(record.game)
            seat = record.seat_of(user_id)
            assert seat is not None
            view = engine.view(self.work.states.state_of(engine, record), seat)
            for move_text in engine.suggestions(view, move):
                choices.append(f"#{record.id} {move_text}" if prefix_games else move_text)
        return choices[:25]


def _named_game(text: str, game_id: int | None) -> tuple[int | None, str]:
    """The game a move is for (one written before it wins over ``game_id``), and the move."""
    named, move = split_game_number(text)
    return (game_id if named is None else named), move


def _suggested(engine: Engine, view: View, move: str) -> bool:
    """Whether the player's view suggests ``move`` as it stands, spacing and case aside, or
    it is a word of the referee's that fits the phase the view shows."""
    words = " ".join(move.lower().split())
    if _SAVED_SETUP_WORD.match(words):
        return view.phase is Phase.SETUP
    if words in DRAW_WORDS:
        return engine.agreed_draws and view.phase is Phase.PLAY
    typed = "".join(words.split())
    return any("".join(s.lower().split()) == typed for s in engine.suggestions(view, move))


def _draw_move(loaded: LoadedGame, word: str) -> str:
    """The draw move a word stands for: ``draw`` accepts a standing offer, or makes one.

    Games whose rules allow no agreed draw refuse the word plainly, instead of reading it
    as a malformed move.
    """
    engine = loaded.engine
    if not engine.agreed_draws:
        raise RefereeError(f"{engine.title} has no draw by agreement: play on, or `/resign`.")
    if word != "draw":
        return word
    legal = {str(action) for action in engine.legal_actions(loaded.state, loaded.seat)}
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
