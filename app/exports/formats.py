"""Each rule system's army sheet and text exports, by ruleset id.

A system adds a module here with `RULESET`, `OPTIONAL_SECTIONS` (ids of the sheet sections a
player may tick), `sheet_of(document, lang, optional)`, `print_words(lang)`,
`export_text/export_markdown/export_bbcode(document, lang)`, and a print template
`templates/systems/<ruleset>/print.html`; `app/exports/__init__.py` and the print page
dispatch here.
"""

from __future__ import annotations

from types import ModuleType

from app.exports import chainmail, formation_density, line_and_square

FORMATS: dict[str, ModuleType] = {module.RULESET: module for module in (
    chainmail, formation_density, line_and_square)}
