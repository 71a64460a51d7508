"""Both doors make the same roster: each rule system's roster changed by the same steps once
through the editor's page, posting its forms as a browser does (the fields, CSRF token, version
and ids read from the rendered page), and once through the JSON API (PATCH by edits, undo, Make
it legal's edits), stores the same document at the same version after every step."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient

from tests.helpers.documents import army
from tests.web.test_roster_edits_api import guard, legion

ROSTERS = "/api/v1/rosters"
Document = dict[str, Any]


@dataclass
class Form:
    """A form of the page as a browser would send it: its fields (a checkbox only when
    checked, a select's chosen option, a textarea's text) and its submit buttons."""

    attrs: dict[str, str]
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[dict[str, str]] = field(default_factory=list)

    def get(self, name: str) -> str | None:
        return next((value for key, value in self.fields if key == name), None)

    def all(self, name: str) -> list[str]:
        return [value for key, value in self.fields if key == name]


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._option: dict[str, str | None] | None = None
        self._textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {key: value if value is not None else "" for key, value in attr_list}
        if tag == "form":
            self._form = Form(attrs)
            self.forms.append(self._form)
        if self._form is None or "disabled" in attrs and tag != "option":
            return
        kind = attrs.get("type", "submit" if tag == "button" else "text")
        if tag == "button" or tag == "input" and kind == "submit":
            if kind == "submit":
                self._form.buttons.append(attrs)
        elif tag == "input" and "name" in attrs:
            if kind not in ("checkbox", "radio") or "checked" in attrs:
                default = "on" if kind in ("checkbox", "radio") else ""
                self._form.fields.append((attrs["name"], attrs.get("value", default)))
        elif tag == "select" and "name" in attrs:
            self._select = (attrs["name"], [])
        elif tag == "option" and self._select is not None:
            self._option = {"value": attrs.get("value"), "selected": attrs.get("selected"),
                            "text": ""}
        elif tag == "textarea" and "name" in attrs:
            self._textarea = (attrs["name"], [])

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)
        if self._option is not None:
            self._option["text"] = (self._option["text"] or "") + data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None and self._select is not None:
            value = self._option["value"]
            self._select[1].append((value if value is not None else self._option["text"] or "",
                                    self._option["selected"] is not None))
            self._option = None
        elif tag == "select" and self._select is not None and self._form is not None:
            name, options = self._select
            chosen = [value for value, selected in options if selected] or \
                [value for value, _ in options[:1]]
            self._form.fields += [(name, value) for value in chosen[-1:]]
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            self._form.fields.append((self._textarea[0], "".join(self._textarea[1])))
            self._textarea = None
        elif tag == "form":
            self._form = None


def _diff(web: Document, api: Document) -> str:
    """How the page's stored document differs from the API's, line by line."""
    def lines(stored: Document) -> list[str]:
        return json.dumps(stored["document"], ensure_ascii=False, indent=1,
                          sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(lines(web), lines(api), "page", "api", lineterm=""))


def forms_of(html: str) -> list[Form]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


@dataclass
class Doors:
    """One roster changed through the editor's page, its twin through the API."""

    client: TestClient
    web: str  # the roster the page changes (this browser may edit it: its link was opened)
    api: dict[str, Any]  # the roster the API changes: its id and edit key

    def stored(self, roster_id: str) -> dict[str, Any]:
        answer = self.client.get(f"{ROSTERS}/{roster_id}")
        assert answer.status_code == 200, answer.text
        return answer.json()  # type: ignore[no-any-return]

    def same(self, step: str) -> Document:
        """Both stored rosters, asserted equal (document and version); the document."""
        web, api = self.stored(self.web), self.stored(self.api["id"])
        assert web["document"] == api["document"], f"{step}: {_diff(web, api)}"
        assert web["version"] == api["version"], step
        return web["document"]  # type: ignore[no-any-return]

    # --- the page's door

    def page(self, query: str = "") -> str:
        answer = self.client.get(f"/r/{self.web}/edit{query}")
        assert answer.status_code == 200, answer.text
        return answer.text

    def form(self, op: str, unit: str | None = None, query: str = "") -> Form:
        """The page's form of `op`; the one of the unit whose id is `unit` if given (the
        order of the page's units need not be the list's: Chainmail's are grouped)."""
        found = [form for form in forms_of(self.page(query)) if form.get("op") == op
                 and (unit is None or form.get("unit") == unit)]
        assert found, f"the page draws a form of {op}"
        return found[0]

    def post(self, form: Form, button: str | None = None, **typed: str) -> None:
        """Submit `form` as the browser does without a script: its fields, what was typed
        into some of them (`typed`, by name), the button pressed (by its value)."""
        assert form.get("csrf") and form.get("version") and form.get("system")
        data: dict[str, list[str]] = {}
        for name, value in form.fields:
            data.setdefault(name, []).append(value)
        for name, value in typed.items():
            assert name in data, f"the form has a field {name}"
            data[name] = [value]
        if button is not None:
            pressed = [b for b in form.buttons if b.get("value") == button]
            assert len(pressed) == 1, f"one button {button}"
            data[pressed[0]["name"]] = [button]
        answer = self.client.post(f"/r/{self.web}/edit", data=data, follow_redirects=False)
        assert answer.status_code == 303, answer.text

    # --- the API's door

    def version(self) -> int:
        return int(self.stored(self.api["id"])["version"])

    def patch(self, *edits: dict[str, Any]) -> None:
        answer = self.client.patch(f"{ROSTERS}/{self.api['id']}", json={"edits": list(edits)},
                                   headers=self._keyed())
        assert answer.status_code == 200, answer.text

    def undo(self) -> None:
        answer = self.client.post(f"{ROSTERS}/{self.api['id']}/undo", headers=self._keyed())
        assert answer.status_code == 200, answer.text

    def make_legal(self) -> None:
        found = self.client.get(f"{ROSTERS}/{self.api['id']}/make-legal")
        assert found.status_code == 200, found.text
        assert found.json()["possible"] and found.json()["edits"]
        self.patch(*found.json()["edits"])

    def _keyed(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api['edit_key']}",
                "If-Match": f'"v{self.version()}"'}


def doors(client: TestClient, document: Document) -> Doors:
    """Two rosters of `document`, made by the API; the first's edit link opened by this
    browser, which may then edit it on the page."""
    made = []
    for _ in range(2):
        answer = client.post(ROSTERS, json=document)
        assert answer.status_code == 201, answer.text
        made.append(answer.json())
    assert client.get(made[0]["edit_url"]).status_code == 200
    found = Doors(client, made[0]["id"], made[1])
    found.same("created")
    return found


def unit_ids(doc: Document) -> list[str]:
    return [unit["id"] for unit in doc["units"]]


def line_ids(doc: Document, place: int) -> list[str]:
    return [line["id"] for line in doc["units"][place]["lines"]]



def test_chainmail_changes_are_the_same_through_both_doors(client: TestClient) -> None:
    two = doors(client, army(figures=10))
    doc = two.same("created")
    u1 = unit_ids(doc)[0]
    # A unit's fields: its line's figures, its name.
    two.post(two.form("update_unit", u1), figures_l1="12", unit_name="Тумен")
    two.patch({"op": "set_line", "unit": u1, "line": "l1", "figures": 12},
              {"op": "set_unit", "unit": u1, "name": "Тумен"})
    two.same("a unit's figures and name")
    # A preset's unit, by its one-tap button, and a unit from scratch.
    presets = two.form("add_unit")
    preset = presets.buttons[0]["value"]
    two.post(presets, button=preset)
    two.patch({"op": "add_unit", "preset": preset})
    two.same("a preset's unit")
    scratch = [f for f in forms_of(two.page()) if f.get("op") == "add_unit"
               and f.get("figures") is not None][0]
    two.post(scratch, preset="", unit_name="Пехота", figures="20", troop="light_foot",
             weapon="bow")
    two.patch({"op": "add_unit", "name": "Пехота",
               "lines": [{"troop": "light_foot", "figures": 20, "weapon": "bow"}]})
    doc = two.same("a unit from scratch")
    # A second line, its troop and figures changed, then the first line removed.
    two.post(two.form("update_unit", u1), button="add_line")
    two.patch({"op": "add_line", "unit": u1})
    doc = two.same("a line added")
    second = line_ids(doc, 0)[1]
    two.post(two.form("update_unit", u1), **{f"troop_{second}": "heavy_horse",
                                             f"figures_{second}": "3"})
    two.patch({"op": "set_line", "unit": u1, "line": second, "troop": "heavy_horse",
               "figures": 3})
    two.same("the new line's troop and figures")
    two.post(two.form("update_unit", u1), button="remove_line:l1")
    two.patch({"op": "remove_line", "unit": u1, "line": "l1"})
    doc = two.same("a line removed")
    # Duplicate, move, remove.
    copied = unit_ids(doc)[1]
    two.post(two.form("update_unit", copied), button="duplicate")
    two.patch({"op": "duplicate_unit", "unit": copied})
    doc = two.same("a unit duplicated")
    two.post(two.form("update_unit", u1), button="move_down")
    two.patch({"op": "move_unit", "unit": u1, "by": 1})
    doc = two.same("a unit moved")
    gone = unit_ids(doc)[2]
    two.post(two.form("update_unit", gone), button="remove_unit")
    two.patch({"op": "remove_unit", "unit": gone})
    doc = two.same("a unit removed")
    # Too many figures for the points limit: "Make it legal", then undo it.
    big, line = unit_ids(doc)[-1], doc["units"][-1]["lines"][0]["id"]
    two.post(two.form("update_unit", big), **{f"figures_{line}": "150"})
    two.patch({"op": "set_line", "unit": big, "line": line, "figures": 150})
    before = two.same("a unit over the limit")
    two.post(two.form("make_legal", query="?suggest=1"))
    two.make_legal()
    assert two.same("made legal") != before
    two.post(two.form("undo"))
    two.undo()
    assert two.same("made legal, undone") == before


def test_line_and_square_changes_are_the_same_through_both_doors(client: TestClient) -> None:
    two = doors(client, guard())
    doc = two.same("created")
    first, second = unit_ids(doc)
    two.post(two.form("update_unit", first), figures="10", unit_name="2-й батальон")
    two.patch({"op": "set_unit", "unit": first, "figures": 10, "name": "2-й батальон"})
    two.same("a unit's figures and name")
    two.post(two.form("update_unit", second), points="6,5", accuracy="")
    two.patch({"op": "set_unit", "unit": second, "points": 6.5, "accuracy": None})
    two.same("a unit's points and accuracy")
    two.post(two.form("add_unit"), unit_name="Стрелки", figures="8", speed="9",
             accuracy="5", points="4")
    two.patch({"op": "add_unit", "name": "Стрелки", "class": "line_infantry", "figures": 8,
               "speed": 9, "accuracy": 5, "discipline": 0, "points": 4, "officer": False})
    doc = two.same("a unit added")
    two.post(two.form("update_unit", first), button="duplicate")
    two.patch({"op": "duplicate_unit", "unit": first})
    doc = two.same("a unit duplicated")
    last = unit_ids(doc)[3]
    two.post(two.form("update_unit", last), button="move_up")
    two.patch({"op": "move_unit", "unit": last, "by": -1})
    doc = two.same("a unit moved")
    gone = unit_ids(doc)[1]
    two.post(two.form("update_unit", gone), button="remove_unit")
    two.patch({"op": "remove_unit", "unit": gone})
    two.same("a unit removed")
    two.post(two.form("undo"))
    two.undo()
    two.same("the removal undone")


def test_formation_density_changes_are_the_same_through_both_doors(
        client: TestClient) -> None:
    two = doors(client, legion())
    doc = two.same("created")
    first, second = unit_ids(doc)
    l1, l2 = line_ids(doc, 0)
    two.post(two.form("update_unit", first), **{f"count_{l2}": "15", "unit_name": "Принципы",
                                                "points": "12,5"})
    two.patch({"op": "set_line", "unit": first, "line": l2, "count": 15},
              {"op": "set_unit", "unit": first, "name": "Принципы"})
    two.same("a line's count and the unit's name")
    two.post(two.form("add_unit"), unit_name="Пращники", files="8", count="8",
             kit="shooters:improvised")
    two.patch({"op": "add_unit", "name": "Пращники", "density": 3, "files": 8, "points": None,
               "lines": [{"class": "shooters", "weapon": "improvised", "count": 8}]})
    doc = two.same("a unit added")
    two.post(two.form("update_unit", second), button="add_line")
    two.patch({"op": "add_line", "unit": second})
    two.same("a line added")
    two.post(two.form("update_unit", first), button=f"remove_line:{l1}")
    two.patch({"op": "remove_line", "unit": first, "line": l1})
    two.same("a line removed")
    added = unit_ids(doc)[2]
    two.post(two.form("update_unit", added), button="duplicate")
    two.patch({"op": "duplicate_unit", "unit": added})
    doc = two.same("a unit duplicated")
    last = unit_ids(doc)[3]
    two.post(two.form("update_unit", last), button="move_up")
    two.patch({"op": "move_unit", "unit": last, "by": -1})
    two.same("a unit moved")
    two.post(two.form("update_unit", first), button="remove_unit")
    two.patch({"op": "remove_unit", "unit": first})
    two.same("a unit removed")
    two.post(two.form("undo"))
    two.undo()
    two.same("the removal undone")
