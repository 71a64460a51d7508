"""The army sheet: header figures, units, thresholds, and only the reference a roster uses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.base import Issue, Severity
from app.domain.translations import legality_text, tr
from app.systems.chainmail import ChainmailRoster, army_sheet
from app.systems.chainmail.sheet import (
    NATION_NOTES,
    OPTIONAL,
    UnknownSection,
    thresholds,
)


def line(troop: str = "heavy_foot", figures: int = 10, weapon: str = "none") -> dict[str, Any]:
    return {"troop": troop, "figures": figures, "weapon": weapon}


def unit(*lines: dict[str, Any], name: str = "", mercenary: bool = False,
         flags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"name": name, "mercenary": mercenary, "flags": list(flags),
            "lines": list(lines) or [line()]}


def roster(*units: dict[str, Any], nation: str = "generic", **extra: Any) -> ChainmailRoster:
    return ChainmailRoster.model_validate(
        {"name": "Test army", "ruleset": "chainmail", "nation": nation,
         "units": list(units) or [unit()], **extra})


def section_ids(r: ChainmailRoster, **kwargs: Any) -> set[str]:
    return set(army_sheet(r, **kwargs).section_ids)


def test_a_plain_roster_prints_no_reference_sections() -> None:
    assert section_ids(roster()) == set()


# Each case: a roster that uses the rule, and the section it must bring onto the sheet.
USES = {
    "mercenary unit": (roster(unit(mercenary=True)), "table16_mercenaries"),
    "mercenary engine only": (roster(unit(), engines=[{"kind": "bombard", "count": 1,
                                                        "mercenary": True}]),
                              "table16_mercenaries"),
    "peasants": (roster(unit(line("peasant", 30))), "table17_peasants"),
    "knights": (roster(unit(line("heavy_horse", 10, "lance"), flags=("knights",))), "knights"),
    "commander": (roster(unit(flags=("commander",))), "commander"),
    "flemish": (roster(unit(line("militia", 20, "pike"), flags=("flemish",))), "flemish"),
    "religious order": (roster(unit(line("heavy_horse"), flags=("religious_order",))),
                        "religious_order"),
    "stakes": (roster(unit(line("light_foot", 20, "longbow"), flags=("stakes",))),
               "longbow_stakes"),
}


@pytest.mark.parametrize("case", list(USES))
def test_a_section_is_printed_exactly_when_the_roster_uses_it(case: str) -> None:
    used, section = USES[case]
    assert section in section_ids(used)
    assert section not in section_ids(roster())
    # and nothing else that this roster does not use comes with it
    others = {s for _, s in USES.values()} - {section}
    assert not others & section_ids(used)


def test_an_unhired_engine_does_not_bring_the_mercenary_table() -> None:
    r = roster(unit(), engines=[{"kind": "bombard", "count": 2, "mercenary": False}])
    assert "table16_mercenaries" not in section_ids(r)


def test_the_mercenary_section_names_the_units_it_concerns() -> None:
    r = roster(unit(name="Genoese", mercenary=True), unit(name="Levy"),
               engines=[{"kind": "bombard", "count": 1, "mercenary": True}])
    section = army_sheet(r).section("table16_mercenaries")
    assert section is not None
    assert section.units == ("Genoese", "Bombard")
    assert [row[0] for row in section.rows] == ["1", "2", "3", "4–6"]


@pytest.mark.parametrize("nation", sorted(NATION_NOTES))
def test_a_nation_with_notes_prints_them_and_no_other_nations(nation: str) -> None:
    ids = section_ids(roster(nation=nation))
    assert {i for i in ids if i.startswith("nation_")} == {f"nation_{nation}"}


@pytest.mark.parametrize("nation", ["generic", "china", "korea", "japan"])
def test_nations_without_notes_print_no_national_section(nation: str) -> None:
    assert not {i for i in section_ids(roster(nation=nation)) if i.startswith("nation_")}


def test_table_18_footnotes_appear_only_for_the_categories_present() -> None:
    chinese_crossbows = army_sheet(roster(unit(line("light_foot", 10, "crossbow")),
                                          nation="china"))
    notes = chinese_crossbows.section("table18_notes")
    assert notes is not None and len(notes.notes) == 1
    assert "Chu-ko-nu" in notes.notes[0]

    chinese_spears = roster(unit(line("light_foot", 10, "none")), nation="china")
    assert "table18_notes" not in section_ids(chinese_spears)

    japanese_horse = army_sheet(roster(unit(line("medium_horse", 10, "lance")), nation="japan"))
    notes = japanese_horse.section("table18_notes")
    assert notes is not None and len(notes.notes) == 1
    assert notes.notes[0].startswith("***")

    # Under the table's own title («Таблица 18: Страны Восточной Азии»).
    assert notes.title == "Table 18: East Asian countries (notes)"
    russian = army_sheet(roster(unit(line("medium_horse", 10, "lance")), nation="japan"), "ru")
    assert russian.section("table18_notes").title == (  # type: ignore[union-attr]
        "Таблица 18: Страны Восточной Азии (примечания)")

    # Korean crossbowmen are no chu-ko-nu: the footnote is China's alone.
    korean_crossbows = roster(unit(line("light_foot", 10, "crossbow")), nation="korea")
    assert "table18_notes" not in section_ids(korean_crossbows)


@pytest.mark.parametrize("nation", ["china", "korea", "japan"])
def test_table_19_is_printed_for_the_far_east_only(nation: str) -> None:
    assert "table19_morale" in section_ids(roster(nation=nation))


@pytest.mark.parametrize("nation", ["generic", "mongols", "poles"])
def test_table_19_is_not_printed_elsewhere(nation: str) -> None:
    assert "table19_morale" not in section_ids(roster(nation=nation))


def test_the_table_19_section_lists_only_the_nations_own_ratings() -> None:
    section = army_sheet(roster(nation="korea")).section("table19_morale")
    assert section is not None
    assert section.rows == (("Infantry", "5"), ("Cavalry", "6"))


# Table 19 of the rules page, unit by unit.
RATINGS = [
    ("china", unit(line("light_foot")), 4),
    ("china", unit(line("light_foot"), flags=("elite",)), 5),
    ("china", unit(line("medium_horse", 5, "lance")), 5),
    ("china", unit(line("medium_horse", 5, "lance"), flags=("elite",)), 6),
    ("korea", unit(line("heavy_foot")), 5),
    ("korea", unit(line("heavy_foot"), flags=("elite",)), 5),  # Korea has no elite rating
    ("korea", unit(line("light_horse", 5)), 6),
    ("japan", unit(line("light_foot")), 6),
    ("japan", unit(line("medium_horse", 5)), 7),
    ("japan", unit(line("heavy_foot"), flags=("samurai",)), 9),
    ("japan", unit(line("medium_horse", 5), flags=("samurai",)), 9),
    ("japan", unit(line("armored_foot")), 9),  # Table 18: Japanese armored foot are samurai
]


@pytest.mark.parametrize(("nation", "the_unit", "rating"), RATINGS)
def test_far_east_units_carry_their_table_19_rating(nation: str, the_unit: dict[str, Any],
                                                    rating: int) -> None:
    sheet_unit = army_sheet(roster(the_unit, nation=nation)).units[0]
    assert sheet_unit.rating is not None
    assert sheet_unit.rating.value == rating


def test_units_outside_the_far_east_or_mixing_foot_and_horse_have_no_rating() -> None:
    assert army_sheet(roster(unit())).units[0].rating is None
    mixed = unit(line("light_foot"), line("light_horse"))
    assert army_sheet(roster(mixed, nation="china")).units[0].rating is None


def test_the_rating_label_is_in_the_sheets_language() -> None:
    r = roster(unit(line("heavy_foot"), flags=("samurai",)), nation="japan")
    rating = army_sheet(r, "ru").units[0].rating
    assert rating is not None and rating.label == "Самураи"


def test_optional_sections_appear_only_when_ticked() -> None:
    r = roster()
    assert not set(OPTIONAL) & section_ids(r)
    assert section_ids(r, optional=["weather"]) == {"weather"}
    assert section_ids(r, optional=["baggage", "weather"]) == {"baggage", "weather"}
    offered = {sid for sid, _ in army_sheet(r).optional_offered}
    assert offered == {"baggage", "weather"}


def test_an_unknown_optional_section_is_refused_by_name() -> None:
    with pytest.raises(UnknownSection, match="sieges"):
        army_sheet(roster(), optional=["sieges"])


def test_the_header_adds_up_the_roster() -> None:
    r = roster(unit(line("light_foot", 20, "longbow")),
               unit(line("heavy_horse", 5, "lance"), mercenary=True),
               points_limit=150,
               engines=[{"kind": "light_cannon", "count": 2, "mercenary": False}])
    sheet = army_sheet(r)
    # 20 × (1 + 4) + 5 × 5 / 2 + 2 × 15
    assert sheet.total == "142.5"
    assert sheet.remaining == "7.5"
    assert not sheet.over_limit
    assert (sheet.figures, sheet.foot, sheet.horse, sheet.engine_count) == (25, 20, 5, 2)
    assert sheet.units[1].lines[0].cost_per_figure == "2.5"
    assert sheet.units[1].cost == "12.5"
    assert [u.casualty_boxes for u in sheet.units] == [20, 5]


def test_an_army_over_its_limit_says_so() -> None:
    sheet = army_sheet(roster(unit(line("heavy_horse", 30)), points_limit=100))
    assert sheet.over_limit
    assert not sheet.valid
    assert sheet.legality.startswith("Not legal: 1 error")


def test_units_without_a_name_are_numbered_in_the_sheets_language() -> None:
    r = roster(unit(name="Guard"), unit())
    assert [u.name for u in army_sheet(r).units] == ["Guard", "Unit 2"]
    assert [u.name for u in army_sheet(r, "ru").units] == ["Guard", "Отряд 2"]


@pytest.mark.parametrize(("figures", "lost"), [(0, 0), (1, 1), (3, 1), (10, 4), (30, 10),
                                               (31, 11)])
def test_the_morale_test_falls_due_at_a_full_third_of_the_army(figures: int, lost: int) -> None:
    assert thresholds(figures).one_third_lost == lost
    assert thresholds(figures).standing_at_test == figures - lost


@given(st.integers(min_value=1, max_value=10**6))
def test_the_threshold_is_the_first_loss_count_reaching_one_third(figures: int) -> None:
    lost = thresholds(figures).one_third_lost
    assert 3 * lost >= figures
    assert 3 * (lost - 1) < figures


@pytest.mark.parametrize(("errors", "warnings", "en", "ru"), [
    (0, 0, "Legal", "По правилам"),
    (0, 1, "Legal, 1 warning", "По правилам, 1 предупреждение"),
    (1, 0, "Not legal: 1 error", "Не по правилам: 1 ошибка"),
    (2, 1, "Not legal: 2 errors, 1 warning", "Не по правилам: 2 ошибки, 1 предупреждение"),
    (5, 5, "Not legal: 5 errors, 5 warnings", "Не по правилам: 5 ошибок, 5 предупреждений"),
    (21, 0, "Not legal: 21 errors", "Не по правилам: 21 ошибка"),
])
def test_legality_reads_as_one_line_in_both_languages(errors: int, warnings: int, en: str,
                                                      ru: str) -> None:
    issues = ([Issue("x", Severity.error, "")] * errors
              + [Issue("y", Severity.warning, "")] * warnings
              + [Issue("z", Severity.info, "")])
    severities = [i.severity for i in issues]
    assert legality_text(severities, "en") == en
    assert legality_text(severities, "ru") == ru


def every_section_roster() -> ChainmailRoster:
    return roster(
        unit(line("heavy_horse", 10, "lance"), flags=("knights", "commander", "religious_order"),
             mercenary=True),
        unit(line("militia", 20, "pike"), flags=("flemish",)),
        unit(line("light_foot", 20, "longbow"), flags=("stakes",)),
        unit(line("peasant", 20)),
        nation="scots")


def test_the_russian_sheet_is_in_the_seeds_words() -> None:
    sheet = army_sheet(every_section_roster(), "ru", optional=["baggage", "weather"])
    titles = {s.id: s.title for s in sheet.sections}
    assert titles["table16_mercenaries"] == "Таблица 16: Дисциплина Наёмников"
    assert titles["table17_peasants"] == "Таблица 17: Дисциплина Крестьян"
    assert titles["weather"] == "Таблица 20: Погода"
    assert titles["religious_order"] == "Религиозные Рыцарские Ордена"
    mercenaries = sheet.section("table16_mercenaries")
    assert mercenaries is not None
    assert mercenaries.rows[0][1] == "Плати больше! Стоят на месте и бездействуют."
    knights = sheet.section("knights")
    assert knights is not None and knights.rows[-1] == ("9", "Пикинёры")
    # The order named in full, as the seed heads its rule.
    assert sheet.units[0].flag_names == ("Рыцари", "Главнокомандующий",
                                         "Религиозные Рыцарские Ордена")


def test_every_section_has_its_text_in_both_languages() -> None:
    r = every_section_roster()
    en = army_sheet(r, "en", optional=list(OPTIONAL))
    ru = army_sheet(r, "ru", optional=list(OPTIONAL))
    assert en.section_ids == ru.section_ids
    for s_en, s_ru in zip(en.sections, ru.sections, strict=True):
        assert s_en.title and s_ru.title and s_en.title != s_ru.title
        assert len(s_en.paragraphs) == len(s_ru.paragraphs)
        assert len(s_en.rows) == len(s_ru.rows)
        for text in (s_ru.title, *s_ru.paragraphs, *s_ru.notes):
            assert any("а" <= ch <= "я" for ch in text.lower()), text


def test_the_sheet_words_come_from_the_catalogue() -> None:
    assert tr("ru", "Knights") == "Рыцари"
    assert tr("en", "Knights") == "Knights"
