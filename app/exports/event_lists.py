"""An event's lists as data: each list judged as JSON (the API's and the pages' rows), and all
of them as CSV (the organiser's download)."""

from __future__ import annotations

import csv
import io
from typing import Any

from app.domain.base import Lang
from app.domain.translations import tr
from app.systems.events import HandedIn, Judgement


def sheet_url(event_id: str, list_id: str, base: str = "") -> str:
    return f"{base}/e/{event_id}/l/{list_id}/print"


def judged_json(event_id: str, handed: HandedIn, judgement: Judgement,
                base: str = "", *, history: bool = False) -> dict[str, Any]:
    """A list as the API answers it: never the live roster's id (whoever holds it reads the
    roster's later edits), only the version handed in; with `history`, what it replaced."""
    doc = handed.document
    replaced = [vars(r) for r in handed.replaced] if history else None
    return {"id": handed.id, "player": handed.player, "replaced": replaced,
            "roster_version": handed.roster_version, "name": str(doc.name),  # type: ignore[attr-defined]
            "ruleset": str(doc.ruleset), "nation": getattr(doc, "nation", None),  # type: ignore[attr-defined]
            "points": float(judgement.evaluation.result["total"]),
            "verdict": judgement.verdict.value, "mark": judgement.mark,
            "issues": [i.as_json() for i in judgement.issues],
            "handed_in_at": handed.handed_in_at,
            "sheet_url": sheet_url(event_id, handed.id, base)}


def _cell(text: str) -> str:
    # A spreadsheet runs a cell that starts with one of these as a formula.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def lists_csv(rows: list[dict[str, Any]], lang: Lang) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([tr(lang, "Player"), tr(lang, "Army"), tr(lang, "Nation"),
                     tr(lang, "Points"), tr(lang, "Verdict"), tr(lang, "Reasons")])
    for row in rows:
        reasons = "; ".join(i["message"] for i in row["issues"])
        writer.writerow([_cell(row["player"]), _cell(row["name"]), row["nation"] or "",
                         row["points"], row["mark"], _cell(reasons)])
    return out.getvalue()
