"""The composition bar: figures by troop type, drawn on the server as SVG rectangles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Segment:
    troop: str
    figures: int
    x: float
    width: float
    percent: str


def segments(units: list[dict[str, Any]], troop_order: list[str]) -> list[Segment]:
    """Segments of a 100-wide bar, in catalogue order, one per troop type present."""
    counts: dict[str, int] = {}
    for unit in units:
        for line in unit["lines"]:
            counts[line["troop"]] = counts.get(line["troop"], 0) + line["figures"]
    total = sum(counts.values())
    out: list[Segment] = []
    x = 0.0
    for troop in troop_order:
        n = counts.get(troop, 0)
        if not n:
            continue
        width = 100 * n / total
        out.append(Segment(troop, n, round(x, 2), round(width, 2), f"{100 * n / total:.0f}"))
        x += width
    return out
