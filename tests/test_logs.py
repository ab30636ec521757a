"""Structured logs: JSON lines with the game id as a field, and the token always masked."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from bot.logs import JsonFormatter, Redactor, fields, setup

TOKEN = "MTIz.secret-token.abc"


def record(
    message: str, *args: object, exc: BaseException | None = None, **extra: object
) -> logging.LogRecord:
    made = logging.LogRecord(
        "referee.test",
        logging.ERROR,
        __file__,
        1,
        message,
        args,
        (type(exc), exc, None) if exc else None,
    )
    for key, value in extra.items():
        setattr(made, key, value)
    return made


def line(made: logging.LogRecord) -> dict[str, object]:
    assert Redactor(TOKEN).filter(made)
    text = JsonFormatter().format(made)
    assert "\n" not in text
    return json.loads(text)  # type: ignore[no-any-return]


def test_a_line_is_one_json_object_with_the_game_as_a_field() -> None:
    logged = line(record("game %s: ply %d", 12, 7, **fields(12, ply=7)))
    assert logged["message"] == "game 12: ply 7"
    assert (logged["game_id"], logged["ply"], logged["level"]) == (12, 7, "ERROR")
    assert "user_id" not in logged


def test_the_token_is_masked_in_messages_and_tracebacks() -> None:
    try:
        raise RuntimeError(f"refused: {TOKEN}")
    except RuntimeError as error:
        logged = line(record("sending with %s", TOKEN, exc=error))
    assert TOKEN not in json.dumps(logged)
    assert logged["message"] == "sending with [token]"
    assert "refused: [token]" in str(logged["error"])


LIBRARY_LOGGERS = ("discord", "discord.gateway", "discord.http", "discord.client", "aiohttp")


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """``logs.setup`` changes process-wide logging: put it back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in (*LIBRARY_LOGGERS, "websockets")}
    yield
    root.handlers[:], root.level = handlers, level
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)


@pytest.mark.usefixtures("restored_logging")
def test_debug_logs_never_carry_what_the_libraries_receive(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """discord.py logs every gateway event (a DM's text: a move, a ship's place) and HTTP
    body at DEBUG; with ``LOG_LEVEL=DEBUG`` only the bot's own lines go below INFO."""
    setup("DEBUG", secret=TOKEN)
    for name in (*LIBRARY_LOGGERS, "aiohttp.client", "websockets.client"):
        logging.getLogger(name).debug("event from %s: DM content 'A1 A4'", name)
    logging.getLogger("discord.gateway").info("connected to the gateway")
    logging.getLogger("referee.test").debug("game 3: ply 4")
    logged = [json.loads(text) for text in capsys.readouterr().err.splitlines()]
    assert [entry["message"] for entry in logged] == ["connected to the gateway", "game 3: ply 4"]
