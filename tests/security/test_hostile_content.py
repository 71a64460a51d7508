"""Hostile text in every field that is shown again — roster, unit and note names of each rule
system — comes out inert everywhere it is shown: the editor, the share view, the print sheet,
"my rosters", and the JSON, text, Markdown and BBCode exports. Over-long and undecodable input
is refused with 422 naming the field, never 500.

"Inert" is measured against the same roster with plain names: a page or export must have the
very same tags (HTML, Markdown rendered to HTML, BBCode) whatever the names hold.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient
from markdown_it import MarkdownIt

from app.domain.player_text import balanced
from tests.helpers.documents import army
from tests.security.conftest import stored_rosters

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)' data-x='",
    "</textarea></title><svg onload=alert(1)>",
    "<!-- --><style>*{display:none}</style>",
    "javascript:alert(1)",
    "&lt;b&gt;entity&lt;/b&gt; &#x3C;i&#x3E;",
    "{{ 7*7 }} {% raw %} ${7*7}",
    "[url=javascript:alert(1)]click[/url] [img]http://evil.example/x.png[/img]",
    "[/quote][b]bold[/b][size=200]",
    "[link](javascript:alert(1)) ![x](http://evil.example/x.png) <http://evil.example>",
    "# heading | cell | *emph* _u_ `code` ~~s~~ > quote",
    "1. list\n- item\n\n---\n```\nfence",
    "a\x00b\x07c\x1b[31mred\x1b[0m\r\nsecond\u2028line",
    "\u202eexe.txt\u202c \u2066isolate\u2069 zero\u200bwidth",
    "\u202eNAME",  # an override left open: it would reverse the cost written after the name
    "\u2067\u202bopen isolate \u2069\u202c\u202c closes twice",
    "Орда 🐎 𝕬 — ‹›«»",
]
PLAIN = "Plain name"
SYSTEMS = ["chainmail", "line_and_square", "formation_density"]
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_DIRECTION = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
# Elements whose text cannot turn what follows them: <bdi>, and those a browser draws apart
# (a title, a form field's text, an option).
ISOLATING = {"bdi", "title", "textarea", "option", "script", "style"}
_NAME_REFUSES = re.compile(r"[\x00-\x1f\x7f]")
_NOTE_REFUSES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def document(ruleset: str, hostile: str) -> dict[str, Any]:
    """A roster of `ruleset` with `hostile` in every name and note a player writes, less the
    control characters each refuses (test_control_characters_are_refused_naming_the_field):
    a name takes none, a note its tabs and line breaks."""
    text, note = _NAME_REFUSES.sub("", hostile), _NOTE_REFUSES.sub("", hostile)
    if ruleset == "chainmail":
        doc = army(text)
        doc["note"] = note
        doc["units"][0].update(name=text, note=note)
        return doc
    if ruleset == "line_and_square":
        unit = {"name": text, "class": "line_infantry", "figures": 12, "speed": 6, "points": 5,
                "note": note}
    else:
        unit = {"name": text, "density": 3, "files": 5, "note": note, "lines": [
            {"class": "shock_troops", "weapon": "pike", "count": 5}]}
    return {"name": text, "ruleset": ruleset, "note": note, "units": [unit]}


class Tags(HTMLParser):
    """Every start tag with its attribute names, and the text between them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self.attributes: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        # Whether each open element keeps its text's direction to itself, and each text that
        # holds a direction control with whether it stands in such an element.
        self.isolating: list[bool] = []
        self.directed: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[(tag, tuple(sorted(name for name, _ in attrs)))] += 1
        self.attributes += [(tag, name, value or "") for name, value in attrs]
        if tag not in VOID:
            self.isolating.append(tag in ISOLATING or any(name == "dir" for name, _ in attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.isolating:
            self.isolating.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if _DIRECTION.search(data):
            self.directed.append((data, any(self.isolating)))


def parse(html: str) -> Tags:
    parser = Tags()
    parser.feed(html)
    parser.close()
    return parser


def own_tags(html: str) -> Counter[tuple[str, tuple[str, ...]]]:
    """The page's tags, less the inline SVG of the print sheet's QR code, which is drawn from
    the share link (the same for both rosters but for its random id)."""
    return parse(re.sub(r"<svg.*?</svg>", "<svg></svg>", html, flags=re.S)).tags


URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "hx-get", "hx-post"}


def check_inert_html(html: str, plain_html: str, where: str) -> None:
    found = parse(html)
    assert own_tags(html) == own_tags(plain_html), f"{where}: the tags differ"
    for text, isolated in found.directed:
        # A player's direction controls reach the page only closed, and only in an element of
        # their own (<bdi>, dir="auto"): the cost beside a name reads as written.
        assert balanced(text) == text, f"{where}: an open direction control in {text!r}"
        assert isolated, f"{where}: {text!r} is not isolated from what follows it"
    for tag, name, value in found.attributes:
        assert not name.startswith("on"), f"{where}: {tag} has {name}"
        if name in URL_ATTRIBUTES:
            assert not value.strip().lower().startswith("javascript:"), f"{where}: {tag} {name}"


def bbcode_tags(text: str) -> Counter[str]:
    return Counter(match.group(0).split("=")[0].lower()
                   for match in re.finditer(r"\[/?[a-z*]+(?:=[^\]]*)?\]", text, re.I))


MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")


def check_inert_text(text: str, where: str) -> None:
    assert not _CONTROL.search(text), f"{where}: a control or direction character got through"


class Owner:
    """A browser holding the edit grant of the rosters it stored."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def store(self, doc: dict[str, Any]) -> str:
        created = self.client.post("/api/v1/rosters", json=doc)
        assert created.status_code == 201, created.text
        body = created.json()
        assert self.client.get(f"/r/{body['id']}/edit?key={body['edit_key']}").status_code == 200
        return str(body["id"])

    def pages(self, roster_id: str) -> dict[str, str]:
        paths = {"share view": f"/r/{roster_id}", "editor": f"/r/{roster_id}/edit",
                 "print sheet": f"/r/{roster_id}/print",
                 "print sheet (ru)": f"/r/{roster_id}/print?lang=ru"}
        answers = {where: self.client.get(path) for where, path in paths.items()}
        for where, answer in answers.items():
            assert answer.status_code == 200, (where, answer.text[:300])
        return {where: answer.text for where, answer in answers.items()}

    def exports(self, roster_id: str) -> dict[str, str]:
        out = {}
        for ext in ("json", "txt", "md", "bbcode"):
            answer = self.client.get(f"/api/v1/rosters/{roster_id}/export.{ext}")
            assert answer.status_code == 200, answer.text[:300]
            disposition = answer.headers["content-disposition"]
            assert re.fullmatch(r'attachment; filename="[A-Za-z0-9._-]+"'
                                r"(; filename\*=UTF-8''[A-Za-z0-9%._~!$&'()*+,;=:@-]+)?",
                                disposition), disposition
            out[ext] = answer.text
        return out


@pytest.mark.parametrize("ruleset", SYSTEMS)
@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_names_are_shown_inert_on_every_page_and_in_every_export(
        client: TestClient, ruleset: str, hostile: str) -> None:
    owner, plain_owner = Owner(client), Owner(TestClient(client.app))
    plain_id = plain_owner.store(document(ruleset, PLAIN))
    hostile_id = owner.store(document(ruleset, hostile))
    stored = client.get(f"/api/v1/rosters/{hostile_id}").json()["document"]

    plain_pages, hostile_pages = plain_owner.pages(plain_id), owner.pages(hostile_id)
    for where, html in hostile_pages.items():
        check_inert_html(html, plain_pages[where], where)
    # Each browser's "my rosters" lists its own roster.
    check_inert_html(client.get("/").text, plain_owner.client.get("/").text, "my rosters")
    visible = unicodedata.normalize("NFC", stored["name"])
    if visible.isprintable():  # shown as text, not swallowed
        assert visible in "".join(parse(hostile_pages["share view"]).text)

    plain, exported = plain_owner.exports(plain_id), owner.exports(hostile_id)
    assert json.loads(exported["json"])["name"] == stored["name"]  # valid JSON, exact text
    for ext in ("txt", "md", "bbcode"):
        check_inert_text(exported[ext], f"export.{ext}")
    rendered, plain_rendered = MARKDOWN.render(exported["md"]), MARKDOWN.render(plain["md"])
    assert parse(rendered).tags == parse(plain_rendered).tags, rendered
    assert bbcode_tags(exported["bbcode"]) == bbcode_tags(plain["bbcode"]), exported["bbcode"]


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_names_typed_into_the_page_forms_are_shown_inert(
        client: TestClient, hostile: str) -> None:
    client.get("/")
    token = client.cookies["muster_csrf"]
    made = client.post("/rosters/new", data={"csrf": token, "name": hostile, "nation": "mongols",
                                             "ruleset": "chainmail"}, follow_redirects=False)
    if made.status_code == 422:  # a name that is blank once stripped: refused, by field
        assert "name" in made.text
        return
    assert made.status_code == 303, made.text[:300]
    roster_id = made.headers["location"].split("/")[2]
    changed = client.post(f"/r/{roster_id}/edit", data={
        "csrf": token, "version": "1", "system": "chainmail", "op": "add_unit",
        "preset": "knights", "unit_name": hostile}, headers={"HX-Request": "true"})
    assert changed.status_code == 200, changed.text[:300]
    renamed = client.post(f"/r/{roster_id}/edit", data={
        "csrf": token, "version": "2", "system": "chainmail", "op": "update_unit",
        "unit": "u1", "line": "l1", "unit_name": hostile, "figures_l1": "10",
        "troop_l1": "heavy_horse", "weapon_l1": "lance"},
        headers={"HX-Request": "true"})
    assert renamed.status_code == 200, renamed.text[:300]
    for html in (changed.text, renamed.text, client.get(f"/r/{roster_id}/edit").text):
        found = parse(html)
        assert not any(name.startswith("on") for _, name, _ in found.attributes)
        assert not any(tag in ("img", "svg", "style", "textarea") and "onerror" in str(attrs)
                       for (tag, attrs) in found.tags)
        scripts = [t for t in found.tags.elements() if t[0] == "script"]
        assert all("src" in attrs for _, attrs in scripts), "an inline script got in"


@pytest.mark.parametrize(("field", "change"), [
    ("name", lambda d: d.update(name="x" * 121)),
    ("note", lambda d: d.update(note="x" * 2001)),
    ("units[0].name", lambda d: d["units"][0].update(name="x" * 121)),
    ("units[0].note", lambda d: d["units"][0].update(note="x" * 2001)),
])
def test_over_long_text_is_refused_naming_the_field_and_nothing_is_stored(
        client: TestClient, field: str, change: Any) -> None:
    doc = army()
    change(doc)
    before = stored_rosters(client)
    for path in ("/api/v1/rosters", "/api/v1/rosters/import", "/api/v1/price"):
        refused = client.post(path, json=doc)
        assert refused.status_code == 422, (path, refused.text[:300])
        assert any(d["field"] == field for d in refused.json()["detail"]), refused.json()
    assert stored_rosters(client) == before


def test_over_long_names_in_the_page_forms_are_refused_naming_the_field(
        client: TestClient) -> None:
    client.get("/")
    token = client.cookies["muster_csrf"]
    before = stored_rosters(client)
    refused = client.post("/rosters/new", data={"csrf": token, "name": "я" * 121,
                                                "nation": "mongols", "ruleset": "chainmail"})
    assert refused.status_code == 422 and "name" in refused.text
    assert stored_rosters(client) == before
    made = client.post("/rosters/new", data={"csrf": token, "name": "Орда", "nation": "mongols",
                                             "ruleset": "chainmail"}, follow_redirects=False)
    roster_id = made.headers["location"].split("/")[2]
    too_long = client.post(f"/r/{roster_id}/edit", headers={"HX-Request": "true"}, data={
        "csrf": token, "version": "1", "system": "chainmail", "op": "add_unit",
        "preset": "knights", "unit_name": "x" * 500})
    assert too_long.status_code in (200, 422)
    if too_long.status_code == 422:
        assert "name" in too_long.text
    else:  # accepted only if cut to the limit
        units = client.get(f"/api/v1/rosters/{roster_id}").json()["document"]["units"]
        assert len(units[0]["name"]) <= 120


@pytest.mark.parametrize("body", [
    b'{"name": "\xff\xfe", "ruleset": "chainmail", "nation": "mongols"}',
    b'{"name": "\xc3\x28", "ruleset": "chainmail"}',
    b'{"name": "\xc0\xaf overlong", "ruleset": "chainmail"}',
    b'{"name": "\\ud800", "ruleset": "chainmail", "nation": "mongols"}',
])
def test_undecodable_bodies_are_refused_with_422_never_500(client: TestClient,
                                                          body: bytes) -> None:
    before = stored_rosters(client)
    headers = {"Content-Type": "application/json"}
    for path in ("/api/v1/rosters", "/api/v1/price", "/api/v1/rosters/import"):
        answer = client.post(path, content=body, headers=headers)
        assert answer.status_code == 422, (path, answer.status_code, answer.text[:300])
        assert answer.json()["detail"][0]["field"] in ("body", "name", "file")
    upload = client.post("/api/v1/rosters/import", files={"file": ("army.json", body)})
    assert upload.status_code == 422
    assert stored_rosters(client) == before


def test_undecodable_form_fields_are_never_a_server_error(client: TestClient) -> None:
    client.get("/")
    token = client.cookies["muster_csrf"]
    body = f"csrf={token}&name=%FF%FE%C3%28&nation=mongols&ruleset=chainmail".encode()
    answer = client.post("/rosters/new", content=body, follow_redirects=False, headers={
        "Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code in (303, 422), answer.text[:300]
    if answer.status_code == 303:
        roster_id = answer.headers["location"].split("/")[2]
        name = client.get(f"/api/v1/rosters/{roster_id}").json()["document"]["name"]
        name.encode("utf-8")  # stored as valid text
    upload = client.post("/rosters/import", data={"csrf": token},
                         files={"file": ("army.json", b"\xff\xfe\x00garbage")})
    assert upload.status_code == 422


@pytest.mark.parametrize("ruleset", SYSTEMS)
def test_control_characters_are_refused_naming_the_field_and_nothing_is_stored(
        client: TestClient, ruleset: str) -> None:
    doc = document(ruleset, PLAIN)
    doc["name"] = "ab\x00cd"
    for path in ("/api/v1/rosters", "/api/v1/price", "/api/v1/rosters/import"):
        answer = client.post(path, json=doc)
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"][0]["field"] == "name"
    noted = document(ruleset, PLAIN)
    noted["units"][0]["note"] = "bell\x07"
    answer = client.post("/api/v1/rosters", json=noted)
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["field"] == "units[0].note"
    assert "control characters" in answer.json()["message"]


def test_an_open_override_in_a_name_reaches_no_sentence_gettext_builds_around_it(
        client: TestClient) -> None:
    """Three sentences worded by gettext with a name inside: the casualty buttons' labels, the
    hand-in page's heading and the home page's "was deleted" notice. Each is markup once
    built, so it must be built of closed values (app/web/i18n.py: closed)."""
    from tests.helpers.events import event
    from tests.helpers.games import chainmail_army

    rlo = "\u202e"
    client.get("/")
    csrf = str(client.cookies["muster_csrf"])
    army = chainmail_army()
    army["units"][0]["name"] = rlo + "Рыцари"
    roster = client.post("/api/v1/rosters", json={**army, "name": rlo + "Войско"}).json()
    assert client.get(f"/r/{roster['id']}/edit?key={roster['edit_key']}").status_code == 200
    game = client.post("/api/v1/games", json={"roster_id": roster["id"]}).json()
    play = client.get(f"/g/{game['id']}/play?key={game['edit_key']}")
    assert play.status_code == 200 and 'aria-label="A figure of Рыцари lost"' in play.text
    made = client.post("/api/v1/events", json=event(name=rlo + "Турнир")).json()
    hand_in = client.get(f"/e/{made['id']}/hand-in?key={made['hand_in_key']}")
    assert hand_in.status_code == 200 and "Hand in a list for Турнир" in hand_in.text
    deleted = client.post(f"/r/{roster['id']}/delete", data={"csrf": csrf},
                          follow_redirects=False)
    home = client.get(deleted.headers["location"])
    assert "“Войско” was deleted." in home.text
    for page in (play, hand_in, home):
        assert rlo not in page.text, page.url
