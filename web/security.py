"""Credentials and CSRF checks for the API and the pages. The threat model is in docs/web.md.

A request proves who it is with a cookie (what the pages use: ``owner``, ``host_<game>`` and
``player_<game>``, HttpOnly, SameSite=Strict) or a header (``X-Table-Key``, ``X-Host-Key``,
``X-Player-Token``, for scripts and the benchmarks). Every state-changing request must also
carry ``X-CSRF-Token``: the HMAC of the credential it uses (or, to create a game, of the
browser's anonymous ``csrf`` cookie). Another site's page can make a phone send cookies, but
it cannot read the token or set the header, and a cross-origin ``Origin`` is refused outright.

Starting a game takes the table's **owner key** (the link ``companion serve`` prints) or a
browser on the companion itself: the table's dice follow the newest game, so a stranger on
the Wi-Fi must not be able to start one. A ``Host`` header that names another site is refused
(a DNS-rebinding page would send its own name; an address typed as numbers cannot be rebound).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Request, Response, current_app, request
from werkzeug.wrappers import Response as BaseResponse

from web.context import companion
from web.keys import Credential, KeyStore, Role

CSRF_HEADER = "X-CSRF-Token"
ANON_COOKIE = "csrf"
OWNER_COOKIE = "owner"
OWNER_HEADER = "X-Table-Key"
# How long a browser stays signed in. A seat's phone: a game night, renewed each time the
# phone page loads, so a forgotten cookie does not watch next week's game. The host and the
# owner: long enough for the rematch and the next game night.
SEAT_COOKIE_AGE = 60 * 60 * 24
HOST_COOKIE_AGE = 60 * 60 * 24 * 30
OWNER_COOKIE_AGE = 60 * 60 * 24 * 365
LOOPBACK = ("127.0.0.1", "::1")


@dataclass
class ApiError(Exception):
    """A request refused before it reaches the table service (no credential, bad JSON...)."""

    status: int
    code: str
    reason: str
    rule: str | None = None


def keys() -> KeyStore:
    return companion().keys


def host_cookie(game_id: str) -> str:
    return f"host_{game_id}"


def player_cookie(game_id: str) -> str:
    return f"player_{game_id}"


def credential(game_id: str, role: Role, req: Request | None = None) -> Credential | None:
    """The host or player credential this request carries for ``game_id``, if any."""
    req = req or request
    if role is Role.HOST:
        token = req.headers.get("X-Host-Key") or req.cookies.get(host_cookie(game_id))
    else:
        token = req.headers.get("X-Player-Token") or req.cookies.get(player_cookie(game_id))
    cred = keys().lookup(game_id, token)
    return cred if cred is not None and cred.role is role else None


def require(game_id: str, role: Role) -> Credential:
    cred = credential(game_id, role)
    if cred is None:
        who = "the host key" if role is Role.HOST else "a player's seat (scan your QR code)"
        raise ApiError(401, "unauthorised", f"this needs {who} for game {game_id}")
    return cred


def at_the_table(game_id: str) -> Credential:
    """The host's or a seat's credential: someone who was at this game's table."""
    cred = credential(game_id, Role.PLAYER) or credential(game_id, Role.HOST)
    if cred is None:
        raise ApiError(
            401,
            "unauthorised",
            f"this needs the host key or a player's seat of game {game_id}",
        )
    return cred


def is_owner(req: Request | None = None) -> bool:
    """Whether this browser may start games: it holds the owner key, or it is the companion
    itself (a page opened on the Pi's own screen)."""
    req = req or request
    if current_app.config.get("TRUST_LOOPBACK", True) and req.remote_addr in LOOPBACK:
        return True
    key = req.headers.get(OWNER_HEADER) or req.cookies.get(OWNER_COOKIE)
    return keys().is_owner(key)


def require_owner() -> None:
    if not is_owner():
        raise ApiError(
            403,
            "not_owner",
            "only the table's owner starts games: open the link (or scan the QR code) that "
            "companion serve printed when it started, or use the companion's own screen",
        )


def allowed_host_names(extra: list[str] | tuple[str, ...] = ()) -> set[str]:
    """The names this companion answers to besides any address typed as numbers."""
    host = socket.gethostname().lower()
    names = {"localhost", host, f"{host}.local", *(n.lower() for n in extra)}
    return {n for n in names if n}


def check_host() -> None:
    """Refuse a ``Host`` this companion does not go by: a DNS-rebinding page reaches us under
    its own domain name, which it cannot make one of ours or an IP address."""
    raw = request.headers.get("Host", "")
    try:
        name = urlsplit(f"//{raw}").hostname or ""
    except ValueError:
        name = ""
    if not name:
        raise ApiError(400, "bad_host", "the request has no usable Host header")
    try:
        ipaddress.ip_address(name)
        return
    except ValueError:
        pass
    if name.lower() not in current_app.config["ALLOWED_HOSTS"]:
        raise ApiError(
            400,
            "bad_host",
            f"this companion does not answer to the name {name!r}: open it by its address "
            "(or start it with --allow-host NAME)",
        )


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
        set_secret_cookie(response, ANON_COOKIE, value, OWNER_COOKIE_AGE)
    return keys().csrf_for(value)


def set_secret_cookie(response: BaseResponse, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="Strict",
        secure=bool(current_app.config.get("HTTPS")),
    )  # never sent over http
