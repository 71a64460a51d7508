"""Every operation of the API description refuses a query parameter it does not document
(app/http/query.py), before anything else is done; pages take any."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.helpers.databases import settings_for
from tests.security.conftest import routes_of


def operations() -> list[tuple[str, str]]:
    app = create_app(settings_for("sqlite://", migrate_on_start=False))
    return sorted((method, route.path) for route in routes_of(app)
                  if getattr(route, "include_in_schema", False)
                  for method in getattr(route, "methods", None) or () if method != "HEAD")


def test_the_api_description_has_operations_to_check() -> None:
    assert ("GET", "/api/v1/rosters/{roster_id}") in operations()
    assert ("POST", "/api/v1/price") in operations() and ("GET", "/healthz") in operations()


@pytest.mark.parametrize(("method", "path"), operations())
def test_every_api_operation_refuses_a_query_parameter_it_does_not_take(
        module_api: TestClient, method: str, path: str) -> None:
    # Path parameters of every kind match "1"; nothing is sent but the misspelt parameter, so
    # the refusal comes before the body, the edit key or the roster are looked at.
    address = re.sub(r"\{[^}]+\}", "1", path)
    answer = module_api.request(method, address, params={"lnag": "ru"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["field"] == "query.lnag"


def test_a_refused_query_is_worded_in_the_language_it_asks_for(module_api: TestClient) -> None:
    answer = module_api.get("/api/v1/rosters/1", params={"lang": "ru", "lnag": "ru"})
    assert answer.status_code == 422
    assert "неизвестный" in answer.json()["message"].lower(), answer.json()
