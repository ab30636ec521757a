"""Turns a referee's notices into message contents and board images, free of Discord.

Only views reach the renderers, and only public names (as mentions that never ping) fill
the channel's placeholders, so nothing here can leak a hidden fact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games import ENGINES
from bot.games.core import SEATS, View, name_of
from bot.names import clean
from bot.referee import Notice
from bot.storage import GameRecord
from renderers import luzhanqi, marine, seabattle, seachess, warships

Names = tuple[str, str]
Renderer = Callable[[View, Names], bytes]
AltText = Callable[[View, Names], str]

RENDERERS: dict[str, tuple[Renderer, AltText]] = {
    "seabattle": (seabattle.render, seabattle.alt_text),  # type: ignore[dict-item]
    "luzhanqi": (luzhanqi.render, luzhanqi.alt_text),  # type: ignore[dict-item]
    "warships": (warships.render, warships.alt_text),  # type: ignore[dict-item]
    "seachess": (seachess.render, seachess.alt_text),  # type: ignore[dict-item]
    "marine": (marine.render, marine.alt_text),  # type: ignore[dict-item]
}
"""Each game's renderer and alt-text writer, by engine key."""

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
    render, alt = RENDERERS[game.game]
    audience = "public" if view.seat is None else f"seat{view.seat}"
    filename = f"{game.game}-{game.id}-{audience}.png"
    names = names_of(game)
    return Board(render(view, names), filename, alt(view, names)[:MAX_ALT])


def present(notice: Notice) -> Message:
    """The message for one notice: title, what happened, whose turn, and the board."""
    game = notice.game
    header = title(game)
    if notice.audience is None:
        header += fill_names(f" · {name_of(0)} vs {name_of(1)}", game)
    body = "\n".join(fill_names(text, game) for text in notice.texts)
    content = f"{header}\n{body}"[:MAX_CONTENT]
    engine = ENGINES[game.game]
    quick = engine.quick_moves(notice.view) if notice.audience is not None else ()
    return Message(content, render_board(game, notice.view), quick)


def present_all(notices: Sequence[Notice]) -> list[Message]:
    """``present`` every notice of a report.

    Boards render on the event loop itself: measured in ``benchmarks/moves.py``, a
    report's three boards take ~9 ms there, ~12 ms through a worker thread and ~13 ms
    through worker processes (Pillow's drawing holds the GIL, and caches go cold on the
    other core), so a hand-off would only make every move slower.
    """
    return [present(notice) for notice in notices]
