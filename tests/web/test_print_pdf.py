"""The army sheet on paper: a real server, headless Chromium printing to PDF, poppler reading it.

These tests skip where Chromium (tests/conftest.py's `chromium`) or poppler is missing, unless
MUSTER_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.databases import sqlite_url
from tests.helpers.servers import Server, running_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TOOLS = ("chromium", "pdftotext", "pdfinfo")


@pytest.fixture(scope="module")
def tools(chromium: str) -> dict[str, str]:
    found = {"chromium": chromium, "pdftotext": shutil.which("pdftotext") or "",
             "pdfinfo": shutil.which("pdfinfo") or ""}
    missing = [name for name in TOOLS if not found[name]]
    if missing:
        message = (f"{', '.join(missing)} not found: install the Debian packages `chromium` and "
                   "`poppler-utils` to print army sheets to PDF in tests")
        if os.environ.get("MUSTER_REQUIRE_BROWSER") == "1":
            pytest.fail(f"MUSTER_REQUIRE_BROWSER=1 but {message}", pytrace=False)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def server(tools: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("print-server")
    with running_server(sqlite_url(directory), directory) as started:
        yield started


def store(server: Server, document: dict[str, Any]) -> str:
    answer = httpx.post(f"{server.url}/api/v1/rosters", json=document, timeout=10)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def print_to_pdf(tools: dict[str, str], url: str, out: Path) -> tuple[str, int, str]:
    """Print `url` as Chromium's print dialog would; return the PDF's text, pages and size."""
    profile = out.parent / f"profile-{out.stem}"
    subprocess.run(
        [tools["chromium"], "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-dev-shm-usage", "--no-first-run", "--no-pdf-header-footer",
         f"--user-data-dir={profile}", f"--print-to-pdf={out}", url],
        check=True, capture_output=True, timeout=90)
    text = subprocess.run([tools["pdftotext"], str(out), "-"], check=True,
                          capture_output=True, timeout=30).stdout.decode("utf-8")
    text = " ".join(text.split())  # a table cell may wrap its words onto several lines
    info = subprocess.run([tools["pdfinfo"], str(out)], check=True, capture_output=True,
                          timeout=30).stdout.decode("utf-8")
    pages = re.search(r"^Pages:\s+(\d+)", info, flags=re.MULTILINE)
    size = re.search(r"^Page size:\s+(.*)$", info, flags=re.MULTILINE)
    assert pages is not None and size is not None, info
    return text, int(pages.group(1)), size.group(1)


def army(*units: dict[str, Any], nation: str = "generic") -> dict[str, Any]:
    return {"name": "Sheet test", "ruleset": "chainmail", "nation": nation, "points_limit": 2000,
            "units": list(units), "engines": []}


def unit(name: str, troop: str = "heavy_foot", figures: int = 20, weapon: str = "polearm",
         mercenary: bool = False, flags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"name": name, "mercenary": mercenary, "flags": list(flags),
            "lines": [{"troop": troop, "figures": figures, "weapon": weapon}]}


def test_a_mercenary_rosters_sheet_prints_the_mercenary_table(
        server: Server, tools: dict[str, str], tmp_path: Path) -> None:
    roster_id = store(server, army(unit("Genoese crossbowmen", "light_foot", 12, "crossbow",
                                        mercenary=True), unit("Levy")))
    text, pages, _ = print_to_pdf(tools, f"{server.url}/r/{roster_id}/print?lang=en",
                                  tmp_path / "mercenaries.pdf")
    assert "Table 16: Mercenary discipline" in text
    assert "Genoese crossbowmen" in text
    assert "Pay us more!" in text
    assert pages == 1


def test_a_sheet_without_mercenaries_has_no_mercenary_table(
        server: Server, tools: dict[str, str], tmp_path: Path) -> None:
    roster_id = store(server, army(unit("Levy"), unit("Guard", flags=("commander",))))
    text, _, _ = print_to_pdf(tools, f"{server.url}/r/{roster_id}/print?lang=en",
                              tmp_path / "loyal.pdf")
    assert "Levy" in text
    assert "Table 16" not in text
    assert "Mercenary" not in text
    assert "The commander" in text  # the commander's rules, which this roster does use


def test_the_russian_sheet_is_printed_in_russian(
        server: Server, tools: dict[str, str], tmp_path: Path) -> None:
    roster_id = store(server, army(unit("Кондотьеры", "light_foot", 12, "crossbow",
                                        mercenary=True), unit("Крестьяне", "peasant", 30, "none")))
    text, _, _ = print_to_pdf(tools, f"{server.url}/r/{roster_id}/print?lang=ru",
                              tmp_path / "russian.pdf")
    for words in ("Таблица 16: Дисциплина Наёмников", "Таблица 17: Дисциплина Крестьян",
                  "Отряды", "Кондотьеры", "Лёгкий пехотинец", "Арбалет"):
        assert words in text, words
    assert "Mercenary discipline" not in text


def thirty_units() -> dict[str, Any]:
    kinds = [
        dict(troop="heavy_horse", weapon="lance", flags=("knights",)),
        dict(troop="light_foot", weapon="longbow", flags=("stakes",)),
        dict(troop="militia", weapon="pike", flags=("flemish",)),
        dict(troop="peasant", weapon="none"),
        dict(troop="heavy_foot", weapon="crossbow", mercenary=True),
        dict(troop="medium_horse", weapon="lance", flags=("religious_order",)),
    ]
    units = [unit(f"Unit number {i + 1} with a long name", figures=24,
                  **kinds[i % len(kinds)]) for i in range(30)]  # type: ignore[arg-type]
    units[0]["flags"].append("commander")
    units[1]["note"] = "Stands on the hill behind the stakes, facing the ford. " * 3
    document = army(*units)
    document["engines"] = [{"kind": "bombard", "count": 2, "mercenary": True}]
    return document


def test_a_thirty_unit_roster_with_every_section_fits_on_four_a4_pages(
        server: Server, tools: dict[str, str], tmp_path: Path) -> None:
    roster_id = store(server, thirty_units())
    url = f"{server.url}/r/{roster_id}/print?lang=ru&sections=baggage,weather"
    text, pages, size = print_to_pdf(tools, url, tmp_path / "thirty.pdf")
    assert "A4" in size
    assert pages <= 4
    assert "Unit number 30 with a long name" in text
    assert "Таблица 20: Погода" in text and "Багаж" in text


def test_the_sheet_prints_on_letter_paper_when_asked(
        server: Server, tools: dict[str, str], tmp_path: Path) -> None:
    roster_id = store(server, thirty_units())
    url = f"{server.url}/r/{roster_id}/print?lang=en&paper=letter"
    text, pages, size = print_to_pdf(tools, url, tmp_path / "letter.pdf")
    assert "letter" in size.lower()
    assert pages <= 4
    # the options form is for the screen: it is not on paper
    assert "Sheet options" not in text and "Also print" not in text
