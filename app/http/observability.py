"""Logs an operator can follow across processes: one line per request, with a request id.

Every answer carries an `X-Request-ID`: the caller's own when it sent a sane one (a load
balancer's or another service's id, so one request can be traced through every hop), otherwise
a new random one. Each log line written while the request is handled carries the same id, so
the access line and any error logged on the way can be matched. Lines are plain text for people
or JSON (one object a line) for log collectors, chosen by MUSTER_LOG_FORMAT.

Only the path is logged, never the query string: edit links carry their key there.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings

REQUEST_ID_HEADER = "X-Request-ID"
# Enough for UUIDs, hex digests and the ids proxies generate; nothing that could forge a line.
_SANE_ID = re.compile(r"[A-Za-z0-9._~:/+=@-]{1,128}")
_current_id: ContextVar[str | None] = ContextVar("muster_request_id", default=None)
ACCESS = logging.getLogger("muster.access")
# nginx's status for a client that closed the connection before it was answered.
CLIENT_CLOSED = 499
# Controls, spaces and separators of every kind, and "%" itself (so an escape reads back).
_UNSAFE = re.compile(r"[\x00-\x20\x7f-\xa0%\u1680\u2000-\u200f\u2028-\u202f"
                     r"\u205f-\u206f\u3000\ufeff]")
_HANDLER_NAME = "muster"
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def escaped(field: str) -> str:
    """A request's text as one field of a plain log line: no line break to forge a line with,
    no terminal escape, no space to shift the fields; those written as %XX (a path as sent)."""
    return _UNSAFE.sub(lambda found: "".join(f"%{byte:02X}" for byte in
                                             found.group().encode()), field)


def current_request_id() -> str | None:
    """The id of the request being handled here, or None outside a request."""
    return _current_id.get()


def request_id_from(header: str | None) -> str:
    """The caller's id when it is sane, else a new one: ids end up in logs and answers."""
    if header is not None and _SANE_ID.fullmatch(header):
        return header
    return os.urandom(16).hex()  # as random as uuid4's 32 hex digits, without building a UUID


class RequestLog:
    """ASGI middleware: give the request an id, echo it with the server's time, and log one
    line when it is answered."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = None
        for name, value in scope.get("headers") or []:
            if name == b"x-request-id":
                incoming = value.decode("latin-1")
                break
        rid = request_id_from(incoming)
        scope.setdefault("state", {})["request_id"] = rid
        token = _current_id.set(rid)
        status = 0
        failed = False
        started = time.perf_counter()

        async def answer(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                # Server-Timing: the application's own time, which benchmarks read apart from
                # the network and the client.
                so_far = (time.perf_counter() - started) * 1000
                message["headers"] = [*message.get("headers", []),
                                      (b"x-request-id", rid.encode("ascii")),
                                      (b"server-timing", f"app;dur={so_far:.2f}".encode())]
            await send(message)

        try:
            await self.app(scope, receive, answer)
        except ClientDisconnect:
            # The client left before it was answered: no one to answer, nothing went wrong.
            status = status or CLIENT_CLOSED
        except BaseException:
            # The server answers an unhandled error with 500 after this middleware gives up.
            status = status or 500
            failed = True
            raise
        finally:
            if ACCESS.isEnabledFor(logging.INFO):  # the line's fields are built only if written
                _log_access(scope, status, (time.perf_counter() - started) * 1000)
            if not failed:
                # Left set after an unhandled error: the server logs its traceback once this
                # middleware has given up, in the same task, and that line carries the id too.
                _current_id.reset(token)


def _log_access(scope: Scope, status: int, elapsed_ms: float) -> None:
    client = scope.get("client")
    fields = {"method": scope.get("method", ""), "path": scope.get("path", ""),
              "status": status, "duration_ms": round(elapsed_ms, 2),
              "client": client[0] if client else None}
    ACCESS.info("%s %s %s %.1fms", escaped(fields["method"]), escaped(fields["path"]),
                status, elapsed_ms, extra={"http": fields})


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _current_id.get()
        return True


def _timestamp(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class PlainFormatter(logging.Formatter):
    """`2025-05-01T12:00:00.123Z INFO muster.access [id] GET /r/x 200 3.1ms`"""

    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None)
        line = (f"{_timestamp(record)} {record.levelname} {record.name} "
                f"{'[' + rid + '] ' if rid else ''}{record.getMessage()}")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line; a request's fields (method, path, status…) at the top level."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {"time": _timestamp(record), "level": record.levelname,
                                 "logger": record.name, "message": record.getMessage()}
        rid = getattr(record, "request_id", None)
        if rid:
            entry["request_id"] = rid
        http = getattr(record, "http", None)
        if isinstance(http, dict):
            entry.update(http)
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        # JSON leaves these unescaped, but readers that split on Unicode line boundaries
        # (str.splitlines, many log shippers) would cut the record there.
        return json.dumps(entry, ensure_ascii=False, default=str).translate(_LINE_BREAKS)


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to sys.stderr as it is when a line is written, not as it was when configured
    (whoever replaced it since, a test runner's capture included, gets the line)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


FORMATTERS: dict[str, type[logging.Formatter]] = {"plain": PlainFormatter,
                                                  "json": JsonFormatter}


def configure_logging(settings: Settings) -> None:
    """Send the app's own loggers (`muster.*`) to standard error in the chosen format.

    Idempotent: an app built again (tests build many) replaces the handler rather than
    adding a second one that would print every line twice.
    """
    logger = logging.getLogger("muster")
    for handler in [h for h in logger.handlers if h.get_name() == _HANDLER_NAME]:
        logger.removeHandler(handler)
    handler = _StderrHandler()
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(FORMATTERS[settings.log_format]())
    handler.addFilter(_RequestIdFilter())
    logger.addHandler(handler)
    logger.setLevel(settings.log_level.upper())


def uvicorn_log_config(settings: Settings) -> dict[str, Any]:
    """uvicorn's own lines (start, stop, errors) in the same format; its access log is off,
    since RequestLog writes a richer one."""
    formatter = f"{__name__}.{FORMATTERS[settings.log_format].__name__}"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"muster": {"()": formatter}},
        "filters": {"request_id": {"()": f"{__name__}._RequestIdFilter"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                                "formatter": "muster", "filters": ["request_id"]}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": settings.log_level.upper(),
                        "propagate": False},
            "uvicorn.error": {"level": settings.log_level.upper()},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
