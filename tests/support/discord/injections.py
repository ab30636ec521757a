"""What a test injects into the loopback Discord's request path (a failure, an answer held
back) and what the server keeps of each request it served, to prove the retry path ran.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from .models import JSONDict


def _aims_at(method: str, pattern: re.Pattern[str], request_method: str, path: str) -> bool:
    """Whether a request is the one a test aimed at; the method ``*`` stands for any."""
    return method in ("*", request_method.upper()) and pattern.search(path) is not None


@dataclass
class InjectedFailure:
    """A pending fault set up by :meth:`FakeDiscord.fail_next`."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: JSONDict | None
    remaining: int
    retry_after: float | None
    is_global: bool = False

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request; ``*`` matches any method."""
        return self.remaining > 0 and _aims_at(self.method, self.pattern, method, path)


@dataclass
class HeldAnswer:
    """A request served but its answer held back (:meth:`FakeDiscord.hold_answer`): the
    moment between Discord doing what the bot asked and the bot hearing that it did."""

    method: str
    pattern: re.Pattern[str]
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once a matching request was served and its answer is held."""
    released: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by the test to let the answer go (to a bot that may be dead by then)."""

    def matches(self, method: str, path: str) -> bool:
        return not self.reached.is_set() and _aims_at(self.method, self.pattern, method, path)


@dataclass
class FiredFailure:
    """A fault that was actually served, so tests can prove the retry path ran."""

    method: str
    path: str
    status: int


@dataclass
class RequestRecord:
    """Every request the bot made, for debugging failing tests."""

    method: str
    path: str
    status: int
    injected: bool = False
    body: Any = None
    """The JSON body, if the request sent one (``server.json_body``)."""
