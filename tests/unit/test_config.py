"""Settings read from the environment: MUSTER_PUBLIC_URL is checked and normalised at start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def settings(monkeypatch: pytest.MonkeyPatch, public_url: str) -> Settings:
    monkeypatch.setenv("MUSTER_PUBLIC_URL", public_url)
    return Settings(_env_file=None)  # type: ignore[call-arg]


@pytest.mark.parametrize(("value", "written"), [
    ("", ""),
    ("   ", ""),
    ("https://muster.example", "https://muster.example"),
    ("https://muster.example/", "https://muster.example"),
    ("HTTPS://muster.example:8443/club//", "https://muster.example:8443/club"),
    ("http://[2001:db8::1]:8000/", "http://[2001:db8::1]:8000"),
])
def test_a_public_url_is_written_without_its_final_slash(
        monkeypatch: pytest.MonkeyPatch, value: str, written: str) -> None:
    assert settings(monkeypatch, value).public_url == written


@pytest.mark.parametrize("value", [
    "muster.example",  # no scheme
    "/club",
    "ftp://muster.example",
    "https://",
    "https://muster.example/?ref=1",
    "https://muster.example/#top",
    "https://muster.example/?",
    "https://user:secret@muster.example",
    "https://muster.example:99999",
    "https://muster.example:0",
    "https://muster example",
    "https://muster.example/\x7f",
])
def test_a_bad_public_url_is_refused_naming_the_variable(
        monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(ValidationError, match="MUSTER_PUBLIC_URL: "):
        settings(monkeypatch, value)


def test_the_server_does_not_start_with_a_bad_public_url(tmp_path: Path) -> None:
    env = {**os.environ, "MUSTER_PUBLIC_URL": "muster.example/club",
           "MUSTER_DATA_DIR": str(tmp_path), "MUSTER_PORT": "1", "LANG": "C"}
    env.pop("DATABASE_URL", None)
    env.pop("MUSTER_DATABASE_URL", None)
    finished = subprocess.run([sys.executable, "-m", "app", "serve"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
    assert finished.returncode != 0
    assert "MUSTER_PUBLIC_URL: 'muster.example/club' is not an absolute" in finished.stderr
    assert not (tmp_path / "muster.db").exists()  # stopped before anything was done



def bounds(name: str) -> tuple[float, float]:
    """The range a numeric setting takes, as its field declares it (ge/gt … le/lt)."""
    low = high = None
    for rule in Settings.model_fields[name].metadata:
        for attr in ("ge", "gt"):
            if getattr(rule, attr, None) is not None:
                low = getattr(rule, attr)
        for attr in ("le", "lt"):
            if getattr(rule, attr, None) is not None:
                high = getattr(rule, attr)
    assert low is not None and high is not None, f"{name} takes any number: give it a range"
    return low, high


NUMERIC = [name for name, field in Settings.model_fields.items()
           if field.annotation in (int, float)]


def refusal(monkeypatch: pytest.MonkeyPatch, env: str, value: str) -> str:
    """The two lines `muster` prints for one bad setting (app/settings_check.py)."""
    from app.settings_check import from_validation

    monkeypatch.setenv(env, value)
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    return from_validation(refused.value).lines()


@pytest.mark.parametrize("name", NUMERIC)
def test_every_numeric_setting_is_refused_one_below_and_one_above_its_range(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    low, high = bounds(name)
    step = 1 if Settings.model_fields[name].annotation is int else 0.5
    env = f"MUSTER_{name.upper()}"
    for value in (low - step, high + step):
        written = str(int(value)) if step == 1 else str(value)
        lines = refusal(monkeypatch, env, written)
        assert lines.startswith(f"muster: {env}: "), lines
        assert repr(written) in lines and "accepted:" in lines
    for value in (low if "ge" in str(Settings.model_fields[name].metadata) else low + step, high):
        monkeypatch.setenv(env, str(int(value)) if step == 1 else str(value))
        assert getattr(Settings(_env_file=None), name) == value  # type: ignore[call-arg]


@pytest.mark.parametrize(("env", "value"), [
    ("MUSTER_MAX_BODY_BYTES", "-1"),  # answered every request 413
    ("MUSTER_MAX_BODY_BYTES", "0"),  # refused every POST
    ("MUSTER_MAX_BODY_BYTES", "99999999999999999999999"),  # no limit at all
    ("MUSTER_DB_POOL_TIMEOUT", "inf"),
    ("MUSTER_DB_POOL_TIMEOUT", "nan"),
    ("MUSTER_GRACEFUL_TIMEOUT", "inf"),
    ("MUSTER_DB_BUSY_TIMEOUT_MS", "99999999999999999999"),
    ("MUSTER_LOG_FORMAT", "xml"),
    ("MUSTER_SQLITE_SYNCHRONOUS", "OFF"),
])
def test_the_probes_bad_settings_are_refused_with_a_sentence(
        monkeypatch: pytest.MonkeyPatch, env: str, value: str) -> None:
    lines = refusal(monkeypatch, env, value)
    assert lines.startswith(f"muster: {env}: ") and "accepted: " in lines
    assert "Traceback" not in lines and len(lines.splitlines()) == 2


@pytest.mark.parametrize("value", [
    'https://"><script>alert(1)</script>',
    "https://muster.example/'onload",
    "https://muster.example/a\\b",
    "https://muster.example/`x`",
    "https://muster.example/<b>",
])
def test_a_public_url_that_would_break_out_of_a_link_is_refused(
        monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(ValidationError, match="MUSTER_PUBLIC_URL: .* quote, bracket"):
        settings(monkeypatch, value)


@pytest.mark.parametrize(("proxies", "warned"), [
    ("0.0.0.0/0", True), ("::/0", True), ("10.0.0.0/8, 0.0.0.0/0", True),
    ("10.0.0.0/8", False), ("127.0.0.1", False), ("", False),
])
def test_trusting_every_address_as_a_proxy_starts_with_a_warning(
        proxies: str, warned: bool) -> None:
    from app.settings_check import check_for_serving

    found = check_for_serving(Settings(_env_file=None, trusted_proxies=proxies))  # type: ignore[call-arg]
    assert bool(found) is warned
    if warned:
        assert "MUSTER_TRUSTED_PROXIES" in found[0] and "forge" in found[0]


def test_the_server_does_not_start_with_a_body_limit_below_its_range(tmp_path: Path) -> None:
    env = {**os.environ, "MUSTER_MAX_BODY_BYTES": "-1",
           "MUSTER_DATA_DIR": str(tmp_path), "MUSTER_PORT": "1", "LANG": "C"}
    env.pop("DATABASE_URL", None)
    env.pop("MUSTER_DATABASE_URL", None)
    finished = subprocess.run([sys.executable, "-m", "app", "serve"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
    assert finished.returncode == 2
    assert finished.stderr.startswith("muster: MUSTER_MAX_BODY_BYTES: '-1' is not accepted")
    assert "Traceback" not in finished.stderr
    assert not (tmp_path / "muster.db").exists()


@pytest.mark.parametrize("name", NUMERIC)
def test_the_operations_guide_says_the_range_each_numeric_setting_accepts(name: str) -> None:
    rows = [row for row in (ROOT / "docs" / "operations.md").read_text().splitlines()
            if row.startswith("| ") and f"`MUSTER_{name.upper()}`" in row.split(" | ")[0]]
    low, high = bounds(name)

    def written(number: float) -> str:
        return f"{int(number):,}".replace(",", " ")

    assert len(rows) == 1 and f"{written(high)}" in rows[0]
    assert f"{written(low)}–{written(high)}" in rows[0] or f"more than {written(low)}" in rows[0]


def test_a_postgresql_url_without_its_driver_installed_is_refused_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

    from app.settings_check import SettingError, database_url

    def missing() -> None:
        raise ImportError("No module named 'psycopg'")

    monkeypatch.setattr(PGDialect_psycopg, "import_dbapi", missing)
    url = "postgresql+psycopg://muster:pw@db.example.org/muster"
    with pytest.raises(SettingError) as refused:
        database_url(Settings(_env_file=None, database_url=url))  # type: ignore[call-arg]
    assert refused.value.lines() == ("muster: DATABASE_URL: the driver of 'postgresql+psycopg' "
                                     "is not installed (pip install -e '.[postgres]')")
