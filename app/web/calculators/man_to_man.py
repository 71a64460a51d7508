"""The man-to-man calculator (Chainmail, «Бой «Один на один»» and Table 23):
`/calc/man-to-man`, a GET form that works without JavaScript (htmx swaps only the result), and
its JSON twin `POST /api/v1/rulesets/chainmail/man-to-man`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.deps import NOT_JSON_ANSWER, json_body
from app.domain.chainmail import man_to_man as mm
from app.routes.calc_forms import FieldProblem, choice, shown, whole
from app.schemas import ValidationFailure
from app.web import i18n
from app.web.security import CROSS_SITE_ANSWER
from app.web.templating import render

router = APIRouter()
FLAGS = ("mounted", "higher", "leader", "berserker", "charge")


@router.post("/api/v1/rulesets/chainmail/man-to-man", tags=["pricing"],
             summary="Who strikes first, blows, parries and modifiers in man-to-man combat",
             dependencies=[Depends(json_body)],
             responses={**CROSS_SITE_ANSWER, **NOT_JSON_ANSWER, 422: {
                 "model": ValidationFailure,
                 "description": "A field is invalid; the message names it"}})
def man_to_man(body: mm.Fight) -> dict[str, Any]:
    """Weapon classes are the player's (Appendix B is not in the seed). For rounds 1 and 2 the
    first striker and the rule deciding it; for each side its blows a round, whether it strikes
    in round 1, its die modifiers, its parry (rule 4) and its horse's blow in round 2; and, when
    foot meets horse, Table 23's chances of being stunned after a dismounting."""
    return mm.fight_json(body)


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
        berserker=flags["berserker"], long_weapon_charge=flags["charge"])


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
