"""Refresh the gettext catalogues: extract, update, add Russian translations, compile.

    python tools/i18n.py                       # after changing templates or Python strings
    python tools/i18n.py --add new-ru.json     # also fill msgstr from {"English": "Русский"}

A message with a context (`tp("line_and_square", "Unit %(n)s")` in a template) is keyed in the
JSON as gettext keys it, the context and the message joined by "\u0004"; a plural message by its
singular, with a list of the Russian forms for 1, 2 and 5.

Prints every message still without a Russian translation. Several people may run it at once:
a file lock keeps their writes from interleaving.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "app" / "locale"
POT = LOCALE / "messages.pot"
LANGS = ("en", "ru")
PYBABEL = [sys.executable, "-m", "babel.messages.frontend"]


# The marker functions extraction looks for: the templates' (_, tp) and the Python code's
# (app/domain/translations.py: tr, ptr, ntr, nptr, the data markers N_ and NP_, and its
# counted nouns).
KEYWORDS = ("_", "gettext", "ngettext", "tp:1c,2", "tr:2", "ptr:2c,3", "ntr:2,3",
            "nptr:2c,3,4", "N_", "NP_:1c,2", "plural_noun:1c,2,3")


def extract(pot: Path) -> None:
    """Every message of the templates and of app/, into the template catalogue `pot`."""
    keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
    run("extract", "-F", "babel.cfg", *keywords, "--no-location", "--omit-header",
        "-o", str(pot), ".")


def run(*args: str) -> None:
    subprocess.run([*PYBABEL, *args], cwd=ROOT, check=True, capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--add", action="append", default=[], type=Path,
                        help="JSON file of English → Russian translations")
    args = parser.parse_args()
    additions: dict[str, str] = {}
    for path in args.add:
        additions.update(json.loads(path.read_text(encoding="utf-8")))
    lock_path = Path(tempfile.gettempdir()) / "muster-i18n.lock"
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        extract(POT)
        missing: list[str] = []
        found: set[str] = set()
        for lang in LANGS:
            po = LOCALE / lang / "LC_MESSAGES" / "messages.po"
            if po.exists():
                run("update", "-i", str(POT), "-d", str(LOCALE), "-l", lang,
                    "--no-fuzzy-matching", "--ignore-obsolete")
            else:
                run("init", "-i", str(POT), "-d", str(LOCALE), "-l", lang)
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=lang)
            for message in catalog:
                if not message.id:
                    continue
                if lang == "ru":
                    # A message with a context is keyed as gettext keys it: "context\x04id".
                    # A plural message is keyed by its singular, its Russian a list of the
                    # three forms (1, 2, 5).
                    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
                    key = f"{message.context}\x04{msgid}" if message.context else msgid
                    found.add(key)
                    if key in additions:
                        text = additions[key]
                        message.string = tuple(text) if isinstance(text, list) else text
                    elif not all(message.string if message.pluralizable else [message.string]):
                        missing.append(key)
                message.flags.discard("fuzzy")
            with po.open("wb") as handle:
                write_po(handle, catalog, width=100, no_location=True)
        run("compile", "-d", str(LOCALE))
    for message_id in missing:
        print(f"no Russian yet: {message_id!r}")
    # A translation whose message the extraction did not find (a msgid inside an f-string's
    # braces, a misspelt key) is dropped silently otherwise.
    for message_id in sorted(set(additions) - found):
        print(f"not in the catalogue, so not applied: {message_id!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
