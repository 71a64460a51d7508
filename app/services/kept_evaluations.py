"""A stored version's evaluation (priced and judged), made once per language and kept.

A version never changes, so neither does its evaluation: the creation or change that stored
it, the API's read, the share view and the editor's page of the same version share one, keyed
by (roster id, version, language). A new version is a new key; the rules' code changes only
with a restart, which empties it.
Why this exists: kept, a 20-unit roster's read takes 1.1 ms less in-process and its share
view 1.2 ms (docs/speed.md).
"""

from __future__ import annotations

from app.domain.base import Lang
from app.domain.system import Evaluation
from app.services.cache import Recent
from app.services.stored_rosters import StoredRoster
from app.systems import SYSTEMS

# Evaluations are a few KB each: a few hundred rosters read often stay made.
_EVALUATIONS: Recent[Evaluation] = Recent(512)


def judgement(roster: StoredRoster, lang: Lang) -> Evaluation:
    """The stored roster priced and judged in `lang`. Read it; never change it."""
    return _EVALUATIONS.get((roster.id, roster.version, lang),
                            lambda: SYSTEMS[roster.ruleset].evaluate(roster.document, lang))


def keep(roster: StoredRoster, lang: Lang, evaluation: Evaluation) -> None:
    """Keep `evaluation`, made in `lang` of the document just stored as `roster`, so that the
    answer does not make it again."""
    _EVALUATIONS.get((roster.id, roster.version, lang), lambda: evaluation)
