"""Russian as a reader of the seeds writes it, where a first translation slipped."""

from __future__ import annotations

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
    from app.export_formats.chainmail import print_words

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
    assert "По правилам" in editor or "Не по правилам" in editor  # the verdict, in Russian
