"""A real uvicorn server and Debian's Chromium (tests/conftest.py's `chromium`) driven by
playwright."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.databases import app_database
from tests.helpers.servers import Server, running_server

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("e2e")
    # One server for every browser test of a worker: together they make more rosters, games
    # and events than one address may in ten minutes (the limit has tests of its own).
    with app_database(folder) as url, running_server(
            url, folder, env={"MUSTER_CREATION_LIMIT": "0"}) as server:
        yield server


@pytest.fixture(scope="session")
def browser(chromium: str):  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture
def context(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


def htmx_settled(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until htmx has swapped and settled the last answer.

    The response event fires when the answer arrives, before htmx replaces the DOM; typing
    into a field in between lands in an element about to be thrown away.
    """
    from playwright.sync_api import expect

    # A selector, not a script: the page's Content-Security-Policy forbids eval.
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
