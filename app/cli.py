"""The `muster` command: serve, migrate, backup, purge, settings."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from app import settings_check
from app.config import get_settings
from app.domain.base import Lang
from app.domain.translations import tr

DESCRIPTION = """Muster: an army builder and points calculator for Chainmail and other
historical miniature wargames, served as a web site. `muster serve` starts it."""
SETTINGS_NOTE = """Settings are environment variables (MUSTER_..., DATABASE_URL), also read from
.env in the current directory; `muster settings` lists them all with their values. A bad
setting stops the command with a message naming it (exit status 2)."""


def _lang() -> Lang:
    """The operator's language: Russian when LC_ALL (or LANG) asks for it."""
    language = os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return "ru" if language.lower().startswith("ru") else "en"


def say(message: str, *, error: bool = False) -> None:
    # Flushed: `serve` goes on running, and its log must show this line before the server's.
    print(message, file=sys.stderr if error else sys.stdout, flush=True)


def serve(args: argparse.Namespace) -> int:
    """Migrate once, then start the workers: each is a separate process holding nothing a
    request needs (that lives in cookies and the database), so any of them may answer."""
    import uvicorn

    from app.http.observability import uvicorn_log_config

    if args.log_level:
        os.environ["MUSTER_LOG_LEVEL"] = args.log_level
    settings = settings_check.load()
    settings_check.check_database(settings, create=True)
    for warning in settings_check.check_for_serving(settings):
        say(warning, error=True)
    settings_check.check_listen(args.host or settings.host, args.port or settings.port,
                                flags=bool(args.host or args.port))
    say(tr(_lang(), "muster: data in %(where)s", where=settings_check.describe(settings)))
    if settings.migrate_on_start:
        status = _migrate_to("head")
        if status:
            return status
        # Done here once, before the workers start; they need not queue to find nothing to do.
        os.environ["MUSTER_MIGRATE_ON_START"] = "false"
        get_settings.cache_clear()
    # No proxy headers here: the app reads X-Forwarded-For itself, and only from the proxies
    # MUSTER_TRUSTED_PROXIES names (uvicorn would trust 127.0.0.1 by default).

    uvicorn.run("app.asgi:app", host=args.host or settings.host, port=args.port or settings.port,
                workers=args.workers or settings.workers, proxy_headers=False,
                log_level=settings.log_level, log_config=uvicorn_log_config(settings),
                access_log=False, timeout_graceful_shutdown=settings.graceful_timeout)
    return 0


def migrate(args: argparse.Namespace) -> int:
    settings_check.check_database(settings_check.load(), create=True)
    return _migrate_to(args.revision)


def _migrate_to(revision: str) -> int:
    from alembic.util import CommandError
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from app.storage import db

    settings = get_settings()
    where = make_url(settings.db_url).render_as_string(hide_password=True)
    engine = db.make_engine(settings)
    try:
        db.migrate(engine, revision)
        reached = db.current_revision(engine)
    except (CommandError, SQLAlchemyError) as error:
        say(tr(_lang(), "%(where)s: migration failed: %(error)s", where=where, error=error),
            error=True)
        return 1
    finally:
        engine.dispose()
    say(tr(_lang(), "%(where)s: schema at revision %(reached)s", where=where, reached=reached))
    return 0


def purge(args: argparse.Namespace) -> int:
    from sqlmodel import Session

    from app.services import rosters
    from app.services.stored_rosters import RESTORE_DAYS
    from app.storage import db

    settings = settings_check.load()
    settings_check.check_database(settings, create=True)
    engine = db.make_engine(settings)
    try:
        db.migrate(engine)
        with Session(engine) as session:
            gone = rosters.purge_deleted(session)
    finally:
        engine.dispose()
    days = RESTORE_DAYS
    say(tr(_lang(), "purged %(gone)s rosters deleted more than %(days)s days ago", gone=gone,
           days=days))
    return 0


def backup(args: argparse.Namespace) -> int:
    """Copy the live SQLite database with SQLite's online backup API (safe while serving)."""
    from sqlalchemy.engine import make_url

    from app.storage import db

    settings = settings_check.load()
    settings_check.database_url(settings)
    if not db.is_sqlite(settings.db_url):
        # pg_dump speaks libpq URLs: no "+driver" part.
        libpq = make_url(settings.db_url).set(drivername="postgresql")
        dump = (f"pg_dump --format=custom --file=muster.dump "
                f"'{libpq.render_as_string(hide_password=True)}'")
        say(tr(_lang(), "backup copies a SQLite database; for PostgreSQL use pg_dump, e.g. "
               "`%(dump)s`", dump=dump), error=True)
        return 2
    source = db.sqlite_path(settings.db_url)
    source = source.absolute() if source is not None else None
    if source is None or not source.is_file():
        say(tr(_lang(), "no database file at %(source)s: nothing to back up", source=source),
            error=True)
        return 1
    target = Path(args.path)
    if target.is_dir():
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        target = target / f"muster-{stamp}.db"
    if target.exists():
        say(tr(_lang(), "%(target)s exists; choose a new file name", target=target), error=True)
        return 1
    if not target.parent.is_dir():
        say(tr(_lang(), "no directory %(parent)s", parent=target.parent), error=True)
        return 1
    # Written beside the target and renamed at the end: no half-written backup under its name.
    partial = target.with_name(target.name + ".partial")
    try:
        with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(partial)) as copy:
            live.execute(f"PRAGMA busy_timeout = {settings.db_busy_timeout_ms}")
            live.backup(copy)
            verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"integrity_check: {verdict}")
        partial.replace(target)
    except (OSError, sqlite3.Error) as error:
        partial.unlink(missing_ok=True)
        say(tr(_lang(), "backup failed: %(error)s", error=error), error=True)
        return 1
    say(tr(_lang(), "backed up %(source)s to %(target)s", source=source, target=target))
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def show_settings(args: argparse.Namespace) -> int:
    listing = settings_check.table(settings_check.load())
    try:
        print(listing, flush=True)
    except BrokenPipeError:
        # `muster settings | head`: the reader has all it wanted.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes stdout at exit
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="muster", description=DESCRIPTION, epilog=SETTINGS_NOTE)
    parser.add_argument("--debug", action="store_true",
                        help="on a bad setting, show the traceback too")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=summary, description=description,
                                   epilog=SETTINGS_NOTE)

    p = command("serve", "start the web server", "Apply pending migrations, print where the "
                "data is, then serve on MUSTER_HOST:MUSTER_PORT until Ctrl+C or SIGTERM, "
                "finishing the requests in flight.")
    p.add_argument("--host", default=None, help="default: MUSTER_HOST or 127.0.0.1")
    p.add_argument("--port", type=_positive, default=None, help="default: MUSTER_PORT or 8000")
    p.add_argument("--workers", type=_positive, default=None,
                   help="worker processes (default: MUSTER_WORKERS or 1)")
    p.add_argument("--log-level", default=None, choices=["debug", "info", "warning", "error"],
                   help="default: MUSTER_LOG_LEVEL or info")
    p.set_defaults(func=serve)
    p = command("migrate", "apply pending database migrations", "Bring the database's schema "
                "to this release without starting the server (`serve` does it on start too).")
    p.add_argument("--revision", default="head", help="target revision (default: head)")
    p.set_defaults(func=migrate)
    p = command("backup", "copy the SQLite database", "Copy the live SQLite database with "
                "SQLite's online backup API, safe while the server runs, checked, and written "
                "under its name only when complete. For PostgreSQL it prints the pg_dump "
                "command to use.")
    p.add_argument("path", help="the backup file to write, or a directory for a dated file")
    p.set_defaults(func=backup)
    p = command("purge", "remove deleted rosters for good", "Remove rosters deleted more than "
                "30 days ago, with their history (`serve` does it on start too).")
    p.set_defaults(func=purge)
    p = command("settings", "list every setting", "Print each setting's environment "
                "variable, current value (passwords masked), default and what it accepts.")
    p.set_defaults(func=show_settings)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args))
    except settings_check.SettingError as error:
        if args.debug:
            raise
        print(error.lines(), file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
