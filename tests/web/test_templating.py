"""Templates translate their labels in the page's language (app/web/templating.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from jinja2 import UndefinedError
from starlette.requests import Request

from app.domain.base import LANGS
from app.web import i18n
from app.web.templating import env, site_address

# Markup, "%%", an apostrophe, a label with variables, and a label that is not a literal.
SOURCE = """{{ _("“About X” is a band (for example about 50 %% is 40–60 %%)") }}
{{ _("Points") }} {{ _("Unit %(n)s", n=4) }}
<a title="{{ _("Historical (keep the nation's proportions)") }}">
{{ _("Historical (keep the nation's proportions)") }}</a>
{{ _(label) }}"""



@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    # These tests choose the language of this thread; later tests must not inherit it.
    yield
    i18n.use_lang("en")


@pytest.mark.parametrize("lang", LANGS)
def test_labels_are_translated_in_the_pages_language(lang: str) -> None:
    i18n.use_lang(lang)  # type: ignore[arg-type]
    drawn = env.from_string(SOURCE).render(label="Totals")
    if lang == "ru":
        assert "Очки" in drawn and "Points" not in drawn
    assert "50 %" in drawn and "%%" not in drawn


def test_drawn_option_lists_mark_the_selected_value_each_time() -> None:
    # Each call marks its own selection and escapes the names.
    macros = env.get_template("rosters/_macros.html").module

    def options(names: dict[str, str], selected: str, blank: str | None = None) -> str:
        return str(macros.options(names, selected, blank))  # type: ignore[attr-defined]

    names = {"a": "<A>", "none": "nothing", "b": "B"}
    for _ in range(2):
        assert options(names, "b") == ('<option value="a">&lt;A&gt;</option>'
                                       '<option value="none">nothing</option>'
                                       '<option value="b" selected>B</option>')
        assert 'value="a" selected' in options(names, "a")
        assert '<option value="none">—</option>' in options(names, "a", "—")
    other = {"a": "other"}
    assert options(other, "a") == '<option value="a" selected>other</option>'


@pytest.mark.parametrize("scope, address", [
    ({"scheme": "http", "server": ("127.0.0.1", 8000), "headers": [(b"host", b"muster.example")]},
     "http://muster.example"),
    ({"scheme": "https", "server": ("10.0.0.5", 443), "headers": [(b"host", b"a.example:8443")],
      "root_path": "/muster"}, "https://a.example:8443/muster"),
    ({"scheme": "http", "server": ["10.0.0.5", 8080], "headers": []}, "http://10.0.0.5:8080"),
    ({"scheme": "https", "server": ("10.0.0.5", 443), "headers": [(b"host", b"bad host/x")]},
     "https://10.0.0.5"),
])
def test_site_address_is_starlettes_base_url(scope: dict, address: str) -> None:
    request = Request({"type": "http", "path": "/r/x/edit", "query_string": b"", **scope})
    assert site_address(request) == address == str(request.base_url).rstrip("/")


CONTEXTUAL = ('{{ tp("line_and_square", "Unit %(n)s")|format(n=2) }}|'
              '{{ _("Unit %(n)s", n=2) }}')


@pytest.mark.parametrize("lang", LANGS)
def test_a_message_with_a_context_is_translated_in_that_context(lang: str) -> None:
    i18n.use_lang(lang)  # type: ignore[arg-type]
    drawn = env.from_string(CONTEXTUAL).render()
    assert drawn == {"en": "Unit 2|Unit 2", "ru": "Подразделение 2|Отряд 2"}[lang]


def test_a_context_without_its_own_word_gives_the_general_one() -> None:
    # Only a few messages have a Line and Square wording of their own; for the rest the
    # context must not leave a Russian page with the English msgid.
    i18n.use_lang("ru")
    assert i18n.pgettext("line_and_square", "Figures") == i18n.gettext("Figures") == "Фигуры"
    source = '{{ tp("line_and_square", "Figures") }}'
    assert env.from_string(source).render() == "Фигуры"


def test_a_name_the_context_lacks_may_be_tested_but_never_written_out() -> None:
    # `{% if problem %}` on a page drawn without one is the templates' everyday idiom; writing
    # a missing name out is a fragment drawn without what its page set, and must not pass as
    # an empty label.
    assert env.from_string("[{% if problem %}{{ problem }}{% endif %}]").render() == "[]"
    assert env.from_string("[{{ problem or 'none' }}]").render() == "[none]"
    for written in ("{{ no_weapon }}", "{{ 'u' ~ no_weapon }}"):
        with pytest.raises(UndefinedError, match="no_weapon"):
            env.from_string(written).render()
