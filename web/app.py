"""The Flask application factory: the table service, the keys, the event hub and the blueprints.

One process holds one :class:`TableService` (the single writer of every game), so the app
must be served by a threaded server in one process (``web.server`` runs cheroot).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.bots.driver import BotDriver
from companion.dice.table import TableDice
from companion.paths import default_data_dir
from companion.table import Refused, TableService
from web.body import MAX_BODY
from web.dice import PairingDesk
from web.hub import Hub
from web.keys import KeyStore
from web.security import ApiError, allowed_host_names, check_host
from web.streams import MAX_STREAMS, PER_ADDRESS, StreamRefused, StreamSlots
from web.views import QuotedRefusal

log = logging.getLogger(__name__)

# Refusal codes of the table service, as HTTP statuses.
REFUSED_STATUS = {
    "malformed": 400,
    "forbidden": 403,
    "not_found": 404,
    "stale": 409,
    "closed": 409,
    "not_over": 409,
    "illegal": 422,
}

# Every page and reply: scripts and styles from this companion only, no framing (a page of
# another site cannot lay a game under its own buttons), no MIME sniffing, and no Referer
# (a join link must not travel to another site in a header).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


@dataclass
class Companion:
    """What the blueprints share, kept on ``app.extensions["companion"]``."""

    service: TableService
    keys: KeyStore
    hub: Hub
    owns_service: bool
    dice: TableDice | None = None  # the table's dice reader, when one is configured
    pairing: PairingDesk | None = None  # the host's pairing page, with a dice reader
    bots: BotDriver | None = None  # plays the seats the host gave to bots

    def close(self) -> None:
        if self.bots is not None:
            self.bots.stop()
        if self.dice is not None:
            self.dice.stop()
        self.hub.close()
        self.keys.close()
        if self.owns_service:
            self.service.close()


def create_app(config: dict[str, Any] | None = None, service: TableService | None = None) -> Flask:
    """A ready app. ``config``: ``DATA_DIR`` (the data folder; default as for every
    ``companion`` command), ``PUBLIC_URL`` (the address phones use, for join QR codes when
    the page was opened on the Pi itself), ``PHONE_DICE`` (offer dice entry on the phones;
    default True: it works beside any reader), ``DICE`` (a dice reader for the game being
    played: ``simulated``, ``phone`` or ``bluetooth``; default none), ``DICE_ROLL_TIME``
    (seconds a simulated roll tumbles), ``MAX_STREAMS`` and ``STREAMS_PER_ADDRESS`` (how many
    event streams may be open, and from one client address: ``web.streams``), ``HTTPS``
    (served over HTTPS: its cookies are ``Secure``), ``ALLOWED_HOSTS`` (names besides this
    machine's own that the ``Host`` header may carry) and ``TRUST_LOOPBACK`` (a browser on
    the companion itself may start games; default True, turn it off behind a reverse proxy) and
    ``BOT_PACE`` (the least seconds between two bot moves of a game, so people can follow
    them; default 1)."""
    app = Flask(__name__)
    app.config.update(
        DATA_DIR=None,
        PUBLIC_URL=None,
        PHONE_DICE=True,
        JSON_SORT_KEYS=False,
        BOT_PACE=1.0,
        MAX_CONTENT_LENGTH=MAX_BODY,
        TRUST_LOOPBACK=True,
        MAX_STREAMS=MAX_STREAMS,
        STREAMS_PER_ADDRESS=PER_ADDRESS,
    )
    app.config.update(config or {})
    app.config["ALLOWED_HOSTS"] = allowed_host_names(app.config.get("ALLOWED_HOSTS") or ())
    data_dir = Path(app.config["DATA_DIR"] or default_data_dir())
    owns = service is None
    service = service or TableService(data_dir)
    slots = StreamSlots(app.config["MAX_STREAMS"], app.config["STREAMS_PER_ADDRESS"])
    companion = Companion(service, KeyStore(data_dir), Hub(service, slots), owns)
    if app.config.get("DICE"):
        companion.dice = TableDice(
            service, data_dir, app.config["DICE"], roll_time=app.config.get("DICE_ROLL_TIME", 1.5)
        )
        companion.pairing = PairingDesk(companion.dice)
        companion.hub.dice = companion.dice
        companion.dice.add_event_listener(companion.hub.dice_event)
        playing = [g for g in service.games() if g.status == "active"]
        if playing:  # after a restart the dice go back to the game last started
            companion.dice.follow(max(playing, key=lambda g: g.created_at).id)
    companion.bots = BotDriver(
        service,
        data_dir,
        pace=app.config["BOT_PACE"],
        table_rolls=functools.partial(_table_rolls, companion),
        on_reason=companion.hub.notice,
    ).start()
    app.extensions["companion"] = companion

    from web.api import api
    from web.pages import pages

    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.before_request(check_host)
    app.after_request(_security_headers)
    _error_handlers(app)
    return app


def _table_rolls(companion: Companion, game_id: str) -> bool:
    """Whether the table's simulated dice roll for every seat of ``game_id`` (a bot's too)."""
    dice = companion.dice
    return dice is not None and dice.mode == "simulated" and dice.game_id == game_id


def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith(("/api/", "/play/", "/host/", "/join/")):
        # A player's dice or a host key must not stay in a shared browser's cache.
        response.headers["Cache-Control"] = "no-store"
    elif request.path.startswith("/static/"):
        # Modules import each other: after an upgrade a phone must not mix old and new ones,
        # so it asks each time (a 304 when nothing changed).
        response.headers["Cache-Control"] = "no-cache"
    return response


def _error_json(
    status: int, code: str, reason: str, rule: str | None = None, **words: str
) -> Response:
    body = {"error": code, "reason": reason}
    if rule:
        body["rule"] = rule
    body.update(words)  # an illegal move's quote of its rule, and what to do instead
    response = jsonify(body)
    response.status_code = status
    return response


def _error_handlers(app: Flask) -> None:
    """Every refusal is a 4xx with a reason a person can act on; nothing escapes as a bare
    500 page (an unexpected bug is logged and answered as JSON without its details)."""

    @app.errorhandler(Refused)
    def refused(exc: Refused) -> Response:
        words = exc.words() if isinstance(exc, QuotedRefusal) else {}
        return _error_json(
            REFUSED_STATUS.get(exc.code, 400), exc.code, exc.reason, exc.rule, **words
        )

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError) -> Response:
        return _error_json(exc.status, exc.code, exc.reason, exc.rule)

    @app.errorhandler(StreamRefused)
    def stream_refused(exc: StreamRefused) -> Response:
        response = _error_json(exc.status, exc.code, exc.reason)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response | HTTPException:
        if request.path.startswith("/api/") or request.path == "/openapi.json":
            code = (exc.name or "error").lower().replace(" ", "_")
            return _error_json(exc.code or 400, code, exc.description or exc.name)
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error_json(500, "internal", "something went wrong on the companion; see its log")
