"""Structured logs: one JSON object per line, with the game id as a field of its own.

An operator can then follow one game (``jq 'select(.game_id == 12)'``) or count faults
without parsing sentences. Log texts name ids and plies, never a move or a board, and the
token is masked in any line that would carry it, whatever library wrote the line.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

FIELDS = ("game_id", "challenge_id", "user_id", "ply")
"""Context fields a record may carry (``extra=``); each becomes a key of the line."""


def fields(game_id: int, **more: int) -> dict[str, Any]:
    """``extra=`` for a log call about one game."""
    return {"game_id": game_id, **more}


class JsonFormatter(logging.Formatter):
    """Formats a record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


class Redactor(logging.Filter):
    """Masks a secret (the token) in a record's text, arguments and traceback."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secret:
            text = record.getMessage()
            if self.secret in text:
                record.msg, record.args = text.replace(self.secret, "[token]"), None
            if record.exc_info and record.exc_info[1] is not None:
                formatted = logging.Formatter().formatException(record.exc_info)
                if self.secret in formatted:
                    record.exc_info = None
                    record.exc_text = formatted.replace(self.secret, "[token]")
        return True


OWN_LOGGERS = "referee"
"""The bot's own loggers (``referee.*``): the only ones whose DEBUG lines are written."""
LIBRARY_LOGGERS = ("discord", "aiohttp", "websockets")
"""Libraries that log what they send and receive (a DM's text: a move, a ship's place)
at DEBUG; they are held at INFO whatever ``LOG_LEVEL`` says."""


class OwnDebugOnly(logging.Filter):
    """Lets lines below INFO through only from the bot's own loggers.

    Holding the library loggers at INFO already stops their DEBUG lines; this catches any
    other library that would log a payload at DEBUG.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        name = record.name
        return record.levelno >= logging.INFO or name.split(".")[0] == OWN_LOGGERS


def setup(level: str, secret: str = "") -> None:
    """Log ``level`` and above to standard error as JSON lines, with ``secret`` masked.

    Below INFO only the bot's own lines are written: libraries log whole gateway events
    and HTTP bodies there, and those carry the players' moves.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(Redactor(secret))
    handler.addFilter(OwnDebugOnly())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level))
    for name in LIBRARY_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, root.level))
