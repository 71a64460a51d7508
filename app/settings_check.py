"""Settings checked before a command uses them, and listed for `muster settings`.

A bad setting must end in one or two lines naming it, what is wrong and what is accepted (exit
status 2, see app/cli.py), not in a traceback from pydantic, SQLAlchemy or a driver deep inside.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import tempfile
import typing
from pathlib import Path

import annotated_types
from dotenv import dotenv_values
from pydantic import AliasChoices, ValidationError
from pydantic.fields import FieldInfo
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from app.config import Settings, get_settings

ENV_FILE = ".env"
URL_ACCEPTED = ("empty (a SQLite file in MUSTER_DATA_DIR), sqlite:////absolute/path/muster.db, "
                "or postgresql+psycopg://user:password@host:5432/database")
# What a text setting takes, where its type alone says too little.
WORDED = {
    "database_url": URL_ACCEPTED,
    "port": "a TCP port, a whole number from 1 to 65535",
    "host": "an address or host name to listen on, e.g. 127.0.0.1 or 0.0.0.0",
    "public_url": "empty, or the site's absolute http(s) address, e.g. https://muster.example",
    "trusted_proxies": "empty, or IP addresses or networks, comma-separated",
}
# SQLite's file header; an empty file is a new SQLite database too.
SQLITE_MAGIC = b"SQLite format 3\x00"


class SettingError(Exception):
    """A setting Muster cannot run with: its name, what is wrong, what is accepted."""

    def __init__(self, setting: str, problem: str, accepted: str = "") -> None:
        super().__init__(f"{setting}: {problem}")
        self.setting, self.problem, self.accepted = setting, problem, accepted

    def lines(self) -> str:
        text = f"muster: {self.setting}: {self.problem}"
        return text + (f"\n  accepted: {self.accepted}" if self.accepted else "")


def env_names(name: str, field: FieldInfo) -> list[str]:
    """The environment variables a field is read from, the first being its documented one."""
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        return [str(choice).upper() for choice in alias.choices if str(choice).isupper()]
    prefix = str(Settings.model_config.get("env_prefix", ""))
    return [f"{prefix}{name}".upper()]


def accepted(field: FieldInfo, name: str = "") -> str:
    """What a field takes, worded from its type and bounds."""
    if name in WORDED:
        return WORDED[name]
    kind = field.annotation
    if typing.get_origin(kind) is typing.Literal:
        return "one of " + ", ".join(str(choice) for choice in typing.get_args(kind))
    if kind is bool:
        return "true or false (also 1/0, yes/no, on/off)"
    if kind is Path:
        return "a directory path (created if missing)"
    words = {int: "a whole number", float: "a number"}.get(kind)  # type: ignore[call-overload]
    if words is None:
        return field.description or "text"
    bounds = {annotated_types.Ge: "at least", annotated_types.Gt: "more than",
              annotated_types.Le: "at most", annotated_types.Lt: "less than"}
    for rule in field.metadata:
        for kind_of_bound, phrase in bounds.items():
            if isinstance(rule, kind_of_bound):
                words += f", {phrase} {getattr(rule, kind_of_bound.__name__.lower())}"
    return words + (f" ({field.description})" if field.description else "")


def _field_of(location: object) -> tuple[str, FieldInfo] | None:
    for name, field in Settings.model_fields.items():
        if location == name or str(location).upper() in env_names(name, field):
            return name, field
    return None


def _mask(text: str) -> str:
    """A URL's password hidden, even in a URL SQLAlchemy cannot read."""
    return re.sub(r"(//[^/@:]*:)[^/@]*@", r"\1***@", text)


def from_validation(error: ValidationError) -> SettingError:
    """pydantic's refusal of the environment, as the first refused setting's two lines."""
    first = error.errors()[0]
    found = _field_of(first["loc"][0] if first["loc"] else "")
    if found is None:
        return SettingError(str(first["loc"]), first["msg"])
    name, field = found
    setting = env_names(name, field)[0]
    message = str(first["msg"]).removeprefix("Value error, ")
    # Validators of ours name the variable and the value already.
    own = re.sub(rf"^{setting}(: | )", "", message)
    if own == message:
        own = f"{_mask(str(first.get('input', '')))!r} is not accepted: {message}"
    return SettingError(setting, own, accepted(field, name))


def check_env_file(path: Path = Path(ENV_FILE)) -> None:
    """`.env` must be UTF-8 text (a file saved as Latin-1 or UTF-16 would end in a traceback),
    and every name in it a setting: a misspelt one would otherwise be ignored."""
    if not path.is_file():
        return
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise SettingError(str(path.absolute()), f"not UTF-8 text (byte {error.start})",
                           "a file of NAME=value lines saved as UTF-8") from error
    except OSError as error:
        raise SettingError(str(path.absolute()), f"cannot be read: {error.strerror}",
                           "a file Muster may read") from error
    known = {env for name, field in Settings.model_fields.items()
             for env in env_names(name, field)}
    for key in dotenv_values(path):
        if key.upper() not in known:
            raise SettingError(key, f"unknown setting in {path.absolute()}",
                               "the names `muster settings` lists")


def load() -> Settings:
    """The settings, checked; SettingError for the first one Muster cannot use."""
    check_env_file()
    get_settings.cache_clear()
    try:
        return get_settings()
    except ValidationError as error:
        raise from_validation(error) from error


def database_url(settings: Settings) -> URL:
    """The database URL, checked: readable, a supported database, its driver installed."""
    try:
        url = make_url(settings.db_url)
    except ArgumentError as error:
        raise SettingError("DATABASE_URL", f"{_mask(settings.db_url)!r} is not a database URL",
                           URL_ACCEPTED) from error
    backend = url.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise SettingError("DATABASE_URL", f"the {backend!r} database is not supported",
                           URL_ACCEPTED)
    try:
        url.get_dialect().import_dbapi()
    except (ImportError, NoSuchModuleError) as error:
        extra = " (pip install -e '.[postgres]')" if backend == "postgresql" else ""
        raise SettingError("DATABASE_URL",
                           f"the driver of {url.drivername!r} is not installed{extra}") from error
    return url


def sqlite_file(settings: Settings, url: URL) -> Path | None:
    """The SQLite file, absolute, or None for an in-memory database."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).absolute()


def describe(settings: Settings) -> str:
    """Where the data is, for people: the SQLite file, or PostgreSQL's host and database."""
    url = database_url(settings)
    path = sqlite_file(settings, url)
    if url.get_backend_name() == "sqlite":
        return f"SQLite file {path}" if path else "SQLite in memory (lost when the server stops)"
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    return f"PostgreSQL database {url.database!r} on {where} as {url.username or '(default user)'}"


def check_database(settings: Settings, *, create: bool) -> None:
    """The database can be used: for SQLite, its directory is there (the default one, from
    MUSTER_DATA_DIR, is made if `create`; a DATABASE_URL's never is) and writable, and the file,
    if any, is a SQLite database."""
    url = database_url(settings)
    path = sqlite_file(settings, url)
    if path is None:
        return
    setting = "DATABASE_URL" if settings.database_url else "MUSTER_DATA_DIR"
    directory = path.parent
    if directory.exists() and not directory.is_dir():
        raise SettingError(setting, f"{directory} is a file, not a directory",
                           "a directory for the database")
    if not directory.exists():
        if settings.database_url or not create:
            raise SettingError(setting, f"the directory {directory} does not exist",
                               "a path in an existing directory (Muster does not create it)")
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SettingError(setting, f"cannot create {directory}: {error.strerror}",
                               "a directory Muster may create and write in") from error
    _check_file(path, setting)
    _check_writable(directory, setting)


def _check_file(path: Path, setting: str) -> None:
    if path.is_dir():
        raise SettingError(setting, f"the database {path} is a directory",
                           "a file path such as …/muster.db")
    if not path.exists():
        return
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise SettingError(setting, f"cannot read {path}: {error.strerror}",
                           "a SQLite file Muster may read and write") from error
    if head and head != SQLITE_MAGIC:
        raise SettingError(setting, f"{path} is not a SQLite database",
                           "a SQLite database file, or a path where no file is yet")
    if not os.access(path, os.R_OK | os.W_OK):
        raise SettingError(setting, f"{path} is not writable",
                           "a SQLite file Muster may read and write")


def _check_writable(directory: Path, setting: str) -> None:
    # SQLite writes its -wal and -shm files beside the database: the directory must take files.
    # Tried, not asked of os.access, which says yes to root even on a read-only file system.
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".muster-probe-"):
            pass
    except OSError as error:
        raise SettingError(setting, f"cannot write in {directory}: {error.strerror}",
                           "a directory Muster may write in") from error


def check_for_serving(settings: Settings) -> list[str]:
    """What only the running app would refuse, refused before it starts; the warnings of what
    it would run with but an operator should know."""
    from app.services.creation_limit import trusted_proxies

    try:
        proxies = trusted_proxies(settings.trusted_proxies)
    except ValueError as error:
        message = str(error).removeprefix("MUSTER_TRUSTED_PROXIES: ")
        raise SettingError("MUSTER_TRUSTED_PROXIES", message,
                           WORDED["trusted_proxies"]) from error
    everyone = [entry for entry in proxies
                if ipaddress.ip_network(entry, strict=False).prefixlen == 0]
    if everyone:
        return [f"muster: warning: MUSTER_TRUSTED_PROXIES {', '.join(everyone)} trusts every "
                "address: any client may then forge its address in X-Forwarded-For, and so "
                "escape the creation limit"]
    return []


def check_listen(host: str, port: int, *, flags: bool = False) -> None:
    """The address can be listened on: a name that resolves, a port not taken (uvicorn would
    log the failure among its start-up lines and exit with status 1)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError) as error:
        raise SettingError("--host" if flags else "MUSTER_HOST",
                           f"{host!r} cannot be listened on: {error}", WORDED["host"]) from error
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as error:
            raise SettingError("--port" if flags else "MUSTER_PORT",
                               f"cannot listen on {host}:{port}: {error.strerror}",
                               "a port free on this machine") from error


def table(settings: Settings) -> str:
    """Every setting: its variable, current value (secrets masked), default and what it takes,
    from the model's own fields."""
    env_file = Path(ENV_FILE).absolute()
    found = "read" if env_file.is_file() else "none there"
    lines = [f"Settings come from environment variables, then from {env_file} ({found}).", ""]
    for name, field in Settings.model_fields.items():
        names = env_names(name, field)
        current, default = getattr(settings, name), field.default
        if name == "database_url":
            current = _mask(settings.db_url) + ("" if current else "  (from MUSTER_DATA_DIR)")
        also = f" (also {', '.join(names[1:])})" if names[1:] else ""
        lines.append(f"{names[0]}{also} = {current}")
        shown = default if default != "" else "empty"
        lines.append(f"    default {shown}; {accepted(field, name)}")
    return "\n".join(lines)
