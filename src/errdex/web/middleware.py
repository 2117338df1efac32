"""ASGI wrappers around the app: body limits, HEAD requests and errors that would escape.

Each is a plain ASGI callable so it sees the raw request and the response's start
before anything else does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CatchErrors", "DeclaredBodyLimit", "HeadAsGet"]

log = logging.getLogger("errdex.web")


class DeclaredBodyLimit:
    """Refuse a body whose ``Content-Length`` is over the limit before anything reads it.

    The routes' own ``max_body_size`` also stops chunked bodies while they stream in, but
    answers a declared length with plain text; this answers as the rest of the site does.
    """

    def __init__(self, app: ASGIApp, limit: int, refuse: Callable[[Request], Response]) -> None:
        self.app, self.limit, self.refuse = app, limit, refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            for key, value in scope["headers"]:
                if key == b"content-length" and value.isdigit() and int(value) > self.limit:
                    request = Request(scope, receive)
                    await self.refuse(request)(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class HeadAsGet:
    """Answer ``HEAD`` wherever ``GET`` is answered: the same status and headers, no body.

    FastAPI's routes declare GET only, so without this every page said 405 to ``HEAD``
    (link checkers and ``curl -I`` use it).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class CatchErrors:
    """Turn an exception no handler took into a 500 answer, and let it go no further.

    Starlette's own last-resort handler sends its answer and then re-raises, so the
    server closes the connection after every 500: a client reusing that keep-alive
    connection for its next request got a reset. Here the 500 is a normal response
    on a connection that stays usable; only an error after the response has started
    (a broken stream) still ends the connection, as it must.
    """

    def __init__(self, app: ASGIApp, answer: Callable[[Request], Response]) -> None:
        self.app, self.answer = app, answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            if started:
                raise
            log.exception("error serving %s", scope.get("path"))
            await self.answer(Request(scope, receive))(scope, receive, send)
