"""Exports: JSON that imports back, and text / Markdown / BBCode that hostile names cannot break."""

from __future__ import annotations

import email.message
import html
import json
import re
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from app.domain.player_text import NOTE, VISIBLE, VISIBLE_OR_BLANK
from app.exports import (
    FORMAT,
    content_disposition,
    export_bbcode,
    export_json,
    export_markdown,
    export_text,
    one_line,
    safe_filename,
)
from app.exports.imports import parse_roster
from app.systems.chainmail import CHAINMAIL, ChainmailRoster
from app.systems.chainmail.catalogue import ENGINES, FLAGS, NATIONS, TROOPS, WEAPONS

NOW = datetime(2024, 5, 1, 12, 30, 5, tzinfo=UTC)


def make(name: str = "Plain", unit_name: str = "Archers", note: str = "",
         **extra: Any) -> ChainmailRoster:
    return ChainmailRoster.model_validate({
        "name": name, "ruleset": "chainmail", "nation": "generic", "points_limit": 200,
        "units": [
            {"name": unit_name, "note": note, "flags": ["stakes"],
             "lines": [{"troop": "light_foot", "figures": 20, "weapon": "longbow"}]},
            {"name": "Riders", "mercenary": True, "flags": ["commander"],
             "lines": [{"troop": "heavy_horse", "figures": 4, "weapon": "lance"}]},
        ],
        "engines": [{"kind": "bombard", "count": 1, "mercenary": False}],
        **extra})


# --- rosters hypothesis can make (also used by the web round-trip test) ----------------------

# Names that show a character (a unit's may be blank): app/domain/player_text.py.
names = st.text(min_size=1, max_size=40).filter(lambda s: re.search(VISIBLE, s) is not None)
lines = st.fixed_dictionaries({
    "troop": st.sampled_from(sorted(TROOPS)),
    "figures": st.integers(min_value=1, max_value=500),
    "weapon": st.sampled_from(sorted(WEAPONS)),
})
units = st.fixed_dictionaries({
    "name": st.text(max_size=30).filter(lambda s: re.search(VISIBLE_OR_BLANK, s) is not None),
    "mercenary": st.booleans(),
    "flags": st.lists(st.sampled_from(sorted(FLAGS)), unique=True, max_size=3),
    "lines": st.lists(lines, max_size=3),
    # Any text but the controls a note refuses (app/domain/player_text.py: tabs and line breaks
    # kept)
    "note": st.text(max_size=40).filter(lambda s: re.search(NOTE, s) is not None),
})
engines = st.fixed_dictionaries({
    "kind": st.sampled_from(sorted(ENGINES)),
    "count": st.integers(min_value=1, max_value=5),
    "mercenary": st.booleans(),
})
documents = st.fixed_dictionaries({
    "name": names,
    "ruleset": st.just("chainmail"),
    "nation": st.sampled_from(sorted(NATIONS)),
    "points_limit": st.one_of(st.none(), st.integers(min_value=1, max_value=5000)),
    "historical": st.booleans(),
    "fortifications": st.booleans(),
    "note": st.text(max_size=40).filter(lambda s: re.search(NOTE, s) is not None),
    "units": st.lists(units, max_size=6),
    "engines": st.lists(engines, max_size=3),
})


def rosters() -> st.SearchStrategy[ChainmailRoster]:
    return documents.map(ChainmailRoster.model_validate)


# --- JSON -------------------------------------------------------------------------------------


def test_the_json_export_is_the_roster_document_with_its_format_and_time() -> None:
    roster = make()
    exported = export_json(roster, "1.0", NOW)
    assert exported["format"] == FORMAT == "muster-roster/1"
    assert exported["ruleset_version"] == "1.0"
    assert exported["exported_at"] == "2024-05-01T12:30:05Z"
    document = {k: v for k, v in exported.items()
                if k not in ("format", "ruleset_version", "exported_at")}
    assert ChainmailRoster.model_validate(document) == roster
    json.dumps(exported)  # it is plain JSON


def test_the_export_time_is_written_in_utc_whatever_the_clock_zone() -> None:
    moscow = timezone(timedelta(hours=3))
    local = datetime(2024, 5, 1, 15, 30, 5, tzinfo=moscow)
    assert export_json(make(), "1.0", local)["exported_at"] == "2024-05-01T12:30:05Z"
    naive = datetime(2024, 5, 1, 12, 30, 5)
    assert export_json(make(), "1.0", naive)["exported_at"] == "2024-05-01T12:30:05Z"


@settings(max_examples=60, deadline=None)
@given(rosters())
def test_an_exported_roster_imports_as_the_same_document_and_the_same_price(
        roster: ChainmailRoster) -> None:
    data = json.dumps(export_json(roster, "1.0", NOW), ensure_ascii=False).encode()
    back = parse_roster(data)
    assert back == roster
    assert CHAINMAIL.evaluate(back, "en").result == CHAINMAIL.evaluate(roster, "en").result


# --- what the text formats say -----------------------------------------------------------------


def test_the_text_export_lists_units_weapons_costs_totals_and_legality() -> None:
    text = export_text(make(), "en")
    assert "1. Archers — 20 figures, 100 points [Stakes]" in text
    assert "20 × Light Foot, Longbow — 5 points each = 100 points" in text
    assert "2. Riders — 4 figures, 10 points [mercenary, Commander]" in text
    assert "1 × Bombard — 30 points" in text
    assert "Total: 140 points" in text
    assert "Points: 140 of 200 points (60 left)" in text
    # the commander stands with mercenaries: a warning, not an error
    assert text.rstrip("\n").splitlines()[-1] == "Legal, 1 warning"


def test_the_russian_text_export_uses_russian_names_and_plurals() -> None:
    text = export_text(make(), "ru")
    assert "20 × Лёгкий пехотинец, Длинный лук — 5 очков за фигуру = 100 очков" in text
    assert "4 × Тяжёлый всадник, Кавалерийское копьё — 2,5 очка за фигуру" in text
    assert "Итого: 140 очков" in text
    assert text.rstrip("\n").splitlines()[-1] == "По правилам, 1 предупреждение"


def test_an_illegal_list_says_how_many_errors_in_every_format() -> None:
    roster = make(points_limit=50)
    for export in (export_text, export_markdown, export_bbcode):
        assert "Not legal: 1 error, 1 warning" in export(roster, "en")
        assert "Не по правилам: 1 ошибка, 1 предупреждение" in export(roster, "ru")


def test_the_markdown_export_renders_as_a_table_of_units() -> None:
    rendered = MarkdownIt("commonmark").enable("table").render(export_markdown(make(), "en"))
    assert "<h1>Plain</h1>" in rendered
    assert "<td>Archers (Stakes)</td>" in rendered
    assert "<td>20 × Light Foot, Longbow — 5 points each</td>" in rendered
    assert "<td>Bombard</td>" in rendered


def test_the_bbcode_export_is_a_numbered_list_with_bold_names() -> None:
    out = export_bbcode(make(), "en")
    assert "[list=1]" in out and "[*][b]Archers[/b] — 20 figures, 100 points" in out
    assert "[b]Total: 140 points[/b]" in out


# --- hostile names ----------------------------------------------------------------------------

HOSTILE = [
    "[url=http://evil.example]click[/url]",
    "**bold** _em_ `code` ~~gone~~",
    "a | b | c",
    "<script>alert(1)</script>",
    "line one\nline two\r\nLegal",
    "bell\x07 escape\x1b[31m null\x00 tab\t",
    "\u202eevil.exe",
    "# heading",
    "[x](javascript:alert(1))",
    "![img](http://evil.example/y.png)",
    "&lt;b&gt; &amp;",
    "1. numbered",
    "> quote",
    "[/list][b]",
    "\\*",
]

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def tags(rendered_html: str) -> Counter[str]:
    return Counter(re.findall(r"<(/?[a-z0-9]+)", rendered_html))


def bb_tags(text: str) -> Counter[str]:
    return Counter(re.findall(r"\[(/?[a-z*]+)", text, flags=re.IGNORECASE))


def hostile(name: str) -> ChainmailRoster:
    """`name` in every text of a roster. Written past validation, which refuses control
    characters now: the writers must stay inert for whatever a document holds."""
    roster = make()
    units = [roster.units[0].model_copy(update={"name": name[:120], "note": name}),
             *roster.units[1:]]
    return roster.model_copy(update={"name": name, "units": units})


BENIGN = hostile("Plain")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_cannot_change_the_markdown(name: str) -> None:
    plain = MD.render(export_markdown(BENIGN, "en"))
    rendered = MD.render(export_markdown(hostile(name), "en"))
    assert tags(rendered) == tags(plain)
    heading = re.search(r"<h1>(.*)</h1>", rendered)
    assert heading is not None
    assert html.unescape(heading.group(1)) == one_line(name)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_cannot_open_a_bbcode_tag(name: str) -> None:
    assert bb_tags(export_bbcode(hostile(name), "en")) == bb_tags(export_bbcode(BENIGN, "en"))


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_cannot_add_lines_or_control_characters_to_the_text(name: str) -> None:
    out = export_text(hostile(name), "en")
    assert len(out.splitlines()) == len(export_text(BENIGN, "en").splitlines())
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f\u202e]", out)


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=60).filter(lambda s: re.search(VISIBLE, s) is not None))
def test_no_name_whatever_changes_the_shape_of_any_export(name: str) -> None:
    roster = hostile(name)
    assert tags(MD.render(export_markdown(roster, "en"))) == tags(
        MD.render(export_markdown(BENIGN, "en")))
    assert bb_tags(export_bbcode(roster, "en")) == bb_tags(export_bbcode(BENIGN, "en"))
    assert len(export_text(roster, "en").splitlines()) == len(
        export_text(BENIGN, "en").splitlines())


# --- file names -------------------------------------------------------------------------------

SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.[a-z0-9]+$")


@pytest.mark.parametrize(("name", "expected"), [
    ("Орда Субэдэя", "Orda-Subedeya.json"),
    ("English army", "English-army.json"),
    ("../../etc/passwd", "etc-passwd.json"),
    ('quote"and;semicolon', "quote-and-semicolon.json"),
    ("...", "roster.json"),
    ("   ", "roster.json"),
    ("CON", "CON-roster.json"),
])
def test_file_names_are_ascii_transliterated_and_safe(name: str, expected: str) -> None:
    assert safe_filename(name, "json") == expected


@settings(max_examples=200)
@given(st.text(max_size=300), st.sampled_from(["json", "txt", "md", "bbcode"]))
def test_every_file_name_is_safe_whatever_the_roster_is_called(name: str, ext: str) -> None:
    filename = safe_filename(name, ext)
    assert SAFE.match(filename), filename
    assert filename.endswith(f".{ext}")
    assert len(filename) <= 60 + 1 + len(ext)


def test_the_download_header_keeps_the_players_own_name_for_browsers_that_read_it() -> None:
    header = content_disposition("Орда Субэдэя / 2", "txt")
    assert header.isascii()
    message = email.message.Message()
    message["Content-Disposition"] = header
    assert message.get_content_disposition() == "attachment"
    assert message.get_filename() == "Orda-Subedeya-2.txt"
    # RFC 6266: browsers prefer filename* (RFC 5987) when it is there
    own = re.search(r"filename\*=UTF-8''([^;\s]+)", header)
    assert own is not None and unquote(own.group(1)) == "Орда-Субэдэя-2.txt"
