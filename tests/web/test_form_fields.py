"""The pages read their forms with Starlette's parser: what it refuses is refused on a page, in
the player's language, and nothing changes."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.domain.form_reading import MAX_FIELDS
from tests.web.test_pages import create_army, document, version_of


def test_a_form_of_too_many_fields_is_refused_and_nothing_changes(client: TestClient) -> None:
    roster_id = create_army(client)
    before = document(client, roster_id)
    fields = [("csrf", client.cookies.get("muster_csrf")),
              ("version", str(version_of(client, roster_id))), ("system", "chainmail"),
              ("action", "settings"),
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
              ("version", str(version_of(client, roster_id))), ("system", "chainmail"),
              ("action", "settings"),
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
