"""Request body size limit, enforced as the body arrives: no more than the limit (plus one
chunk) is ever held, and the app sees the body only when it is within the limit."""

from __future__ import annotations

import json

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.http.errors import refusal_body


class BodySizeLimit:
    """Answer 413 when a body is over `max_bytes`, whether declared or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = chunked = None
        for name, value in scope.get("headers") or []:
            if name == b"content-length":
                declared = value
            elif name == b"transfer-encoding":
                chunked = value
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        if declared is None and chunked is None:
            # No body (RFC 9112, 6.3): nothing to count, as for most GETs.
            await self.app(scope, receive, send)
            return
        # Read the body here rather than failing inside the app's own receive: FastAPI turns
        # any error raised while it reads the body into "400 error parsing the body", which
        # would hide the 413 from a client that streams without a Content-Length.
        received: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                # Gone before its body was all sent: nothing to do and no one to answer
                # (app.http.observability logs it as 499).
                raise ClientDisconnect()
            received.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            if received:
                return received.pop(0)
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(refusal_body(f"request body over {self.max_bytes} bytes")).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
