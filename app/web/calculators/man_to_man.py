"""The man-to-man calculator (Chainmail, «Бой «Один на один»» and Table 23):
`/calc/man-to-man`, a GET form that works without JavaScript (htmx swaps only the result), and
its JSON twin `POST /api/v1/rulesets/chainmail/man-to-man`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.systems.chainmail import man_to_man as mm
from app.web import i18n
from app.web.calculators.forms import FieldProblem, choice, shown, whole
from app.web.templating import render

router = APIRouter()
FLAGS = ("mounted", "higher", "leader", "berserker", "charge", "long")




def _fighter(params: Any, prefix: str, label: str) -> mm.Fighter:
    default = 5 if prefix == "a" else 3
    flags = {f: f"{prefix}_{f}" in params for f in FLAGS}
    return mm.Fighter(
        weapon_class=whole(params.get(f"{prefix}_class"),
                           i18n.gettext("%(side)s: weapon class") % {"side": label}, 1,
                           mm.MAX_CLASS, default),
        foot_weight=choice(params.get(f"{prefix}_weight"),  # type: ignore[arg-type]
                           i18n.gettext("%(side)s: foot") % {"side": label},
                           ("light", "medium", "heavy"), "medium"),
        mounted=flags["mounted"], higher=flags["higher"], leader=flags["leader"],
        berserker=flags["berserker"], charging=flags["charge"], long_weapon=flags["long"])


@router.get("/calc/man-to-man", include_in_schema=False,
            dependencies=[Depends(i18n.page_language)])
def man_to_man_page(request: Request) -> Response:
    lang = i18n.request_lang(request)
    params = request.query_params
    error: str | None = None
    fight = mm.Fight(attacker=mm.Fighter(weapon_class=5), defender=mm.Fighter(weapon_class=3))
    try:
        fight = mm.Fight(
            attacker=_fighter(params, "a", i18n.gettext("Attacker")),
            defender=_fighter(params, "d", i18n.gettext("Defender")),
            attacked_from=choice(params.get("from"), i18n.gettext("Attacked from"),  # type: ignore[arg-type]
                                 ("front", "left_flank", "rear"), "front"))
    except FieldProblem as problem:
        error = str(problem)
    result = None if error else mm.fight_json(fight)
    dismount = ([(turns, shown(p, lang)) for turns, p in mm.dismount_chances().items()])
    return render(request, "calc/man_to_man.html",
                  {"error": error, "fight": fight, "result": result, "dismount": dismount,
                   "max_class": mm.MAX_CLASS, "gap": mm.gap(fight, "defender")},
                  blocks=["result"], status_code=422 if error else 200)
