"""passing faults on the loopback Discord: injected failures, 429s with Discord's headers.

Rate limits, 5xx answers and passing faults are normal for a bot; tests ask for
them (``fail_next``, ``rate_limits``, ``random_faults``) and the server answers exactly as
Discord does, so discord.py's own retry path runs, and records what fired.
"""

from __future__ import annotations

import math
import re
import time

from aiohttp import web

from .injections import HeldAnswer, InjectedFailure
from .models import JSONDict
from .wire import json_response
from .world import World


class Faults(World):
    """Failures set up by tests, and the 429 a drained rate-limit bucket answers."""

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        json_body: JSONDict | None = None,
        times: int = 1,
        retry_after: float | None = None,
        *,
        is_global: bool = False,
    ) -> InjectedFailure:
        """Make the next ``times`` matching requests fail instead of being served.

        ``path_regex`` is searched in the path below ``/api/v10`` (e.g.
        ``r"^/channels/\\d+/messages$"``); ``method`` may be ``"*"``. For 429 the body
        carries ``retry_after`` and the response has the ``Via``, ``Retry-After`` and
        ``X-RateLimit-*`` headers Discord sends, so discord.py sleeps and retries; without
        ``Via`` it would treat the 429 as a Cloudflare ban and raise.
        """
        failure = InjectedFailure(
            method=method.upper(),
            pattern=re.compile(path_regex),
            status=status,
            body=json_body,
            remaining=times,
            retry_after=retry_after,
            is_global=is_global,
        )
        self._failures.append(failure)
        return failure

    def hold_answer(self, method: str, path_regex: str) -> HeldAnswer:
        """Serve the next matching request, then hold its answer until the test releases
        it: a bot killed meanwhile never learns that Discord did what it asked."""
        held = HeldAnswer(method.upper(), re.compile(path_regex))
        self._held.append(held)
        return held

    async def _hold_if_asked(self, method: str, path: str) -> None:
        for held in self._held:
            if held.matches(method, path):
                self._held.remove(held)
                held.reached.set()
                await held.released.wait()
                return

    def _failure_response(self, failure: InjectedFailure) -> web.Response:
        headers: dict[str, str] = {}
        if failure.status == 429:
            retry_after = failure.retry_after if failure.retry_after is not None else 0.05
            self.retry_due_at = max(self.retry_due_at, time.monotonic() + retry_after)
            body: JSONDict = {
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": failure.is_global,
            }
            if failure.body:
                body.update(failure.body)
            retry_after = float(body["retry_after"])
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, math.ceil(retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": f"fake-{abs(hash(failure.pattern.pattern)):x}",
                "X-RateLimit-Scope": "global" if failure.is_global else "user",
            }
            if failure.is_global:
                headers["X-RateLimit-Global"] = "true"
            return json_response(429, body, headers)
        default_message = {
            500: "500: Internal Server Error",
            502: "502: Bad Gateway",
            503: "503: Service Unavailable",
        }.get(failure.status, f"{failure.status}: injected failure")
        body = failure.body if failure.body is not None else {"message": default_message, "code": 0}
        if failure.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(failure.retry_after)))
        return json_response(failure.status, body, headers)

    def _rate_limited(self, wait: float, headers: dict[str, str]) -> web.Response:
        """A bucket ran dry: 429 with ``retry_after``, as Discord answers a bot that sends
        anyway (discord.py waits it out and retries)."""
        self.retry_due_at = max(self.retry_due_at, time.monotonic() + wait)
        body = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
        return json_response(
            429,
            body,
            {
                **headers,
                "Via": "1.1 google",
                "Retry-After": str(max(1, math.ceil(wait))),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Scope": "user",
            },
        )
