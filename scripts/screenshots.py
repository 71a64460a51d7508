"""Make the README's screenshots: the editor on a desktop and on a phone, and a printed sheet.

    python scripts/screenshots.py [--chromium /usr/bin/chromium] [--out docs]

Starts `muster serve` on a temporary SQLite file, stores a sample Mongol army through the JSON
API, and photographs it with Chromium through playwright (installed with `.[test]`); the sheet is
printed to PDF and drawn by poppler's `pdftoppm`. Run it
again after a change to the pages, and look at the pictures before committing them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from playwright.sync_api import Browser, sync_playwright

PROJECT = Path(__file__).resolve().parent.parent
PUBLIC_URL = "https://muster.example"
ARMY = {
    "name": "The Horde of Subotai", "ruleset": "chainmail", "nation": "mongols",
    "points_limit": 200, "historical": True,
    "note": "Screen with the archers; the keshig waits for the break.",
    "units": [
        {"name": "Keshig", "flags": ["commander"],
         "lines": [{"troop": "medium_horse", "figures": 10, "weapon": "lance"}]},
        {"name": "Lancers of the left", "lines": [
            {"troop": "light_horse", "figures": 10, "weapon": "lance"}]},
        {"name": "Horse archers", "note": "Skirmish, never charge.", "lines": [
            {"troop": "light_horse", "figures": 20, "weapon": "bow"}]},
    ],
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(data: Path) -> Iterator[str]:
    """A real `muster serve` on a SQLite file in `data`, stopped at the end."""
    port = free_port()
    muster = shutil.which("muster", path=str(Path(sys.executable).parent)) or "muster"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    process = subprocess.Popen([muster, "serve", "--port", str(port)], cwd=PROJECT,
                               env={**env, "MUSTER_DATA_DIR": str(data),
                                    "MUSTER_PUBLIC_URL": PUBLIC_URL},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def photograph(browser: Browser, url: str, out: Path) -> list[Path]:
    stored = httpx.post(f"{url}/api/v1/rosters", json=ARMY, timeout=30).json()
    # The links name the public address (for the sheet's QR code); the pages are fetched here.
    edit, view = (stored[key].replace(PUBLIC_URL, url) for key in ("edit_url", "view_url"))
    shots = [(out / "editor-desktop.png", {"width": 1366, "height": 900}, False),
             (out / "editor-phone.png", {"width": 390, "height": 844}, True)]
    for path, size, phone in shots:
        context = browser.new_context(viewport=size, device_scale_factor=2 if phone else 1,
                                      is_mobile=phone, has_touch=phone, locale="en-GB")
        page = context.new_page()
        page.goto(edit)  # the edit link leaves a cookie and lands on the editor
        page.wait_for_load_state("networkidle")
        if not phone:  # one row opened in place, the others as the compact list
            page.locator("#u2-summary").click()
        page.screenshot(path=str(path))
        context.close()
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.goto(f"{view}/print?paper=a4")
    sheet = out / "army-sheet.png"
    with tempfile.TemporaryDirectory() as work:
        # Printed as the browser prints it (A4, the sheet's own margins), then drawn as a PNG.
        pdf = Path(work) / "sheet.pdf"
        page.pdf(path=str(pdf), prefer_css_page_size=True)
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-singlefile", "-f", "1", str(pdf),
                        str(sheet.with_suffix(""))], check=True)
    context.close()
    return [path for path, _, _ in shots] + [sheet]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium",
                        help="the Chromium to drive (playwright cannot always download its own)")
    parser.add_argument("--out", type=Path, default=PROJECT / "docs",
                        help="where the PNGs go (default: docs/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, server(Path(data)) as url, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium)
        for path in photograph(browser, url, args.out):
            print(path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
