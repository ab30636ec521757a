"""A loopback stand-in for the part of Discord's v10 REST API the bot uses.

Tests must exercise discord.py's real HTTP client, webhook adapter and model parsing, so
the only thing replaced is Discord itself: :class:`FakeDiscord` is an aiohttp server on
127.0.0.1 that answers the same routes with the same JSON shapes, enforces the limits that
commonly bite bots in production (2000-character content, 25 autocomplete choices, closed
DMs, double interaction acknowledgements...) and records everything the bot sent so tests
can assert on it.

The server also owns the "world" (users, guilds, channels, messages) so the gateway side in
:mod:`tests.support.discord.driver` can build payloads that agree with what REST returns.

The server is put together from one module per concern: the records it keeps
(:mod:`.models`), its world of users and channels (:mod:`.world`), messages and Discord's
limits on them (:mod:`.messages`, :mod:`.validation`), the routes (:mod:`.app_routes`,
:mod:`.channel_routes`, :mod:`.interaction_routes`), and passing faults (:mod:`.faults`).
This module starts it, and routes every request through one place.
"""

from __future__ import annotations

import json
import re
import socket
import time
import traceback
from typing import Any

from aiohttp import web

from .app_routes import AppRoutes
from .channel_routes import ChannelRoutes
from .faults import Faults
from .gateway import FakeGateway
from .gateway_protocol import GATEWAY_PATH
from .injections import FiredFailure, InjectedFailure, RequestRecord
from .interaction_routes import InteractionRoutes
from .models import (
    API_PREFIX,
    EPHEMERAL,
    LOADING,
    ChannelInfo,
    InteractionState,
    Sent,
    SnowflakeGenerator,
    StoredAttachment,
    StoredMessage,
)
from .models import DM as DM
from .models import snowflake_iso as snowflake_iso
from .models import user_payload as user_payload
from .wire import ApiError, Handler, Route, json_response, route_pattern

__all__ = [
    "API_PREFIX",
    "EPHEMERAL",
    "LOADING",
    "ChannelInfo",
    "FakeDiscord",
    "FiredFailure",
    "InjectedFailure",
    "InteractionState",
    "RequestRecord",
    "Sent",
    "SnowflakeGenerator",
    "StoredAttachment",
    "StoredMessage",
]


SHUTDOWN_SECONDS = 1.0
"""How long a stopping loopback Discord lets requests in flight finish."""


class FakeDiscord(AppRoutes, ChannelRoutes, InteractionRoutes, Faults):
    """Discord's REST API on a random 127.0.0.1 port, with a recording of everything sent.

    Start with ``await server.start()`` (or ``async with``), then point
    ``discord.http.Route.BASE`` at :attr:`api_base`. The driver does this for you.
    """

    def __init__(self, *, bot_name: str = "Test Bot", owner_name: str = "app-owner") -> None:
        super().__init__(bot_name=bot_name, owner_name=owner_name)
        self._runner: web.AppRunner | None = None
        self._api_routes: list[Route] = []
        self._cdn_routes: list[Route] = []
        self._install_routes()
        self.gateway = FakeGateway(self)
        """The websocket side: READY, heartbeats, resume, and every event the bot receives."""

    async def start(self) -> None:
        """Bind a free loopback port and start serving."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        # A request still held when the loopback Discord stops (a test that stopped the bot
        # mid-request) is one the stopped bot never hears answered: waiting aiohttp's
        # default minute for it would only slow the test down.
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_SECONDS
        )
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()

    async def stop(self) -> None:
        """Stop serving and release the port."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def running(self) -> bool:
        """Whether the server is currently accepting requests."""
        return self._runner is not None

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.url}{API_PREFIX}"

    def _install_routes(self) -> None:
        api: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("POST", "/channels/{channel_id}/messages", self._create_channel_message),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_channel_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}",
                self._delete_channel_message,
            ),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._add_reaction,
            ),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._remove_reaction,
            ),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup_create),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message}", self._webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message}", self._webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message}", self._webhook_delete),
        ]
        # Interaction callbacks and webhooks are authenticated by their token, not the bot's.
        self._api_routes = [
            Route(
                method,
                route_pattern(template),
                handler,
                auth=not template.startswith(("/interactions/", "/webhooks/")),
                template=f"{method} {template}",
            )
            for method, template, handler in api
        ]
        cdn: list[tuple[str, str, Handler]] = [
            ("GET", "/attachments/{channel_id}/{attachment_id}/{name}", self._cdn_attachment),
            ("GET", "/embed/avatars/{name}", self._cdn_png),
            ("GET", "/avatars/{user_id}/{name}", self._cdn_png),
        ]
        self._cdn_routes = [Route(m, route_pattern(t), h, auth=False) for m, t, h in cdn]

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        """Route a request; every path funnels through here so faults and logs are uniform."""
        self.last_request_at = time.monotonic()
        body = await json_body(request)
        full_path = request.path
        if full_path.startswith(API_PREFIX + "/"):
            path = full_path[len(API_PREFIX) :]
            routes = self._api_routes
        else:
            path = full_path
            routes = self._cdn_routes

        def log(status: int, *, injected: bool = False) -> None:
            self.requests.append(RequestRecord(request.method, path, status, injected, body))

        fault = self._injected_fault(request.method, path, api=routes is self._api_routes)
        if fault is not None:
            log(fault.status, injected=True)
            return self._failure_response(fault)
        method_mismatch = False
        for route in routes:
            match = route.pattern.fullmatch(path)
            if match is None:
                continue
            if route.method != request.method:
                method_mismatch = True
                continue
            limited: dict[str, str] = {}
            if self.rate_limits is not None:
                wait, limited = self.rate_limits.check(
                    route.template, match.groupdict(), time.monotonic()
                )
                if wait is not None:
                    log(429)
                    return self._rate_limited(wait, limited)
            response = await self._serve(route, request, match.groupdict(), limited, path)
            if response is None:  # the client went away mid-request: nobody reads an answer
                log(499)
                return json_response(400, {"code": 0, "message": "client gone"})
            log(response.status)
            return response

        self.unhandled.append(f"{request.method} {full_path}")
        status = 405 if method_mismatch else 404
        message = "405: Method Not Allowed" if method_mismatch else "unknown route"
        log(status)
        return json_response(status, {"code": 0, "message": message})

    def _injected_fault(self, method: str, path: str, *, api: bool) -> InjectedFailure | None:
        """The failure a test set up or the passing faults brings for this request, if any, counted
        as fired; the passing faults only touches the REST API, not the CDN."""
        for failure in self._failures:
            if failure.matches(method, path):
                failure.remaining -= 1
                self.fired_failures.append(FiredFailure(method, path, failure.status))
                return failure
        if self.random_faults is not None and api:
            fault = self.random_faults.fault(method, path)
            if fault is not None:
                status, retry_after = fault
                self.fired_failures.append(FiredFailure(method, path, status))
                return InjectedFailure(method, re.compile(""), status, None, 1, retry_after or None)
        return None

    async def _serve(
        self,
        route: Route,
        request: web.Request,
        arguments: dict[str, str],
        limited: dict[str, str],
        path: str,
    ) -> web.StreamResponse | None:
        """One matched route's answer, None if the client went away (a killed bot); a fault
        in the fake itself is recorded and answered 400."""
        try:
            if route.auth and not request.headers.get("Authorization", "").startswith("Bot "):
                raise ApiError(401, 0, "401: Unauthorized")
            response = await route.handler(request, **arguments)
            response.headers.update(limited)
            if response.status < 400:
                await self._hold_if_asked(request.method, path)
        except ApiError as error:
            response = json_response(error.status, error.body())
        except ConnectionResetError:
            return None
        except Exception:
            # A bug in the fake must fail the test loudly, but a 5xx would make
            # discord.py retry for seconds first, so answer 400 and record it.
            self.internal_errors.append(
                f"{request.method} {request.path}\n{traceback.format_exc()}"
            )
            response = json_response(400, {"code": 0, "message": "fake discord internal error"})
        return response


async def json_body(request: web.Request) -> Any:
    """A request's JSON body as sent (None for none, or for a form with files, whose
    ``payload_json`` the message log keeps), so tests can read every call in full."""
    if request.content_type != "application/json" or not request.can_read_body:
        return None
    try:
        return json.loads(await request.read())
    except (ValueError, OSError):  # not JSON, or the client went away while sending it
        return None
