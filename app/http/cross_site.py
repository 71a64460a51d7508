"""Requests another site's page made a browser send: whether a request is from this site
(same_origin, which the pages' CSRF check also asks), and the API's refusal of changes sent
from elsewhere (CrossSiteWrites).

A browser is remembered by an HttpOnly device cookie. A page form that changes data must echo
the browser's random CSRF cookie in a hidden field (another site can make the browser send the
cookie but cannot read it, so it cannot forge the field), and a cross-site Origin is refused.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.domain.translations import N_, tr
from app.http.errors import Failure, refusal_body
from app.http.language import lang_of


def same_origin(request: Request) -> bool:
    """False when the browser says the request came from another site.

    Browsers send Sec-Fetch-Site; with `Referrer-Policy: no-referrer` they send `Origin: null`
    even for our own forms, so Origin is only compared when it names a site.
    """
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    if origin.lower() == _served_origin(request.scope.get("scheme", "http"),
                                        request.headers.get("host", "")):
        return True
    # Behind a proxy that passes its own Host on, the browser's Origin is the site's public
    # address (MUSTER_PUBLIC_URL), not the Host the server sees: a form of ours sent from there
    # is from this site, and nothing else is.
    return origin.lower() == public_origin(request)


def _served_origin(scheme: str, host: str) -> str:
    """The origin of the address the request was sent to: its scheme (behind a trusted proxy,
    the one it forwarded) and its Host, without the scheme's own port as browsers write it."""
    scheme, host = scheme.lower(), host.lower()
    default = {"http": ":80", "https": ":443"}.get(scheme)
    if default is not None and host.endswith(default):
        host = host.removesuffix(default)
    return f"{scheme}://{host}"


def public_origin(request: Request) -> str:
    """The origin (`scheme://host[:port]`) of MUSTER_PUBLIC_URL, or "" when it is not set."""
    app = request.scope.get("app")
    public = str(getattr(app.state, "public_url", "")) if app is not None else ""
    if not public:
        return ""
    parts = urlsplit(public)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if ":" in host:  # an IPv6 address is written in brackets in an origin
        host = f"[{host}]"
    # A browser leaves the scheme's own port out of the Origin it sends.
    default = {"http": 80, "https": 443}[scheme]
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{scheme}://{host}{port}"


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CROSS_SITE_MESSAGE = N_("a browser sent this request from another site; the API takes changes "
                        "from scripts and from this site's own pages only")


class CrossSiteWrites:
    """Refuse API requests that change data when the browser says another site sent them.

    The API needs no cookie, so such a request cannot act for the visitor; but a page elsewhere
    could still make its visitors' browsers create rosters (a multipart upload to the import is
    a "simple" request that needs no CORS preflight), each from the visitor's own address.
    Scripts send neither Origin nor Sec-Fetch-Site, and are not affected.
    """

    def __init__(self, app: ASGIApp, prefix: str = "/api/") -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] in UNSAFE_METHODS
                and scope["path"].startswith(self.prefix)):
            request = Request(scope)
            if not same_origin(request):
                text = tr(lang_of(request), CROSS_SITE_MESSAGE)
                refusal = JSONResponse(refusal_body(text), status_code=403)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


# How /docs describes that refusal on the API routes open to anyone.
CROSS_SITE_ANSWER: dict[int | str, dict[str, Any]] = {403: {
    "model": Failure, "description": "A browser sent the request from another site"}}
