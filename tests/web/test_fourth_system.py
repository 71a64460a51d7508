"""Adding a rule system is one folder and one registry line: a copy of the app gets the tiny
"Skirmish" system of tests/fourth_system/ (two troop types, one rule) as
`app/systems/skirmish/`, and one import and one entry in `app/systems/__init__.py`, and nothing
else; then its price API, its editor page (a unit added by the page's own form) and its text
export work, in a process of its own (the registry is read once, when the app is imported)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = "app/systems/__init__.py"

SCRIPT = r'''
import json, re, sys
from fastapi.testclient import TestClient
from app.config import Settings
from app.main import create_app

def army(*units):
    return {"name": "Band", "ruleset": "skirmish", "points_limit": 30,
            "units": [{"name": n, "troop": t, "figures": f} for n, t, f in units]}

out = {}
settings = Settings(_env_file=None, DATABASE_URL="sqlite:///" + sys.argv[1] + "/muster.db")
with TestClient(create_app(settings)) as client:
    price = lambda *units: client.post("/api/v1/price", json=army(*units))
    kept = price(("Bows", "archers", 5), ("Spears", "spearmen", 5))
    broken = price(("Bows", "archers", 6), ("Spears", "spearmen", 4))
    out["kept"] = [kept.status_code, kept.json()]
    out["broken"] = [broken.status_code, broken.json()]
    out["unknown_troop"] = client.post("/api/v1/price", json=army(("X", "knights", 1))).status_code
    made = client.post("/api/v1/rosters", json=army(("Bows", "archers", 4))).json()
    client.get(made["edit_url"])  # the edit link, exchanged for this browser's right
    page = client.get(f"/r/{made['id']}/edit")
    out["editor"] = [page.status_code, page.text]
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    added = client.post(f"/r/{made['id']}/edit", data={
        "csrf": csrf, "op": "add_unit", "version": "1", "system": "skirmish",
        "unit_name": "Pikes", "troop": "spearmen", "figures": "6"},
        headers={"Origin": "http://testserver"}, follow_redirects=True)
    out["added"] = [added.status_code, added.text]
    text = client.get(f"/api/v1/rosters/{made['id']}/export.txt")
    out["text"] = [text.status_code, text.text]
print(json.dumps(out))
'''


def _app_with_a_fourth_system(into: Path) -> list[str]:
    """A copy of the project with Skirmish added as a developer would; the registry's diff."""
    for name in ("templates", "static", "migrations", "alembic.ini", "pyproject.toml"):
        os.symlink(ROOT / name, into / name)
    shutil.copytree(ROOT / "app", into / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests" / "fourth_system" / "skirmish",
                    into / "app" / "systems" / "skirmish",
                    ignore=shutil.ignore_patterns("__pycache__"))
    registry = into / REGISTRY
    before = registry.read_text(encoding="utf-8").splitlines()
    after = []
    for line in before:
        after.append(line)
        if line.startswith("from app.systems.line_and_square import"):
            after.append("from app.systems.skirmish import SKIRMISH")
        if line.strip() == "FORMATION_DENSITY,":
            after.append("    SKIRMISH,")
    registry.write_text("\n".join(after) + "\n", encoding="utf-8")
    return [line for line in after if line not in before]


def test_a_fourth_rule_system_is_a_folder_and_a_registry_line(tmp_path: Path) -> None:
    copy = tmp_path / "muster"
    copy.mkdir()
    added = _app_with_a_fourth_system(copy)
    assert added == ["from app.systems.skirmish import SKIRMISH", "    SKIRMISH,"]
    data = tmp_path / "data"
    data.mkdir()
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(data)], cwd=copy,
                         env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])

    status, kept = out["kept"]
    assert status == 200 and kept["total"] == 15 and kept["valid"] is True
    status, broken = out["broken"]
    # 6 archers of 10 figures: more than half, the one rule broken, at its edge.
    assert status == 200 and broken["total"] == 16 and broken["valid"] is False
    assert [i["code"] for i in broken["issues"]] == ["skirmish.archers"]
    assert out["unknown_troop"] == 422

    status, editor = out["editor"]
    assert status == 200 and "Bows" in editor and 'id="add-unit"' in editor
    status, added_page = out["added"]
    assert status == 200 and "Pikes" in added_page
    status, text = out["text"]
    assert status == 200
    assert "1. Bows — 4 archers, 8 pts" in text and "2. Pikes — 6 spearmen, 6 pts" in text
    assert "Total: 14 pts" in text
