"""POST /api/v1/price: prices and judges a roster without storing it; refuses bad input with a
422 naming the field (413 for an oversized body), never a 500."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.config import Settings
from app.main import create_app
from app.systems import SYSTEMS
from tests.unit.rule_cases import (
    BREAKS,
    KEEPS,
    NATIONAL_CODES,
    Case,
    army,
    case_id,
    line,
    unit,
)
from tests.unit.strategies import any_bodies, broken_rosters, encoded, rosters
from tests.unit.test_pricing import WORKED_EXAMPLES

PRICE = "/api/v1/price"
MIB = 1024 * 1024
PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pricing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the whole module: pricing stores nothing, so tests cannot disturb each
    other, and hypothesis may call it many times within one test."""
    data = tmp_path_factory.mktemp("price-api")
    app = create_app(Settings(_env_file=None, data_dir=data,  # type: ignore[call-arg]
                              DATABASE_URL=f"sqlite:///{data / 'muster.db'}"))
    with TestClient(app) as client:
        yield client


def post(client: TestClient, doc: Any, lang: str | None = None) -> httpx.Response:
    return client.post(PRICE, json=doc, params={"lang": lang} if lang else None)


# ---- pricing ----

@pytest.mark.parametrize(("units", "engines", "total"),
                         [example[1:] for example in WORKED_EXAMPLES],
                         ids=[example[0] for example in WORKED_EXAMPLES])
def test_each_worked_example_of_the_rules_page_is_priced_by_the_api(
        pricing: TestClient, units: list[dict[str, Any]], engines: list[dict[str, Any]],
        total: Fraction) -> None:
    answer = post(pricing, army("generic", *units, engines=engines))
    assert answer.status_code == 200
    assert Fraction(answer.json()["total"]) == total


def test_the_answer_has_the_shape_the_design_promises(pricing: TestClient) -> None:
    doc = {"name": "Орда Субэдэя", "ruleset": "chainmail", "nation": "mongols",
           "points_limit": 300, "historical": True, "fortifications": False,
           "units": [{"name": "Кешиг", "mercenary": False, "flags": ["commander"],
                      "lines": [{"troop": "medium_horse", "figures": 10, "weapon": "lance"}]}],
           "engines": [{"kind": "bombard", "count": 1, "mercenary": False}]}
    body = post(pricing, doc).json()
    assert (body["total"], body["points_limit"], body["remaining"]) == (70, 300, 230)
    assert (body["figures"], body["foot"], body["horse"]) == (10, 0, 10)
    assert body["units"][0]["name"] == "Кешиг" and body["units"][0]["cost"] == 40
    assert body["units"][0]["lines"] == [{"troop": "medium_horse", "figures": 10,
                                          "weapon": "lance", "cost_per_figure": 4, "cost": 40}]
    assert body["engines"] == [{"kind": "bombard", "count": 1, "mercenary": False, "cost": 30}]
    horse_archers = [i for i in body["issues"] if i["code"] == "mongols.horse_archers"]
    assert horse_archers[0]["severity"] == "error" and horse_archers[0]["unit"] is None
    assert body["valid"] is False


def test_fractional_costs_arrive_as_exact_json_numbers(pricing: TestClient) -> None:
    body = post(pricing, army("generic", unit(line("militia", 33), mercenary=True))).json()
    assert body["total"] == 12.375
    assert body["units"][0]["lines"][0]["cost_per_figure"] == 0.375


# ---- rules ----

@pytest.mark.parametrize("case", BREAKS, ids=case_id)
def test_the_api_reports_a_broken_rule_once_with_its_severity_and_unit(
        pricing: TestClient, case: Case) -> None:
    body = post(pricing, case.roster).json()
    found = [(i["severity"], i["unit"]) for i in body["issues"] if i["code"] == case.code]
    assert found == [(case.severity, case.unit)]
    assert body["valid"] is (case.severity != "error")


@pytest.mark.parametrize("case", KEEPS, ids=case_id)
def test_the_api_does_not_report_a_kept_rule(pricing: TestClient, case: Case) -> None:
    body = post(pricing, case.roster).json()
    assert case.code not in {i["code"] for i in body["issues"]}


@pytest.mark.parametrize("case", [c for c in BREAKS if c.code in NATIONAL_CODES], ids=case_id)
def test_the_api_reports_national_rules_of_a_non_historical_roster_as_information(
        pricing: TestClient, case: Case) -> None:
    body = post(pricing, case.roster | {"historical": False}).json()
    assert [i["severity"] for i in body["issues"] if i["code"] == case.code] == ["info"]
    assert body["valid"] is True


def test_messages_are_english_by_default_and_russian_with_lang_ru(pricing: TestClient) -> None:
    horde = army("mongols", unit(line("medium_horse", 5, "lance")),
                 unit(line("light_horse", 5, "lance")), unit(line("light_horse", 6, "bow")),
                 unit(line("light_horse", 4, "javelins")))
    def archers(issues: list[dict[str, Any]]) -> dict[str, Any]:
        (found,) = [i for i in issues if i["code"] == "mongols.horse_archers"]
        return found

    english = archers(post(pricing, horde).json()["issues"])
    assert english["message"] == (
        "light horse with bows: 6 of 20 figures = 30 %, must be about 50 %, 40–60 % — "
        "add 2 to 17 more, or remove 3 to 11 other figures")
    assert archers(post(pricing, horde, "en").json()["issues"]) == english
    russian = archers(post(pricing, horde, "ru").json()["issues"])
    assert russian["code"] == english["code"]
    assert "6 из 20" in russian["message"] and "40–60 %" in russian["message"]


# ---- refusals ----

def big_army(units: int, lines: int = 1) -> dict[str, Any]:
    return army("generic", *[unit(*[line("peasant", 1)] * lines)] * units)


def with_line(**fields: Any) -> dict[str, Any]:
    return army("generic", unit(line("light_foot", 1) | fields))


# (what, document, field the message must name, words the message must contain)
REFUSALS: list[tuple[str, Any, str, list[str]]] = [
    ("unknown ruleset", {"name": "x", "ruleset": "warhammer"}, "ruleset", ["'chainmail'"]),
    ("unknown nation", army("elves"), "nation", ["'mongols'", "'japan'", "'generic'"]),
    ("unknown troop", with_line(troop="orc"), "units[0].lines[0].troop",
     ["'peasant'", "'heavy_horse'"]),
    ("unknown weapon", with_line(weapon="sword"), "units[0].lines[0].weapon",
     ["'pike'", "'polearm'"]),
    ("unknown engine", army("generic", engines=[{"kind": "trebuchet", "count": 1}]),
     "engines[0].kind", ["'bombard'", "'light_catapult'"]),
    ("unknown flag", army("generic", unit(line("light_foot", 1), flags=("wizard",))),
     "units[0].flags[0]", ["'commander'", "'stakes'"]),
    ("no figures", with_line(figures=0), "units[0].lines[0].figures", ["1"]),
    ("negative figures", with_line(figures=-5), "units[0].lines[0].figures", ["1"]),
    ("too many figures", with_line(figures=100_001), "units[0].lines[0].figures", ["100000"]),
    ("fractional figures", with_line(figures=2.5), "units[0].lines[0].figures", ["integer"]),
    ("no engines", army("generic", engines=[{"kind": "bombard", "count": 0}]),
     "engines[0].count", ["1"]),
    ("too many engines", army("generic", engines=[{"kind": "bombard", "count": 1001}]),
     "engines[0].count", ["1000"]),
    ("501 units", big_army(501), "units", ["500"]),
    ("21 lines in a unit", big_army(1, lines=21), "units[0].lines", ["20"]),
    ("long roster name", army("generic") | {"name": "Щ" * 121}, "name", ["120"]),
    ("blank roster name", army("generic") | {"name": "   "}, "name", ["1"]),
    ("long unit name", army("generic", unit(line("peasant", 1), name="u" * 121)),
     "units[0].name", ["120"]),
    ("points limit of 0", army("generic", points_limit=0), "points_limit", ["1"]),
    ("flag twice", army("generic", unit(line("peasant", 1), flags=("elite", "elite"))),
     "units[0].flags", ["once"]),
    ("extra field", army("generic") | {"colour": "red"}, "colour", ["not permitted"]),
    ("missing name", {"ruleset": "chainmail"}, "name", ["required"]),
    ("missing troop", army("generic", unit({"figures": 3})), "units[0].lines[0].troop",
     ["required"]),
    ("figures as text", with_line(figures="many"), "units[0].lines[0].figures", ["integer"]),
    # Types as the JSON Schema states them: no guessing that "10" is 10 or 0 is false.
    ("figures as a numeral in text", with_line(figures="10"), "units[0].lines[0].figures",
     ["integer"]),
    ("mercenary as 0", army("generic", engines=[{"kind": "bombard", "count": 1,
                                                 "mercenary": 0}]),
     "engines[0].mercenary", ["boolean"]),
    ("historical as text", army("generic") | {"historical": "yes"}, "historical", ["boolean"]),
    ("units not a list", army("generic") | {"units": {"a": 1}}, "units", ["list"]),
    ("a list, not a roster", [1, 2], "body", []),
]


@pytest.mark.parametrize(("doc", "field", "words"), [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_bad_input_is_refused_with_a_422_naming_the_field_and_what_is_allowed(
        pricing: TestClient, doc: Any, field: str, words: list[str]) -> None:
    answer = post(pricing, doc)
    assert answer.status_code == 422
    body = answer.json()
    assert field in [d["field"] for d in body["detail"]]
    assert f"{field}: " in body["message"]
    mine = " ".join(d["message"] for d in body["detail"] if d["field"] == field)
    for word in words:
        assert word in mine


def test_500_units_of_20_lines_are_accepted(pricing: TestClient) -> None:
    answer = post(pricing, big_army(500, lines=20))
    assert answer.status_code == 200
    assert answer.json()["figures"] == 10_000


def test_an_unknown_language_is_refused_naming_lang(pricing: TestClient) -> None:
    answer = post(pricing, army("generic"), "de")
    assert answer.status_code == 422
    assert "lang" in answer.json()["message"] and "'ru'" in answer.json()["message"]


@pytest.mark.parametrize("query", ["lang=de", "lang=", "lang=RU", "lang=en&lang=de",
                                   "LANG=ru", "lnag=ru&lang=ru", "other=1&lang=de"])
def test_the_price_refuses_its_query_as_fastapi_refuses_the_same_parameter(
        pricing: TestClient, query: str) -> None:
    """The price and a roster read take the same `lang`: both refusals must be the same."""
    priced = pricing.post(f"{PRICE}?{query}", json=army("generic"))
    read = pricing.get(f"/api/v1/rosters/no-such-roster?{query}")
    assert priced.status_code == read.status_code == 422
    assert priced.json() == read.json()


def test_the_price_refuses_a_lang_given_twice_and_is_english_without(
        pricing: TestClient) -> None:
    mongols = army("mongols")
    assert pricing.post(PRICE, json=mongols).json() == \
        pricing.post(f"{PRICE}?lang=en", json=mongols).json()
    for query in ("lang=en&lang=ru", "lang=ru&lang=ru"):
        twice = pricing.post(f"{PRICE}?{query}", json=mongols)
        assert twice.status_code == 422 and twice.json()["detail"][0]["loc"] == ["query", "lang"]


@pytest.mark.parametrize("body", [b"{bad", b"", b"\xff\xfe", b'{"name": "x", "ruleset": '],
                         ids=["broken", "empty", "not utf-8", "cut short"])
def test_a_body_that_is_not_json_is_refused_naming_the_body(pricing: TestClient,
                                                            body: bytes) -> None:
    answer = pricing.post(PRICE, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert answer.json()["message"].startswith("body: ")


def test_a_body_that_is_not_json_says_where_the_parser_stopped(pricing: TestClient) -> None:
    answer = pricing.post(PRICE, content=b'{"name": "x", "ruleset": ',
                          headers={"content-type": "application/json"})
    assert answer.status_code == 422
    [error] = answer.json()["detail"]
    assert (error["field"], error["loc"], error["type"]) == ("body", ["body"], "json_invalid")
    assert error["message"] == "not valid JSON: Expecting value (at character 25)"


def oversized_body() -> bytes:
    return encoded(army("generic") | {"note": "x" * (MIB + 1)})


def test_a_body_over_1_mib_with_a_content_length_is_refused_with_413(
        pricing: TestClient) -> None:
    answer = pricing.post(PRICE, content=oversized_body(),
                          headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert "body" in answer.json()["message"]


def test_a_streamed_body_over_1_mib_without_a_content_length_is_refused_with_413(
        pricing: TestClient) -> None:
    data = oversized_body()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(data), 64 * 1024):
            yield data[start:start + 64 * 1024]

    answer = pricing.post(PRICE, content=chunks(), headers={"content-type": "application/json"})
    assert answer.request.headers.get("transfer-encoding") == "chunked"
    assert answer.status_code == 413


def test_a_body_just_under_the_limit_is_read_and_judged(pricing: TestClient) -> None:
    doc = army("generic", *[unit(line("peasant", 1)) | {"note": "n" * 2000}] * 450)
    data = encoded(doc)
    assert MIB * 0.8 < len(data) < MIB  # about 0.9 MiB of JSON
    answer = pricing.post(PRICE, content=data, headers={"content-type": "application/json"})
    assert answer.status_code == 200


# ---- a real server, for what the in-process client cannot show ----

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("live")
    port = _free_port()
    env = {**os.environ, "MUSTER_DATA_DIR": str(data),
           "DATABASE_URL": f"sqlite:///{data / 'muster.db'}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.asgi:app", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning"],
        cwd=PROJECT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.mark.slow
def test_a_real_server_refuses_a_chunked_body_over_1_mib_with_413(live_server: str) -> None:
    data = oversized_body()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(data), 64 * 1024):
            yield data[start:start + 64 * 1024]

    try:
        answer = httpx.post(f"{live_server}{PRICE}", content=chunks(), timeout=10,
                            headers={"content-type": "application/json"})
    except httpx.TransportError as error:  # pragma: no cover - shown if the server hangs up
        pytest.fail(f"the server dropped the connection instead of answering 413: {error}")
    assert answer.status_code == 413


@pytest.mark.slow
def test_a_real_server_prices_a_roster(live_server: str) -> None:
    answer = httpx.post(f"{live_server}{PRICE}", json=army("generic", *WORKED_EXAMPLES[0][1]),
                        timeout=10)
    assert answer.status_code == 200 and answer.json()["total"] == 100


# ---- whatever arrives, the answer is 200, 413 or 422 ----

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@FUZZ
@given(rosters)
def test_every_schema_valid_roster_is_priced(pricing: TestClient, doc: dict[str, Any]) -> None:
    answer = pricing.post(PRICE, content=encoded(doc),
                          headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    assert set(answer.json()) >= {"total", "issues", "valid", "units", "engines"}


@FUZZ
@given(broken_rosters(), st.sampled_from(["en", "ru"]))
def test_a_broken_roster_is_refused_or_priced_but_never_a_server_error(
        pricing: TestClient, doc: Any, lang: str) -> None:
    answer = pricing.post(PRICE, content=encoded(doc), params={"lang": lang},
                          headers={"content-type": "application/json"})
    assert answer.status_code in (200, 422), answer.text
    if answer.status_code == 422:
        body = answer.json()
        assert isinstance(body["message"], str) and body["message"]
        assert all(d["field"] and d["message"] for d in body["detail"])


@FUZZ
@given(any_bodies)
def test_any_body_at_all_gets_200_413_or_422(pricing: TestClient, data: bytes) -> None:
    answer = pricing.post(PRICE, content=data, headers={"content-type": "application/json"})
    assert answer.status_code in (200, 413, 422), answer.text
    json.loads(answer.text)  # the refusal is JSON too


def test_the_price_body_is_documented_as_the_rosters_one(pricing: TestClient) -> None:
    # The route reads its body by hand (app/api/pricing.py): the schema, the fuzzing and the
    # clients generated from it still see the union of every rule system's roster.
    paths = pricing.get("/openapi.json").json()["paths"]
    body = paths[PRICE]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert body["required"] is True and schema.pop("title") == "Roster"
    rosters = paths["/api/v1/rosters"]["post"]["requestBody"]["content"]["application/json"]
    assert schema == {k: v for k, v in rosters["schema"].items() if k != "title"}
    assert set(schema["discriminator"]["mapping"]) == set(SYSTEMS)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_a_roster_is_priced_in_utf_8_alone(pricing: TestClient, encoding: str) -> None:
    # RFC 8259, 8.1: JSON between systems is UTF-8; another charset is refused, not guessed.
    doc = army("mongols")
    expected = post(pricing, doc).json()
    for charset in ("; charset=" + encoding, ""):
        answer = pricing.post(PRICE, content=json.dumps(doc, ensure_ascii=False).encode(encoding),
                              headers={"content-type": "application/json" + charset})
        if encoding == "utf-8":
            assert answer.status_code == 200 and answer.json() == expected, answer.text
        else:
            assert answer.status_code == 415 and "UTF-8" in answer.json()["message"]
