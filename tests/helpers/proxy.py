"""A TCP proxy in front of a database, to cut a server off from it and let it back in.

`cut()` drops every open connection and refuses new ones (as when the database restarts or
the network between them fails); `restore()` listens again on the same port.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class TcpProxy:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._running = threading.Event()

    def start(self) -> int:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        # A timeout lets the accepting thread notice a cut without racing close().
        listener.settimeout(0.1)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._running.set()
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self.port

    def cut(self) -> None:
        self._running.clear()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            doomed = list(self._open)
            self._open.clear()
        for sock in doomed:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def restore(self) -> None:
        self.start()

    @property
    def connections(self) -> int:
        with self._lock:
            return len(self._open) // 2

    def _accept(self, listener: socket.socket) -> None:
        while self._running.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            client.settimeout(None)
            upstream.settimeout(None)
            with self._lock:
                if not self._running.is_set():
                    client.close()
                    upstream.close()
                    return
                self._open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            # The other direction's thread closes `sink`: shutting it down woke that thread.
            source.close()


@contextmanager
def tcp_proxy(target: tuple[str, int]) -> Iterator[TcpProxy]:
    proxy = TcpProxy(target)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.cut()
