"""Formation Density: ranks and losses, derived figures, every rule code of §3, the result."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from pydantic import ValidationError

from app.systems import SYSTEMS
from app.systems.formation_density import FormationDensityRoster, Unit, evaluate
from app.systems.formation_density.figures import unit_figures
from app.systems.formation_density.formation import Ranks


def line(kind: str, weapon: str, count: int, **flags: bool) -> dict[str, Any]:
    return {"class": kind, "weapon": weapon, "count": count, **flags}


def unit(density: int = 3, files: int = 10, *lines: dict[str, Any], **extra: Any) -> dict:
    return {"density": density, "files": files,
            "lines": list(lines) or [line("shock_troops", "spear", 20)], **extra}


def roster(*units: dict[str, Any], limit: int | None = None) -> FormationDensityRoster:
    return FormationDensityRoster.model_validate(
        {"name": "Тест", "ruleset": "formation_density", "points_limit": limit,
         "units": list(units)})


def codes(r: FormationDensityRoster, lang: str = "en") -> dict[str, str]:
    return {c.code: c.status.value for c in evaluate(r, lang).checks}  # type: ignore[arg-type]


# ---------------------------------------------------------------- ranks

@pytest.mark.parametrize(("warriors", "files", "ranks", "full", "front"), [
    (30, 10, 3, 3, 10), (25, 10, 3, 2, 10), (7, 10, 1, 0, 7), (1, 1, 1, 1, 1),
    (500, 50, 10, 10, 50),
])
def test_ranks_and_full_ranks_follow_the_count_and_files(warriors: int, files: int, ranks: int,
                                                         full: int, front: int) -> None:
    figures = unit_figures(Unit.model_validate(
        unit(3, files, line("melee_specialists", "sword", warriors))))
    assert (figures.ranks, figures.full_ranks, figures.front_rank) == (ranks, full, front)


def test_the_first_line_stands_in_front() -> None:
    figures = unit_figures(Unit.model_validate(unit(
        3, 10, line("melee_specialists", "sword", 6), line("shooters", "improvised", 12))))
    assert figures.front == (6, 4)


def test_losses_come_from_the_longest_rank_the_first_rank_first() -> None:
    # Two ranks of 3: first loss from rank 1, second from rank 2, third from rank 1 again.
    ranks = Ranks(Unit.model_validate(unit(3, 3, line("shock_troops", "spear", 6))).lines, 3)
    fronts = [s.strikers for s in ranks.standings(6)]
    assert fronts == [3, 2, 2, 1, 1, 0, 0]


def test_a_short_rear_rank_is_spared_until_the_others_are_as_short() -> None:
    # Ranks 4, 4, 2: losses go to rank 1, rank 2, rank 1, rank 2; then rank 1, 2, 3 in turn.
    ranks = Ranks(Unit.model_validate(unit(3, 4, line("shock_troops", "spear", 10))).lines, 4)
    fronts = [s.strikers for s in ranks.standings(7)]
    assert fronts == [4, 3, 3, 2, 2, 1, 1, 1]


def test_the_front_rank_loses_its_last_line_first() -> None:
    ranks = Ranks(Unit.model_validate(unit(3, 4, line("melee_specialists", "axe", 2),
                                           line("melee_specialists", "sword", 2))).lines, 4)
    assert [s.front for s in ranks.standings(4)] == [(2, 2), (2, 1), (2, 0), (1, 0), (0, 0)]


def test_a_rank_that_lost_a_warrior_no_longer_earns_the_pike_bonus() -> None:
    ranks = Ranks(Unit.model_validate(unit(3, 10, line("shock_troops", "pike", 30))).lines, 10)
    assert [s.extra_hits for s in ranks.standings(4)] == [4, 4, 2, 0, 0]


def test_pike_and_spear_bonus_counts_only_ranks_made_wholly_of_them() -> None:
    def bonus(*lines: dict[str, Any], files: int = 10) -> int:
        return unit_figures(Unit.model_validate(unit(3, files, *lines))).extra_hits

    assert bonus(line("shock_troops", "pike", 40)) == 6
    assert bonus(line("shock_troops", "spear", 40)) == 3
    # Ranks: 10 pikes | 5 pikes + 5 spears | 10 spears | 5 swords + 5 spears (no bonus).
    assert bonus(line("shock_troops", "pike", 15), line("shock_troops", "spear", 20),
                 line("melee_specialists", "sword", 5), line("shock_troops", "spear", 5)) == 2
    # One warrior per rank: every rank behind the first is full.
    assert bonus(line("shock_troops", "pike", 500), files=1) == 998


# ---------------------------------------------------------------- derived figures

def test_hit_chance_shield_wall_and_features_of_a_unit() -> None:
    figures = unit_figures(Unit.model_validate(unit(
        4, 10, line("shock_troops", "spear", 20, shield=True),
        line("shock_cavalry", "cavalry_lance", 5, shield=True, mounted=True,
             moved_straight=True))))
    assert figures.hit_chances == (F(3, 6), None)  # shock cavalry depends on the enemy
    assert figures.shield_wall and not figures.cavalry
    assert figures.features == ("armour_piercing", "spear_ranks", "horse_strike")


def test_the_priced_result_shows_the_shield_wall_chance_at_the_units_density() -> None:
    result = evaluate(roster(unit(4, 10, line("shock_troops", "spear", 25, shield=True))),
                      "en").result
    shown = result["units"][0]
    assert shown["shield_wall"]["chance"] == {"exact": "1/2", "float": 0.5}  # rolls 1–3
    assert shown["shield_wall"]["expected_blocks"]["exact"] == "1/1"  # (1 + 2 + 3) / 6
    assert shown["extra_hits"] == 1 and shown["front_rank"] == 10
    assert shown["lines"][0]["hit_chance"] == {"exact": "1/2", "float": 0.5}


def test_points_are_the_players_own_and_add_up_exactly_in_halves() -> None:
    r = roster(unit(points=12.5), unit(points=7), unit(), limit=20)
    result = evaluate(r, "en").result
    assert (result["total"], result["remaining"]) == (19.5, 0.5)
    assert result["warriors"] == 60 and result["valid"]
    assert [u["points"] for u in result["units"]] == [12.5, 7, None]


# ---------------------------------------------------------------- rule codes (§3)

BROKEN: dict[str, tuple[dict[str, Any], str]] = {
    "unit.weapon_class": (unit(3, 10, line("shock_troops", "sword", 10)), "error"),
    "unit.two_handed_shield": (unit(3, 10, line("shock_troops", "pike", 10, shield=True)),
                               "error"),
    "unit.lance_on_foot": (unit(3, 10, line("shock_cavalry", "cavalry_lance", 10)), "error"),
    "unit.cavalry_armour_on_foot": (
        unit(3, 10, line("shock_troops", "spear", 10, cavalry_armour=True)), "error"),
    "unit.density_useless": (unit(1, 10, line("shock_troops", "spear", 10)), "warning"),
}


@pytest.mark.parametrize("code", list(BROKEN))
def test_each_unit_rule_is_broken_by_its_case_and_kept_otherwise(code: str) -> None:
    bad, severity = BROKEN[code]
    evaluation = evaluate(roster(bad), "en")
    broken = [c for c in evaluation.checks if c.code == code]
    assert len(broken) == 1 and not broken[0].holds
    assert broken[0].severity.value == severity and broken[0].unit == 0
    assert evaluation.result["valid"] is (severity != "error")
    assert codes(roster(unit()))[code] == "kept"


@pytest.mark.parametrize(("weapon", "kind", "allowed"), [
    ("short_spear", "shock_troops", True), ("short_spear", "melee_specialists", True),
    ("sword", "shooters", True), ("improvised", "shooters", True),
    ("pike", "melee_specialists", False), ("cavalry_lance", "shock_troops", False),
    ("sword", "shock_cavalry", False), ("halberd", "shock_troops", True),
])
def test_the_weapon_table_decides_which_class_may_carry_a_weapon(weapon: str, kind: str,
                                                                allowed: bool) -> None:
    r = roster(unit(3, 10, line(kind, weapon, 10, mounted=True)))
    assert codes(r)["unit.weapon_class"] == ("kept" if allowed else "broken")


def test_a_shock_cavalry_class_on_foot_breaks_the_lance_rule_even_without_a_lance() -> None:
    assert codes(roster(unit(3, 10, line("shock_cavalry", "sword", 5))))[
        "unit.lance_on_foot"] == "broken"


def test_melee_specialists_and_shooters_at_density_six_are_warned() -> None:
    for kind in ("melee_specialists", "shooters"):
        r = roster(unit(6, 10, line(kind, "improvised", 10)))
        assert codes(r)["unit.density_useless"] == "warning"
    assert codes(roster(unit(6, 10, line("shock_troops", "spear", 10))))[
        "unit.density_useless"] == "kept"


def test_over_the_points_limit_is_an_error_with_the_excess_in_the_hint() -> None:
    evaluation = evaluate(roster(unit(points=12.5), limit=10), "ru")
    check = next(c for c in evaluation.checks if c.code == "roster.over_limit")
    assert not check.holds and "12,5 из 10" in check.summary and "2,5 очка" in check.hint
    assert codes(roster(unit(points=10), limit=10))["roster.over_limit"] == "kept"
    assert "roster.over_limit" not in codes(roster(unit(points=10)))


def test_messages_name_the_unit_and_line_in_both_languages() -> None:
    bad = roster(unit(3, 10, line("shock_troops", "spear", 5),
                      line("shock_troops", "pike", 5, shield=True), name="Фаланга"))
    en = evaluate(bad, "en").result["issues"][0]["message"]
    ru = evaluate(bad, "ru").result["issues"][0]["message"]
    assert "unit 1 “Фаланга”" in en and "line 2 (Shock troops, Pike)" in en
    assert "отряд 1 «Фаланга»" in ru and "строка 2 (Ударные войска, Пики)" in ru


# ---------------------------------------------------------------- the document

@pytest.mark.parametrize(("change", "field"), [
    ({"density": 7}, "density"), ({"density": 0}, "density"), ({"files": 51}, "files"),
    ({"files": "10"}, "files"), ({"points": 1.25}, "points"), ({"points": -1}, "points"),
    ({"lines": []}, "lines"), ({"lines": [line("shock_troops", "spear", 501)]}, "count"),
    ({"lines": [line("hoplites", "spear", 5)]}, "class"),
    ({"lines": [line("shock_troops", "sarissa", 5)]}, "weapon"),
    ({"lines": [{**line("shock_troops", "spear", 5), "shield": "yes"}]}, "shield"),
    ({"colour": "red"}, "colour"),
])
def test_bad_units_are_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        roster({**unit(), **change})
    assert any(field in map(str, error["loc"]) for error in refused.value.errors())


def test_the_rule_system_is_registered_with_its_russian_name() -> None:
    system = SYSTEMS["formation_density"]
    assert (system.name_ru, system.name_en) == ("Плотность строя", "Formation Density")
    catalogue = system.catalogue()
    assert {w["id"] for w in catalogue["weapons"]} == {
        "pike", "spear", "halberd", "short_spear", "axe", "heavy_throwing", "sword",
        "improvised", "cavalry_lance"}
    assert {c["id"] for c in catalogue["classes"]} == {
        "shock_troops", "melee_specialists", "shooters", "shock_cavalry"}
    assert {p["id"] for p in catalogue["protections"]} == {"shield", "armour", "cavalry_armour"}
