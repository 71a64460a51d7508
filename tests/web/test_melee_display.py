"""How the melee calculator shows its exact results to a player: decimals and percentages to
read, the exact fraction on hover and in a line or table that opens (never "3.635 =
68614645/18874368" in the text), and charts whose axes say what they count."""

from __future__ import annotations

import re
from fractions import Fraction
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_formation_density_api import LEGION, store

AXES = {"en": ("Number →", "↑ Chance"), "ru": ("Число →", "↑ Вероятность")}


def result_of(client: TestClient, lang: str = "en") -> str:
    """The calculator's result for the legion's two units (exact fractions with long
    denominators: a fast strike first, shields, armour and cavalry)."""
    roster_id = store(client, LEGION)["id"]
    page = client.get(f"/calc/melee?roster={roster_id}&lang={lang}").text
    return page[page.index('<section id="melee-result"'):page.index('id="reading-heading"')]


def visible_text(html: str) -> str:
    """What the page reads without hovering or opening anything: no titles, no closed
    <details> bodies (their summaries stay), no tags."""
    html = re.sub(r"<title>.*?</title>", "", html, flags=re.S)
    html = re.sub(r"<details[^>]*>\s*<summary>(.*?)</summary>.*?</details>", r"\1", html,
                  flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_expectations_read_as_decimals_with_the_exact_fraction_on_hover_and_in_a_line(
        client: TestClient) -> None:
    result = result_of(client)
    means = re.findall(r'<span class="fd-mean" id="(a|b)-(\w+)-mean"(?: title="= ([^"]+)")?>'
                       r'([^<]+)</span>(?: <details class="fd-exact">'
                       r"<summary>exact fraction</summary><code>([^<]+)</code></details>)?",
                       result)
    assert len(means) == 6  # hits scored, blocked, lost; each side
    fractions = 0
    for side, what, title, shown, opened in means:
        if title:  # the fraction on hover is the one the line opens to, and the decimal's
            fractions += 1
            assert opened == title, (side, what)
            assert abs(float(Fraction(title)) - float(shown)) < 0.0005, (side, what)
            assert re.fullmatch(r"\d+\.\d{1,3}", shown), shown
        else:  # a whole number has no fraction to show
            assert not opened and re.fullmatch(r"\d+", shown), (side, what, shown)
    assert fractions >= 4
    # Side A's axes strike twice at every warrior in front: its 20 hits are a whole number.
    assert ("a", "hits", "", "20", "") in means
    assert not re.search(r"\d\.\d+ = \d+/\d+", visible_text(result))
    assert not re.search(r"\d+/\d{4,}", visible_text(result))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_chart_names_its_axes_and_its_bars_give_percentage_and_fraction(
        client: TestClient, lang: str) -> None:
    result = result_of(client, lang)
    charts = re.findall(r'<svg class="fd-chart.*?</svg>', result, re.S)
    assert len(charts) >= 6
    across, up = AXES[lang]
    mark = "," if lang == "ru" else "."
    for chart in charts:
        assert f'class="axis" text-anchor="middle">{across}</text>' in chart
        assert f'class="axis">{up}</text>' in chart
        bars = re.findall(r'class="fd-bar"><title>(\d+): (&lt;)?([\d.,]+) % \(= ([\d/]+)\)'
                          r"</title>", chart)
        assert bars and sum(Fraction(exact) for *_, exact in bars) == 1
        for _, below, share, exact in bars:
            assert "." not in share if mark == "," else "," not in share
            if not below:  # a share of at least 0.05 % reads as the fraction rounded
                assert abs(float(share.replace(",", ".")) - float(Fraction(exact)) * 100) <= 0.05


def test_each_charts_table_lists_the_chance_and_its_exact_fraction(client: TestClient) -> None:
    result = result_of(client)
    tables = re.findall(r'<details class="fd-table">.*?</details>', result, re.S)
    assert len(tables) >= 6
    for table in tables:
        assert '<th scope="col" class="fd-exact">Exact fraction</th>' in table
        rows = re.findall(r'<tr><td>(\d+)</td><td class="num">(&lt;)?([\d.]+) %</td>'
                          r'<td class="fd-exact"><code>([\d/]+)</code></td></tr>', table)
        assert rows and sum(Fraction(exact) for *_, exact in rows) == 1
        assert [int(value) for value, *_ in rows] == list(range(int(rows[0][0]),
                                                               int(rows[-1][0]) + 1))
