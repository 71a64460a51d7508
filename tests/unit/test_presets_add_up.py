"""Each nation's presets, the one-tap buttons its editor offers, taken once each make a legal
army: a player who taps each of them has broken no rule of the nation's."""

from __future__ import annotations

import pytest

from app.domain.base import Severity
from app.systems.chainmail import evaluate
from app.systems.chainmail.catalogue import NATIONS, PRESETS
from app.systems.chainmail.editor import own_presets
from app.systems.chainmail.roster import ChainmailRoster


@pytest.mark.parametrize("nation", list(NATIONS))
def test_each_nations_presets_taken_once_each_make_a_legal_army(nation: str) -> None:
    offered = own_presets(nation, [{"id": p.id, "nations": list(p.nations)}
                                   for p in PRESETS.values()])
    assert offered, nation
    units = [{"name": PRESETS[p["id"]].name("en"), "flags": list(PRESETS[p["id"]].flags),
              "lines": [{"troop": PRESETS[p["id"]].troop, "figures": PRESETS[p["id"]].figures,
                         "weapon": PRESETS[p["id"]].weapon}]} for p in offered]
    roster = ChainmailRoster.model_validate({"name": nation, "ruleset": "chainmail",
                                            "nation": nation, "units": units})
    found = evaluate(roster)
    broken = [c.summary for c in found.checks
              if not c.holds and c.severity is Severity.error]
    assert found.result["valid"] and broken == [], (nation, broken)
