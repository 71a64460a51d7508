"""Names that show nothing are refused: the lists of invisible characters are Unicode's, and
pydantic (which checks a name) and Python's `re` (which reads the JSON Schema's pattern, as the
fuzzer does) agree on every character."""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Annotated, Any

import pytest
from pydantic import StringConstraints, TypeAdapter, ValidationError

from app.domain import player_text
from app.systems.chainmail import ChainmailRoster
from app.systems.formation_density.roster import FormationDensityRoster
from app.systems.line_and_square.roster import LineAndSquareRoster

EVERY_CHARACTER = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), which unicodedata lacks.
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]


def codes(ranges: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> set[int]:
    return {code for low, high in ranges for code in range(low, high + 1)}


SPACES = "".join(map(chr, sorted(codes(player_text.WHITE_SPACE))))


def refused(kind: Any, texts: list[str]) -> set[str]:
    """The texts pydantic refuses as `kind`."""
    try:
        TypeAdapter(list[kind]).validate_python(texts)
    except ValidationError as error:
        return {texts[e["loc"][0]] for e in error.errors()}
    return set()


def test_invisible_characters_are_controls_format_characters_separators_and_ignorables(
) -> None:
    expected = codes(DEFAULT_IGNORABLE) | {
        ord(ch) for ch in EVERY_CHARACTER
        if unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp")}
    assert codes(player_text.INVISIBLE) == expected


def test_white_space_is_what_pydantic_strips_around_a_name() -> None:
    stripped = TypeAdapter(list[Annotated[str, StringConstraints(strip_whitespace=True)]]
                           ).validate_python(EVERY_CHARACTER)
    assert codes(player_text.WHITE_SPACE) == {
        ord(ch) for ch, left in zip(EVERY_CHARACTER, stripped, strict=True) if not left}


@pytest.mark.parametrize(("kind", "pattern"), [
    (player_text.RosterName, player_text.VISIBLE),
    (player_text.UnitName, player_text.VISIBLE_OR_BLANK)])
def test_pydantic_and_the_json_schemas_pattern_refuse_the_same_characters(
        kind: Any, pattern: str) -> None:
    invisible = {chr(code) for code in codes(player_text.INVISIBLE)}
    # Among spaces and invisible characters, with a visible one either side of each range.
    edges = {chr(code) for low, high in player_text.INVISIBLE for code in (low - 1, high + 1)
             if code >= 0}
    # Framed by spaces that are not controls: the pattern is tried on the raw text here, and
    # pydantic tries it on the stripped one.
    framed = [f" {ch}\u200b\u3000" for ch in sorted(invisible | edges)]
    by_pattern = {text for text in EVERY_CHARACTER + framed if not re.search(pattern, text)}
    assert refused(kind, EVERY_CHARACTER + framed) == by_pattern
    # A control character is refused even beside a visible one.
    controlled = {f" {ch}\u200b\u3000" for ch in edges if ord(ch) in codes(player_text.CONTROLS)}
    if kind is player_text.RosterName:
        assert by_pattern == invisible | {f" {ch}\u200b\u3000" for ch in invisible} | controlled
    else:  # a unit may be left unnamed: spaces alone are stripped to ""
        blank = {chr(code) for code in codes(player_text.WHITE_SPACE)}
        assert by_pattern == (invisible - blank) | {
            f" {ch}\u200b\u3000" for ch in invisible} | controlled


@pytest.mark.parametrize("name", ["\u200b", "\u200c\u200d", "\u2060", "\ufeff", " \u200b ",
                                  "\u3164", "\x1c", "\u00ad\u202e", "\U000e0041"])
def test_a_name_of_invisible_characters_is_refused_naming_it_in_every_rule_system(
        name: str) -> None:
    units = {"chainmail": {}, "line_and_square": {"class": "line_infantry", "figures": 12,
                                                  "speed": 6, "points": 5},
             "formation_density": {"density": 3, "files": 5, "lines": [
                 {"class": "shock_troops", "weapon": "pike", "count": 5}]}}
    models = {"chainmail": ChainmailRoster, "line_and_square": LineAndSquareRoster,
              "formation_density": FormationDensityRoster}
    for system, unit in units.items():
        model = models[system]
        for doc, where in (({"name": name, "ruleset": system}, ("name",)),
                           ({"name": "Орда", "ruleset": system,
                             "units": [{**unit, "name": name}]}, ("units", 0, "name"))):
            with pytest.raises(ValidationError) as refusal:
                model.model_validate(doc)
            [error] = refusal.value.errors()
            assert error["loc"] == where and error["ctx"]["pattern"] in player_text.PATTERNS
        if ord(name[0]) in codes(player_text.CONTROLS):
            continue  # refused beside a visible character too (the test below)
        # A name with something to see keeps its invisible characters; a unit may be unnamed.
        kept = model.model_validate({"name": f"a{name}", "ruleset": system, "units": [
            {**unit, "name": f"{name}b"}, {**unit, "name": " "}, unit]})
        assert kept.name == f"a{name}".strip(SPACES)
        assert [u.name for u in kept.units] == [f"{name}b".strip(SPACES), "", ""]


def test_a_stored_document_with_invisible_names_is_mended_and_others_are_left() -> None:
    stored = {"name": "\u200b", "ruleset": "chainmail", "units": [
        {"name": "\ufeff"}, {"name": ""}, {"name": "Кешиг\u200d"}, {"name": "  "}]}
    assert player_text.mended(stored) == {
        "name": player_text.UNNAMED, "ruleset": "chainmail", "units": [
        {"name": ""}, {"name": ""}, {"name": "Кешиг\u200d"}, {"name": "  "}]}
    assert stored["name"] == "\u200b"  # the caller's document is left as it was
    assert player_text.mended({"name": "Орда", "ruleset": "chainmail", "units": [{"name": " "}]}) \
        is None
    for odd in (None, [], "x", {"units": "x"}, {"units": [1, None]}, {"name": 5}):
        assert player_text.mended(odd) is None


SYSTEM_UNITS: dict[str, dict[str, Any]] = {
    "chainmail": {},
    "line_and_square": {"class": "line_infantry", "figures": 12, "speed": 6, "points": 5},
    "formation_density": {"density": 3, "files": 5, "lines": [
        {"class": "shock_troops", "weapon": "pike", "count": 5}]}}
MODELS = {"chainmail": ChainmailRoster, "line_and_square": LineAndSquareRoster,
          "formation_density": FormationDensityRoster}


@pytest.mark.parametrize("system", list(MODELS))
@pytest.mark.parametrize("control", ["\x00", "\x01", "\x08", "\x1b", "\x1f", "\x7f"])
def test_a_control_character_in_any_text_is_refused_naming_the_field(
        system: str, control: str) -> None:
    unit = SYSTEM_UNITS[system]
    text = f"ab{control}cd"
    for doc, where in (({"name": text, "ruleset": system}, ("name",)),
                       ({"name": "Орда", "ruleset": system, "units": [{**unit, "name": text}]},
                        ("units", 0, "name")),
                       ({"name": "Орда", "ruleset": system, "units": [{**unit, "note": text}]},
                        ("units", 0, "note"))):
        with pytest.raises(ValidationError) as refusal:
            MODELS[system].model_validate(doc)
        [error] = refusal.value.errors()
        assert error["loc"] == where and error["type"] == "string_pattern_mismatch"


@pytest.mark.parametrize("system", list(MODELS))
def test_a_note_keeps_its_tabs_and_line_breaks_and_a_name_does_not_take_them(
        system: str) -> None:
    unit = SYSTEM_UNITS[system]
    note = "first\tline\r\nsecond\nthird"
    kept = MODELS[system].model_validate({"name": "Орда", "ruleset": system,
                                          "units": [{**unit, "note": note}]})
    assert kept.units[0].note == note
    for inside in ("\t", "\n", "\r"):
        with pytest.raises(ValidationError):
            MODELS[system].model_validate({"name": f"Ор{inside}да", "ruleset": system})


def test_a_stored_document_with_control_characters_is_read_without_them() -> None:
    stored = {"name": "Орда\x00Батыя", "ruleset": "chainmail", "units": [
        {"name": "\x00", "note": "a\tb\x00\r\n"}, {"name": "Кешиг\x1b[31m"}]}
    assert player_text.mended(stored) == {"name": "ОрдаБатыя", "ruleset": "chainmail", "units": [
        {"name": "", "note": "a\tb\r\n"}, {"name": "Кешиг[31m"}]}
