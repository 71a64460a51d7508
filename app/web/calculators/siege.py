"""The siege calculator (Chainmail, Tables 21–22 and the equipment rules): `/calc/siege`, a GET
form that works without JavaScript (htmx swaps only the result), and its JSON twin
`POST /api/v1/rulesets/chainmail/siege`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.domain.base import Lang
from app.domain.translations import tr
from app.systems.chainmail import siege as sg
from app.systems.chainmail.siege_rules import REFERENCE, movement_rows
from app.systems.field_errors import register_tags
from app.web import i18n
from app.web.calculators.forms import FieldProblem, choice, shown, whole
from app.web.templating import render

router = APIRouter()
# The structure kinds' discriminator tags, left out of error paths: "structures[0].points".
register_tags(set(sg.STRUCTURE_TAGS.values()))
PAGE_STRUCTURES = 3




def _read(params: Any) -> tuple[list[tuple[str, int]], dict[str, int], int]:
    structures: list[tuple[str, int]] = []
    for i in range(PAGE_STRUCTURES):
        kind = choice(params.get(f"s{i}"), i18n.gettext("Structure %(n)s") % {"n": i + 1},
                      tuple(sg.STRUCTURES), "bastion" if i == 0 and "s0" not in params else "")
        if not kind:
            continue
        s = sg.STRUCTURES[kind]
        label = i18n.gettext("Structure points %(n)s") % {"n": i + 1}
        structures.append((kind, whole(params.get(f"p{i}"), label, s.least, s.most, s.least)))
    weapons = {e.id: whole(params.get(e.id), e.name(i18n.current_lang()), 0, sg.MAX_ENGINES,
                           1 if e.id == "bombard" and "s0" not in params else 0)
               for e in sg.ENGINES.values()}
    rams = whole(params.get("rams"), i18n.gettext("Covered rams"), 0, sg.MAX_RAMS,
                 0 if "s0" in params else 1)
    return structures, weapons, rams


def _result(structures: list[tuple[str, int]], weapons: dict[str, int], rams: int,
            lang: Lang) -> list[dict[str, Any]]:
    battery = sum(sg.ENGINES[k].damage * n for k, n in weapons.items())
    out = []
    for kind, points in structures:
        falls, never = sg.turns_to_fall(points, battery, rams)
        damage = sg.ram_damage(rams, points)
        out.append({
            "name": sg.STRUCTURES[kind].name(lang), "points": points,
            "hits": [(e.name(lang), e.damage, n) for e, n in zip(
                sg.ENGINES.values(), sg.hits_to_destroy(points).values(), strict=True)],
            "battery": battery, "battery_turns": -(-points // battery) if battery else None,
            "damage": [(d, shown(p, lang)) for d, p in damage.items()],
            "destroyed": shown(damage.get(points, Fraction(0)) if rams else Fraction(0), lang),
            "turns": [(t, shown(p, lang)) for t, p in falls.items()],
            "never": shown(never, lang) if never else None,
        })
    return out


@router.get("/calc/siege", include_in_schema=False,
            dependencies=[Depends(i18n.page_language)])
def siege_page(request: Request) -> Response:
    lang = i18n.request_lang(request)
    params = request.query_params
    error: str | None = None
    structures: list[tuple[str, int]] = []
    weapons: dict[str, int] = {e: 0 for e in sg.ENGINES}
    rams = 0
    try:
        structures, weapons, rams = _read(params)
        if not structures:
            raise FieldProblem(i18n.gettext("Structure 1: pick at least one structure"))
    except FieldProblem as problem:
        error = str(problem)
    rows = [{"i": i, "kind": params.get(f"s{i}", "bastion" if i == 0 else ""),
             "points": params.get(f"p{i}", "40" if i == 0 and "s0" not in params else "")}
            for i in range(PAGE_STRUCTURES)]
    context = {
        "error": error, "rows": rows, "weapons": weapons, "rams": rams,
        "structures": [(s.id, s.name(lang), s.least, s.most) for s in sg.STRUCTURES.values()],
        "engines": [(e.id, e.name(lang), e.damage) for e in sg.ENGINES.values()],
        "result": [] if error else _result(structures, weapons, rams, lang),
        "disable": shown(sg.DISABLE, lang), "movement": movement_rows(),
        "reference": [(p.id, tr(lang, p.title), tr(lang, p.text)) for p in REFERENCE],
        "max_engines": sg.MAX_ENGINES, "max_rams": sg.MAX_RAMS,
    }
    return render(request, "calc/siege.html", context, blocks=["result"],
                  status_code=422 if error else 200)
