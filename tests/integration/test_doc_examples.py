"""The README's and docs' examples, run as written against a real server, so they cannot go stale.

Every `curl` command in a ```sh block of README.md and docs/*.md is run by the shell, in order,
on a real uvicorn over a temp SQLite file (the address `http://127.0.0.1:8000` swapped for its
own; `$ID` and `$KEY` are the last answer's `id` and `edit_key`, `$GAME` and `$JOIN` the last
game started and its `join_key`). When a ```json block follows, it is the answer the docs show
for the block's last command: every field shown must be in the real answer with that value
("…" stands for any value, and a list must be as long). Without one, each command must be
answered below 400.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.helpers.servers import PROJECT, Server, running_server

SHOWN_SERVER = "http://127.0.0.1:8000"
DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
# A status line on stderr, so that output redirected to a file (`> army.json`) stays as shown.
CURL_WITH_STATUS = "curl() { command curl -w '%{stderr}%{http_code}\\n' \"$@\"; }\n"


def fences(path: Path) -> list[tuple[str, str]]:
    return [(token.info.strip(), token.content)
            for token in MarkdownIt().parse(path.read_text(encoding="utf-8"))
            if token.type == "fence"]


def curl_commands(block: str) -> list[str]:
    """The block's curl commands, each with its continuation lines and quoted line breaks."""
    commands, current = [], ""
    for line in block.splitlines():
        if not current and not line.startswith("curl "):
            continue
        current += line + "\n"
        try:
            shlex.split(current)
        except ValueError:  # a quote still open: the command goes on
            continue
        if not line.rstrip().endswith("\\"):
            commands.append(current)
            current = ""
    return commands


def examples(path: Path) -> Iterator[tuple[list[str], object | None]]:
    """Each block's curl commands, with the answer shown after it (or None)."""
    blocks = fences(path)
    for index, (info, content) in enumerate(blocks):
        commands = curl_commands(content) if info == "sh" else []
        if commands:
            following = blocks[index + 1] if index + 1 < len(blocks) else ("", "")
            yield commands, json.loads(following[1]) if following[0] == "json" else None


def matches(shown: object, real: object) -> bool:
    if shown == "…":
        return True
    if isinstance(shown, dict):
        return isinstance(real, dict) and all(
            key in real and matches(value, real[key]) for key, value in shown.items())
    if isinstance(shown, list):
        return (isinstance(real, list) and len(shown) == len(real)
                and all(matches(a, b) for a, b in zip(shown, real, strict=True)))
    return shown == real


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    place = tmp_path_factory.mktemp("doc-examples")
    with running_server(None, place, data_dir=place) as running:
        yield running


def run_curl(command: str, server: Server, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    script = CURL_WITH_STATUS + command.replace(SHOWN_SERVER, server.url)
    done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, f"{command}\n{done.stderr}"
    status = int(done.stderr.strip().splitlines()[-1])
    body = done.stdout
    if " -si " in command or " -i " in command:
        body = re.split(r"\r?\n\r?\n", body, maxsplit=1)[-1]
    return status, body


@pytest.mark.slow
@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_the_examples_answer_as_shown(document: Path, server: Server, tmp_path: Path) -> None:
    env = {**os.environ, "ID": "none-yet", "KEY": "none-yet"}
    for commands, shown in examples(document):
        for command in commands:
            status, body = run_curl(command, server, tmp_path, env)
            try:
                answer = json.loads(body)
            except ValueError:
                answer = None
            if isinstance(answer, dict) and {"id", "edit_key"} <= answer.keys():
                env["ID"], env["KEY"] = answer["id"], answer["edit_key"]
            if isinstance(answer, dict) and {"id", "join_key"} <= answer.keys():
                env["GAME"], env["JOIN"] = answer["id"], answer["join_key"]
            if shown is None:
                assert status < 400, f"{document.name}: {command}\n{status} {body[:500]}"
        if shown is not None:
            assert matches(shown, answer), (f"{document.name}: {commands[-1]}\nshown: {shown}"
                                            f"\nreal: {body[:2000]}")


def test_the_docs_have_examples_that_are_checked() -> None:
    # The checker must find what it checks: a rename of the fences would silently check nothing.
    shown = {path.name: list(examples(path)) for path in DOCUMENTS}
    assert sum(1 for _, answer in shown["api.md"] if answer is not None) >= 3
    assert any("/readyz" in command for path in shown for commands, answer in shown[path]
               if answer is not None for command in commands)


def test_a_stale_answer_would_be_caught() -> None:
    real = {"migrations": {"current": ["0004"], "head": ["0004"], "at_head": True}}
    assert matches({"migrations": {"current": ["0004"]}}, real)
    assert not matches({"migrations": {"current": ["0003"]}}, real)
    assert not matches({"issues": ["…"]}, {"issues": []})


def first_screen_commands() -> list[str]:
    return [content.strip() for info, content in fences(PROJECT / "README.md")[:2]
            if info == "sh"]


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    serve, test = first_screen_commands()
    assert serve.endswith("muster serve") and test.endswith("pytest")
    assert f"{test} || exit 1" in (PROJECT / ".ci" / "run").read_text().splitlines()


def test_the_first_screen_commands_refuse_an_older_python_in_one_line(tmp_path: Path) -> None:
    """A `python3` that says it is 3.10: the commands stop at once, saying why."""
    shim = tmp_path / "bin" / "python3"
    shim.parent.mkdir()
    pretend = "import sys; sys.version_info = (3, 10, 14); sys.version = '3.10.14'; "
    shim.write_text(f'#!/bin/sh\n[ "$1" = -c ] || exec {sys.executable} "$@"\n'
                    f'exec {sys.executable} -c "{pretend}exec(sys.argv[1])" "$2"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    for command in first_screen_commands():
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode != 0
        assert done.stderr.strip().splitlines() == [done.stderr.strip()], done.stderr
        assert "3.11" in done.stderr and "3.10.14" in done.stderr
        assert not (tmp_path / ".venv").exists()


def test_every_setting_the_docs_name_exists() -> None:
    from app.config import Settings
    from app.settings_check import env_names

    known = {env for name, field in Settings.model_fields.items()
             for env in env_names(name, field)}
    for path in DOCUMENTS:
        named = set(re.findall(r"\bMUSTER_[A-Z_]+[A-Z]\b", path.read_text(encoding="utf-8")))
        # The test suite's own variables are not settings of the app.
        named = {n for n in named if not n.startswith(("MUSTER_TEST_", "MUSTER_REQUIRE_"))}
        assert named <= known, f"{path.name} names no such setting: {named - known}"
