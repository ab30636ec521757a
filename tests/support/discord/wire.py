"""How the loopback Discord speaks HTTP: route patterns, JSON answers and Discord's errors.

discord.py is picky about the details (the exact content type, the nested shape of a
50035 form error), so every answer the server gives is made here, the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .models import JSONDict

Handler = Callable[..., Awaitable[web.StreamResponse]]


@dataclass
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool
    template: str = ""


class ApiError(Exception):
    """Raised by handlers to answer with a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: JSONDict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSONDict:
        data: JSONDict = {"message": self.message, "code": self.code}
        if self.errors is not None:
            data["errors"] = self.errors
        return data


def form_error(path: list[str | int], code: str, message: str) -> ApiError:
    """A 50035 "Invalid Form Body" error in the nested shape discord.py flattens."""
    errors: JSONDict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {str(key): errors}
    return ApiError(400, 50035, "Invalid Form Body", errors)


PLACEHOLDERS = {
    "token": r"[^/]+",
    "emoji": r"[^/]+",
    "name": r"[^/]+",
    "message": r"@original|\d+",
}


def route_pattern(template: str) -> re.Pattern[str]:
    """Turn ``/channels/{channel_id}`` into a regex; ids are snowflakes unless listed above."""

    def group(match: re.Match[str]) -> str:
        name = match.group(1)
        pattern = PLACEHOLDERS.get(name, r"\d+")
        return f"(?P<{name}>{pattern})"

    return re.compile(re.sub(r"\{(\w+)\}", group, template))


def json_response(status: int, data: Any, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with the exact ``application/json`` content type.

    discord.py only decodes bodies whose content-type is exactly ``application/json``;
    aiohttp's ``json_response`` would append a charset and make every body look like text.
    """
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    return web.Response(status=status, body=json.dumps(data).encode(), headers=all_headers)


def empty_response() -> web.Response:
    """204 No Content, as Discord answers deletes and typing."""
    return web.Response(status=204)
