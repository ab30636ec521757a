"""Discord's passing faults for the loopback server: per-route rate limits and passing faults.

:class:`RateLimits` counts requests per bucket (a route and its major parameter, as
Discord does) and answers with the ``X-RateLimit-*`` headers real Discord sends, so that
discord.py waits before a bucket runs dry, and with a 429 and ``retry_after`` when a
client sends anyway. :class:`RandomFaults` injects 429s and 5xx answers at random, seeded, on
the routes a bot uses while games are played.
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field

__all__ = ["DISCORD_LIMITS", "Limit", "RandomFaults", "RateLimits"]


@dataclass(frozen=True)
class Limit:
    """``requests`` per ``per`` seconds in one bucket."""

    requests: int
    per: float


DISCORD_LIMITS: dict[str, Limit] = {
    "POST /channels/{channel_id}/messages": Limit(5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": Limit(5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": Limit(5, 1.0),
    "GET /channels/{channel_id}/messages": Limit(5, 5.0),
    "POST /users/@me/channels": Limit(5, 1.0),
    "POST /webhooks/{app_id}/{token}": Limit(5, 2.0),
    "PATCH /webhooks/{app_id}/{token}/messages/{message}": Limit(5, 2.0),
}
"""The limits Discord answers bots with for the routes this bot uses (its documented
5 messages per 5 seconds per channel, edits counted alike); other routes get ``DEFAULT``.
Interaction callbacks have no bucket, as on Discord."""

DEFAULT = Limit(10, 1.0)
GLOBAL = Limit(50, 1.0)
"""Every bot may make 50 requests a second in all."""

_MAJOR = ("channel_id", "guild_id", "token")


@dataclass
class _Bucket:
    limit: Limit
    window_start: float = 0.0
    used: int = 0

    def take(self, now: float) -> float | None:
        """Count a request; None if allowed, else the seconds until the window resets."""
        if now - self.window_start >= self.limit.per:
            self.window_start, self.used = now, 0
        if self.used >= self.limit.requests:
            return self.window_start + self.limit.per - now
        self.used += 1
        return None

    def headers(self, now: float, name: str) -> dict[str, str]:
        reset_after = max(0.0, self.window_start + self.limit.per - now)
        return {
            "X-RateLimit-Limit": str(self.limit.requests),
            "X-RateLimit-Remaining": str(max(0, self.limit.requests - self.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": name,
        }


@dataclass
class RateLimits:
    """Per-route buckets with Discord's headers; off unless a test turns them on."""

    limits: dict[str, Limit] = field(default_factory=lambda: dict(DISCORD_LIMITS))
    default: Limit = DEFAULT
    global_limit: Limit = GLOBAL
    refused: int = 0
    """How many requests were answered 429 because a bucket was empty."""
    _buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)
    _global: _Bucket | None = None

    def check(
        self, template: str, params: dict[str, str], now: float
    ) -> tuple[float | None, dict[str, str]]:
        """Count a request to ``template``: (seconds to wait if refused, headers to send)."""
        if template.startswith("POST /interactions/"):
            return None, {}
        if self._global is None:
            self._global = _Bucket(self.global_limit)
        major = next((params[k] for k in _MAJOR if k in params), "")
        key = (template, major)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.limits.get(template, self.default))
        name = f"{abs(hash(template)):x}"
        wait = self._global.take(now)
        if wait is None:
            wait = bucket.take(now)
        if wait is not None:
            self.refused += 1
        return wait, bucket.headers(now, name)


@dataclass
class RandomFaults:
    """Seeded passing faults: a 429 or a 5xx answer to some requests on play routes."""

    seed: int = 0
    rate_limited: float = 0.03
    """Share of requests answered 429 (with a short ``retry_after``)."""
    server_error: float = 0.03
    """Share of requests answered 500, 502 or 503."""
    routes: re.Pattern[str] = re.compile(
        r"^/(channels/\d+/messages|users/@me/channels|interactions/|webhooks/)"
    )
    fired: dict[int, int] = field(default_factory=dict)
    """How many of each status were injected."""
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def fault(self, method: str, path: str) -> tuple[int, float] | None:
        """(status, retry_after) to answer instead of serving, or None to serve."""
        if self.routes.search(path) is None:
            return None
        roll = self._rng.random()
        if roll < self.rate_limited:
            status, retry_after = 429, round(self._rng.uniform(0.05, 0.4), 3)
        elif roll < self.rate_limited + self.server_error:
            status, retry_after = self._rng.choice((500, 502, 503, 503)), 0.0
        else:
            return None
        self.fired[status] = self.fired.get(status, 0) + 1
        return status, retry_after

    @staticmethod
    def retry_header(retry_after: float) -> str:
        return str(max(1, math.ceil(retry_after)))
