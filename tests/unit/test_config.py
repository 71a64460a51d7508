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

