"""Russian as a reader of the seeds writes it, where a first translation slipped."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

from fastapi.testclient import TestClient

RU = {"Accept-Language": "ru"}


def test_the_calculators_and_rules_pages_read_right(client: TestClient) -> None:
    rules = client.get("/rules/line_and_square", headers=RU).text
    assert "Роды войск" in rules and "Рода войск" not in rules
    order = client.get("/calc/order-test", headers=RU).text
    assert "успех" in order and "проходит" not in order
    created = client.post("/api/v1/rosters", json={
        "name": "Бригада", "ruleset": "line_and_square", "units": [
            {"class": "line_infantry", "figures": 12, "speed": 6, "points": 2,
             "formation": "close_order"}]}).json()
    view = client.get(f"/r/{created['id']}", headers=RU).text
    assert "Тест на приказ: шанс пройти (сомкнутый строй)" in view
    assert "построение — " not in view
    fd = client.get("/rules/formation_density", headers=RU).text
    assert "попадают, если выпало меньше плотности своего отряда" in fd
    assert "бьют как специалисты рукопашного боя" in fd


def test_exports_and_sheets_say_неисторическая_and_табл(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Орда", "ruleset": "chainmail", "nation": "mongols", "historical": False,
        "units": [{"flags": ["commander"],
                   "lines": [{"troop": "light_horse", "figures": 10, "weapon": "bow"}]}],
        "engines": [{"kind": "bombard", "count": 1, "mercenary": True}]}).json()
    text = client.get(f"/api/v1/rosters/{created['id']}/export.txt?lang=ru").text
    assert "неисторическая" in text and "не историческая" not in text
    from app.systems.chainmail.text import print_words

    assert print_words("ru")["rating"] == "Мораль (табл. 19)"
    view = client.get(f"/r/{created['id']}", headers=RU).text
    assert "(наёмники)" in view and "(наёмные)" not in view


def test_an_edit_link_asking_for_russian_opens_the_editor_in_russian(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Орда", "ruleset": "chainmail", "nation": "mongols", "units": []}).json()
    opened = client.get(f"/r/{created['id']}/edit?key={created['edit_key']}&lang=ru",
                        follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == f"/r/{created['id']}/edit?lang=ru"
    editor = client.get(opened.headers["location"]).text
    assert '<html lang="ru">' in editor
    # The verdict, in Russian: an army of no units has nothing to judge yet.
    assert "Судить пока не о чем: в армии нет фигур" in editor


# ---------------------------------------------------------------- the decimal comma

class _Text(HTMLParser):
    """The words a reader sees: text outside tags, scripts and styles (attribute values,
    a number field's value among them, are not read)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def _seen(page: str) -> str:
    reader = _Text()
    reader.feed(page)
    return " ".join(reader.parts)


DECIMAL_POINT = re.compile(r"\d\.\d")
DECIMAL_COMMA = re.compile(r"\d,\d")


def _decimal_pages(client: TestClient) -> Iterator[tuple[str, str, str]]:
    """(what, English, Russian) of every page and export that writes fractional numbers."""
    # Mercenary heavy horse cost 2.5 a figure; 2 light horse of 12 figures are 16.7 %.
    chainmail = client.post("/api/v1/rosters", json={
        "name": "Войско", "ruleset": "chainmail", "nation": "mongols", "points_limit": 99,
        "units": [{"mercenary": True, "lines": [
                      {"troop": "heavy_horse", "figures": 5, "weapon": "lance"}]},
                  {"lines": [{"troop": "light_horse", "figures": 2, "weapon": "bow"},
                             {"troop": "heavy_foot", "figures": 5, "weapon": "pike"}]}],
        }).json()["id"]
    # Points of 12.5, chances of 1/3 (33.3 %), 0.5 blocked on average.
    legion = client.post("/api/v1/rosters", json={
        "name": "Легион", "ruleset": "formation_density", "points_limit": 10, "units": [
            {"name": "Гастаты", "density": 3, "files": 20, "points": 12.5, "lines": [
                {"class": "melee_specialists", "weapon": "sword", "count": 20,
                 "shield": True, "armour": True}]},
            {"name": "Всадники", "density": 2, "files": 10, "points": 7, "lines": [
                {"class": "shock_cavalry", "weapon": "cavalry_lance", "count": 10,
                 "mounted": True, "armour": True}]}]}).json()["id"]
    # 2.5 points; order test chances such as 72.2 %.
    brigade = client.post("/api/v1/rosters", json={
        "name": "Бригада", "ruleset": "line_and_square", "points_limit": 2, "units": [
            {"class": "line_infantry", "figures": 12, "speed": 6, "points": 2.5,
             "formation": "close_order"}]}).json()["id"]
    addresses = [f"/r/{r}{page}" for r in (chainmail, legion, brigade)
                 for page in ("", "/print", "/export.txt", "/export.md", "/export.bbcode")]
    addresses += [f"/calc/melee?roster={legion}&a={legion}:0&b={legion}:1",
                  "/calc/order-test?discipline=1&disorder=1", "/rules/formation_density",
                  "/rules/line_and_square"]
    for address in addresses:
        if "/export." in address:  # the exports are the API's, by id
            address = "/api/v1/rosters/" + address.removeprefix("/r/")
        sep = "&" if "?" in address else "?"
        en, ru = (client.get(f"{address}{sep}lang={lang}") for lang in ("en", "ru"))
        assert en.status_code == ru.status_code == 200, address
        yield address, _seen(en.text), _seen(ru.text)


def test_russian_writes_a_decimal_comma_everywhere_english_writes_a_point(
        client: TestClient) -> None:
    for address, english, russian in _decimal_pages(client):
        if DECIMAL_POINT.search(english):
            assert DECIMAL_COMMA.search(russian), address
        assert not DECIMAL_POINT.search(russian), (address, DECIMAL_POINT.findall(russian))
        assert not DECIMAL_COMMA.search(english), address


def test_every_page_of_fractions_has_some_to_write(client: TestClient) -> None:
    """The test above is not vacuous: the rosters, exports and calculators it reads write
    fractional numbers (points, shares, chances) in English."""
    fractional = [a for a, english, _ in _decimal_pages(client) if DECIMAL_POINT.search(english)]
    assert len(fractional) >= 12, fractional


def test_a_number_field_keeps_its_decimal_point_in_russian(client: TestClient) -> None:
    # A number field's value is a decimal point in every language; the browser shows it as
    # its reader writes numbers. "2,5" there would be no value at all.
    created = client.post("/api/v1/rosters", json={
        "name": "Бригада", "ruleset": "line_and_square", "units": [
            {"class": "line_infantry", "figures": 12, "speed": 6, "points": 2.5,
             "formation": "close_order"}]}).json()
    editor = client.get(f"/r/{created['id']}/edit?key={created['edit_key']}&lang=ru").text
    assert re.search(r'id="u1-points"[^>]* value="2\.5"', editor)
    assert re.search(r'id="u1-cost">2,5 ', editor)


# ---------------------------------------------------------------- each system's own words

def test_line_and_square_says_подразделение_where_the_others_say_отряд(
        client: TestClient) -> None:
    # The Line and Square seed calls a unit «подразделение» (41 times, «отряд» 16); Chainmail's
    # and Formation Density's call it «отряд». The English is "unit" in all three.
    pages = {}
    for ruleset, unit in (("line_and_square", {"class": "line_infantry", "figures": 12,
                                               "speed": 6, "points": 2,
                                               "formation": "close_order"}),
                          ("chainmail", {"lines": [{"troop": "light_foot", "figures": 10,
                                                    "weapon": "bow"}]})):
        created = client.post("/api/v1/rosters", json={
            "name": "Войско", "ruleset": ruleset, "units": [unit]}).json()
        pages[ruleset] = client.get(
            f"/r/{created['id']}/edit?key={created['edit_key']}&lang=ru").text
    assert 'aria-label="Подразделение 1"' in pages["line_and_square"]
    assert "Добавить подразделение" in _seen(pages["line_and_square"])
    assert "Название подразделения" in _seen(pages["line_and_square"])
    assert not re.search("отряд", pages["line_and_square"], re.IGNORECASE)
    assert 'aria-label="Отряд 1"' in pages["chainmail"]
    assert "Добавить отряд" in _seen(pages["chainmail"])
    assert not re.search("подразделени", pages["chainmail"], re.IGNORECASE)


def test_a_roster_is_an_армия_not_a_ростер(client: TestClient) -> None:
    # «Ростер» is no word of the seeds; they say «армия».
    home = _seen(client.get("/?lang=ru").text)
    assert "Мои армии" in home and "остер" not in home
    missing = client.get("/r/AAAAAAAAAAAAAAAA?lang=ru")
    assert missing.status_code == 404 and "По этому адресу нет армии." in missing.text


def test_the_about_page_titles_tables_18_and_26_as_the_seed_does(client: TestClient) -> None:
    # «Таблица 18: Страны Восточной Азии», «Таблица 26: Стоимость дополнительного вооружения».
    russian = _seen(client.get("/about?lang=ru").text)
    assert "Таблица 18: Страны Восточной Азии" in russian
    assert "Китайцы, Корейцы, Японцы" not in russian
    assert "Таблица 26: Стоимость дополнительного вооружения" in russian
    assert "стоимость вооружения и артиллерии" not in russian
    english = _seen(client.get("/about?lang=en").text)
    assert "Table 18: East Asian Countries" in english
    assert "Table 26: Cost of Additional Weapons" in english
