"""The pages read url-encoded forms with their own small parser (app.web.editing.Form); it must
read every body exactly as Starlette's form parser, which it replaced for speed, would."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.datastructures import Headers
from starlette.formparsers import FormParser

from app.web.editing import MAX_FIELDS, Form, TooManyFields
from tests.web.test_pages import create_army, document, version_of


def starlette_reads(body: bytes) -> list[tuple[str, str]]:
    async def stream() -> AsyncIterator[bytes]:
        yield body

    async def parse() -> list[tuple[str, str]]:
        headers = Headers({"content-type": "application/x-www-form-urlencoded"})
        form = await FormParser(headers, stream()).parse()
        return [(k, v) for k, v in form.multi_items() if isinstance(v, str)]

    # In a thread of its own: a browser test earlier in the session may keep an event loop
    # running in this one.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, parse()).result()


# Bodies made of the characters that matter to the format, escapes good and bad, raw UTF-8
# and Latin-1 bytes, and anything else.
PIECES = st.sampled_from([b"&", b"=", b"+", b"%", b"%2", b"%41", b"%D0%BF", b"%FF", b"%zz",
                          b";", b"a", b"name", b"\xd0\xbf", b"\xff", b"\x00", b" ", b"\n"])
BODIES = st.one_of(st.lists(PIECES, max_size=40).map(b"".join), st.binary(max_size=200))


@settings(max_examples=400, deadline=None)
@given(BODIES)
def test_every_body_reads_as_starlette_reads_it(body: bytes) -> None:
    assert Form.urlencoded(body).items_list() == starlette_reads(body)


@pytest.mark.parametrize("body, fields", [
    (b"csrf=abc&action=settings&name=%D0%9F%D0%BE%D0%BB%D0%BA+1",
     [("csrf", "abc"), ("action", "settings"), ("name", "Полк 1")]),
    (b"flags=a&flags=b&&note=", [("flags", "a"), ("flags", "b"), ("note", "")]),
    (b"a=1=2&b", [("a", "1=2"), ("b", "")]),
])
def test_known_bodies(body: bytes, fields: list[tuple[str, str]]) -> None:
    form = Form.urlencoded(body)
    assert form.items_list() == fields
    assert form.all("flags") == [v for k, v in fields if k == "flags"]


def test_as_many_fields_as_starlette_takes_and_no_more() -> None:
    assert len(Form.urlencoded(b"&".join([b"f=1"] * MAX_FIELDS)).items_list()) == MAX_FIELDS
    with pytest.raises(TooManyFields):
        Form.urlencoded(b"&".join([b"f=1"] * (MAX_FIELDS + 1)))


def test_a_form_of_too_many_fields_is_refused_and_nothing_changes(client: TestClient) -> None:
    roster_id = create_army(client)
    before = document(client, roster_id)
    fields = [("csrf", client.cookies.get("muster_csrf")),
              ("version", str(version_of(client, roster_id))), ("action", "settings"),
              ("name", "renamed"), *[("note", "x")] * MAX_FIELDS]
    body = "&".join(f"{k}={v}" for k, v in fields)
    response = client.post(f"/r/{roster_id}/edit", content=body, headers={
        "content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400
    assert "Too many fields" in response.text
    assert document(client, roster_id) == before


def test_too_many_fields_is_refused_on_a_page_in_the_players_language(
        client: TestClient) -> None:
    roster_id = create_army(client)
    client.get("/lang/ru")
    body = "&".join(["note=x"] * (MAX_FIELDS + 1))
    response = client.post(f"/r/{roster_id}/edit", content=body, headers={
        "content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")
    assert f"Слишком много полей: форма принимает не больше {MAX_FIELDS}." in response.text


def multipart(fields: list[tuple[str, str]], boundary: str = "muster-test") -> bytes:
    return b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields) + f"--{boundary}--\r\n".encode()


def test_a_multipart_form_is_read_as_an_url_encoded_one_and_refused_as_one(
        client: TestClient) -> None:
    # Browsers send the pages' forms url-encoded, but a client may send any form as
    # multipart: it is read the same, and refused on a page in the player's language.
    roster_id = create_army(client)
    fields = [("csrf", client.cookies.get("muster_csrf") or ""),
              ("version", str(version_of(client, roster_id))), ("action", "settings"),
              ("name", "Через multipart"), ("nation", "mongols"), ("points_limit", "300"),
              ("historical", "on")]
    kind = {"content-type": "multipart/form-data; boundary=muster-test"}
    changed = client.post(f"/r/{roster_id}/edit", content=multipart(fields), headers=kind,
                          follow_redirects=False)
    assert changed.status_code == 303, changed.text[:500]
    assert document(client, roster_id)["name"] == "Через multipart"
    before = document(client, roster_id)

    client.get("/lang/ru")
    too_many = client.post(f"/r/{roster_id}/edit", headers=kind, content=multipart(
        [*fields, *[("note", "x")] * MAX_FIELDS]))
    assert too_many.status_code == 400
    assert too_many.headers["content-type"].startswith("text/html")
    assert f"Слишком много полей: форма принимает не больше {MAX_FIELDS}." in too_many.text
    broken = client.post(f"/r/{roster_id}/edit", content=b"no parts at all",
                         headers={"content-type": "multipart/form-data"})  # no boundary
    assert broken.status_code == 400
    assert broken.headers["content-type"].startswith("text/html")
    assert "Эту форму не удалось прочитать" in broken.text
    client.get("/lang/en")
    upload = client.post("/rosters/import", content=b"no parts at all",
                         headers={"content-type": "multipart/form-data"})
    assert upload.status_code == 400
    assert "This form could not be read" in upload.text
    assert document(client, roster_id) == before


def test_a_plain_route_refuses_a_router_dependency_it_would_not_apply(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi import Depends

    from app.routes import pages

    async def another(request: object) -> None: ...

    monkeypatch.setattr(pages.router, "dependencies",
                        [*pages.router.dependencies, Depends(another)])
    with pytest.raises(RuntimeError, match="page_language"):
        pages.plain_route("/r/{roster_id}/elsewhere", "GET")
