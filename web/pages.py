"""The pages: home (create a game), table screen, player phone, host, end of game.

Pages are thin shells: the server renders who is looking and their CSRF token, and the
page's script fetches the picture for that viewer from the API and follows the event stream.
No game data is baked into the HTML, so the pages carry exactly what the API would.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from companion.protocol.seats import COLOURS
from companion.table import Refused, TableService
from web.context import companion
from web.dice import PRIVACY_WARNING
from web.keys import Role
from web.openapi import spec
from web.security import (
    HOST_COOKIE_AGE,
    OWNER_COOKIE,
    OWNER_COOKIE_AGE,
    SEAT_COOKIE_AGE,
    anon_csrf,
    credential,
    host_cookie,
    is_owner,
    keys,
    player_cookie,
    set_secret_cookie,
)

pages = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
)


def service() -> TableService:
    return companion().service


def qr_svg(url: str, scale: int = 4) -> str:
    """An inline SVG QR code (segno: pure Python, no image libraries). It has a viewBox and no
    size, so the page sizes it (the code fills its white square, whatever the size)."""
    return segno.make(url, error="m").svg_inline(
        scale=scale, border=2, dark="#111", light="#fff", omitsize=True
    )


def message(title: str, text: str, status: int = 200) -> Response:
    response = make_response(render_template("message.html", title=title, text=text), status)
    return response


def game_template(game_id: str, page: str, **context: Any) -> str:
    """A game's own version of ``page`` (``games/<id>/<page>.html``) or the shared one, which
    shows any game from its views alone; ``kind`` tells the page's script which game it is."""
    rules = service().game(game_id).rules
    return render_template(
        [f"games/{rules.id}/{page}.html", f"{page}.html"],
        game_id=game_id,
        kind=rules.id,
        name=rules.name,
        **context,
    )


def game_page(view: Callable[..., BaseResponse | str]) -> Callable[..., BaseResponse | str]:
    """A page about one game: for a game this companion does not have, a page saying so
    (404) instead of whatever the page would have checked first."""

    @functools.wraps(view)
    def page(game_id: str, **kwargs: str) -> BaseResponse | str:
        try:
            service().game(game_id)
        except Refused:
            return message("No such game", f"There is no game {game_id} on this companion.", 404)
        return view(game_id, **kwargs)

    return page


def not_host() -> Response:
    return message("Host only", "This page needs the host key of this game.", 401)


def remember_host_key(game_id: str, key: str) -> BaseResponse:
    """Open the host's secret link: keep its key in a cookie and send the browser on to the
    host page without it, so the secret does not stay in the address bar or the history."""
    cred = keys().lookup(game_id, key)
    if cred is None or cred.role is not Role.HOST:
        return message("Wrong key", "That is not this game's host key.", 403)
    response = redirect(url_for("pages.host", game_id=game_id))
    set_secret_cookie(response, host_cookie(game_id), key, HOST_COOKIE_AGE)
    return response


@pages.get("/")
def home() -> BaseResponse | str:
    key = request.args.get("key")
    if key is not None:  # the owner's link that companion serve printed
        if not keys().is_owner(key):
            return message("Wrong key", "That is not this companion's owner key.", 403)
        response = redirect(url_for("pages.home"))
        set_secret_cookie(response, OWNER_COOKIE, key, OWNER_COOKIE_AGE)
        return response
    games = service().games()
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    response = make_response()
    csrf = anon_csrf(response)
    response.set_data(
        render_template(
            "home.html",
            games=games,
            csrf=csrf,
            qr=qr_svg(base),
            address=base,
            owner=is_owner(),
            colours=COLOURS,
        )
    )
    return response


@pages.get("/openapi.json")
def openapi() -> BaseResponse | str:
    return jsonify(spec())


@pages.get("/table/<game_id>")
@game_page
def table(game_id: str) -> BaseResponse | str:
    return game_template(game_id, "table")


@pages.get("/end/<game_id>")
@game_page
def end(game_id: str) -> BaseResponse | str:
    return game_template(game_id, "end")


@pages.get("/join/<game_id>/<code>")
@game_page
def join(game_id: str, code: str) -> BaseResponse | str:
    """What a player's QR code opens: a page that sits this phone down (its script trades
    the code for the phone's own session, then opens the phone page). Opening the link
    changes nothing by itself, so a link preview or a prefetch cannot use up the code."""
    return render_template("join.html", game_id=game_id, code=code)


@pages.get("/play/<game_id>")
@game_page
def play(game_id: str) -> BaseResponse | str:
    cred = credential(game_id, Role.PLAYER)
    if cred is None:
        return message(
            "Scan your seat",
            "This phone holds no seat of this game: scan the QR code with your name on the "
            "host's screen. If you played here before, your seat was opened on another phone "
            "or your sign-in ran out: ask the host for a new code.",
            401,
        )
    response = make_response(
        game_template(
            game_id,
            "play",
            player=cred.name,
            csrf=keys().csrf_for(cred.token),
            phone_dice=current_app.config["PHONE_DICE"],
        )
    )
    # Renewed on every visit: a phone at the table stays in, a forgotten one drops out.
    set_secret_cookie(response, player_cookie(game_id), cred.token, SEAT_COOKIE_AGE)
    return response


@pages.get("/host/<game_id>")
@game_page
def host(game_id: str) -> BaseResponse | str:
    key = request.args.get("key")
    if key:  # the host opened the link with the key
        return remember_host_key(game_id, key)
    cred = credential(game_id, Role.HOST)
    if cred is None:
        return not_host()
    base = (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")
    return render_template(
        "host.html",
        game_id=game_id,
        csrf=keys().csrf_for(cred.token),
        table_url=f"{base}/table/{game_id}",
        table_qr=qr_svg(f"{base}/table/{game_id}", 3),
    )


@pages.get("/host/<game_id>/seats/qr")
@game_page
def seat_qr(game_id: str) -> BaseResponse | str:
    """The QR code of one seat's unclaimed join link, as an SVG image (the host page shows
    one at a time)."""
    if credential(game_id, Role.HOST) is None:
        return not_host()
    name = request.args.get("player", "")
    code = keys().seats(game_id).get(name, {}).get("code")
    if not code:
        return message("No code", f"{name!r} has no join code waiting.", 404)
    base = (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")
    out = io.BytesIO()
    segno.make(f"{base}/join/{game_id}/{code}", error="m").save(
        out, kind="svg", scale=6, border=2, dark="#111", light="#fff", omitsize=True
    )
    return Response(out.getvalue(), mimetype="image/svg+xml")


FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" '
    'rx="12" fill="#c9a227"/><circle cx="20" cy="20" r="7"/><circle cx="44" cy="44" r="7"/>'
    '<circle cx="32" cy="32" r="7"/></svg>'
)


@pages.get("/favicon.ico")
def favicon() -> BaseResponse | str:
    return Response(FAVICON, mimetype="image/svg+xml")


@pages.get("/host/<game_id>/dice")
@game_page
def pairing(game_id: str) -> BaseResponse | str:
    """The host's pairing page: which die is whose, "roll your five dice now", blink, and the
    Pixels privacy warning (before anyone trusts a hidden roll to a broadcasting die)."""
    cred = credential(game_id, Role.HOST)
    if cred is None:
        return not_host()
    desk = companion().pairing
    return render_template(
        "pairing.html",
        game_id=game_id,
        csrf=keys().csrf_for(cred.token),
        mode=desk.table_dice.mode if desk is not None else None,
        privacy=PRIVACY_WARNING,
    )
