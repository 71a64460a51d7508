"""The container image, without a Docker engine: the Dockerfile's install and start steps are
scripts, and here they run on a fresh virtual environment over exactly the files the Dockerfile
copies — so a file the app needs at run time and the image leaves out fails this test.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml

from tests.helpers.documents import army
from tests.helpers.servers import PROJECT, free_port

DOCKERFILE = PROJECT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    joined = DOCKERFILE.read_text().replace("\\\n", " ")
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def healthcheck_command() -> str:
    """The shell command of the Dockerfile's HEALTHCHECK (after its options)."""
    check = next(arguments for keyword, arguments in instructions() if keyword == "HEALTHCHECK")
    return check.split(" CMD ", 1)[1]


def build_context(target: Path) -> None:
    """Lay out WORKDIR as the image has it: each COPY's sources from the project."""
    for keyword, arguments in instructions():
        if keyword != "COPY":
            continue
        *sources, destination = [a for a in shlex.split(arguments) if not a.startswith("--")]
        for source in sources:
            origin = PROJECT / source
            into = target / destination
            if destination.endswith("/") or len(sources) > 1:
                into = into / origin.name
            into.parent.mkdir(parents=True, exist_ok=True)
            if origin.is_dir():
                shutil.copytree(origin, into, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.pyc", "*.egg-info"))
            else:
                shutil.copy2(origin, into)


def test_the_image_is_slim_runs_the_scripts_as_a_non_root_user_and_checks_healthz() -> None:
    steps = instructions()
    kinds = [keyword for keyword, _ in steps]
    assert steps[0] == ("FROM", "python:3.11-slim")
    runs = [arguments for keyword, arguments in steps if keyword == "RUN"]
    assert "sh scripts/install.sh" in runs
    assert not any("pip" in run for run in runs), "installing is scripts/install.sh's job"
    assert steps[-1] == ("CMD", '["sh", "scripts/start.sh"]')
    user = [arguments for keyword, arguments in steps if keyword == "USER"]
    assert user and user[-1] not in ("root", "0")
    assert kinds.index("USER") > kinds.index("RUN") and kinds.index("USER") < kinds.index("CMD")
    health = " ".join(arguments for keyword, arguments in steps if keyword == "HEALTHCHECK")
    assert "/healthz" in health
    env = " ".join(arguments for keyword, arguments in steps if keyword == "ENV")
    assert "MUSTER_DATA_DIR=/data" in env
    assert ("VOLUME", '["/data"]') in steps and ("EXPOSE", "8000") in steps


def test_compose_runs_muster_on_its_postgresql_service() -> None:
    compose = yaml.safe_load((PROJECT / "compose.yaml").read_text())
    web, db = compose["services"]["web"], compose["services"]["db"]
    url = web["environment"]["DATABASE_URL"]
    credentials = db["environment"]
    assert url == (f"postgresql+psycopg://{credentials['POSTGRES_USER']}:"
                   f"{credentials['POSTGRES_PASSWORD']}@db:5432/{credentials['POSTGRES_DB']}")
    assert web["depends_on"]["db"]["condition"] == "service_healthy"
    assert web["build"] == "."


@pytest.mark.slow
def test_the_install_and_start_scripts_serve_the_whole_app_from_a_fresh_virtualenv(
        tmp_path: Path) -> None:
    context, venv, data = tmp_path / "image", tmp_path / "venv", tmp_path / "data"
    build_context(context)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items()
           if k != "DATABASE_URL" and not k.startswith(("MUSTER_", "VIRTUAL_ENV", "PYTHON"))}
    installed = subprocess.run(["sh", str(context / "scripts" / "install.sh")],
                               env={**env, "PYTHON": str(python)}, capture_output=True,
                               text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    where = subprocess.run([str(python), "-c", "import app.main; print(app.main.__file__)"],
                           capture_output=True, text=True, check=True, cwd=venv)
    assert Path(where.stdout.strip()).is_relative_to(context), "runs the copied files"
    subprocess.run([str(python), "-c", "import psycopg"], check=True)  # the postgres extra
    tools = subprocess.run([str(python), "-m", "pip", "show", "pytest"], capture_output=True)
    assert tools.returncode != 0, "no test tools in the image"

    port = free_port()
    run_env = {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               "MUSTER_HOST": "127.0.0.1", "MUSTER_PORT": str(port),
               "MUSTER_DATA_DIR": str(data)}
    log = tmp_path / "start.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(["sh", "scripts/start.sh"], cwd=context, env=run_env,
                                  stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text(errors="replace")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=30) as http:
            ready = http.get("/readyz")
            assert ready.status_code == 200 and ready.json()["migrations"]["at_head"], ready.text
            # Templates and compiled Russian translations were copied and are found.
            home = http.get("/", headers={"Accept-Language": "ru"})
            assert home.status_code == 200 and "Новая армия" in home.text
            for asset in ("/static/css/app.css", "/static/htmx.min.js"):
                assert http.get(asset).status_code == 200, asset
            created = http.post("/api/v1/rosters", json=army())
            assert created.status_code == 201, created.text
            sheet = http.get(f"/r/{created.json()['id']}")
            assert sheet.status_code == 200
        # The SQLite database lives in MUSTER_DATA_DIR, the image's volume.
        assert (data / "muster.db").is_file()
        # The image's own health check passes on the running server.
        check = subprocess.run(["sh", "-c", healthcheck_command()], env=run_env, timeout=30,
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        # `exec` in start.sh: SIGTERM reaches the server itself, which stops cleanly (uvicorn
        # then re-raises the signal, so the exit status may say SIGTERM rather than 0).
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) in (0, -signal.SIGTERM)
        assert "Application shutdown complete" in log.read_text(errors="replace")
        down = subprocess.run(["sh", "-c", healthcheck_command()], env=run_env, timeout=30,
                              capture_output=True)
        assert down.returncode != 0, "the health check notices a stopped server"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
