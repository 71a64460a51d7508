"""The Chainmail editor's own actions: units of lines, engines, nation and historical flags."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from app.domain.base import Lang
from app.domain.chainmail import make_legal as legal
from app.domain.chainmail.catalogue import PRESETS, TROOPS
from app.domain.chainmail.far_east import AVAILABILITY
from app.domain.chainmail.nations import NATIONAL_RULES, NoneRule
from app.domain.chainmail.pricing import cost_per_figure
from app.domain.chainmail.roster import ChainmailRoster
from app.domain.chainmail.standing import Standing, standing, troop_standing
from app.domain.limits import MAX_ENGINES, MAX_LINES, MAX_UNITS
from app.web.composition import segments
from app.web.editing import (
    Action,
    Document,
    EditError,
    Form,
    at_most,
    checked,
    index,
    whole,
)
from app.web.i18n import current_lang, gettext

RULESET = "chainmail"


def update_settings(doc: Document, form: Form) -> Document:
    if "nation" in form:
        doc["nation"] = form["nation"]
    doc["historical"] = checked(form, "historical")
    doc["fortifications"] = checked(form, "fortifications")
    return doc


def add_unit(doc: Document, form: Form) -> Document:
    if len(doc["units"]) >= MAX_UNITS:
        raise EditError("units", at_most(MAX_UNITS, "units"))
    preset_id = form.get("preset", "")
    if preset_id and preset_id not in PRESETS:
        raise EditError("preset", f"unknown preset {preset_id[:40]!r}")
    if preset_id:
        preset = PRESETS[preset_id]
        lang: Lang = "ru" if form.get("lang") == "ru" else "en"
        name = form.get("unit_name", "").strip() or preset.name(lang)
        unit = {"name": name, "mercenary": False, "flags": list(preset.flags), "note": "",
                "lines": [{"troop": preset.troop, "figures": preset.figures,
                           "weapon": preset.weapon}]}
    else:
        figures = whole(form, "figures", required=False)
        if figures is None:  # left empty: the form's own default (0 is refused, not replaced)
            figures = 10
        unit = {"name": form.get("unit_name", "").strip(), "mercenary": False, "flags": [],
                "note": "", "lines": [{"troop": form.get("troop", "light_foot"),
                                       "figures": figures, "weapon": form.get("weapon", "none")}]}
    doc["units"].append(unit)
    return doc


def update_unit(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    unit = doc["units"][i]
    unit["name"] = form.get("unit_name", unit["name"])
    unit["mercenary"] = checked(form, "mercenary")
    unit["flags"] = form.all("flags")
    unit["note"] = form.get("unit_note", unit.get("note", ""))
    for j, line in enumerate(unit["lines"]):
        line["troop"] = form.get(f"troop_{j}", line["troop"])
        line["weapon"] = form.get(f"weapon_{j}", line["weapon"])
        figures = whole(form, f"figures_{j}")
        line["figures"] = figures
    return doc


def step_figures(doc: Document, form: Form) -> Document:
    """A folded row's figures: the numbers in its boxes, one of them a figure more or fewer
    when its − or + was pressed (`step` "line:±1"), never under one."""
    i = index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    for j, line in enumerate(lines):
        if f"figures_{j}" in form:
            line["figures"] = whole(form, f"figures_{j}")
    where, _, by = form.get("step", "").partition(":")
    if where:
        j = index(Form([("line", where)]), "line", len(lines))
        if by not in ("1", "-1"):
            raise EditError("step", gettext("a step is one figure more or fewer"))
        lines[j]["figures"] = max(1, lines[j]["figures"] + int(by))
    return doc


def add_line(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    if len(lines) >= MAX_LINES:
        raise EditError("lines", at_most(MAX_LINES, "lines"))
    # A second line is most often the mixed horse the rules allow: start from the next type.
    last = lines[-1]["troop"] if lines else "light_horse"
    pairs = {"light_horse": "medium_horse", "medium_horse": "heavy_horse",
             "heavy_horse": "medium_horse"}
    lines.append({"troop": pairs.get(last, last), "figures": 5, "weapon": "none"})
    return doc


def remove_line(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    del lines[index(form, "line", len(lines))]
    return doc


def add_engine(doc: Document, form: Form) -> Document:
    if len(doc["engines"]) >= MAX_ENGINES:
        raise EditError("engines", at_most(MAX_ENGINES, "engines"))
    doc["engines"].append({"kind": form.get("kind", ""), "count": whole(form, "count"),
                           "mercenary": checked(form, "mercenary")})
    return doc


def update_engine(doc: Document, form: Form) -> Document:
    k = index(form, "engine", len(doc["engines"]))
    doc["engines"][k] = {"kind": form.get("kind", ""), "count": whole(form, "count"),
                         "mercenary": checked(form, "mercenary")}
    return doc


def remove_engine(doc: Document, form: Form) -> Document:
    del doc["engines"][index(form, "engine", len(doc["engines"]))]
    return doc


def make_legal(doc: Document, form: Form) -> Document:
    """The smallest change in figures that keeps every numeric rule (make_legal), made in
    one step; refused in words when no change of figures can do it."""
    roster = ChainmailRoster.model_validate(doc)
    found = legal.make_legal(roster, "ru" if form.get("lang") == "ru" else "en")
    if not found.possible:
        raise EditError("make_legal", found.reason)
    return legal.apply(roster, found.changes).model_dump(mode="json")


ACTIONS: dict[str, Action] = {
    "settings": update_settings,
    "add_unit": add_unit,
    "update_unit": update_unit,
    "step_figures": step_figures,
    "add_line": add_line,
    "remove_line": remove_line,
    "add_engine": add_engine,
    "update_engine": update_engine,
    "remove_engine": remove_engine,
    "make_legal": make_legal,
}


# The field focused after "Add a line": the new line's first (unit i, line j).
LINE_FIELD = "u{i}-figures-{j}"


# Actions that change one unit only: the editor redraws just that unit.
UNIT_ACTIONS = frozenset({"update_unit", "step_figures", "add_line", "remove_line"})


def new_document(form: Form) -> dict[str, Any]:
    """A new, empty roster from the home page's form."""
    return {"name": form.get("name", ""), "ruleset": RULESET,
            "nation": form.get("nation", "generic"),
            "points_limit": form.get("points_limit", "").strip() or None,
            "historical": checked(form, "historical"), "units": [], "engines": []}


HORSE = frozenset(t.id for t in TROOPS.values() if t.troop_class == "horse")


def applicable_flags(nation: str, unit: dict[str, Any]) -> frozenset[str]:
    """The special rules that can apply to this unit (the others wait under "more rules"):
    samurai in a Japanese army, Flemish on militia, stakes on longbowmen, knights on horse,
    a religious order on knights; a flag already set always shows."""
    troops = {line["troop"] for line in unit["lines"]}
    weapons = {line["weapon"] for line in unit["lines"]}
    found = {"commander", "elite", *unit["flags"]}
    found |= {"samurai"} if nation == "japan" else set()
    found |= {"flemish"} if "militia" in troops else set()
    found |= {"stakes"} if "longbow" in weapons else set()
    found |= {"knights"} if troops & HORSE else set()
    found |= {"religious_order"} if "knights" in unit["flags"] else set()
    return frozenset(found)


def flag_names(names: dict[str, str], shown: frozenset[str], inside: bool) -> dict[str, str]:
    """The flags' names of those `shown` (inside) or of the others, in catalogue order."""
    return {flag: name for flag, name in names.items() if (flag in shown) == inside}


def unit_groups(units: list[dict[str, Any]]) -> list[tuple[str, list[int]]]:
    """The units' indices by kind, foot then horse (a unit is of its first line's kind), each
    group in list order; a kind with no unit is left out."""
    found: dict[str, list[int]] = {"foot": [], "horse": []}
    for i, unit in enumerate(units):
        first = unit["lines"][0]["troop"] if unit["lines"] else ""
        found["horse" if first in HORSE else "foot"].append(i)
    return [(kind, members) for kind, members in found.items() if members]


def _standing_words() -> dict[Standing, str]:
    return {"yes": gettext("Table 18: yes"), "some": gettext("Table 18: some"),
            "possible": gettext("Table 18: possible"), "no": gettext("Table 18: no"),
            "unlisted": gettext("not in Table 18"), "excluded": gettext("not in this army"),
            "discouraged": gettext("not usual in this army")}


def has_standing(nation: str) -> bool:
    """Whether the nation's army says anything of which troops it has (Table 18, or a
    national "no X" rule): only then do the choices carry their standing."""
    return nation in AVAILABILITY or any(
        isinstance(rule, NoneRule) for rule in NATIONAL_RULES.get(nation, ()))


def standing_options(nation: str, kind: str, names: dict[str, str], line: dict[str, Any],
                     flags: list[str], blank: str | None = None) -> Markup:
    """The <option>s of a line's troop type (kind "troop") or weapon ("weapon"), each saying
    how it stands in the nation's army before the player picks it: a troop as its best line
    ("Medium Horse — only with a lance"; Table 18's with the line's weapon: "Heavy Foot —
    Table 18: some"), a weapon with the line's troop ("Javelins — not in this army")."""
    words = _standing_words()
    far_east = nation in AVAILABILITY
    knights = "knights" in flags
    lang = current_lang()
    parts = []
    for value, label in names.items():
        text = blank if (blank is not None and value == "none") else label
        if kind == "troop" and not far_east:
            said = troop_standing(nation, value, line["weapon"], knights).text(lang)
        else:
            troop, weapon = (value, line["weapon"]) if kind == "troop" else (line["troop"], value)
            stands = standing(nation, troop, weapon, knights)
            said = words[stands] if stands != "yes" or far_east else ""
        if said:
            text = f"{text} — {said}"
        mark = " selected" if value == line[kind] else ""
        parts.append(f'<option value="{escape(value)}"{mark}>{escape(text)}</option>')
    return Markup("".join(parts))


def unit_standing(nation: str, unit: dict[str, Any]) -> str:
    """The words for a unit whose lines the nation's army does not have (Table 18's "no", a
    national "no X" rule), for its row's badge; empty when every line may stand."""
    knights = "knights" in unit["flags"]
    found = {standing(nation, line["troop"], line["weapon"], knights) for line in unit["lines"]}
    worst = next((s for s in ("no", "excluded", "unlisted") if s in found), None)
    return _standing_words()[worst] if worst else ""


def _suggestion(doc: Document, result: dict[str, Any], lang: Lang) -> legal.Suggestion | None:
    """What "Make it legal" would change: only for a list that breaks a rule (a legal one
    has nothing to change)."""
    if result.get("valid", True) or not doc["units"]:
        return None
    return legal.make_legal(ChainmailRoster.model_validate(doc), lang)


def own_presets(nation: str, presets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The presets the editor offers as one-tap buttons: the nation's own, or a generic
    army's (those of no nation)."""
    if nation == "generic":
        return [p for p in presets if not p["nations"]]
    return [p for p in presets if nation in p["nations"]]


def preset_cost(preset: dict[str, Any]) -> float:
    """What a preset's unit costs (its figures at their price, not as mercenaries)."""
    return float(cost_per_figure(preset["troop"], preset["weapon"], False) * preset["figures"])


def page_context(doc: Document, result: dict[str, Any], catalogue: dict[str, Any],
                 lang: Lang) -> dict[str, Any]:
    """What this system's templates need beyond the document and its priced result."""
    nation = doc.get("nation", "generic")
    return {"bar": segments(doc["units"], [troop["id"] for troop in catalogue["troop_types"]]),
            "unit_groups": unit_groups(doc["units"]),
            "standing_of": lambda unit: unit_standing(nation, unit),
            "flags_for": lambda unit: applicable_flags(nation, unit), "flag_names": flag_names,
            "with_standing": has_standing(nation),
            "own_presets": own_presets(nation, catalogue["presets"]), "preset_cost": preset_cost,
            "standing_options": lambda *args, **kw: standing_options(nation, *args, **kw),
            # Asked for, not drawn with every page: the solver takes longer than all the rest
            # of a change (the editor's `?suggest=1`, web/editor.py).
            "suggest": lambda: _suggestion(doc, result, lang)}
