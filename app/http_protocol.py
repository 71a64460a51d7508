"""uvicorn's httptools protocol with a bound on a request's head (request line and headers).

httptools keeps a request's head in memory until it is complete, however long: four
connections sending a megabyte of headers a line took a worker from 183 MB to 1.2 GB in a
second, with no key and nothing finished. (uvicorn's h11 protocol has a bound, but is pure
Python and slower.) `muster serve` runs this protocol: a head over MAX_HEAD_BYTES is answered
431 and its connection closed. Behind a proxy, the proxy's own bound (nginx: 8 KB a line) comes
first; this one is for a server that faces clients itself.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

# Far above any browser's head (cookies included, a few KB), far below what hurts a worker.
MAX_HEAD_BYTES = 64 * 1024


class BoundedHead(HttpToolsProtocol):
    """Counts the bytes that arrive while a request's head is being read (from the end of the
    previous request to the end of this one's headers); a body is not counted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._refuse_head()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head_bytes = True, 0  # the next request's head, on keep-alive

    def _refuse_head(self) -> None:
        if self.transport.is_closing():
            return
        cycle = getattr(self, "cycle", None)
        if cycle is not None and not cycle.response_complete:
            # A request before this one is still being answered: no answer may cut into its.
            self.transport.close()
            return
        message = f"request head over {MAX_HEAD_BYTES} bytes".encode("ascii")
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(message)).encode("ascii") + b"\r\n"
            b"connection: close\r\n\r\n" + message)
        self.transport.close()
