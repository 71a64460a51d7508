"""The rules page of "Line and Square", linked from its order-test calculator."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.domain.base import Lang
from app.domain.translations import tr
from app.systems import get_system
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.square import square_rules
from app.systems.line_and_square.validation import RULE_TITLES
from app.web.i18n import request_lang
from app.web.templating import render

router = APIRouter()


def _names(lang: Lang) -> dict[str, dict[str, str]]:
    system = get_system(cat.RULESET_ID)
    assert system is not None
    return system.names(lang)


@router.get("/rules/line_and_square", include_in_schema=False)
def rules_page(request: Request) -> Response:
    lang = request_lang(request)
    system = get_system(cat.RULESET_ID)
    assert system is not None
    return render(request, "systems/line_and_square/rules.html",
                  {"names": _names(lang), "catalogue": system.catalogue(),
                   "square_rules": square_rules(lang),
                   "rule_titles": {code: tr(lang, title) for code, title in RULE_TITLES.items()}})
