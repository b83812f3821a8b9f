"""The club server's Flask app: the store, the API, the pages, the headers and the refusals.

Who may do what (the threat model is in ``docs/club.md``):

- **anyone** reads the pages and the public API: every table's games as the table screen shows
  them, finished games' scores, the league. They are made from each game's public summary
  (``companion.club.showing``) and never from the log.
- **a table**, with its token, pushes its own games' events and reads its own games back (a
  restore). The token names the table, so it cannot write or read another table's games.
- **the admin**, with the admin key, adds tables, gives a table a new token, and may read any
  table's log (a restore for a table whose token is lost). Every read of a whole log is written
  down in ``club_reads``.

Credentials travel only in the ``Authorization: Bearer`` header, never in cookies, so a page
on another site cannot make a browser use one (nothing to forge: no CSRF token is needed).
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.club.store import ClubError, ClubStore
from companion.club.wire import MAX_PUSH_BYTES, WireError
from web.app import SECURITY_HEADERS
from web.security import ApiError, allowed_host_names, check_host

log = logging.getLogger(__name__)

CLUB_STATUS = {"gap": 409, "conflict": 409, "exists": 409, "not_found": 404}


def create_club_app(store: ClubStore, config: dict[str, Any] | None = None) -> Flask:
    """A ready club app over ``store``. ``config``: ``CLUB_NAME`` (shown on the pages),
    ``REFRESH`` (seconds between reloads of the live pages), ``ALLOWED_HOSTS`` (names besides
    this machine's own that the ``Host`` header may carry)."""
    app = Flask(__name__, template_folder="templates")
    app.config.update(
        CLUB_NAME="The club", REFRESH=5, MAX_CONTENT_LENGTH=MAX_PUSH_BYTES, MAX_STREAMS=0
    )
    app.config.update(config or {})
    app.config["ALLOWED_HOSTS"] = allowed_host_names(app.config.get("ALLOWED_HOSTS") or ())
    app.json.sort_keys = False  # type: ignore[attr-defined]  # replies in the order written
    app.extensions["club"] = store

    from web.club.api import api
    from web.club.pages import pages

    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.before_request(check_host)
    app.after_request(_headers)
    _error_handlers(app)
    return app


def _headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"  # a restore's log holds every die
    return response


def _error(status: int, code: str, reason: str, **extra: Any) -> Response:
    response = jsonify({"error": code, "reason": reason, **extra})
    response.status_code = status
    return response


def _error_handlers(app: Flask) -> None:
    @app.errorhandler(ClubError)
    def club_error(exc: ClubError) -> Response:
        extra = {"seq": exc.seq} if hasattr(exc, "seq") else {}
        return _error(CLUB_STATUS.get(exc.code, 400), exc.code, exc.reason, **extra)

    @app.errorhandler(WireError)
    def wire_error(exc: WireError) -> Response:
        return _error(400, "malformed", str(exc))

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> Response:
        return _error(exc.status, exc.code, exc.reason)

    @app.errorhandler(psycopg.OperationalError)
    def database_down(exc: psycopg.OperationalError) -> Response:
        # The database restarting: a table tries again later (5xx), nothing was half-written.
        log.warning("the club's database is unreachable: %s", exc)
        response = _error(503, "unavailable", "the club's database is unreachable; try again")
        response.headers["Retry-After"] = "2"
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response | HTTPException:
        if request.path.startswith("/api/"):
            code = (exc.name or "error").lower().replace(" ", "_")
            return _error(exc.code or 400, code, exc.description or exc.name)
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error(500, "internal", "something went wrong on the club server; see its log")
