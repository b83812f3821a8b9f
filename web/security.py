"""Credentials and CSRF checks for the API and the pages.

A request proves who it is with a cookie (what the pages use: ``host_<game>`` and
``player_<game>``, HttpOnly, SameSite=Strict) or a header (``X-Host-Key`` /
``X-Player-Token``, for scripts and the benchmarks). Every state-changing request must also
carry ``X-CSRF-Token``: the HMAC of the credential it uses (or, to create a game, of the
browser's anonymous ``csrf`` cookie). Another site's page can make a phone send cookies, but
it cannot read the token or set the header, and a cross-origin ``Origin`` is refused outright.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Request, Response, current_app, request

from web.keys import Credential, KeyStore

CSRF_HEADER = "X-CSRF-Token"
ANON_COOKIE = "csrf"
COOKIE_AGE = 60 * 60 * 24 * 30  # a month: a game night, and the rematch


@dataclass
class ApiError(Exception):
    """A request refused before it reaches the table service (no credential, bad JSON...)."""

    status: int
    code: str
    reason: str
    rule: str | None = None


def keys() -> KeyStore:
    return current_app.extensions["companion"].keys


def host_cookie(game_id: str) -> str:
    return f"host_{game_id}"


def player_cookie(game_id: str) -> str:
    return f"player_{game_id}"


def credential(game_id: str, role: str, req: Request | None = None) -> Credential | None:
    """The host or player credential this request carries for ``game_id``, if any."""
    req = req or request
    if role == "host":
        token = req.headers.get("X-Host-Key") or req.cookies.get(host_cookie(game_id))
    else:
        token = req.headers.get("X-Player-Token") or req.cookies.get(player_cookie(game_id))
    cred = keys().lookup(game_id, token)
    return cred if cred is not None and cred.role == role else None


def require(game_id: str, role: str) -> Credential:
    cred = credential(game_id, role)
    if cred is None:
        who = "the host key" if role == "host" else "a player's token (scan your QR code)"
        raise ApiError(401, "unauthorised", f"this needs {who} for game {game_id}")
    return cred


def same_origin() -> None:
    """Refuse a request a page on another site made (browsers always send ``Origin`` on a
    cross-origin POST). Scripts that send no ``Origin`` are judged by their token alone."""
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.host:
        raise ApiError(403, "csrf", f"requests from {origin} are not accepted")
    if origin == "null":
        raise ApiError(403, "csrf", "requests from an opaque origin are not accepted")


def check_csrf(value: str) -> None:
    """The request must carry the CSRF token for ``value`` (its credential's token)."""
    same_origin()
    if not keys().check_csrf(value, request.headers.get(CSRF_HEADER)):
        raise ApiError(
            403,
            "csrf",
            f"missing or wrong {CSRF_HEADER} header: reload the page (scripts: use the csrf "
            "value the API returned with your key)",
        )


def anon_csrf(response: Response) -> str:
    """The browser's anonymous CSRF cookie (for creating a game), set if it has none; returns
    the token the page must send."""
    value = request.cookies.get(ANON_COOKIE)
    if not value:
        value = secrets.token_urlsafe(16)
        set_secret_cookie(response, ANON_COOKIE, value)
    return keys().csrf_for(value)


def set_secret_cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="Strict",
                        secure=bool(current_app.config.get("HTTPS")))  # never sent over http
