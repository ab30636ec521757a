"""Structured logs: JSON lines with the game id as a field, and the token always masked."""

from __future__ import annotations

import json
import logging

from bot.logs import JsonFormatter, Redactor, fields

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
