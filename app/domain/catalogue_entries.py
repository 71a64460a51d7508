"""Catalogue entries: an id (public contract) and a name that is a message of the gettext
catalogue (app/domain/translations.py), so that every rule system's names are translated in
one place.

An entry keeps the English msgid of its name, marked with N_; where the same English reads
otherwise in Russian somewhere else (Formation Density's «Пики», Chainmail's «Пика»), it is
marked NP_ with a gettext context, and the entry keeps that context too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.domain.base import Lang
from app.domain.translations import ptr, tr


@dataclass(frozen=True)
class Named:
    """A catalogue entry: its id and the English msgid of its name (`title`), in `context` if
    it has one (the same as in its NP_ marks)."""

    id: str
    title: str
    context: str = field(default="", kw_only=True)

    def text(self, lang: Lang, message: str) -> str:
        """One of the entry's messages (its name, its description) in `lang`."""
        return ptr(lang, self.context, message) if self.context else tr(lang, message)

    def name(self, lang: Lang) -> str:
        return self.text(lang, self.title)


def named(item: Named, **extra: Any) -> dict[str, Any]:
    """A catalogue entry as the catalogue endpoint lists it: its name in both languages."""
    return {"id": item.id, "name_ru": item.name("ru"), "name_en": item.name("en"), **extra}
