"""`Server-Timing: app;dur=…` on every answer: the server's own time, without the network.

Benchmarks read it to measure what the application costs, apart from the client and loopback.
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class ServerTiming:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed = (time.perf_counter() - started) * 1000
                message["headers"] = [*message.get("headers", []),
                                      (b"server-timing", f"app;dur={elapsed:.2f}".encode())]
            await send(message)

        await self.app(scope, receive, timed)
