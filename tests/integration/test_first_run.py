"""The `muster` command as a newcomer meets it: bad settings end in two lines naming the setting
(exit status 2, no traceback), help says what each command does and lists every setting, and
the data lives where the server says, wherever it is started from.

Most commands are called in the test's process as the installed script calls them (`muster`,
below); a few run as the script itself, in a process of their own (`run`), to prove it, its
exit status and its traceback end to end.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from app import cli
from app.config import PROJECT_DIR, Settings, get_settings
from app.settings_check import env_names
from tests.helpers.servers import free_port

MUSTER = shutil.which("muster", path=str(Path(sys.executable).parent)) or "muster"


def run(*args: str, cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`muster …` as typed in a shell, with only the settings given here."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("MUSTER_") and k not in ("DATABASE_URL", "LANG", "LC_ALL")}
    return subprocess.run([MUSTER, *args], cwd=cwd, env={**clean, **(env or {})},
                          capture_output=True, text=True, timeout=timeout)


Muster = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def muster(monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> Iterator[Muster]:
    """`muster …` as `run` types it, called in this process as the script calls it (cli.main):
    the same settings read from the same places, the same exit status and output, without a
    second of Python starting with the whole app imported. A server it would start fails the
    test instead of waiting for requests."""

    def serving(*args: object, **kwargs: object) -> None:
        raise AssertionError("muster serve got as far as starting the server")

    def call(*args: str, cwd: Path,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        for name in [name for name in os.environ if name.startswith("MUSTER_")
                     or name in ("DATABASE_URL", "LANG", "LC_ALL")]:
            monkeypatch.delenv(name)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        try:
            status = cli.main(list(args))
        except SystemExit as ended:  # argparse's refusals
            status = ended.code if isinstance(ended.code, int) else 1
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([MUSTER, *args], status, out, err)

    monkeypatch.setattr(uvicorn, "run", serving)
    environment = dict(os.environ)  # serve writes settings there for the workers it starts
    yield call
    os.environ.clear()
    os.environ.update(environment)
    get_settings.cache_clear()


def assert_refused(result: subprocess.CompletedProcess[str], setting: str) -> str:
    said = result.stdout + result.stderr
    assert result.returncode == 2, said
    assert "Traceback" not in said, said
    assert setting in said, said
    assert 1 <= len(said.strip().splitlines()) <= 2, said
    return said


def not_writable(tmp_path: Path) -> Path:
    """A directory no file can be made in (root ignores permission bits; /proc refuses all)."""
    if os.geteuid() == 0:
        return Path("/proc/self")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    return locked


@pytest.mark.parametrize(("env", "setting"), [
    ({"DATABASE_URL": "notaurl"}, "DATABASE_URL"),
    ({"DATABASE_URL": "mysql://muster:pw@db.example.org/muster"}, "DATABASE_URL"),
    ({"DATABASE_URL": "oracle+nosuchdriver://x@y/z"}, "DATABASE_URL"),
    ({"MUSTER_PORT": "abc"}, "MUSTER_PORT"),
    ({"MUSTER_PORT": "70000"}, "MUSTER_PORT"),
    ({"MUSTER_WORKERS": "0"}, "MUSTER_WORKERS"),
    ({"MUSTER_LOG_LEVEL": "loud"}, "MUSTER_LOG_LEVEL"),
    ({"MUSTER_DB_PRE_PING": "maybe"}, "MUSTER_DB_PRE_PING"),
    ({"MUSTER_TRUSTED_PROXIES": "proxy.example"}, "MUSTER_TRUSTED_PROXIES"),
    ({"MUSTER_PUBLIC_URL": "ftp://muster.example"}, "MUSTER_PUBLIC_URL"),
    ({"MUSTER_HOST": "no-such-host.invalid"}, "MUSTER_HOST"),
    ({"MUSTER_DATA_DIR": "/proc/muster"}, "MUSTER_DATA_DIR"),
    ({"MUSTER_DATA_DIR": "/proc"}, "MUSTER_DATA_DIR"),
])
def test_a_bad_setting_is_named_in_two_lines_with_status_2(
        tmp_path: Path, muster: Muster, env: dict[str, str], setting: str) -> None:
    env = {"MUSTER_DATA_DIR": str(tmp_path / "data"), **env}
    said = assert_refused(muster("serve", cwd=tmp_path, env=env), setting)
    assert "accepted" in said
    assert "pw@" not in said  # a URL's password is never shown


def test_a_data_dir_that_is_a_file_is_refused(tmp_path: Path, muster: Muster) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("not a directory")
    assert_refused(muster("serve", cwd=tmp_path, env={"MUSTER_DATA_DIR": str(afile)}),
                   "MUSTER_DATA_DIR")
    assert_refused(muster("migrate", cwd=tmp_path, env={"MUSTER_DATA_DIR": str(afile / "sub")}),
                   "MUSTER_DATA_DIR")


def test_a_database_urls_missing_directory_is_refused_not_created(tmp_path: Path,
                                                                  muster: Muster) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    for command in ("serve", "migrate", "purge"):
        result = muster(command, cwd=tmp_path, env={"DATABASE_URL": f"sqlite:///{missing}/x.db"})
        assert "does not exist" in assert_refused(result, "DATABASE_URL")
    assert not missing.parent.exists()


@pytest.mark.parametrize("case", ["directory", "not sqlite", "unwritable"])
def test_a_database_file_muster_cannot_use_is_refused(tmp_path: Path, muster: Muster,
                                                      case: str) -> None:
    target = tmp_path / "muster.db"
    if case == "directory":
        target.mkdir()
    elif case == "not sqlite":
        target.write_text("my army list, in plain text")
    else:
        target = not_writable(tmp_path) / "muster.db"
    result = muster("migrate", cwd=tmp_path, env={"DATABASE_URL": f"sqlite:///{target}"})
    assert_refused(result, "DATABASE_URL")
    if case == "not sqlite":
        assert target.read_text() == "my army list, in plain text"


def test_an_unwritable_data_dir_is_refused(tmp_path: Path, muster: Muster) -> None:
    locked = not_writable(tmp_path)
    assert_refused(muster("serve", cwd=tmp_path, env={"MUSTER_DATA_DIR": str(locked)}),
                   "MUSTER_DATA_DIR")


def test_a_port_already_taken_is_named(tmp_path: Path, muster: Muster) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        env = {"MUSTER_DATA_DIR": str(tmp_path)}
        said = assert_refused(muster("serve", "--port", port, cwd=tmp_path, env=env), "--port")
        assert "in use" in said
        assert_refused(muster("serve", cwd=tmp_path, env={**env, "MUSTER_PORT": port}),
                       "MUSTER_PORT")


def test_an_unknown_name_in_dot_env_is_refused(tmp_path: Path, muster: Muster) -> None:
    (tmp_path / ".env").write_text(f"MUSTER_DATA_DIR={tmp_path}\nMUSTER_PROT=8080\n")
    said = assert_refused(muster("serve", cwd=tmp_path), "MUSTER_PROT")
    assert ".env" in said


@pytest.mark.parametrize(("encoding", "folder"), [
    ("latin-1", "données"), ("utf-16", "données"), ("cp1251", "данные")])
def test_a_dot_env_that_is_not_utf_8_is_refused_in_two_lines(
        tmp_path: Path, encoding: str, folder: str) -> None:
    (tmp_path / ".env").write_bytes(f"MUSTER_DATA_DIR={tmp_path}/{folder}\n".encode(encoding))
    for command in ("serve", "settings"):
        said = assert_refused(run(command, cwd=tmp_path), ".env")
        assert "UTF-8" in said


def test_a_bad_setting_in_dot_env_is_named_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("MUSTER_PORT=eighty\n")
    assert_refused(run("settings", cwd=tmp_path), "MUSTER_PORT")


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    result = run("--debug", "serve", cwd=tmp_path, env={"DATABASE_URL": "notaurl"})
    assert result.returncode != 0 and "Traceback" in result.stderr


def test_every_command_says_what_it_does(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    top = run("--help", cwd=tmp_path)
    assert top.returncode == 0 and "army builder" in top.stdout
    for command in ("serve", "migrate", "backup", "purge", "settings"):
        assert command in top.stdout
        # Each command's own help from the parser `muster` just ran, without a process each.
        with pytest.raises(SystemExit) as ended:
            cli.main([command, "--help"])
        shown = capsys.readouterr().out
        assert ended.value.code == 0, shown
        # A description beyond the usage line, and where the settings come from.
        assert len(shown.split("\n\n")[1].split()) >= 5, shown
        assert ".env" in shown and "muster settings" in shown


def test_settings_lists_every_setting_with_its_value_and_masks_the_password(
        tmp_path: Path, muster: Muster) -> None:
    url = "postgresql+psycopg://muster:s3cret@db.example.org:5432/muster"
    result = muster("settings", cwd=tmp_path, env={"DATABASE_URL": url, "MUSTER_PORT": "8123"})
    assert result.returncode == 0, result.stderr
    listing = result.stdout
    for name, field in Settings.model_fields.items():
        assert env_names(name, field)[0] in listing, name
    assert "MUSTER_PORT = 8123" in listing and "default 8000" in listing
    assert "s3cret" not in listing and "db.example.org" in listing
    assert ".env" in listing


@pytest.mark.slow
def test_the_default_database_is_the_projects_wherever_muster_starts(tmp_path: Path) -> None:
    expected = PROJECT_DIR / "data" / "muster.db"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for cwd in (tmp_path, elsewhere, Path("/")):
        listing = run("settings", cwd=cwd).stdout
        assert listing == run("settings", cwd=cwd, env={"MUSTER_DATA_DIR": ""}).stdout
        assert f"sqlite:///{expected}" in listing, listing
        # backup looks there too (and only reads it, if a developer's database is there).
        copy = tmp_path / f"copy-{len(cwd.parts)}.db"
        said = run("backup", str(copy), cwd=cwd)
        assert str(expected) in said.stdout + said.stderr


def serve_until_listening(cwd: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("MUSTER_") and k != "DATABASE_URL"}
    server = subprocess.Popen([MUSTER, "serve", "--port", str(port)], cwd=cwd,
                              env={**clean, **env}, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                server.terminate()
                return server, server.communicate(timeout=30)[0]
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    return server, server.communicate()[0]


@pytest.mark.slow
def test_serve_names_the_absolute_sqlite_file_before_it_listens(tmp_path: Path) -> None:
    _, log = serve_until_listening(tmp_path, {"MUSTER_DATA_DIR": "relative/data"})
    database = tmp_path / "relative" / "data" / "muster.db"
    first = log.splitlines()[0]
    assert first == f"muster: data in SQLite file {database}", log
    with sqlite3.connect(database) as connection:  # migrated there, and nowhere else
        assert connection.execute("SELECT version_num FROM alembic_version").fetchone()
    copied = run("backup", str(tmp_path / "copy.db"), cwd=Path("/"),
                 env={"MUSTER_DATA_DIR": str(tmp_path / "relative" / "data")})
    assert copied.returncode == 0 and str(database) in copied.stdout


@pytest.mark.slow
def test_serve_names_postgresqls_host_and_database_never_the_password(tmp_path: Path) -> None:
    # Nothing listens on port 1: the server names where it looks, then fails to migrate.
    url = "postgresql+psycopg://muster:s3cret@127.0.0.1:1/armies"
    result = run("serve", cwd=tmp_path, env={"DATABASE_URL": url})
    said = result.stdout + result.stderr
    assert "PostgreSQL database 'armies' on 127.0.0.1:1" in said.splitlines()[0], said
    assert "s3cret" not in said and result.returncode != 0
