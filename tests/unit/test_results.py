"""What `evaluate` returns is the API's documented answer as it stands.

The price and every read answer the result through the union of the systems' result models
(`results_type`), so each rule system's result must be exactly what its own result model would
send: told apart as that system's by the union, valid against it, and unchanged by it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from pydantic import BaseModel, TypeAdapter

from app.systems import SYSTEMS, results_type
from app.systems.chainmail import ChainmailRoster
from tests.unit import test_formation_density_rules as fd
from tests.unit import test_line_and_square_rules as ls
from tests.unit.test_exports import rosters

ANY_RESULT: TypeAdapter[Any] = TypeAdapter(results_type())


def sent_as_is(result: dict[str, Any], model: type[BaseModel]) -> None:
    as_json = json.loads(json.dumps(result, allow_nan=False))
    assert model.model_validate(as_json).model_dump(mode="json", by_alias=True) == as_json
    answered = ANY_RESULT.validate_python(result)
    assert type(answered) is model
    assert ANY_RESULT.dump_python(answered, mode="json", by_alias=True) == as_json


@settings(max_examples=60, deadline=None)
@given(rosters())
def test_every_chainmail_result_is_its_models_json(roster: ChainmailRoster) -> None:
    system = SYSTEMS["chainmail"]
    for lang in ("en", "ru"):
        sent_as_is(system.evaluate(roster, lang).result, system.result_model)


@pytest.mark.parametrize("doc", [
    ls.roster(*ls.LEGAL), *(case[1] for case in ls.BROKEN.values()), ls.roster(),
    fd.roster(fd.unit()), fd.roster(fd.unit(6, 5), fd.unit(2, 20), limit=10), fd.roster(),
], ids=lambda doc: f"{doc.ruleset}-{len(doc.units)}")
def test_every_other_systems_result_is_its_models_json(doc: Any) -> None:
    system = SYSTEMS[doc.ruleset]
    for lang in ("en", "ru"):
        sent_as_is(system.evaluate(doc, lang).result, system.result_model)
