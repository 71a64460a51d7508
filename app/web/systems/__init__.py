"""Each rule system's part of the editor: its actions, new documents and page context.

Templates for a system live in `templates/systems/<ruleset id>/`; the pages choose them by
the roster's ruleset, so a new system adds a module here and a template folder, nothing else.
"""

from __future__ import annotations

from types import ModuleType

from app.web.systems import chainmail, formation_density, line_and_square

SYSTEMS: dict[str, ModuleType] = {module.RULESET: module for module in (chainmail, line_and_square,
                                                                          formation_density)}
