"""The printable army sheet: `/r/{id}/print`, a standalone page made for paper (A4 or Letter).

The page carries no script: a small GET form ticks the optional reference sections, and the QR
code of the share link is drawn on the server as inline SVG.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from markupsafe import Markup
from starlette.responses import HTMLResponse

from app import services
from app.deps import RosterId, SessionDep, not_found
from app.exports import sheet_of
from app.rules.base import Lang, pick
from app.rules.chainmail.sheet import OPTIONAL, UnknownSection
from app.web.i18n import request_lang
from app.web.templating import render

router = APIRouter(tags=["print"])

Paper = Literal["a4", "letter"]
# Past this many figures a unit's losses are tallied in numbers: a thousand tick boxes help
# nobody and would run the sheet onto many pages.
MAX_BOXES = 60


def words(lang: Lang) -> dict[str, str]:
    """Every fixed word of the printed sheet, in the sheet's language."""
    entries = {
        "army_sheet": ("Army sheet", "Лист армии"),
        "options": ("Sheet options", "Настройки листа"),
        "optional_sections": ("Also print", "Также напечатать"),
        "paper": ("Paper", "Бумага"),
        "language": ("Language", "Язык"),
        "apply": ("Show", "Показать"),
        "back": ("Back to the roster", "Назад к армии"),
        "print_hint": ("Print this page from the browser (Ctrl+P).",
                       "Напечатайте эту страницу из браузера (Ctrl+P)."),
        "historical": ("historical", "историческая"),
        "not_historical": ("not historical", "не историческая"),
        "fortifications": ("holds fortifications", "обороняет укрепления"),
        "points": ("Points", "Очки"),
        "of": ("of", "из"),
        "left": ("{points} left", "осталось {points}"),
        "over": ("{points} over the limit", "превышение на {points}"),
        "figures": ("Figures", "Фигуры"),
        "foot": ("foot", "пехота"),
        "horse": ("horse", "конница"),
        "engines": ("Engines", "Машины"),
        "legality": ("Legality", "Соответствие правилам"),
        "morale_test": ("Morale test for losses", "Проверка морали из-за потерь"),
        "morale_rule": ("when {lost} of {figures} figures are lost (one third, 33.3 %), "
                        "{standing} left standing",
                        "когда потеряно {lost} из {figures} фигур (треть, 33.3%), "
                        "в строю {standing}"),
        "units": ("Units", "Отряды"),
        "unit": ("Unit", "Отряд"),
        "troops": ("Troops", "Войска"),
        "per_figure": ("Per figure", "За фигуру"),
        "cost": ("Cost", "Стоимость"),
        "rating": ("Morale (T. 19)", "Мораль (т. 19)"),
        "casualties": ("Casualties", "Потери"),
        "more_figures": ("more figures: tally losses here", "фигур ещё: отмечайте потери здесь"),
        "mercenary": ("mercenary", "наёмники"),
        "count": ("Count", "Количество"),
        "engine": ("Engine", "Машина"),
        "problems": ("Rule problems", "Нарушения правил"),
        "reference": ("Rules for this army", "Правила для этой армии"),
        "applies_to": ("Applies to", "Относится к"),
        "share": ("Share link", "Ссылка на армию"),
        "no_units": ("No units yet.", "Отрядов пока нет."),
        "note": ("Note", "Примечание"),
    }
    return {key: pick(lang, en, ru) for key, (en, ru) in entries.items()}


def _refuse(field: str, message: str) -> RequestValidationError:
    return RequestValidationError([{"loc": ("query", field), "msg": message,
                                    "type": "value_error"}])


def chosen_sections(values: list[str]) -> list[str]:
    """`?sections=baggage,weather` or the form's `?sections=baggage&sections=weather`."""
    chosen = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = sorted(set(chosen) - set(OPTIONAL))
    if unknown:
        raise _refuse("sections", f"unknown section {', '.join(unknown)}; "
                                  f"known: {', '.join(OPTIONAL)}")
    return [section for section in OPTIONAL if section in chosen]


def share_qr(url: str) -> Markup:
    """The share link as a QR code, inline SVG sized by the style sheet (viewBox, no size)."""
    svg = segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True, dark="#000")
    return Markup(svg)  # segno's own markup: it holds path data only, never the URL's text


@router.get("/r/{roster_id}/print", response_class=HTMLResponse, responses={
    404: {"description": "No roster by this id"},
    422: {"description": "An unknown language, paper or section"}})
def print_sheet(
    request: Request,
    roster_id: RosterId,
    session: SessionDep,
    lang: Annotated[Lang | None, Query(description="en or ru; default: the lang cookie, "
                                                   "then Accept-Language, then en")] = None,
    sections: Annotated[list[str], Query(max_length=10, description="optional sections: "
                                         "baggage, weather (comma-separated or repeated)")
                        ] = [],  # noqa: B006 - FastAPI copies query defaults per request
    paper: Annotated[Paper, Query(description="a4 or letter")] = "a4",
) -> HTMLResponse:
    """A clean army sheet for the table, made to be printed."""
    sheet_lang = lang or request_lang(request)
    optional = chosen_sections(sections)
    try:
        roster = services.get_roster(session, roster_id)
    except services.RosterNotFound as error:
        raise not_found(sheet_lang, roster_id, error) from error
    try:
        sheet = sheet_of(roster.document, sheet_lang, optional)
    except UnknownSection as error:  # checked above; kept so a new section cannot 500
        raise _refuse("sections", str(error)) from error
    share_url = f"{str(request.base_url).rstrip('/')}/r/{roster.id}"
    context: dict[str, Any] = {
        "lang": sheet_lang,
        "t": words(sheet_lang),
        "sheet": sheet,
        "roster_id": roster.id,
        "chosen": optional,
        "paper": paper,
        "share_url": share_url,
        "qr": share_qr(share_url),
        "max_boxes": MAX_BOXES,
        "has_ratings": any(u.rating is not None for u in sheet.units),
    }
    response = render(request, "print/sheet.html", context)
    response.headers["Content-Language"] = sheet_lang
    return response

