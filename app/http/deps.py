"""What the API's routes and the pages share, as dependencies and request helpers: the
database session, the language of the API's words, ids, JSON bodies, bearer keys, the creation
limit's count."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.domain import json_text
from app.domain.base import Lang
from app.domain.translations import tr
from app.http.errors import Failure
from app.http.language import lang_of
from app.services import rosters
from app.services.creation_limit import CreationLimit
from app.services.errors import KeyRejected, RosterDeleted, RosterNotFound
from app.storage import db


def open_session(request: Request) -> Session:
    """A session on the app's engine that carries its storage limits (StorageLimits, built
    once by create_app): get_session's."""
    engine = getattr(request.app.state, "engine", None)
    if engine is None:
        raise RuntimeError("the database is opened by the app's lifespan; start the app first")
    return db.open_session(engine, request.app.state.storage_limits)


async def get_session(request: Request) -> AsyncIterator[Session]:
    """The request's session. Made on the event loop (that is only bookkeeping: the session
    connects when first used, in the route's worker thread); a sync generator here would cost
    two extra trips to a worker thread per request. Closing goes to a worker thread only when a
    transaction is still open, as ending one talks to the database."""
    session = open_session(request)
    try:
        yield session
    finally:
        if session.in_transaction():
            await run_in_threadpool(session.close)
        else:
            session.close()


def readiness(request: Request) -> db.Readiness | None:
    """Whether the app's database can serve requests (db.readiness); None while the app is
    starting and has not opened it yet."""
    engine = getattr(request.app.state, "engine", None)
    return None if engine is None else db.readiness(engine)


def take_creation(request: Request, session: Session) -> None:
    """Count a roster (or game, or event) about to be created for the request's client;
    CreationRefused over the limit (app/services/creation_limit.py), answered 429 by the
    handler app/main.py registers."""
    limit: CreationLimit = request.app.state.creation_limit
    limit.take(session, request.client.host if request.client else "")


SessionDep = Annotated[Session, Depends(get_session)]
LangDep = Annotated[Lang, Query(description="Language of messages: en or ru")]
# Ids are token_urlsafe strings; anything else cannot name a roster (and a NUL byte would
# otherwise reach PostgreSQL). The pages check theirs (rosters, games, events) with `is_id`.
ROSTER_ID = r"^[A-Za-z0-9_-]{1,64}$"
_ID = re.compile(ROSTER_ID)


# A roster's share, edit or print link: its id is the segment after /r/.
_ROSTER_LINK = re.compile(r"/r/([A-Za-z0-9_-]{1,64})(?:/(?:edit|print))?/?(?:[?#].*)?$")


def is_id(text: str) -> bool:
    """Whether `text` has the form of a roster's, game's or event's id: what has not names
    nothing and is answered without being looked up."""
    return _ID.fullmatch(text) is not None


def pasted_roster_id(text: str) -> str | None:
    """The roster a player's paste names (the melee calculator, handing in to an event,
    joining a game): its id, or its share, edit or print link; None for anything else."""
    text = text.strip()
    if is_id(text):
        return text
    found = _ROSTER_LINK.search(text)
    return found.group(1) if found else None

RosterId = Annotated[str, Path(pattern=ROSTER_ID, max_length=64,
                               description="the roster's public id")]

_bearer = HTTPBearer(auto_error=False, description="the roster's edit key",
                     scheme_name="EditKey")


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type names JSON: application/json or application/*+json, parameters
    (charset) aside; none at all is not JSON (as FastAPI reads a body)."""
    if not content_type:
        return False
    kind = content_type.partition(";")[0].strip().lower()
    main, _, sub = kind.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


# A media type as RFC 9110 writes one (type "/" subtype, each a token: 5.6.2's tchar), at most
# 80 long.
_TOKEN = r"[A-Za-z0-9!#$%&'*+.^_`|~-]"
_MEDIA_TYPE = re.compile(f"{_TOKEN}{{1,40}}/{_TOKEN}{{1,39}}")


def not_json(request: Request) -> HTTPException:
    """415 for a body sent as something other than JSON: FastAPI by itself takes such a body
    as one string and refuses it with 'Input should be a valid dictionary', which names
    neither the header at fault nor what to send. `Accept` says what is taken (RFC 9110, 12.5.1)."""
    lang = lang_of(request)
    sent = (request.headers.get("content-type") or "").partition(";")[0].strip()
    if sent and not _MEDIA_TYPE.fullmatch(sent):
        sent = "?"  # not a media type to quote (bytes past ASCII come as Latin-1: garbled)
    message = tr(lang, "Content-Type: send the body as application/json, not %(sent)s",
                 sent=sent) if sent else tr(lang, "Content-Type: send the body as "
                                                  "application/json (the request named no "
                                                  "content type)")
    return refusal(415, message, headers={"Accept": "application/json"})


async def json_body(request: Request) -> None:
    """Refuse a body that is not sent as JSON (415), or not in UTF-8 (415: RFC 8259 8.1, a
    charset other than UTF-8 named or UTF-16 sent), or with a key twice in one object (422
    naming it), on the operations that take a JSON document. An empty body is left to the
    body's own refusal ('Field required'). FastAPI has read the body by the time dependencies
    run, so this reads nothing more."""
    body = await request.body()
    if not body:
        return
    content_type = request.headers.get("content-type")
    if not is_json(content_type):
        raise not_json(request)
    charset = _CHARSET.search(content_type or "")
    try:
        if charset and charset.group(1).strip('"').lower() not in ("utf-8", "utf8"):
            raise UnicodeError(charset.group(1))
        # FastAPI read it as JSON in whichever encoding its first bytes suggest: if it is no
        # JSON as UTF-8 (a byte-order mark aside), it was UTF-16 or UTF-32.
        json_text.loads(body.decode("utf-8").removeprefix("\ufeff"))
    except json_text.RepeatedKey as repeated:
        raise RequestValidationError([{
            "loc": ("body", repeated.key), "type": "value_error", "input": repeated.key,
            "msg": tr(lang_of(request), "the key %(key)s is given twice in one object; send "
                                        "it once", key=repeated.key)}]) from repeated
    except (UnicodeError, ValueError) as error:
        raise refusal(415, tr(lang_of(request), "Content-Type: send the body as JSON in "
                                                "UTF-8"), headers={"Accept": "application/json"}
                      ) from error


_CHARSET = re.compile(r";\s*charset\s*=\s*([^;\s]*)", re.IGNORECASE)


# What the operations that take a JSON document answer for a body of another type.
NOT_JSON_ANSWER: dict[int | str, dict[str, Any]] = {415: {
    "model": Failure, "description": "The body was not sent as application/json",
    "headers": {"Accept": {"description": "application/json", "schema": {"type": "string"}}}}}


def refusal(status: int, message: str,
            headers: dict[str, str] | None = None) -> HTTPException:
    """An HTTP refusal with its message already in the request's language (`tr`)."""
    return HTTPException(status, message, headers=headers)


def edit_key(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    lang: LangDep = "en",
) -> str:
    return bearer(credentials, tr(lang, "Authorization: send the roster's edit key as `Bearer "
                                        "<edit_key>`"))


def bearer(credentials: HTTPAuthorizationCredentials | None, missing: str) -> str:
    """The key an `Authorization: Bearer` header carries, or 401 saying `missing`."""
    if credentials is None or not credentials.credentials:
        raise refusal(401, missing, headers={"WWW-Authenticate": 'Bearer realm="muster"'})
    return credentials.credentials


def not_found(lang: Lang, roster_id: str, error: RosterNotFound) -> HTTPException:
    if isinstance(error, RosterDeleted):
        until = error.restorable_until.date().isoformat()
        return refusal(410, tr(lang, "roster %(roster_id)s was deleted; its owner can restore it "
                               "until %(until)s", roster_id=roster_id, until=until))
    return refusal(404, tr(lang, "no roster %(roster_id)s", roster_id=roster_id))


def keyed_roster(roster_id: RosterId, session: SessionDep,
                 key: Annotated[str, Depends(edit_key)], lang: LangDep = "en") -> str:
    """The roster id from the path, once the request has shown that roster's edit key."""
    try:
        rosters.check_edit_key(session, roster_id, key)
    except KeyRejected as error:
        raise refusal(403, tr(lang, "Authorization: this is not the roster's edit key")) from error
    return roster_id


KeyedRosterId = Annotated[str, Depends(keyed_roster)]
