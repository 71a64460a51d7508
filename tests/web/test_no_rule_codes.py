"""A rule's code (`mongols.medium_lancers`) is the API's: no page writes one where a player
reads. Every page is walked in English and Russian — the home page and its list of rosters,
the About and rules pages, each calculator, the editor (with "Make it legal" asked), the share
view, the print sheet and the game pages — with rosters that break many rules of each rule
system, and its visible text (tags, scripts, styles and attributes left out) holds no code of
any system. The codes are the domain's own: its rule tables and every check it makes of these
rosters, kept ones too, so a rule added later is covered without being listed here.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.systems import SYSTEMS
from app.systems.chainmail.catalogue import NATIONS
from app.systems.chainmail.nations import NATIONAL_RULES
from app.systems.chainmail.organisation import UNIT_CODES
from app.systems.formation_density.validation import RULE_TITLES as FD_RULES
from app.systems.line_and_square.validation import RULE_TITLES as LS_RULES
from app.systems.stored_documents import DOCUMENT
from tests.helpers.games import chainmail_army, line_and_square_force
from tests.unit.rule_cases import ALL_CODES, BREAKS, KEEPS, army, line, unit
from tests.web.test_formation_density_api import BROKEN_UNITS, LEGION
from tests.web.test_line_and_square_api import BROKEN as LS_BROKEN

LANGS = ("en", "ru")
Doc = dict[str, Any]


class _Visible(HTMLParser):
    """The words a reader sees: text outside tags, scripts, styles and templates."""

    HIDDEN = frozenset({"script", "style", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in self.HIDDEN

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in self.HIDDEN

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible(page: str) -> str:
    reader = _Visible()
    reader.feed(page)
    return unescape(" ".join(reader.parts))


# ---------------------------------------------------------------- the rosters

def _chainmail_rosters() -> dict[str, list[Doc]]:
    """By nation: every roster of the rules tests that breaks one of its rules, and one army
    of all their units together (which breaks many at once)."""
    found: dict[str, list[Doc]] = {}
    for case in BREAKS:
        found.setdefault(case.roster["nation"], []).append(case.roster)
    for nation, rosters in found.items():
        units = [copy.deepcopy(u) for roster in rosters for u in roster["units"]]
        rosters.append(army(nation, *units, commander=False, points_limit=50))
    for nation in NATIONS:  # a nation no case breaks still shows its rules
        found.setdefault(nation, [army(nation, unit(line("heavy_horse", 4, "lance")))])
    return found


CHAINMAIL = _chainmail_rosters()


def _line_and_square() -> list[Doc]:
    broken = [doc for _, doc in LS_BROKEN.values()]
    every = [copy.deepcopy(u) for doc in broken for u in doc["units"]]
    return [*broken, {**broken[0], "units": every, "points_limit": 10}]


def _formation_density() -> list[Doc]:
    units = [copy.deepcopy(u) for u in BROKEN_UNITS.values()]
    over = {**copy.deepcopy(LEGION), "points_limit": 10}
    return [over, {**copy.deepcopy(LEGION), "units": units, "points_limit": 1}]


OTHERS = {"line_and_square": _line_and_square(), "formation_density": _formation_density()}


def _evaluated_codes(document: Doc) -> set[str]:
    model = DOCUMENT.validate_python(document)
    return {check.code for check in SYSTEMS[document["ruleset"]].evaluate(model, "en").checks}


@cache
def rule_codes() -> frozenset[str]:
    """Every rule code of every system, from the domain: its rule tables, and each check it
    makes (kept or broken) of the rosters above and of the rules tests'."""
    codes = {rule.code for rules in NATIONAL_RULES.values() for rule in rules}
    codes |= set(UNIT_CODES) | set(LS_RULES) | set(FD_RULES)
    documents = [case.roster for case in BREAKS + KEEPS]
    documents += [doc for docs in (*CHAINMAIL.values(), *OTHERS.values()) for doc in docs]
    for document in documents:
        codes |= _evaluated_codes(document)
    return frozenset(codes)


@cache
def code_pattern() -> re.Pattern[str]:
    alternatives = "|".join(map(re.escape, sorted(rule_codes(), key=len, reverse=True)))
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")


def codes_in(page: str) -> list[str]:
    return code_pattern().findall(visible(page))


def test_the_codes_looked_for_are_every_systems() -> None:
    codes = rule_codes()
    assert set(ALL_CODES) <= codes
    assert {"unit.square_too_small", "army.no_officer", "unit.density_useless",
            "unit.two_handed_shield", "roster.over_limit"} <= codes
    # Not vacuous: a page that wrote one would be caught.
    assert codes_in("<p>Rule mongols.medium_lancers, <b>unit.cannot_shoot</b></p>") == [
        "mongols.medium_lancers", "unit.cannot_shoot"]
    assert codes_in('<li data-code="army.empty" title="army.empty">Army</li>') == []


# ---------------------------------------------------------------- the pages

def _get(client: TestClient, address: str, lang: str) -> str:
    sep = "&" if "?" in address else "?"
    answer = client.get(f"{address}{sep}lang={lang}")
    assert answer.status_code == 200, (address, answer.status_code)
    return answer.text


def _roster_pages(client: TestClient, document: Doc) -> Iterator[str]:
    created = client.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    body = created.json()
    opened = client.get(f"/r/{body['id']}/edit?key={body['edit_key']}", follow_redirects=False)
    assert opened.status_code == 303
    yield f"/r/{body['id']}/edit"
    if document["ruleset"] == "chainmail" and not body["result"]["valid"] and document["units"]:
        yield f"/r/{body['id']}/edit?suggest=1"  # "Make it legal": its changes or its reason
    yield f"/r/{body['id']}"
    yield f"/r/{body['id']}/print"


def _assert_no_codes(client: TestClient, addresses: list[str]) -> int:
    """Every address in both languages; the number of pages read."""
    found = {}
    for address in addresses:
        for lang in LANGS:
            codes = codes_in(_get(client, address, lang))
            if codes:
                found[f"{address} ({lang})"] = sorted(set(codes))
    assert found == {}
    return len(addresses) * len(LANGS)


@pytest.mark.parametrize("nation", sorted(CHAINMAIL))
def test_no_chainmail_page_writes_a_rule_code(client: TestClient, nation: str) -> None:
    addresses = [a for doc in CHAINMAIL[nation] for a in _roster_pages(client, doc)]
    # The list of this browser's rosters, each with its verdict, and the pages every visitor
    # sees once rosters break rules.
    addresses.append("/")
    assert _assert_no_codes(client, addresses) >= 8


@pytest.mark.parametrize("ruleset", sorted(OTHERS))
def test_no_page_of_the_other_systems_writes_a_rule_code(client: TestClient,
                                                         ruleset: str) -> None:
    addresses = [a for doc in OTHERS[ruleset] for a in _roster_pages(client, doc)]
    addresses += ["/", f"/rules/{ruleset}"]
    if ruleset == "formation_density":
        fd = client.post("/api/v1/rosters", json=OTHERS[ruleset][-1]).json()["id"]
        addresses += [f"/calc/melee?roster={fd}&a={fd}:{a}&b={fd}:{b}"
                      for a, b in ((0, 1), (2, 3), (4, 0))]
    assert _assert_no_codes(client, addresses) >= 8


def _game_pages(client: TestClient, document: Doc) -> list[str]:
    roster = client.post("/api/v1/rosters", json=document).json()
    client.get(f"/r/{roster['id']}")
    answer = client.post("/g/new", data={"csrf": str(client.cookies["muster_csrf"]),
                                         "roster_id": roster["id"], "version": "1",
                                         "weather": "clear"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    play = answer.headers["location"]
    return [play, f"/g/{play.split('/')[2]}"]


def test_no_page_every_visitor_sees_writes_a_rule_code(client: TestClient) -> None:
    addresses = ["/", "/about", "/rules/line_and_square", "/rules/formation_density",
                 "/calc/order-test", "/calc/melee", "/calc/weather", "/calc/figure-sizes",
                 "/calc/siege", "/calc/shooting", "/calc/tournament", "/calc/man-to-man"]
    addresses += _game_pages(client, chainmail_army())
    addresses += _game_pages(client, line_and_square_force())
    assert _assert_no_codes(client, addresses) == 2 * len(addresses)


def test_the_rules_panel_names_a_units_broken_rule_and_keeps_its_code_for_scripts(
        client: TestClient) -> None:
    mixed = next(case.roster for case in BREAKS if case.code == "unit.mixed_types")
    body = client.post("/api/v1/rosters", json=mixed).json()
    for lang, title in (("en", "Units do not mix troop types"),
                        ("ru", "Отряды не смешивают типы войск")):
        page = _get(client, f"/r/{body['id']}", lang)
        item = re.search(r'<li class="check-broken" data-code="unit.mixed_types">(.*?)</li>',
                         page, re.S)
        assert item, lang
        assert title in visible(item.group(1))
