"""Formation Density's table calculators, as its `RuleSystem` offers them: shooting results,
its page a GET form (it works without JavaScript, htmx swaps only the result)."""

from __future__ import annotations

from typing import Any

from app.domain.base import Lang, decimal_text
from app.domain.calculator import Api, Asked, Calculator, Page, Query, shown
from app.domain.translations import N_, tr
from app.systems.formation_density import catalogue as cat
from app.systems.formation_density import shooting as sh
from app.systems.formation_density.dice import Dist

FLAGS = ("shield", "armour", "cavalry", "cavalry_armour")
LABELS = {"hits": N_("Hits landed"), "shooter_density": N_("Shooters' density"),
          "target.density": N_("Target's density"),
          "target.warriors": N_("Warriors in the target")}


def _form(query: Query) -> dict[str, Any]:
    # A new page (no hits asked yet) shoots at shields and armour.
    flags = {f: f in query for f in FLAGS} if "hits" in query else {
        "shield": True, "armour": True, "cavalry": False, "cavalry_armour": False}
    return {"hits": query.get("hits") or 6, "shooter_density": query.get("shooter_density") or 4,
            "target": {"density": query.get("density") or 3,
                       "warriors": query.get("warriors") or 40, **flags}}


def _rows(d: Dist, lang: Lang) -> list[tuple[int, dict[str, str]]]:
    return [(v, shown(p, lang)) for v, p in d.fractions()]


def _page(asked: Asked) -> Page:
    lang, value = asked.lang, asked.value
    result: dict[str, Any] | None = None
    if value is not None:
        lost, parts = sh.losses(value)
        result = {"hits": sh.split(value.hits, value.target.cavalry), "lost": _rows(lost, lang),
                  "mean": shown(lost.mean(), lang)["exact"],
                  "mean_float": decimal_text(f"{float(lost.mean()):.2f}", lang),
                  "parts": {k: _rows(d, lang) for k, d in parts.items()},
                  "higher": value.shooter_density > value.target.density,
                  "retreat": shown(sh.retreat_chance(value, lost), lang)}
    raw = {k: asked.query.get(k, "") for k in ("hits", "shooter_density", "density", "warriors")}
    query = value or sh.ShootingRequest(hits=6, shooter_density=4, target=sh.Target(density=3))
    return Page({"error": asked.error, "q": query, "raw": raw, "result": result,
                 "max_hits": sh.MAX_HITS, "min_density": cat.MIN_DENSITY,
                 "max_density": cat.MAX_DENSITY, "max_count": cat.MAX_COUNT})


SHOOTING = Calculator(
    "shooting", N_("Shooting results"), sh.ShootingRequest, _page, "calc_shooting.html",
    _form, lambda query, lang: {path: tr(lang, label) for path, label in LABELS.items()},
    sh.shooting_json,
    Api("shooting", "Exact losses from hits landed by shooting, in Formation Density",
        """
    From `hits` landed: the exact distribution of warriors lost after the shield wall and
    armour (against cavalry the hits split, the larger half at the horses, riders and horses
    protected apart, `parts` giving each), and the chance the target must retreat (any loss,
    when the shooters' density is higher than its own)."""))

CALCULATORS = (SHOOTING,)
