"""The calculators' pages: `/calc`, every calculator by rule system, and `/calc/<slug>`, one
route for every calculator a rule system offers (app/domain/calculator.py). Each is a GET
form that works without JavaScript (htmx swaps only the result); its address is read as the
calculator's input model, the one its API operation takes (app/api/calculators.py), and a
field refused is named in the form, in the page's language (422). The melee calculator,
over stored rosters, is `melee.py`. And `/rules/<system>`: a rule system's rules page, where
it has one (`RuleSystem.rules_page`)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import ValidationError
from starlette.responses import Response

from app.domain.calculator import Asked, Calculator
from app.systems import SYSTEMS
from app.systems.field_errors import describe
from app.web import i18n
from app.web.calculators import melee
from app.web.pages import nothing_here
from app.web.problems import field_label, message
from app.web.templating import render

router = APIRouter(dependencies=[Depends(i18n.page_language)])
router.include_router(melee.router)
# Every calculator by its address, with its system's id (where its template is).
PAGES: dict[str, tuple[str, Calculator]] = {
    calc.slug: (system.id, calc) for system in SYSTEMS.values() for calc in system.calculators}
_WHOLE = re.compile(r"[+-]?\d{1,9}")


@router.get("/calc", include_in_schema=False)
def calculators_page(request: Request) -> Response:
    """Every calculator on one page, by rule system: the navigation's "Calculators"."""
    return render(request, "calc/index.html")


def typed(data: Any) -> Any:
    """A form's text as the values a JSON request would carry: a whole number typed is a
    number; anything else is left as text for the input model to refuse by name."""
    if isinstance(data, dict):
        return {key: typed(value) for key, value in data.items()}
    if isinstance(data, list):
        return [typed(value) for value in data]
    if isinstance(data, str):
        text = data.strip()
        return int(text) if _WHOLE.fullmatch(text) else text
    return data


def _refusal(error: ValidationError, labels: dict[str, str]) -> str:
    """pydantic's errors in the page's language, each field by its label in the form."""
    errors = [dict(e) for e in error.errors()][:5]
    return "; ".join(f"{labels.get(d['field']) or field_label(d['field'])}: {message(e)}"
                     for e, d in zip(errors, describe(errors), strict=True))


@router.get("/calc/{slug}", include_in_schema=False)
def calculator_page(request: Request, slug: str) -> Response:
    if slug not in PAGES:
        return nothing_here(request)
    system, calc = PAGES[slug]
    lang, query = i18n.request_lang(request), request.query_params
    value, error = None, None
    if calc.input is not None:
        try:
            value = calc.input.model_validate(typed(calc.form(query)))
        except ValidationError as refused:
            error = _refusal(refused, dict(calc.labels(query, lang)))
    page = calc.page(Asked(value, query, lang, error))
    headers = {"Cache-Control": "no-store"} if page.no_store else None
    return render(request, f"systems/{system}/{calc.template}", page.context,
                  blocks=list(page.blocks), headers=headers,
                  status_code=422 if error or page.error else 200)


@router.get("/rules/{system_id}", include_in_schema=False)
def rules_page(request: Request, system_id: str) -> Response:
    system = SYSTEMS.get(system_id)
    if system is None or system.rules_page is None:
        return nothing_here(request)
    return render(request, f"systems/{system.id}/rules.html",
                  system.rules_page(i18n.request_lang(request)))
