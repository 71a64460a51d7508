"""The database: engine from settings, sessions that carry the storage limits, migrations.

SQLite (the default) runs in WAL mode with foreign keys on and a busy timeout. Its transactions
are begun by SQLAlchemy rather than the driver, so that a writing transaction can take the write
lock at once (BEGIN IMMEDIATE): a version check and the write that follows it then cannot be
split by another writer. PostgreSQL needs no such help: its row locks do the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, exc, text
from sqlalchemy.engine import make_url
from sqlmodel import Session

from app.config import Settings

log = logging.getLogger("muster.db")

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
# Execution option a session's connection carries when its transaction is going to write.
WRITER = "muster_writer"
# Any constant: concurrent starters on PostgreSQL queue on this lock instead of racing the DDL.
_MIGRATION_LOCK = 0x6D75737465
# What a request meets when the database is down, cut off, or too busy to hand out a
# connection in time: a passing condition, answered 503 (app/api/health.py), not a bug.
UNAVAILABLE: tuple[type[Exception], ...] = (exc.OperationalError, exc.InterfaceError,
                                            exc.TimeoutError)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(settings: Settings) -> Engine:
    url = make_url(settings.db_url)
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(settings)
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql":
        connect_args["connect_timeout"] = settings.db_connect_timeout
    return create_engine(url, pool_size=settings.db_pool_size,
                         max_overflow=settings.db_max_overflow,
                         pool_timeout=settings.db_pool_timeout,
                         pool_pre_ping=settings.db_pre_ping,
                         pool_recycle=settings.db_recycle_seconds,
                         connect_args=connect_args)


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL, or None for an in-memory database."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_engine(settings: Settings) -> Engine:
    path = sqlite_path(settings.db_url)
    pool: dict[str, Any] = {}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        pool = {"pool_size": settings.db_pool_size, "max_overflow": settings.db_max_overflow,
                "pool_timeout": settings.db_pool_timeout}
    engine = create_engine(settings.db_url, connect_args={"check_same_thread": False}, **pool)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below open transactions, not the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(settings.db_busy_timeout_ms)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {settings.sqlite_synchronous}")
        cursor.execute(f"PRAGMA cache_size = -{int(settings.sqlite_cache_kib)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # A writer takes the write lock at once: two writers that both read first would
        # otherwise deadlock upgrading their read locks (SQLITE_BUSY, not waited for).
        writes = connection.get_execution_options().get(WRITER)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine


def end_open_transaction(session: Session) -> None:
    """A read the caller left open (SQLAlchemy begins one with any statement) would pin an old
    snapshot and, on SQLite, a read lock: it is rolled back, not committed, as every write
    is made in a transaction of its own (`transaction`)."""
    if session.in_transaction():
        session.rollback()


@contextlib.contextmanager
def transaction(session: Session, *, write: bool = False) -> Iterator[None]:
    """One transaction of `session`, committed at the end or rolled back on any error; one the
    caller left open is ended first (end_open_transaction). With `write`, SQLite takes the
    writer's lock at BEGIN (WRITER), so that two writers never deadlock upgrading a read
    lock."""
    end_open_transaction(session)
    if write:
        session.connection(execution_options={WRITER: True})
    elif session.get_bind().dialect.name != "sqlite":
        # Reads here are one statement each (or tolerate a write between two): without a
        # transaction they cost one round trip to the server, not three (BEGIN, the read,
        # COMMIT). SQLite's transactions cost no round trip, and its connections are set up
        # to have SQLAlchemy begin them (see _sqlite_engine).
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


@contextlib.contextmanager
def schema_connection(engine: Engine) -> Iterator[Connection]:
    """A connection to change the schema on: on SQLite with foreign keys off, and on again
    after. Batch migrations rebuild a table, and dropping its old copy with them on would
    cascade: a rebuilt roster table would take every revision and "my rosters" with it. The
    pragma only takes effect outside a transaction, hence on the raw driver connection."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
        try:
            yield connection
        finally:
            if sqlite:
                connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = ON")  # type: ignore[union-attr]


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision` in one transaction, one migrator at a time."""
    with schema_connection(engine) as connection:
        connection.execution_options(**{WRITER: True})
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": _MIGRATION_LOCK})
            command.upgrade(alembic_config(connection), revision)
            if connection.dialect.name == "sqlite":
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"migration left broken foreign keys: {broken[:5]}")


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


@functools.cache
def head_revisions() -> tuple[str, ...]:
    """The revisions this release's migrations lead to (read once: they ship with the code)."""
    return tuple(sorted(ScriptDirectory.from_config(alembic_config()).get_heads()))


@functools.cache
def known_revisions() -> frozenset[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(revision.revision for revision in script.walk_revisions())


@dataclasses.dataclass(frozen=True)
class Readiness:
    backend: str
    reachable: bool
    current: tuple[str, ...]
    head: tuple[str, ...]
    problem: str | None = None

    @property
    def ready(self) -> bool:
        return self.reachable and self.current == self.head


def readiness(engine: Engine) -> Readiness:
    """Can this process serve requests that need the database: reachable and at head?"""
    backend = engine.dialect.name
    head = head_revisions()
    try:
        with engine.connect() as connection:
            current = tuple(sorted(MigrationContext.configure(connection).get_current_heads()))
    except exc.SQLAlchemyError as error:
        return Readiness(backend, False, (), head, first_line(error))
    problem = None
    if not set(current) <= known_revisions():
        # A newer release migrated the database (a rolling upgrade under way): this process's
        # code may not fit the schema any more, so it steps out of the rotation.
        problem = (f"schema at {', '.join(current)}, written by a newer release; this one "
                   f"knows up to {', '.join(head)}: upgrade this server")
    elif current != head:
        problem = (f"schema at {', '.join(current) or 'no revision'}, this release needs "
                   f"{', '.join(head)}: run `muster migrate`")
    return Readiness(backend, True, current, head, problem)


def first_line(error: BaseException) -> str:
    # The driver's message without SQLAlchemy's trailing links and SQL; never the password,
    # which drivers do not repeat.
    original = getattr(error, "orig", None) or error
    text_ = str(original).strip().splitlines()
    return text_[0] if text_ else type(original).__name__


# What the JSON export adds to a stored document (format, ruleset version, time), with room.
EXPORT_ENVELOPE_BYTES = 1024
# The key under which a session carries its StorageLimits (open_session, limits_of).
_LIMITS = "muster_limits"


@dataclasses.dataclass(frozen=True)
class StorageLimits:
    """The bounds the app's settings put on what it stores, built once (`from_settings`) and
    carried by every session the app opens (`open_session`); the services read them there
    (`limits_of`). A session opened without them (a command, a test) stores a document of
    any size and keeps every revision."""

    max_document_bytes: int | None = None  # services.DocumentTooLarge past it
    max_revisions: int = 0  # kept per roster; 0: all
    max_editing_browsers: int = 32  # browsers that may edit one roster
    max_reading_browsers: int = 300  # browsers that keep one roster to read

    @classmethod
    def from_settings(cls, settings: Settings) -> StorageLimits:
        """The largest document stored is one that can be sent back, as read or exported,
        within the request body limit."""
        return cls(max_document_bytes=settings.max_body_bytes - EXPORT_ENVELOPE_BYTES,
                   max_revisions=settings.max_revisions,
                   max_editing_browsers=settings.max_editing_browsers,
                   max_reading_browsers=settings.max_reading_browsers)


def open_session(engine: Engine, limits: StorageLimits) -> Session:
    """A session on `engine` that carries `limits` to the services it is handed to."""
    return Session(engine, expire_on_commit=False, info={_LIMITS: limits})


def limits_of(session: Session) -> StorageLimits:
    """The bounds `session` carries (open_session), or none but the browsers' defaults."""
    limits = session.info.get(_LIMITS)
    return limits if isinstance(limits, StorageLimits) else _NO_LIMITS


_NO_LIMITS = StorageLimits()
