"""One way to translate: every message goes through the gettext catalogues in app/locale.

No Python in app/ picks between an English and a Russian text it carries itself, every message
the code and the templates use has its Russian in the compiled catalogue, and Russian numbers
take the catalogue's plural forms (three of them), fractions included.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.domain.bands import Span, figures_of
from app.domain.catalogue_entries import Named
from app.domain.translations import catalogue, counted, tr
from app.systems import SYSTEMS
from app.systems.chainmail import figure_sizes, siege

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "app").rglob("*.py"))
CYRILLIC = re.compile("[\u0400-\u04ff]")


def _tools_i18n():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("tools_i18n", ROOT / "tools" / "i18n.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# A module choosing between its own English and Russian: pick(...), Words(...), a {"ru": ...}
# table, or `name_ru if lang == ...` and `"name_ru" if ...` (two texts an object carries).
@pytest.mark.parametrize("pattern", [r"\bpick\(", r"\bWords\(", r"""["']ru["']\s*:""",
                                     r"""_ru["']?\s+if\b"""])
def test_no_python_picks_between_its_own_english_and_russian(pattern: str) -> None:
    found = [f"{path.relative_to(ROOT)}:{n}" for path in SOURCES
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(pattern, line)]
    assert found == []


def _russian_literals(path: Path) -> list[int]:
    """Lines of string literals in Cyrillic, docstrings and other bare strings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in bare and CYRILLIC.search(node.value)]


def test_russian_text_lives_in_the_catalogue() -> None:
    found = {str(path.relative_to(ROOT)): lines for path in SOURCES
             if (lines := _russian_literals(path))}
    # A quoted seed inside an English msgid and example names in the API docs are not
    # translations. The catalogues' entries hold msgids: their Russian is in the .po too.
    allowed = {"app/systems/line_and_square/square.py", "app/api/calculators.py"}
    assert set(found) <= allowed, {k: v for k, v in found.items() if k not in allowed}


def test_every_message_has_its_russian_in_the_compiled_catalogue(tmp_path: Path) -> None:
    pot = tmp_path / "messages.pot"
    _tools_i18n().extract(pot)
    with pot.open("rb") as handle:
        template = read_po(handle)
    compiled = catalogue("ru")
    missing = []
    for message in template:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        key = f"{message.context}\x04{msgid}" if message.context else msgid
        if isinstance(message.id, tuple):
            forms = [compiled._catalog.get((key, i)) for i in range(3)]  # type: ignore[attr-defined]
        else:
            forms = [compiled._catalog.get(key)]  # type: ignore[attr-defined]
        if not all(forms):
            missing.append(key)
    assert missing == []
    assert len(template) > 500  # the extraction found the code's messages, not only a few


def _entries() -> list[Named]:
    listed = [entry for system in SYSTEMS.values() for items in system.entries.values()
              for entry in items.values()]
    return [*listed, *siege.STRUCTURES.values(), *siege.ENGINES.values(), *figure_sizes.KINDS]


def test_every_catalogue_entry_has_its_own_russian_in_its_context() -> None:
    """An entry's context (named beside its NP_ mark) finds its own Russian: a context the
    catalogue lacks would fall back to the plain message's Russian without a word."""
    compiled = catalogue("ru")._catalog  # type: ignore[attr-defined]
    entries = _entries()
    missing = [(entry.id, key) for entry in entries
               for message in (entry.title, getattr(entry, "description", None),
                               getattr(entry, "rule", None)) if message is not None
               if (key := f"{entry.context}\x04{message}" if entry.context else message)
               not in compiled]
    missing += [system.id for system in SYSTEMS.values()
                if f"ruleset\x04{system.title}" not in compiled]
    assert missing == []
    assert len(entries) > 100


def test_the_domain_messages_are_in_the_extraction(tmp_path: Path) -> None:
    pot = tmp_path / "messages.pot"
    _tools_i18n().extract(pot)
    with pot.open("rb") as handle:
        ids = {m.id for m in read_po(handle)}
    assert "Troops Table 18 forbids" in ids  # tr() in the rules
    assert ("%(n)s point", "%(n)s points") in ids  # a counted noun
    assert "Knights" in ids  # N_() sheet data


NUMBERS = (1, 2, 5, 11, 21, 0.5, 12.5)


def test_russian_points_take_the_three_forms_and_fractions_the_genitive_singular() -> None:
    assert [counted(n, "point", "ru") for n in NUMBERS] == [
        "1 очко", "2 очка", "5 очков", "11 очков", "21 очко", "0,5 очка", "12,5 очка"]


def test_english_points_are_plural_but_for_one() -> None:
    assert [counted(n, "point", "en") for n in NUMBERS] == [
        "1 point", "2 points", "5 points", "11 points", "21 points", "0.5 points",
        "12.5 points"]


def test_a_whole_phrase_takes_its_case_from_the_catalogue() -> None:
    assert [figures_of("ru", n, "horse ") for n in (1, 2, 5, 11, 21)] == [
        "из 1 фигуры конницы", "из 2 фигур конницы", "из 5 фигур конницы",
        "из 11 фигур конницы", "из 21 фигуры конницы"]
    assert [Span(True, n, n).text("ru", other="") for n in (1, 2, 5, 11, 21)] == [
        "добавьте 1 другую фигуру", "добавьте 2 другие фигуры", "добавьте 5 других фигур",
        "добавьте 11 других фигур", "добавьте 21 другую фигуру"]
    assert figures_of("en", 1, "horse ") == "of 1 horse figure"
    assert figures_of("en", 21, "horse ") == "of 21 horse figures"


def test_placeholders_are_filled_in_either_language() -> None:
    assert tr("ru", "remove %(count)s", count=3) == "уберите 3"
    assert tr("en", "remove %(count)s", count=3) == "remove 3"


def test_no_template_picks_between_an_objects_english_and_russian() -> None:
    """A template asks for a name in its language (`system.name(lang)`, `names.…`), never for
    one of two fields: `name_ru`, `rule_en`, `description_ru` and their kind."""
    templates = sorted([*(ROOT / "templates").rglob("*.html"),
                        *(ROOT / "app" / "systems").rglob("templates/*.html")])
    assert any("systems" in str(path) for path in templates)
    found = [f"{path.relative_to(ROOT)}:{n}" for path in templates
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\.\w+_(ru|en)\b", line)]
    assert found == []
