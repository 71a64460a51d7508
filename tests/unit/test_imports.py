"""Importing a roster file: taken whole, or refused whole with the field that is wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.exports import export_json
from app.exports.imports import ImportRefused, parse_roster
from app.systems.chainmail import ChainmailRoster
from tests.unit.test_exports import NOW, make


def document(**changes: Any) -> dict[str, Any]:
    base = {"name": "Орда Субэдэя", "ruleset": "chainmail", "nation": "mongols",
            "points_limit": 300,
            "units": [{"name": "Кешиг", "flags": ["commander"],
                       "lines": [{"troop": "medium_horse", "figures": 10, "weapon": "lance"}]}],
            "engines": [{"kind": "bombard", "count": 1}]}
    return {**base, **changes}


def encoded(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def refusal(data: bytes, lang: str = "en") -> ImportRefused:
    with pytest.raises(ImportRefused) as caught:
        parse_roster(data, lang)  # type: ignore[arg-type]
    return caught.value


def test_a_bare_roster_document_is_accepted() -> None:
    roster = parse_roster(encoded(document()))
    assert roster == ChainmailRoster.model_validate(document())


def test_an_export_is_accepted_without_its_format_fields() -> None:
    exported = export_json(make(), "1.0", NOW)
    assert parse_roster(encoded(exported)) == make()


def test_a_file_saved_with_a_byte_order_mark_is_accepted() -> None:
    assert parse_roster(b"\xef\xbb\xbf" + encoded(document())).name == "Орда Субэдэя"


def test_a_file_that_is_not_utf8_is_refused() -> None:
    refused = refusal(json.dumps(document(), ensure_ascii=False).encode("cp1251"))
    assert refused.detail[0]["field"] == "file"
    assert refused.message.startswith("file: not UTF-8 text")


def test_a_file_that_is_not_json_is_refused_with_the_place() -> None:
    refused = refusal(b'{"name": "x",\n  "ruleset": }')
    assert refused.message.startswith("file: not JSON")
    assert "line 2" in refused.message


@pytest.mark.parametrize(("data", "what"), [
    (b"[]", "a list"), (b'"roster"', "a string"), (b"42", "a number"), (b"null", "null"),
])
def test_json_that_is_not_an_object_is_refused(data: bytes, what: str) -> None:
    refused = refusal(data)
    assert refused.detail[0]["field"] == "file"
    assert refused.message.endswith(f"not {what}")


def test_an_unknown_format_version_is_refused_naming_the_format() -> None:
    refused = refusal(encoded({**document(), "format": "muster-roster/2"}))
    assert refused.detail[0]["field"] == "format"
    assert "muster-roster/2" in refused.message and "muster-roster/1" in refused.message


def test_an_export_with_a_malformed_stamp_is_refused() -> None:
    data = encoded({**document(), "format": "muster-roster/1", "exported_at": 17})
    assert refusal(data).detail[0]["field"] == "exported_at"


@pytest.mark.parametrize(("changes", "field"), [
    ({"nation": "atlantis"}, "nation"),
    ({"units": [{"lines": [{"troop": "elf", "figures": 3}]}]}, "units[0].lines[0].troop"),
    ({"units": [{"lines": [{"troop": "light_foot", "figures": 3, "weapon": "laser"}]}]},
     "units[0].lines[0].weapon"),
    ({"units": [{"flags": ["wizard"]}]}, "units[0].flags[0]"),
    ({"engines": [{"kind": "trebuchet", "count": 1}]}, "engines[0].kind"),
    ({"units": [{"lines": [{"troop": "light_foot", "figures": 0}]}]},
     "units[0].lines[0].figures"),
    ({"units": [{"lines": [{"troop": "light_foot", "figures": 10**9}]}]},
     "units[0].lines[0].figures"),
    ({"points_limit": -5}, "points_limit"),
    ({"name": ""}, "name"),
    ({"name": "x" * 1000}, "name"),
    ({"ruleset": "warhammer"}, "ruleset"),
    ({"colour": "red"}, "colour"),
])
def test_a_broken_document_is_refused_naming_the_field(changes: dict[str, Any],
                                                       field: str) -> None:
    refused = refusal(encoded(document(**changes)))
    assert field in [d["field"] for d in refused.detail]
    assert f"{field}: " in refused.message


def test_a_document_without_a_ruleset_is_refused() -> None:
    data = document()
    del data["ruleset"]
    assert refusal(encoded(data)).detail[0]["field"] == "ruleset"


def test_every_problem_is_listed_not_just_the_first() -> None:
    refused = refusal(encoded(document(nation="atlantis", points_limit=0)))
    assert {d["field"] for d in refused.detail} == {"nation", "points_limit"}


def test_absurdly_nested_json_is_refused_not_crashed() -> None:
    refused = refusal(b"[" * 100_000 + b"]" * 100_000)
    assert refused.detail[0]["field"] == "file"


def test_refusals_of_the_file_itself_speak_russian_when_asked() -> None:
    assert "не JSON" in refusal(b"{", "ru").message
    assert "объектом JSON" in refusal(b"[]", "ru").message
