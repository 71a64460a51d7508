"""What the table calculators' plain GET forms share: reading a typed number, naming the field
it came from when it is not one (the page answers 422 with that message, never a 500), and an
exact fraction's shown forms."""

from __future__ import annotations

from fractions import Fraction

from app.domain.base import Lang, percent_text
from app.web import i18n


class FieldProblem(ValueError):
    """A form field the page cannot use; the message starts with the field's label."""


def whole(raw: str | None, label: str, least: int, most: int, default: int) -> int:
    """A whole number typed in a field labelled `label`, within [least, most]; blank: default."""
    text = (raw or "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise FieldProblem(i18n.gettext("%(field)s: enter a whole number from %(least)s to "
                                        "%(most)s") % {"field": label, "least": least,
                                                       "most": most}) from None
    if not least <= value <= most:
        raise FieldProblem(i18n.gettext("%(field)s: %(value)s is not from %(least)s to "
                                        "%(most)s") % {"field": label, "value": value,
                                                       "least": least, "most": most})
    return value


def choice(raw: str | None, label: str, allowed: tuple[str, ...], default: str) -> str:
    text = (raw or "").strip()
    if not text:
        return default
    if text not in allowed:
        raise FieldProblem(i18n.gettext("%(field)s: not one of the choices") % {"field": label})
    return text


def shown(p: Fraction, lang: Lang) -> dict[str, str]:
    """A probability as the page writes it: the reduced fraction and a percentage."""
    if 0 < p < Fraction(1, 2000):
        percent = "<" + percent_text(Fraction(1, 1000), lang)
    else:
        percent = percent_text(p, lang)
    return {"exact": f"{p.numerator}/{p.denominator}" if p.denominator != 1 else
            str(p.numerator), "percent": percent}
