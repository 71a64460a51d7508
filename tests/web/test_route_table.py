"""The route table: the routers are included in the order requests are most often matched
(app/main.py), which is safe only while no two routes answer the same method and path."""

from __future__ import annotations

from collections import Counter

from app.main import create_app
from tests.helpers.databases import settings_for
from tests.security.conftest import routes_of


def test_no_two_routes_answer_the_same_method_and_path() -> None:
    app = create_app(settings_for("sqlite://", migrate_on_start=False))
    answered = Counter((method, route.path) for route in routes_of(app)
                       for method in getattr(route, "methods", None) or ())
    assert ("POST", "/r/{roster_id}/edit") in answered and ("GET", "/healthz") in answered
    twice = [pair for pair, count in answered.items() if count > 1]
    assert not twice, f"answered by more than one route, so by whichever comes first: {twice}"
