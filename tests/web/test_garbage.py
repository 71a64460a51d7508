"""What a page is drawn from is freed as soon as its answer is sent, not left to the garbage
collector: a template context caught in a reference cycle (an import "with context" makes one
at every render, its macro and context holding each other) kept the roster, its verdicts and
the request alive until a collection, which then walked and freed them all at once, during
some later request."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from jinja2.runtime import Context

from tests.web.test_pages import create_army, edit


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    """What the collector finds unreachable from here on, kept for the test to look at."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def contexts_collected(garbage: list[object]) -> int:
    gc.collect()
    return sum(isinstance(thing, Context) for thing in garbage)


def test_the_editor_and_its_changes_leave_no_drawn_page_to_the_collector(
        client: TestClient, saved_garbage: list[object]) -> None:
    roster_id = create_army(client)
    for added in (edit(client, roster_id, op="add_unit", preset="horse_archers"),
                  edit(client, roster_id, op="add_engine", kind="bombard", count="1")):
        assert added.status_code == 303  # type: ignore[attr-defined]  # plain forms: redirects
    for figures in ("4", "5", "6"):
        answer = edit(client, roster_id, htmx=True, op="update_unit", unit="u1", line="l1",
                      unit_name="Лучники", figures_l1=figures, troop_l1="light_horse",
                      weapon_l1="composite_bow")
        assert answer.status_code == 200 and 'name="csrf"' in answer.text  # type: ignore[attr-defined]
    page = client.get(f"/r/{roster_id}/edit")
    assert page.status_code == 200 and page.text.count('name="op" value="update_unit"') == 1
    assert contexts_collected(saved_garbage) == 0
