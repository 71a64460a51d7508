"""Settings, read once from the environment (prefix MUSTER_, plus DATABASE_URL)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# The most browsers a roster's bounds may allow: far beyond any real roster's, and a number every
# database's integers hold (a bound is an OFFSET in a query; a larger one failed every edit link).
MAX_BROWSERS_PER_ROSTER = 1_000_000
# The project folder (the app is installed in place, beside its templates and migrations): the
# default database lives in its `data` folder, wherever the server is started from.
PROJECT_DIR = Path(__file__).resolve().parent.parent
UNSAFE_IN_ADDRESS = frozenset('"\'<>`\\{}|^')


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MUSTER_", env_file=".env", extra="ignore")

    data_dir: Path = PROJECT_DIR / "data"
    database_url: str = Field(
        default="",
        validation_alias=AliasChoices("DATABASE_URL", "MUSTER_DATABASE_URL"),
        description="SQLAlchemy URL; empty means a SQLite file in data_dir.",
    )
    # Threads that run blocking work (database, drawing) per worker. Each holds at most one
    # database connection, so a pool at least this large never has to open connections under
    # load: opening one per request (SQLite's pragmas, a PostgreSQL backend) costs more than
    # the request itself. Few, because that work is mostly Python, which runs on one core
    # per process whatever the threads: more threads queue for the interpreter lock (an
    # SQLite writer holding its turn while it queues), and the event loop, queueing with them,
    # takes new connections later. Why 4: editing flat out with 16 gives fewer changes per
    # second and a p99 a third longer.
    threads: int = Field(default=4, ge=1, le=200, description="worker threads per process")
    # Storage: connection pool and lock waits.
    db_pool_size: int = Field(default=20, ge=1, le=200)
    db_max_overflow: int = Field(default=10, ge=0, le=100)
    db_pool_timeout: float = Field(default=30.0, gt=0, le=3600, allow_inf_nan=False,
                                   description="pool wait, seconds")
    db_busy_timeout_ms: int = Field(default=5000, ge=0, le=600_000,
                                    description="SQLite: wait for a writer, milliseconds")
    # PostgreSQL: test each connection before use (one round trip per request), or find a
    # broken one when it fails: SQLAlchemy then discards the whole pool, so after a database
    # restart the requests in flight get 503 and the next ones get new connections.
    db_pre_ping: bool = False
    db_recycle_seconds: int = Field(default=1800, ge=1, le=7 * 24 * 3600,
                                    description="reopen older connections")
    db_connect_timeout: int = Field(default=10, ge=1, le=600,
                                    description="PostgreSQL: seconds to connect")
    sqlite_synchronous: Literal["NORMAL", "FULL"] = "FULL"
    # Page cache of each SQLite connection (KiB). The pool keeps up to db_pool_size connections
    # open, and the operating system caches the file for all of them anyway.
    sqlite_cache_kib: int = Field(default=1024, ge=64, le=1024 * 1024)
    migrate_on_start: bool = True
    # A request's body, bytes: under 4 KiB an ordinary change of a unit would be refused; past
    # 64 MiB one request could hold a worker's memory.
    max_body_bytes: int = Field(default=1024 * 1024, ge=4096, le=64 * 1024 * 1024)
    # Revisions kept per roster, the latest (0: all). Every change stores one: without a bound,
    # changing one large roster again and again fills the disk, whatever the creation limit.
    max_revisions: int = Field(default=200, ge=0, le=100_000)
    # Browsers one roster is remembered by (its device rows), the latest-opened: those that may
    # edit it (opened by its edit link) and those that keep it in "my rosters" only to read (a
    # share link opened, a right to edit withdrawn by a new link or by this bound). Past either,
    # the ones that opened it longest ago lose that place. Without them, a script opening the
    # edit link as new browsers, and renewing it, left rows and devices behind without end.
    # app/services/devices.py keeps the same defaults for sessions made without the settings.
    max_editing_browsers: int = Field(default=32, ge=1, le=MAX_BROWSERS_PER_ROSTER)
    max_reading_browsers: int = Field(default=300, ge=1, le=MAX_BROWSERS_PER_ROSTER)
    # Rosters one client address may create per window, counted in the database so that the
    # limit holds across server processes (0: no limit). See app/services/creation_limit.py.
    creation_limit: int = Field(default=60, ge=0, le=1_000_000)
    creation_window_seconds: int = Field(default=600, ge=1, le=7 * 24 * 3600)
    # Addresses or networks of reverse proxies whose X-Forwarded-For is believed, comma-separated
    # ("127.0.0.1, 10.0.0.0/8"). Empty: the peer address is the client.
    trusted_proxies: str = ""
    # The site's public address ("https://muster.example", or with a path the site is served
    # under): every share link, QR code and other absolute address the app writes uses it, so
    # they do not vary with the Host a request names. Empty: the site as each request reached
    # it (scheme and Host). See public_address.
    public_url: str = ""
    secure_cookies: bool = False
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    # Operations (docs/operations.md). One log line per request, plain text or JSON lines.
    log_format: Literal["plain", "json"] = "plain"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    workers: int = Field(default=1, ge=1, le=64, description="processes `muster serve` starts")
    # On SIGTERM the server stops accepting and gives requests in flight this long to finish.
    graceful_timeout: float = Field(default=30.0, gt=0, le=3600, allow_inf_nan=False,
                                    description="seconds")

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _lowercase(cls, value: object) -> object:
        # Operators write INFO or JSON as often as info or json.
        return value.lower() if isinstance(value, str) else value

    @field_validator("data_dir", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        # `MUSTER_DATA_DIR=` would otherwise be ".": whatever directory Muster starts in.
        return PROJECT_DIR / "data" if value == "" else value

    @field_validator("data_dir", mode="after")
    @classmethod
    def _absolute_directory(cls, value: Path) -> Path:
        # A relative MUSTER_DATA_DIR is read once, against the directory Muster starts in, so
        # that every message and `muster backup` name the same absolute file.
        return value.expanduser().absolute()

    @field_validator("public_url", mode="after")
    @classmethod
    def _public_address(cls, value: str) -> str:
        return public_address(value)

    @property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'muster.db'}"


@lru_cache
def get_settings() -> Settings:
    return Settings()


def public_address(value: str) -> str:
    """The `public_url` setting checked and written as the pages write the site's address
    (`https://host[:port][/path]`, no final slash); "" when not set. A value that is not an
    absolute http(s) address, or has a query, a fragment or a user name, is refused naming the
    variable, and the server does not start."""
    text = value.strip()
    if not text:
        return ""
    try:
        parts = urlsplit(text)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        parts, port_ok = None, False
    problem = None
    if parts is None or not port_ok:
        problem = "is not a valid address"
    elif any(ch.isspace() or not ch.isprintable() for ch in text):
        problem = "contains spaces or control characters"
    elif any(ch in UNSAFE_IN_ADDRESS for ch in text):
        # Written into every page and API link: a quote or bracket would break out of them.
        problem = "contains a quote, bracket or backslash"
    elif parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        problem = "is not an absolute http:// or https:// address"
    elif parts.username is not None or parts.password is not None:
        problem = "must not carry a user name or password"
    elif parts.query or parts.fragment or "?" in text or "#" in text:
        problem = "must not have a query (?…) or fragment (#…)"
    if problem is not None:
        raise ValueError(f"MUSTER_PUBLIC_URL: {value!r} {problem} (write the site's address "
                         "as visitors reach it, e.g. 'https://muster.example' or "
                         "'https://example.org/muster')")
    assert parts is not None
    return f"{parts.scheme.lower()}://{parts.netloc}{parts.path.rstrip('/')}"
