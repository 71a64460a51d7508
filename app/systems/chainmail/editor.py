"""The Chainmail editor's forms read as edits (units of lines, engines, the nation and
historical flags), and what its templates need beyond the roster."""

from __future__ import annotations

from typing import Any

from app.domain.base import Lang
from app.domain.composition import segments
from app.domain.form_reading import (
    Document,
    Edits,
    Form,
    FormError,
    checked,
    line_ids,
    present,
    roster_settings,
    whole,
)
from app.domain.translations import N_, tr
from app.systems.chainmail import make_legal as legal
from app.systems.chainmail.catalogue import TROOPS
from app.systems.chainmail.far_east import AVAILABILITY
from app.systems.chainmail.nations import NATIONAL_RULES, NoneRule
from app.systems.chainmail.pricing import cost_per_figure
from app.systems.chainmail.roster import VALUE_ERRORS as VALUE_ERRORS  # the Editor's
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.chainmail.standing import Standing, standing, troop_standing

RULESET = "chainmail"


def read(action: str, argument: str, form: Form) -> Edits | None:
    """The Chainmail forms' edits (a unit's lines by their ids), or None for an action of
    another form."""
    unit = form.get("unit", "")
    if action == "settings":
        settings = roster_settings(form) | {"historical": checked(form, "historical"),
                                            "fortifications": checked(form, "fortifications")}
        return [settings | ({"nation": form["nation"]} if "nation" in form else {})]
    if action == "update_unit":
        return [{"op": "set_unit", "unit": unit, "mercenary": checked(form, "mercenary"),
                 "flags": form.all("flags"), **present(form, name="unit_name", note="unit_note")},
                *({"op": "set_line", "unit": unit, "line": line,
                   "figures": whole(form, f"figures_{line}"),
                   **present(form, troop=f"troop_{line}", weapon=f"weapon_{line}")}
                  for line in line_ids(form))]
    if action == "step_figures":
        return _steps(unit, form)
    if action == "add_unit":
        return [_new_unit(form)]
    if action in ("add_line", "remove_line"):
        return [{"op": action, "unit": unit} | ({"line": argument} if argument else {})]
    if action == "add_engine":
        return [{"op": "add_engine", **_engine(form)}]
    if action == "update_engine":
        return [{"op": "set_engine", "engine": form.get("engine", ""), **_engine(form)}]
    if action == "remove_engine":
        return [{"op": "remove_engine", "engine": form.get("engine", "")}]
    if action == "make_legal":
        return [{"op": "make_legal"} | ({"fill": True} if checked(form, "fill") else {})]
    return None


def _steps(unit: str, form: Form) -> Edits:
    """A folded row's figures: the numbers in its boxes, then one figure more or fewer in a
    line when its − or + was pressed (`step` "<line>:±1")."""
    made: Edits = [{"op": "set_line", "unit": unit, "line": line,
                    "figures": whole(form, f"figures_{line}")}
                   for line in line_ids(form) if f"figures_{line}" in form]
    line, _, by = form.get("step", "").partition(":")
    if line or by:
        if by not in ("1", "-1"):
            raise FormError("step", tr(form.lang, "a step is one figure more or fewer"))
        made.append({"op": "step_figures", "unit": unit, "line": line, "by": int(by)})
    return made


def _new_unit(form: Form) -> dict[str, Any]:
    """A preset's unit (named after it unless a name is typed), or one line as the form
    gives it (its figures, troop and weapon: the domain's defaults where left empty)."""
    name = form.get("unit_name", "").strip()
    if form.get("preset"):
        return {"op": "add_unit", "preset": form["preset"]} | ({"name": name} if name else {})
    figures = whole(form, "figures", required=False)
    line = present(form, troop="troop", weapon="weapon") | (
        {"figures": figures} if figures is not None else {})
    return {"op": "add_unit", "name": name, "lines": [line]}


def _engine(form: Form) -> dict[str, Any]:
    return {"kind": form.get("kind", ""), "count": whole(form, "count"),
            "mercenary": checked(form, "mercenary")}


# The field focused after "Add a line": the new line's first.
LINE_FIELD = "{unit}-{line}-figures"


# Actions that change one unit only: the editor redraws just that unit.
UNIT_ACTIONS = frozenset({"update_unit", "step_figures", "add_line", "remove_line"})

LABELS = {
    "nation": N_("Nation"), "preset": N_("Preset"), "figures": N_("Figures"),
    "troop": N_("Troop type"), "weapon": N_("Weapon"), "count": N_("Count"),
    "kind": N_("Engine"), "engines": N_("Engines"),
    # A file's keys that no form names by themselves.
    "historical": N_("Historical (keep the nation's proportions)"),
    "fortifications": N_("Defends fortifications"), "flags": N_("Special rules"),
    "mercenary": N_("Mercenary (half cost)")}
LINE_LABELS: dict[str, str] = {}

# A new unit is one line, drawn folded (its figures are stepped in the row).
NEW_UNIT_OPENS = False


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


def _standing_words(lang: Lang) -> dict[Standing, str]:
    return {"yes": tr(lang, "Table 18: yes"), "some": tr(lang, "Table 18: some"),
            "possible": tr(lang, "Table 18: possible"), "no": tr(lang, "Table 18: no"),
            "unlisted": tr(lang, "not in Table 18"), "excluded": tr(lang, "not in this army"),
            "discouraged": tr(lang, "not usual in this army")}


def has_standing(nation: str) -> bool:
    """Whether the nation's army says anything of which troops it has (Table 18, or a
    national "no X" rule): only then do the choices carry their standing."""
    return nation in AVAILABILITY or any(
        isinstance(rule, NoneRule) for rule in NATIONAL_RULES.get(nation, ()))


def standing_labels(nation: str, lang: Lang, kind: str, names: dict[str, str],
                    line: dict[str, Any], flags: list[str],
                    blank: str | None = None) -> dict[str, str]:
    """The labels of a line's troop types (kind "troop") or weapons ("weapon"), each saying
    how it stands in the nation's army before the player picks it: a troop as its best line
    ("Medium Horse — only with a lance"; Table 18's with the line's weapon: "Heavy Foot —
    Table 18: some"), a weapon with the line's troop ("Javelins — not in this army")."""
    words = _standing_words(lang)
    far_east = nation in AVAILABILITY
    knights = "knights" in flags
    labels = {}
    for value, label in names.items():
        text = blank if (blank is not None and value == "none") else label
        if kind == "troop" and not far_east:
            said = troop_standing(nation, value, line["weapon"], knights).text(lang)
        else:
            troop, weapon = (value, line["weapon"]) if kind == "troop" else (line["troop"], value)
            stands = standing(nation, troop, weapon, knights)
            said = words[stands] if stands != "yes" or far_east else ""
        labels[value] = f"{text} — {said}" if said else text
    return labels


def unit_standing(nation: str, unit: dict[str, Any], lang: Lang) -> str:
    """The words for a unit whose lines the nation's army does not have (Table 18's "no", a
    national "no X" rule), for its row's badge; empty when every line may stand."""
    knights = "knights" in unit["flags"]
    found = {standing(nation, line["troop"], line["weapon"], knights) for line in unit["lines"]}
    worst = next((s for s in ("no", "excluded", "unlisted") if s in found), None)
    return _standing_words(lang)[worst] if worst else ""


def _suggestion(doc: Document, result: dict[str, Any], lang: Lang,
                fill: bool = False) -> legal.Suggestion | None:
    """What "Make it legal" would change: only for a list that breaks a rule (a legal one
    has nothing to change); `fill`, what "Fill to the limit" would add: only for an army with
    points left under its limit."""
    roster = ChainmailRoster.model_validate(doc)
    if fill:
        left = result.get("remaining")
        return legal.fill(roster, lang) if left is not None and left > 0 else None
    if result.get("valid", True) or not doc["units"]:
        return None
    return legal.make_legal(roster, lang)


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
            "standing_of": lambda unit: unit_standing(nation, unit, lang),
            "flags_for": lambda unit: applicable_flags(nation, unit), "flag_names": flag_names,
            "with_standing": has_standing(nation),
            "own_presets": own_presets(nation, catalogue["presets"]), "preset_cost": preset_cost,
            "standing_labels": lambda *args, **kw: standing_labels(nation, lang, *args, **kw),
            # Asked for, not drawn with every page: the solver takes longer than all the rest
            # of a change (the editor's `?suggest=1`, web/editor.py).
            "suggest": lambda fill=False: _suggestion(doc, result, lang, fill)}
