"""Turns a referee's notices into message contents and board images, free of Discord.

Only views reach the renderers, and only public names (as mentions that never ping) fill
the channel's placeholders, so nothing here can leak a hidden fact.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bot.catalog import entry
from bot.fairness import lasting
from bot.games import ENGINES
from bot.games.core import SEATS, View, name_of
from bot.names import clean
from bot.referee import Notice, draw_button
from bot.replays import Replay
from bot.storage import GameRecord
from renderers import replay
from renderers.common import Names

MAX_CONTENT = 2000  # Discord's limit for a message's text
MAX_ALT = 1024  # Discord's limit for an attachment description


@dataclass(frozen=True)
class Board:
    """A rendered board: the PNG, its file name and its alt text."""

    png: bytes
    filename: str
    alt: str


@dataclass(frozen=True)
class Message:
    content: str
    board: Board
    quick_moves: tuple[tuple[str, str], ...] = ()


def fill_names(text: str, game: GameRecord) -> str:
    """Put each seat's mention in place of its placeholder (``name_of``).

    Mentions show the player's current name in every client and are sent with pings
    disabled, so a hostile display name can neither ping nor break the layout.
    """
    for seat in SEATS:
        text = text.replace(name_of(seat), f"<@{game.seats[seat]}>")
    return text


def title(game: GameRecord) -> str:
    return f"**{ENGINES[game.game].title} #{game.id}**"


def names_of(game: GameRecord) -> Names:
    """The seats' display names for images: public facts, passed beside the view, so two
    games that differ only in hidden facts still give the same image bytes."""
    return clean(game.names[0]), clean(game.names[1])


def render_board(game: GameRecord, view: View) -> Board:
    """The board image for ``view``, named by the game and audience only.

    Nothing that moves with the game goes into the name: the move count, for one, rises
    with every secret setup edit the opponent makes.
    """
    drawing = entry(game.game)
    audience = "public" if view.seat is None else f"seat{view.seat}"
    filename = f"{game.game}-{game.id}-{audience}.png"
    names = names_of(game)
    return Board(drawing.render(view, names), filename, drawing.alt_text(view, names)[:MAX_ALT])


@dataclass(frozen=True)
class Attachment:
    """A file to attach: its bytes, its name and its description (alt text)."""

    data: bytes
    filename: str
    description: str


def frame_renderer(key: str, names: Names) -> replay.FrameRenderer:
    """A game's board drawn as a palette image with the players' names, for replays: the
    replay frame the game registers (``bot.catalog``)."""
    frame = entry(key).frame
    return lambda view: frame(view, names)


def player_label(seat: int) -> str:
    return f"player {seat + 1}"


def present_replay(recording: Replay) -> tuple[str, Attachment, Attachment | None]:
    """The text, the animated board and the move list of one replay.

    Files cannot show mentions, so the move list names players by seat; the text says
    who is who.
    """
    game = recording.game
    who = recording.audience_name
    frames = replay.draw_frames(frame_renderer(game.game, names_of(game)), recording.moments)
    gif = replay.animate(frames)
    engine = ENGINES[game.game]
    seen = {"channel": "as the channel saw it", "truth": "with both sides revealed"}.get(
        who, "as you saw it"
    )
    content = fill_names(
        f"{title(game)} replayed {seen}: {len(frames)} frames. "
        f"Player 1 is {name_of(0)}, player 2 is {name_of(1)}.",
        game,
    )
    moves = recording.moves
    for seat in SEATS:
        moves = moves.replace(name_of(seat), player_label(seat))
    alt = f"Animated replay of {engine.title} game {game.id} ({who}), {len(frames)} frames."
    listed = (
        Attachment(moves.encode(), f"{game.game}-{game.id}-moves.txt", f"Moves of game {game.id}")
        if moves
        else None  # a game ended before its first real move keeps its setups hidden
    )
    return (
        content[:MAX_CONTENT],
        Attachment(gif, f"{game.game}-{game.id}-replay-{who}.gif", alt[:MAX_ALT]),
        listed,
    )


def present(notice: Notice) -> Message:
    """The message for one notice: title, what happened, whose turn, and the board."""
    game = notice.game
    header = title(game)
    if notice.audience is None:
        header += fill_names(f" · {name_of(0)} vs {name_of(1)}", game)
    texts = notice.texts
    if notice.audience is None:  # the seals get messages of their own (``lasting``)
        texts = tuple(text for text in texts if not lasting(text))
    body = "\n".join(fill_names(text, game) for text in texts)
    content = f"{header}\n{body}"[:MAX_CONTENT]
    engine = ENGINES[game.game]
    quick: tuple[tuple[str, str], ...] = ()
    if notice.audience is not None:
        offer = draw_button(engine, notice.view)
        quick = engine.quick_moves(notice.view) + ((offer,) if offer else ())
    return Message(content, render_board(game, notice.view), quick)


def present_all(notices: Sequence[Notice]) -> list[Message]:
    """``present`` every notice of a report, here and now (tools and tests; the bot
    renders through ``presented``)."""
    return [present(notice) for notice in notices]


RENDER_THREADS = 1
"""Boards are drawn one at a time, on one thread: see ``drawing``."""

_drawing: ThreadPoolExecutor | None = None


def drawing() -> ThreadPoolExecutor:
    """The thread boards are drawn and encoded on, made on first use.

    Drawing there leaves the event loop free to answer players. One thread, not one per
    board: drawing holds the interpreter lock, so boards drawn side by side only hand it
    to each other and cost more (docs/performance/scale.md).
    """
    global _drawing
    if _drawing is None:
        _drawing = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="render")
    return _drawing


Asked = list[tuple[Notice, "asyncio.Future[Message]"]]

_asked: dict[asyncio.AbstractEventLoop, Asked] = {}
"""Per event loop, the notices asked for in its current turn, not yet sent to be drawn."""


async def presented(notice: Notice) -> Message:
    """``present`` off the event loop, on the drawing thread.

    The notices asked for in one turn of the loop (a move's audiences are told side by
    side) are drawn in one job: each job's end wakes the loop, and the loop waking while
    the next board is drawn takes the interpreter lock from it at its next stamp.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Message] = loop.create_future()
    asked = _asked.setdefault(loop, [])
    if not asked:
        loop.call_soon(_draw_asked, loop)
    asked.append((notice, answer))
    return await answer


def _draw_asked(loop: asyncio.AbstractEventLoop) -> None:
    """Send this turn's notices to be drawn in one job, and answer each asker after it."""
    asked = _asked.pop(loop, [])
    try:
        job = loop.run_in_executor(drawing(), _present_each, [notice for notice, _ in asked])
    except RuntimeError as error:  # the drawing thread is shut down: the bot is stopping
        _answer(asked, [error] * len(asked))
        return

    def settle(job: asyncio.Future[list[Message | BaseException]]) -> None:
        if job.cancelled():
            _answer(asked, [asyncio.CancelledError()] * len(asked))
        elif (failure := job.exception()) is not None:
            _answer(asked, [failure] * len(asked))
        else:
            _answer(asked, job.result())

    job.add_done_callback(settle)


def _answer(asked: Asked, outcomes: Sequence[Message | BaseException]) -> None:
    for (_, answer), outcome in zip(asked, outcomes, strict=True):
        if answer.done():  # its asker was cancelled meanwhile
            continue
        if isinstance(outcome, BaseException):
            answer.set_exception(outcome)
        else:
            answer.set_result(outcome)


def _present_each(notices: list[Notice]) -> list[Message | BaseException]:
    """Each notice's message, or what drawing it raised: one bad board fails alone."""
    outcomes: list[Message | BaseException] = []
    for notice in notices:
        try:
            outcomes.append(present(notice))
        except Exception as error:  # handed to the one who asked for this notice
            outcomes.append(error)
    return outcomes


async def presented_all(notices: Sequence[Notice]) -> list[Message]:
    """``present`` every notice of a report off the event loop, in one job."""
    return list(await asyncio.gather(*(presented(notice) for notice in notices)))


async def board_drawn(game: GameRecord, view: View) -> Board:
    """``render_board`` off the event loop, on the drawing thread."""
    return await asyncio.get_running_loop().run_in_executor(drawing(), render_board, game, view)
