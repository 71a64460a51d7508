"""A stored version's evaluation (priced and judged), made once per language and kept.

A version never changes, so neither does its evaluation: the API's read, the share view and
the editor's page of the same version share one, keyed by (roster id, version, language). A
new version is a new key; the rules' code changes only with a restart, which empties it.
Why this exists: kept, a 20-unit roster's read takes 1.1 ms less in-process and its share
view 1.2 ms (docs/speed.md).
"""

from __future__ import annotations

from typing import NamedTuple

from app.domain import RULESETS
from app.domain.base import Lang
from app.domain.system import Evaluation
from app.services.cache import Recent
from app.services.stored_rosters import StoredRoster


class Judged(NamedTuple):
    evaluation: Evaluation
    # The document as the app writes it, when its stored text is not that (a stored text that
    # app.domain.player_text.mended mends); None when the stored text is it.
    rewritten: str | None


# Evaluations are a few KB each: a few hundred rosters read often stay made.
_EVALUATIONS: Recent[Judged] = Recent(512)


def judged(roster: StoredRoster, lang: Lang) -> Judged:
    """The stored roster priced and judged in `lang`, and its document's form. Read it; never
    change it."""
    def make() -> Judged:
        document = roster.document
        written = document.model_dump_json()
        return Judged(RULESETS[roster.ruleset].evaluate(document, lang),
                      None if written == roster.text else written)

    return _EVALUATIONS.get((roster.id, roster.version, lang), make)


def keep(roster: StoredRoster, lang: Lang, evaluation: Evaluation) -> None:
    """Keep `evaluation`, made in `lang` of the document just stored as `roster` (its text
    written from the validated document), so that the answer does not make it again."""
    _EVALUATIONS.get((roster.id, roster.version, lang), lambda: Judged(evaluation, None))


def judgement(roster: StoredRoster, lang: Lang) -> Evaluation:
    """The stored roster priced and judged in `lang`. Read it; never change it."""
    return judged(roster, lang).evaluation


def document_json(roster: StoredRoster, lang: Lang) -> str:
    """The stored document's JSON as the app writes it, without reading it into its model
    when its evaluation in `lang` is kept: the text as stored, which the app wrote from the
    validated document."""
    kept = judged(roster, lang)
    return roster.text if kept.rewritten is None else kept.rewritten
