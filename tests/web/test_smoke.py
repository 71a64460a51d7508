from fastapi.testclient import TestClient


def test_rulesets_list_names_chainmail(client: TestClient) -> None:
    body = client.get("/api/v1/rulesets").json()
    assert {"id": "chainmail", "name_ru": "Кольчуга (Chainmail)", "name_en": "Chainmail",
            "version": "1.0"} in body
