"""Verdicts in words: a kept share outside its printed band says that whole figures keep it,
and a remedy never asks to remove figures whose removal leaves them all of the base."""

from __future__ import annotations

from fractions import Fraction

from app.domain.bands import Band
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.chainmail.validation import assess
from tests.unit.rule_cases import army, line, unit

POLES = army("poles", unit(line("medium_horse", 15, "lance")),
             unit(line("light_horse", 2, "crossbow")), unit(line("light_horse", 5, "javelins")))


def check(doc: dict, code: str, lang: str = "en") -> str:  # type: ignore[type-arg]
    found = next(c for c in assess(ChainmailRoster.model_validate(doc), lang) if c.code == code)
    assert found.holds
    return found.summary


def test_a_share_kept_only_by_whole_figures_says_so_in_both_languages() -> None:
    # 2 crossbowmen of 7 light horse are 28.6 %, outside 5–15 %: kept, since 15 % of 7 is
    # 1.05 figures, rounded up to 2 because the rules read "about".
    assert check(POLES, "poles.light_crossbows") == (
        "light horse with crossbows: 2 of 7 light horse figures = 28.6 %, must be about 10 %, "
        "5–15 % (kept by whole figures: 5–15 % of 7 is 0.35–1.05 figures, and as the rules "
        "read “about”, 1–2 are allowed)")
    assert "(соблюдено в целых фигурах: 5–15 % от 7 — это 0,35–1,05 фигуры, а раз в правилах " \
        "сказано «около», допустимо 1–2)" in check(POLES, "poles.light_crossbows", "ru")
    # A share inside its printed band says nothing more.
    assert "whole figures" not in check(POLES, "poles.light_horse")


def test_only_about_bands_that_a_share_lies_outside_are_explained() -> None:
    about = Band(Fraction("0.05"), Fraction("0.15"))
    assert about.rounding(2, 7, "en").startswith("kept by whole figures")
    assert about.rounding(1, 10, "en") == ""  # 10 %: inside
    assert about.rounding(3, 7, "en") == ""  # broken: its hint speaks instead
    assert Band(Fraction("0.75"), Fraction(1), hard=True).rounding(3, 4, "en") == ""


def test_no_remedy_removes_figures_that_are_the_whole_base() -> None:
    # 10 horse archers of an army of 10: removing 8 or 9 leaves archers alone still.
    band = Band(Fraction("0.4"), Fraction("0.6"))
    assert band.hint(10, 10, "en") == "add 6 to 17 other figures"
    # With others in the base, removing some of them is a remedy as before.
    assert band.hint(10, 12, "en").startswith("remove ")
