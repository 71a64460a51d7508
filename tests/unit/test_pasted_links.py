"""What a player pastes where a roster is asked for (the melee calculator, handing in to an
event, joining a game) is read one way everywhere: the id, or a share, edit or print link."""

from __future__ import annotations

import pytest

from app.http.deps import is_id, pasted_roster_id


@pytest.mark.parametrize(("pasted", "roster_id"), [
    ("AbC_-1", "AbC_-1"),
    ("  AbC_-1\n", "AbC_-1"),
    ("https://muster.example/r/AbC_-1", "AbC_-1"),
    ("https://muster.example/r/AbC_-1/", "AbC_-1"),
    ("https://muster.example/r/AbC_-1/edit?key=secret", "AbC_-1"),
    ("/r/AbC_-1/print?lang=ru#sheet", "AbC_-1"),
    ("muster.example/r/AbC_-1#units", "AbC_-1"),
])
def test_an_id_or_a_link_to_the_roster_names_it(pasted: str, roster_id: str) -> None:
    assert pasted_roster_id(pasted) == roster_id


@pytest.mark.parametrize("pasted", [
    "", "   ", "my army", "https://muster.example/r/AbC_-1/delete",
    "https://muster.example/g/AbC_-1", "https://muster.example/r/", "/r/AbC%2F1",
    "x" * 65, "AbC\x00",
])
def test_anything_else_names_no_roster(pasted: str) -> None:
    assert pasted_roster_id(pasted) is None


def test_an_id_is_what_a_token_urlsafe_can_be_and_no_longer() -> None:
    assert is_id("a" * 64) and is_id("A-_0")
    assert not is_id("a" * 65) and not is_id("") and not is_id("a b") and not is_id("é")
