"""The events API as an organiser and players use it, on SQLite and PostgreSQL: a club night
of Chainmail at 300 points, Mongols and Poles only, no engines; four lists handed in, judged
by the event's rules and their nations'; edits after handing in change nothing; the deadline
closes hand-ins; the lists are public only once published."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services import events as event_service
from app.storage.tables import utcnow
from tests.helpers.events import event, mongols, poles_with_engine, russians

EVENTS = "/api/v1/events"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def roster(api: TestClient, document: dict[str, Any]) -> dict[str, Any]:
    created = api.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    return created.json()


def hand_in(api: TestClient, made: dict[str, Any], player: str, roster_id: str,
            **more: Any) -> Any:
    return api.post(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["hand_in_key"]),
                    json={"player": player, "roster_id": roster_id, **more})


def after_deadline(monkeypatch: pytest.MonkeyPatch, made: dict[str, Any]) -> None:
    later = utcnow() + timedelta(days=8)  # the helper's deadline is a week away
    monkeypatch.setattr(event_service, "utcnow", lambda: later)


def test_four_lists_one_tick_and_three_crosses_each_with_the_rule_it_breaks(
        api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = api.post(EVENTS, json=event())
    assert made.status_code == 201, made.text
    made = made.json()
    assert made["hand_in_url"].endswith(f"/e/{made['id']}/hand-in?key={made['hand_in_key']}")
    legal = roster(api, mongols())
    armies = {"Бату": legal, "Субэдэй": roster(api, mongols(scale=4)),
              "Александр": roster(api, russians()), "Болеслав": roster(api, poles_with_engine())}
    for player, army in armies.items():
        answer = hand_in(api, made, player, army["id"])
        assert answer.status_code == 201, answer.text
    assert answer.json()["mark"] == "✗"  # the player sees it at once
    # Edited after handing in: the event keeps the version handed in.
    edited = api.put(f"/api/v1/rosters/{legal['id']}", headers={
        **bearer(legal["edit_key"]), "If-Match": '"v1"'}, json=mongols(scale=4))
    assert edited.status_code == 200, edited.text
    read = api.get(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["organiser_key"]))
    assert read.status_code == 200, read.text
    verdicts = {row["player"]: (row["mark"], [i["code"] for i in row["issues"]
                                              if i["code"].startswith("event.")])
                for row in read.json()}
    assert verdicts == {"Бату": ("✓", []), "Субэдэй": ("✗", ["event.points_limit"]),
                        "Александр": ("✗", ["event.nation"]),
                        "Болеслав": ("✗", ["event.no_engines"])}
    kept = next(row for row in read.json() if row["player"] == "Бату")
    assert (kept["roster_version"], kept["points"]) == (1, 95)
    # Before publishing, anyone reads only the rules and how many lists there are.
    public = api.get(f"{EVENTS}/{made['id']}")
    assert public.status_code == 200
    body = public.json()
    assert (body["lists"], body["armies"], body["rules"]["points_limit"]) == (4, None, 300)
    for secret in (made["organiser_key"], made["hand_in_key"], "Бату", legal["id"]):
        assert secret not in public.text
    assert api.post(f"{EVENTS}/{made['id']}/publish",
                    headers=bearer(made["organiser_key"])).status_code == 409
    after_deadline(monkeypatch, made)
    late = hand_in(api, made, "Опоздавший", legal["id"])
    assert late.status_code == 409, late.text
    published = api.post(f"{EVENTS}/{made['id']}/publish", headers=bearer(made["organiser_key"]))
    assert published.status_code == 200, published.text
    armies_shown = api.get(f"{EVENTS}/{made['id']}").json()["armies"]
    assert sorted(a["player"] for a in armies_shown) == sorted(armies)
    assert all(a["sheet_url"].startswith(f"/e/{made['id']}/l/") for a in armies_shown)


def test_the_keys_open_only_their_own_doors(api: TestClient) -> None:
    made = api.post(EVENTS, json=event()).json()
    army = roster(api, mongols())
    lists = f"{EVENTS}/{made['id']}/lists"
    assert api.get(lists).status_code == 401
    assert api.get(lists, headers=bearer(made["hand_in_key"])).status_code == 403
    assert api.post(lists, headers=bearer(made["organiser_key"]),
                    json={"player": "Бату", "roster_id": army["id"]}).status_code == 403
    assert api.post(f"{EVENTS}/{made['id']}/publish",
                    headers=bearer(made["hand_in_key"])).status_code == 403
    assert api.get(f"{EVENTS}/nosuchevent00000").status_code == 404
    assert hand_in(api, made, "Бату", "nosuchroster0000").status_code == 404
    assert hand_in(api, made, "Бату", army["id"], version=2).status_code == 404


def test_a_list_is_replaced_only_with_its_key_and_the_csv_says_what_is_wrong(
        api: TestClient) -> None:
    made = api.post(EVENTS, json=event()).json()
    first, second = roster(api, mongols()), roster(api, russians())
    handed = hand_in(api, made, "=Бату", first["id"])
    assert handed.status_code == 201 and handed.json()["list_key"]
    key = handed.json()["list_key"]
    # Another player, the same name in other letters' case: refused, saying why.
    taken = hand_in(api, made, "=БАТУ", second["id"])
    assert taken.status_code == 409 and "list_key" in taken.json()["message"]
    assert hand_in(api, made, "=БАТУ", second["id"], list_key="x" * 22).status_code == 409
    answer = hand_in(api, made, "=бату", second["id"], version=1, list_key=key)
    assert answer.status_code == 200 and answer.json()["list_key"] is None
    assert answer.json()["issues"][0]["code"] == "event.nation"
    rows = api.get(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["organiser_key"])).json()
    assert [(r["player"], r["id"], r["roster_version"]) for r in rows] == [
        ("=бату", handed.json()["id"], 1)]
    assert [(r["player"], r["name"]) for r in rows[0]["replaced"]] == [("=Бату", "Орда Субэдэя")]
    download = api.get(f"{EVENTS}/{made['id']}/lists.csv?lang=ru",
                       headers=bearer(made["organiser_key"]))
    assert download.status_code == 200 and download.headers["content-type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(download.text)))
    assert table[0][0] == "Игрок" and table[1][0] == "'=бату" and table[1][4] == "✗"
    assert "не допускаются" in table[1][5]
    assert made["organiser_key"] not in download.text and made["hand_in_key"] not in download.text


def test_a_list_is_withdrawn_only_with_its_own_key(api: TestClient) -> None:
    made = api.post(EVENTS, json=event()).json()
    army = roster(api, mongols())
    mine, theirs = (hand_in(api, made, name, army["id"]).json() for name in ("Бату", "Ян"))
    url = f"{EVENTS}/{made['id']}/lists/{mine['id']}"
    assert api.delete(url).status_code == 401
    for wrong in (theirs["list_key"], made["hand_in_key"], made["organiser_key"]):
        assert api.delete(url, headers=bearer(wrong)).status_code == 403
    assert api.delete(f"{EVENTS}/{made['id']}/lists/nosuchlist000000",
                      headers=bearer(mine["list_key"])).status_code == 404
    assert api.delete(url, headers=bearer(mine["list_key"])).status_code == 204
    assert api.get(f"{EVENTS}/{made['id']}").json()["lists"] == 1
    assert hand_in(api, made, "Бату", army["id"]).status_code == 201  # the name is free


def test_the_organiser_closes_hand_ins_and_a_lists_key_still_replaces_it(
        api: TestClient) -> None:
    made = api.post(EVENTS, json=event()).json()
    army = roster(api, mongols())
    mine = hand_in(api, made, "Бату", army["id"]).json()
    hand_ins = f"{EVENTS}/{made['id']}/hand-ins"
    assert api.post(hand_ins, json={"open": False},
                    headers=bearer(made["hand_in_key"])).status_code == 403
    closed = api.post(hand_ins, json={"open": False}, headers=bearer(made["organiser_key"]))
    assert closed.status_code == 200 and closed.json()["hand_ins_open"] is False
    refused = hand_in(api, made, "Ян", army["id"])
    assert refused.status_code == 409 and "closed" in refused.json()["message"]
    assert hand_in(api, made, "Бату", army["id"], list_key=mine["list_key"]).status_code == 200
    opened = api.post(hand_ins, json={"open": True}, headers=bearer(made["organiser_key"]))
    assert opened.json()["hand_ins_open"] is True
    assert hand_in(api, made, "Ян", army["id"]).status_code == 201


@pytest.mark.parametrize("player", ["ß" * 120, "ﬃ" * 120, "ΐ" * 120])
def test_a_name_that_grows_when_case_folded_is_handed_in(api: TestClient, player: str) -> None:
    made = api.post(EVENTS, json=event()).json()
    army = roster(api, mongols())
    answer = hand_in(api, made, player, army["id"])
    assert answer.status_code == 201, answer.text
    assert hand_in(api, made, player.upper()[:120], army["id"]).status_code in (201, 409)
    rows = api.get(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["organiser_key"])).json()
    assert player in [r["player"] for r in rows]


def test_published_lists_name_no_live_roster(api: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    made = api.post(EVENTS, json=event()).json()
    army = roster(api, mongols())
    assert hand_in(api, made, "Бату", army["id"]).status_code == 201
    after_deadline(monkeypatch, made)
    api.post(f"{EVENTS}/{made['id']}/publish", headers=bearer(made["organiser_key"]))
    seen = [api.get(f"{EVENTS}/{made['id']}"), api.get(f"/e/{made['id']}"),
            api.get(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["organiser_key"]))]
    (shown,) = seen[0].json()["armies"]
    assert "roster_id" not in shown and shown["roster_version"] == 1
    for answer in seen:
        assert answer.status_code == 200 and army["id"] not in answer.text


def test_a_document_is_handed_in_as_it_is(api: TestClient) -> None:
    made = api.post(EVENTS, json=event()).json()
    army, document = roster(api, mongols()), poles_with_engine()
    answer = api.post(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["hand_in_key"]),
                      json={"player": "Ян", "document": document})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["roster_version"], body["mark"], body["issues"][0]["code"]) == (
        None, "✗", "event.no_engines")
    both = api.post(f"{EVENTS}/{made['id']}/lists", headers=bearer(made["hand_in_key"]),
                    json={"player": "Ян", "document": document, "roster_id": army["id"]})
    assert both.status_code == 422


@pytest.mark.parametrize(("field", "value"), [("date", "x"), ("date", "12.12.2026"),
                                              ("deadline", "nope"), ("deadline", "2026-13-01")])
def test_a_date_that_is_no_iso_date_is_refused_naming_its_field(
        api: TestClient, field: str, value: str) -> None:
    body = {"name": "Клубный вечер", "date": "2026-12-12", "ruleset": "chainmail",
            "deadline": "2026-12-11T18:00:00+00:00", field: value}
    answer = api.post("/api/v1/events", json=body)
    assert answer.status_code == 422
    assert [d["field"] for d in answer.json()["detail"]] == [field]
