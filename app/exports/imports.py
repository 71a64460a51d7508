"""A roster file brought back into Muster: an `export.json` or a bare roster document.

A file is taken whole or refused whole, with a message that says what is wrong and where, in
the API's 422 shape (`{"message": "field: msg; ...", "detail": [...]}`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Discriminator, TypeAdapter, ValidationError, create_model

from app.domain.base import Lang
from app.domain.translations import N_, tr
from app.exports import FORMAT
from app.systems import SYSTEMS
from app.systems.field_errors import describe
from app.systems.stored_documents import DOCUMENT as _DOCUMENT

KNOWN_FORMATS = (FORMAT,)
MAX_SHOWN = 10


class ImportRefused(ValueError):
    """The file cannot become a roster; `detail` lists each problem with its field."""

    def __init__(self, detail: list[dict[str, Any]],
                 errors: list[dict[str, Any]] | None = None) -> None:
        self.detail = detail
        self.errors = errors  # pydantic's own, when the document's model refused it
        self.message = "; ".join(f"{d['field']}: {d['message']}" for d in detail[:MAX_SHOWN])
        super().__init__(self.message)


def _refuse(field: str, message: str, kind: str) -> ImportRefused:
    loc: list[str | int] = [] if field == "file" else [field]
    return ImportRefused([{"field": field, "message": message, "type": kind, "loc": loc}])


def _text(data: bytes, lang: Lang) -> str:
    # UTF-8 (a byte-order mark from a Windows editor is harmless), or UTF-16 or UTF-32 told by
    # their first bytes, as JSON allows and as the other routes read a body.
    try:
        return data.decode(json.detect_encoding(data))
    except UnicodeDecodeError as exc:
        raise _refuse("file", tr(lang, "not UTF-8 text (byte %(start)s cannot be read); save the "
                                 "file as UTF-8", start=exc.start),
            "utf8_invalid") from None


def _json(text: str, lang: Lang) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _refuse("file", tr(lang, "not JSON: %(msg)s at line %(lineno)s, column %(colno)s",
                                 msg=exc.msg, lineno=exc.lineno, colno=exc.colno),
            "json_invalid") from None
    except RecursionError:
        raise _refuse("file", tr(lang, "nested too deeply"),
                      "json_invalid") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python will convert
        raise _refuse("file", tr(lang, "not a usable JSON value: %(exc)s", exc=exc),
                      "json_invalid") from None


_JSON_KINDS = {list: N_("a list"), str: N_("a string"), bool: "true/false", int: N_("a number"),
               float: N_("a number"), type(None): "null"}
_OTHER_KIND = N_("something else")


def _unwrap(value: Any, lang: Lang) -> dict[str, Any]:
    """The roster document inside an export (or the bare document itself: the export's
    own fields are optional, and `format`, when given, must be one this Muster reads)."""
    if not isinstance(value, dict):
        kind = tr(lang, _JSON_KINDS.get(type(value), _OTHER_KIND))
        raise _refuse("file", tr(lang, "must be a JSON object (a roster or a Muster export), not "
                                 "%(kind)s", kind=kind),
            "dict_type")
    fmt = value.get("format", FORMAT)
    if fmt not in KNOWN_FORMATS:
        raise _refuse("format", tr(lang, "unknown format version %(fmt)s; this Muster reads "
                                   "%(KNOWN_FORMATS)s",
                                   fmt=json.dumps(fmt, ensure_ascii=False)[:60],
                                   KNOWN_FORMATS=', '.join(KNOWN_FORMATS)),
            "format_unknown")
    for key in ("ruleset_version", "exported_at"):
        if key in value and not isinstance(value[key], str):
            raise _refuse(key, tr(lang, "must be a string"),
                          "string_type")
    return {k: v for k, v in value.items() if k not in ("format", "ruleset_version",
                                                        "exported_at")}


def _inline(schema: Any, definitions: dict[str, Any]) -> Any:
    """`schema` with every local `$ref` replaced by what it names (the models are not
    recursive), so that it can stand in one operation of the API description."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(definitions[ref.removeprefix("#/$defs/")], definitions)
        return {key: _inline(value, definitions) for key, value in schema.items()
                if key != "$defs"}
    if isinstance(schema, list):
        return [_inline(item, definitions) for item in schema]
    return schema


def import_schema() -> dict[str, Any]:
    """The JSON body `POST /api/v1/rosters/import` takes, as JSON Schema: a roster document of
    any rule system, bare or as exported (with `format` and, ignored, `ruleset_version` and
    `exported_at`)."""
    exported = tuple(
        create_model(f"{system.roster_model.__name__}Export", __base__=system.roster_model,
                     format=(Literal[FORMAT], FORMAT),  # type: ignore[valid-type]
                     ruleset_version=(str, ""), exported_at=(str, ""))
        for system in SYSTEMS.values())
    union = Annotated[Union[exported], Discriminator("ruleset")]  # type: ignore  # noqa: UP007
    schema = TypeAdapter(union).json_schema()
    inlined: dict[str, Any] = _inline(schema, schema.get("$defs", {}))
    # The discriminator's mapping names the definitions inlined above; each variant's
    # `ruleset` constant tells them apart all the same.
    inlined.pop("discriminator", None)
    return inlined


def parse_roster(data: bytes, lang: Lang = "en") -> BaseModel:
    """Uploaded bytes -> a validated roster document, or `ImportRefused`.

    The document's own problems (unknown ids, broken limits) are reported exactly as the API
    reports them, field by field; problems with the file itself name `file` (or `format`).
    """
    document = _unwrap(_json(_text(data, lang), lang), lang)
    try:
        return _DOCUMENT.validate_python(document)  # type: ignore[no-any-return]
    except ValidationError as exc:
        errors = list(exc.errors())
        raise ImportRefused(describe(errors), errors) from None
    except RecursionError:
        raise _refuse("file", tr(lang, "nested too deeply"),
                      "value_error") from None
