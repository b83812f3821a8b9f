"""The pages: home (create a game), table screen, player phone, host, end of game.

Pages are thin shells: the server renders who is looking and their CSRF token, and the
page's script fetches the picture for that viewer from the API and follows the event stream.
No game data is baked into the HTML, so the pages carry exactly what the API would.
"""

from __future__ import annotations

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


def known_game(game_id: str) -> Response | None:
    try:
        service().game(game_id)
    except Refused:
        return message("No such game", f"There is no game {game_id} on this companion.", 404)
    return None


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
def table(game_id: str):
    return known_game(game_id) or render_template("table.html", game_id=game_id)


@pages.get("/end/<game_id>")
def end(game_id: str):
    return known_game(game_id) or render_template("end.html", game_id=game_id)


@pages.get("/join/<game_id>/<token>")
def join(game_id: str, token: str):
    """What a player's QR code opens: remember the token in a cookie, then go to the phone
    page (so the secret does not stay in the address bar or the browser's history)."""
    missing = known_game(game_id)
    if missing:
        return missing
    cred = keys().lookup(game_id, token)
    if cred is None or cred.role != "player":
        return message("Not a seat", "This join code is not for this game. Ask the host.", 403)
    response = redirect(url_for("pages.play", game_id=game_id))
    set_secret_cookie(response, player_cookie(game_id), token)
    return response


@pages.get("/play/<game_id>")
def play(game_id: str):
    missing = known_game(game_id)
    if missing:
        return missing
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
def host(game_id: str):
    missing = known_game(game_id)
    if missing:
        return missing
    key = request.args.get("key")
    if key:  # the host opened the link with the key: keep it in a cookie, drop it from the URL
        cred = keys().lookup(game_id, key)
        if cred is None or cred.role != "host":
            return message("Wrong key", "That is not this game's host key.", 403)
        response = redirect(url_for("pages.host", game_id=game_id))
        set_secret_cookie(response, host_cookie(game_id), key)
        return response
    cred = credential(game_id, "host")
    if cred is None:
        return message("Host only", "This page needs the host key of this game.", 401)
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
def pairing(game_id: str):
    """The host's pairing page: which die is whose, "roll your five dice now", blink, and the
    Pixels privacy warning (before anyone trusts a hidden roll to a broadcasting die)."""
    missing = known_game(game_id)
    if missing:
        return missing
    cred = credential(game_id, "host")
    if cred is None:
        return message("Host only", "This page needs the host key of this game.", 401)
    desk = current_app.extensions["companion"].pairing
    return render_template(
        "pairing.html",
        game_id=game_id,
        csrf=keys().csrf_for(cred.token),
        mode=desk.table_dice.mode if desk is not None else None,
        privacy=PRIVACY_WARNING,
    )
