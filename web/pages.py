"""The pages: home (create a game), table screen, player phone, host, end of game.

Pages are thin shells: the server renders who is looking and their CSRF token, and the
page's script fetches the picture for that viewer from the API and follows the event stream.
No game data is baked into the HTML, so the pages carry exactly what the API would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

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

from companion.table import Refused, TableService
from web.dice import PRIVACY_WARNING
from web.openapi import spec
from web.security import (
    anon_csrf,
    credential,
    host_cookie,
    keys,
    player_cookie,
    set_secret_cookie,
)

pages = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                  static_url_path="/static")


def service() -> TableService:
    return current_app.extensions["companion"].service


def qr_svg(url: str, scale: int = 4) -> str:
    """An inline SVG QR code (segno: pure Python, no image libraries)."""
    return segno.make(url, error="m").svg_inline(scale=scale, border=2, dark="#111", light="#fff")


def message(title: str, text: str, status: int = 200) -> Response:
    response = make_response(render_template("message.html", title=title, text=text), status)
    return response


def game_page(view: Callable[..., Response | str]) -> Callable[..., Response | str]:
    """A page about one game: for a game this companion does not have, a page saying so
    (404) instead of whatever the page would have checked first."""

    @functools.wraps(view)
    def page(game_id: str, **kwargs: str) -> Response | str:
        try:
            service().game(game_id)
        except Refused:
            return message("No such game", f"There is no game {game_id} on this companion.", 404)
        return view(game_id, **kwargs)

    return page


def not_host() -> Response:
    return message("Host only", "This page needs the host key of this game.", 401)


def remember_key(game_id: str, key: str, role: str, page: str, wrong: tuple[str, str]) -> Response:
    """Open a secret link: keep its key in a cookie and send the browser on to ``page`` without
    it, so the secret does not stay in the address bar or the browser's history. A key that is
    not this game's ``role`` key gets the ``wrong`` (title, text) page."""
    cred = keys().lookup(game_id, key)
    if cred is None or cred.role != role:
        return message(*wrong, 403)
    response = redirect(url_for(page, game_id=game_id))
    cookie = host_cookie(game_id) if role == "host" else player_cookie(game_id)
    set_secret_cookie(response, cookie, key)
    return response


@pages.get("/")
def home():
    games = service().games()
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    response = make_response()
    csrf = anon_csrf(response)
    response.set_data(
        render_template("home.html", games=games, csrf=csrf, qr=qr_svg(base), address=base)
    )
    return response


@pages.get("/openapi.json")
def openapi():
    return jsonify(spec())


@pages.get("/table/<game_id>")
@game_page
def table(game_id: str):
    return render_template("table.html", game_id=game_id)


@pages.get("/end/<game_id>")
@game_page
def end(game_id: str):
    return render_template("end.html", game_id=game_id)


@pages.get("/join/<game_id>/<token>")
@game_page
def join(game_id: str, token: str):
    """What a player's QR code opens: remember the token in a cookie, then go to the phone
    page."""
    wrong = ("Not a seat", "This join code is not for this game. Ask the host.")
    return remember_key(game_id, token, "player", "pages.play", wrong)


@pages.get("/play/<game_id>")
@game_page
def play(game_id: str):
    cred = credential(game_id, "player")
    if cred is None:
        return message(
            "Scan your seat", "Scan the QR code with your name on the host's screen to play.", 401
        )
    return render_template(
        "play.html",
        game_id=game_id,
        player=cred.name,
        csrf=keys().csrf_for(cred.token),
        phone_dice=current_app.config["PHONE_DICE"],
    )


@pages.get("/host/<game_id>")
@game_page
def host(game_id: str):
    key = request.args.get("key")
    if key:  # the host opened the link with the key
        wrong = ("Wrong key", "That is not this game's host key.")
        return remember_key(game_id, key, "host", "pages.host", wrong)
    cred = credential(game_id, "host")
    if cred is None:
        return not_host()
    base = (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")
    game = service().game(game_id)
    tokens = keys().seats(game_id)
    seats = [
        {
            "name": s.name,
            "colour": s.colour,
            "url": f"{base}/join/{game_id}/{tokens[s.name]}",
            "qr": qr_svg(f"{base}/join/{game_id}/{tokens[s.name]}", 3),
        }
        for s in game.setup.seats
        if s.name in tokens
    ]
    return render_template(
        "host.html",
        game_id=game_id,
        csrf=keys().csrf_for(cred.token),
        seats=seats,
        table_url=f"{base}/table/{game_id}",
        table_qr=qr_svg(f"{base}/table/{game_id}", 3),
    )


FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" '
    'rx="12" fill="#c9a227"/><circle cx="20" cy="20" r="7"/><circle cx="44" cy="44" r="7"/>'
    '<circle cx="32" cy="32" r="7"/></svg>'
)


@pages.get("/favicon.ico")
def favicon():
    return Response(FAVICON, mimetype="image/svg+xml")


@pages.get("/host/<game_id>/dice")
@game_page
def pairing(game_id: str):
    """The host's pairing page: which die is whose, "roll your five dice now", blink, and the
    Pixels privacy warning (before anyone trusts a hidden roll to a broadcasting die)."""
    cred = credential(game_id, "host")
    if cred is None:
        return not_host()
    desk = current_app.extensions["companion"].pairing
    return render_template(
        "pairing.html",
        game_id=game_id,
        csrf=keys().csrf_for(cred.token),
        mode=desk.table_dice.mode if desk is not None else None,
        privacy=PRIVACY_WARNING,
    )
