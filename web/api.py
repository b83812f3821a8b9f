"""The JSON API under ``/api/``: every game action, the live event stream, and the record.

Every reply that describes a game is built by :mod:`web.render` for the one viewer the request
proves to be (a player's token: that player; anything else: the table screen), so a reply can
never carry another player's hidden dice. Refusals are JSON with ``error``, ``reason`` and, for
an illegal move, ``rule``; see ``web.app`` for the status codes.
"""

from __future__ import annotations

import functools
import json
import threading
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from companion.bots import DEFAULT_LEVEL, LEVELS
from companion.bots.driver import BotDriver
from companion.bots.hints import suggest
from companion.bots.seating import BotDice, BotSeat, SeatingError
from companion.dice.assignment import DieRef
from companion.games import DEFAULT, AnyGame, game_of_setup, games
from companion.protocol import MalformedAction, option_list
from companion.table import Ack, Game, TableService
from web import views
from web.body import choice_field, int_field, json_body, optional_int_field, str_field
from web.context import companion
from web.dice import PairingDesk, owners_of
from web.hub import Hub
from web.keys import Credential, JoinRefused, KeyStore, Role
from web.security import (
    ANON_COOKIE,
    HOST_COOKIE_AGE,
    SEAT_COOKIE_AGE,
    ApiError,
    anon_csrf,
    at_the_table,
    check_csrf,
    credential,
    host_cookie,
    keys,
    player_cookie,
    require,
    require_owner,
    same_origin,
    set_secret_cookie,
)
from web.server import CLIENT_GONE

api = Blueprint("api", __name__, url_prefix="/api")
HINTS = threading.Lock()


def service() -> TableService:
    return companion().service


def hub() -> Hub:
    return companion().hub


def action_field(data: dict[str, Any], game: Game) -> Any:
    """The request's ``action``, as the game reads a record line."""
    try:
        return game.rules.action_from_dict(data.get("action"))
    except MalformedAction as exc:
        raise ApiError(400, "malformed", str(exc)) from None


def idem_key(data: dict[str, Any], cred: Credential) -> str | None:
    """The client's double-tap key, scoped to who sent it (one phone cannot spend another's)."""
    key = str_field(data, "key", required=False, max_length=100)
    if key is None:
        return None
    if not key:
        raise ApiError(400, "malformed", "key must be a short string")
    return f"{cred.actor}:{key}"


def join_url(game_id: str, code: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/join/{game_id}/{code}"


def viewer_for(game_id: str) -> str | None:
    """Whose eyes a read request is for: ``?as=table`` is always the table screen; otherwise
    a player's token makes it that player's view, and anything else the table's."""
    if request.args.get("as") == "table":
        return None
    cred = credential(game_id, Role.PLAYER)
    if request.args.get("as") == "player" and cred is None:
        raise ApiError(401, "unauthorised", "this needs a player's token (scan your QR code)")
    return cred.name if cred else None


def acting(game_id: str, *, host: bool = False) -> tuple[dict[str, Any], Credential]:
    """The body of a state-changing request and the credential it acts with (``"as": "host"``
    for the host's page; always the host's for ``host``), checked in one order for every move
    so a refusal does not depend on which one it is: no such game, a body that is not JSON,
    then the credential and its CSRF token."""
    service().game(game_id)
    data = json_body()
    role = Role.HOST if host else Role(choice_field(data, "as", ("player", "host"), "player"))
    cred = require(game_id, role)
    check_csrf(cred.token)
    return data, cred


def reply(game_id: str, viewer: str | None, **extra: Any) -> Response:
    game = service().game(game_id)
    return jsonify({**extra, **views.game_picture(game, viewer)})


def acknowledge(game_id: str, viewer: str | None, ack: Ack) -> Response:
    """A move's reply: the picture after it, with which seq took it and whether this was a
    double tap the table had already applied."""
    return reply(game_id, viewer, accepted=ack.seq, duplicate=ack.duplicate)


# --- games -----------------------------------------------------------------------------


@api.get("/csrf")
def csrf() -> ResponseReturnValue:
    """A CSRF token for creating a game (browsers get it with the home page)."""
    response = Response(mimetype="application/json")
    response.set_data(json.dumps({"csrf": anon_csrf(response)}))
    return response


def game_json(rules: AnyGame) -> dict[str, Any]:
    """A game as the home page offers it: its players and the choices its setup takes."""

    def choice(info: Any) -> dict[str, Any]:
        return {"values": list(info.values), "default": info.default, "text": info.text}

    return {
        "id": rules.id,
        "name": rules.name,
        "players": list(rules.players),
        "setup": {info.name: choice(info) for info in rules.setup_choices},
        "options": {info.name: choice(info) for info in option_list(rules)},
    }


@api.get("/rules")
def rules() -> ResponseReturnValue:
    """The games this companion referees, each with its setup choices and house rules."""
    return jsonify({"default": DEFAULT, "games": [game_json(g) for g in games()]})


@api.get("/games")
def list_games() -> ResponseReturnValue:
    out = []
    for g in service().games():
        out.append(
            {
                "id": g.id,
                "game": g.rules.id,
                "status": g.status,
                "created_at": g.created_at,
                "players": [s.name for s in g.setup.seats],
                "progress": g.rules.progress(g.state),
                "seq": g.seq,
            }
        )
    return jsonify({"games": out})


def setup_line(data: dict[str, Any]) -> dict[str, Any]:
    """A new game's setup line from a create request: the players, the house rules, and only
    the setup choices the game offers on the web, with values it allows (never a file)."""
    try:
        rules = game_of_setup(data)
    except MalformedAction as exc:
        raise ApiError(400, "malformed", str(exc)) from None
    offered = {info.name: info for info in rules.setup_choices}
    unknown = set(data) - {"game", "players", "options", *offered}
    if unknown:
        raise ApiError(
            400,
            "malformed",
            f"a new game takes players, options and "
            f"{', '.join(offered) or 'nothing else'}; not {', '.join(sorted(unknown))}",
        )
    for name, info in offered.items():
        if name in data and not any(
            data[name] == v and type(data[name]) is type(v) for v in info.values
        ):
            allowed = ", ".join(str(v) for v in info.values if v is not None)
            raise ApiError(400, "malformed", f"{name} must be one of {allowed}")
    return {
        "type": "setup",
        "game": rules.id,
        **{k: v for k, v in data.items() if k != "game" and v is not None},
    }


@api.post("/games")
def create_game() -> ResponseReturnValue:
    """Create a game; the reply holds the host key (also set as a cookie) and join links."""
    require_owner()
    cookie = request.cookies.get(ANON_COOKIE)
    if not cookie:
        raise ApiError(403, "csrf", "no csrf cookie: load the home page (or GET /api/csrf) first")
    check_csrf(cookie)
    setup = setup_line(json_body())
    game = service().create_game(setup, actor="host")
    host_key, codes = keys().issue(game.id, [s.name for s in game.setup.seats])
    dice = companion().dice
    if dice is not None:
        dice.follow(game.id)  # the table's dice now roll for the new game
    response = jsonify(
        {
            "game_id": game.id,
            "host_key": host_key,
            "csrf": keys().csrf_for(host_key),
            "seats": {name: join_url(game.id, code) for name, code in codes.items()},
            "seq": game.seq,
        }
    )
    response.status_code = 201
    set_secret_cookie(response, host_cookie(game.id), host_key, HOST_COOKIE_AGE)
    return response


@api.get("/games/<game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    game = service().game(game_id)
    return jsonify(hub().snapshot(game, viewer_for(game_id)))


@api.get("/games/<game_id>/board")
def get_board(game_id: str) -> ResponseReturnValue:
    """What is printed and public for the pages to draw (A New Don: the board)."""
    game = service().game(game_id)
    return jsonify(game.rules.table_data(game.state))


@api.get("/games/<game_id>/me")
def me(game_id: str) -> ResponseReturnValue:
    """Who this request is for this game, and the CSRF token that goes with it."""
    service().game(game_id)
    out: dict[str, Any] = {"game_id": game_id, "player": None, "host": False}
    player = credential(game_id, Role.PLAYER)
    host = credential(game_id, Role.HOST)
    if player:
        out.update(player=player.name, csrf=keys().csrf_for(player.token))
    if host:
        out.update(host=True, host_csrf=keys().csrf_for(host.token))
    return jsonify(out)


def seat_list(game_id: str) -> list[dict[str, Any]]:
    """Each seat as the host sees it: joined or not, and its join link while it has an
    unclaimed code."""
    states = keys().seats(game_id)
    seated = bot_driver().bots(game_id)
    out = []
    for s in service().game(game_id).setup.seats:
        state = states.get(s.name, {"joined": False, "code": None})
        code = state["code"]
        bot = seated.get(s.name)
        out.append(
            {
                "name": s.name,
                "colour": s.colour,
                "joined": state["joined"],
                "join": join_url(game_id, str(code)) if code and bot is None else None,
                "bot": bot.to_json() if bot is not None else None,
            }
        )
    return out


@api.get("/games/<game_id>/seats")
def seats(game_id: str) -> ResponseReturnValue:
    """The host's view of the seats: who has joined, and the join links not yet used."""
    service().game(game_id)
    require(game_id, Role.HOST)
    return jsonify({"seats": seat_list(game_id)})


@api.post("/games/<game_id>/seats/code")
def seat_code(game_id: str) -> ResponseReturnValue:
    """Host: a new join code for one seat (a lost phone, a player who cleared their
    cookies). Whoever claims it takes the seat; the phone holding it now is told so."""
    data, _ = acting(game_id, host=True)
    name = str_field(data, "player")
    if name not in {s.name for s in service().game(game_id).setup.seats}:
        raise ApiError(400, "malformed", f"{name!r} is not a player of game {game_id}")
    keys().new_code(game_id, name)
    return jsonify({"seats": seat_list(game_id)})


@api.post("/games/<game_id>/join")
def join(game_id: str) -> ResponseReturnValue:
    """A phone sits down: trade a seat's join code (from the QR code) for this phone's own
    session. The code works once; the seat's previous phone, if any, loses it."""
    service().game(game_id)
    same_origin()
    code = str_field(json_body(), "code", max_length=100)
    try:
        cred, replaced = keys().claim(game_id, code or "")
    except JoinRefused as exc:
        raise ApiError(403, "join_refused", str(exc)) from None
    text = (
        f"{cred.name}'s seat moved to another phone."
        if replaced
        else f"{cred.name} joined the table."
    )
    if cred.name is not None and bot_driver().unseat(game_id, cred.name):
        text = f"{cred.name}'s seat is played by a person again: {text}"
    hub().notice(game_id, text)
    response = jsonify(
        {"player": cred.name, "token": cred.token, "csrf": keys().csrf_for(cred.token)}
    )
    set_secret_cookie(response, player_cookie(game_id), cred.token, SEAT_COOKIE_AGE)
    return response


@api.get("/games/<game_id>/moves")
def moves(game_id: str) -> ResponseReturnValue:
    """The moves in effect, as the table sees them: what the host picks from to undo or
    correct (hidden dice stay hidden even from the host)."""
    game = service().game(game_id)
    require(game_id, Role.HOST)
    out = views.moves(game.rules, hub().log(game))
    return jsonify({"moves": out, "seq": game.seq})


@api.post("/games/<game_id>/actions")
def submit(game_id: str) -> ResponseReturnValue:
    """One action (a roll typed on a phone, a claim, an offer...) as the player or the host."""
    data, cred = acting(game_id)
    game = service().game(game_id)
    expected = int_field(data, "expected_seq")
    action = action_field(data, game)
    if cred.role is Role.HOST and not game.rules.table_may_enter(action):
        raise ApiError(
            403,
            "forbidden",
            "the host referees but does not move for a player: whether a move is allowed can "
            "depend on that player's hidden dice. A player whose phone is lost sits down again "
            "with a new code from the host page.",
        )
    with (
        views.quoted_refusals(lambda: service().game(game_id)),
        views.private_refusals(cred.name, action.player),
    ):
        ack = service().submit(
            game_id,
            action,
            actor=cred.actor,
            expected_seq=expected,
            key=idem_key(data, cred),
        )
    return acknowledge(game_id, cred.name, ack)


MAX_ROLL = 64  # dice in one roll: a Gangster Dice stash can hold 24, and room to spare


@api.post("/games/<game_id>/dice/roll")
def dice_roll(game_id: str) -> ResponseReturnValue:
    """A player's roll, typed on their phone: the faces of a roll the game waits for from
    them (``ask`` names which, from the picture's ``dice_wanted``). No seq: rolls by different
    players never conflict, so everyone can type at once."""
    data, cred = acting(game_id)
    if cred.role is not Role.PLAYER or cred.name is None:
        raise ApiError(403, "forbidden", "a roll is typed on the roller's own phone")
    faces = data.get("faces")
    if (
        not isinstance(faces, list)
        or not 1 <= len(faces) <= MAX_ROLL
        or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces)
    ):
        raise ApiError(400, "malformed", "faces must be a list of die faces")
    ask = str_field(data, "ask", required=False, max_length=1000)
    with (
        views.quoted_refusals(lambda: service().game(game_id)),
        views.private_refusals(cred.name, cred.name),
    ):
        ack = service().submit_roll(
            game_id, cred.name, tuple(faces), actor=cred.actor, ask=ask, key=idem_key(data, cred)
        )
    return acknowledge(game_id, cred.name, ack)


@api.post("/games/<game_id>/undo")
def undo(game_id: str) -> ResponseReturnValue:
    """Take back a move: a player their own last one; the host back to ``target``."""
    data, cred = acting(game_id)
    ack = service().undo(
        game_id,
        actor=cred.actor,
        expected_seq=int_field(data, "expected_seq"),
        target=optional_int_field(data, "target"),
        key=idem_key(data, cred),
    )
    return acknowledge(game_id, cred.name, ack)


@api.post("/games/<game_id>/corrections")
def correct(game_id: str) -> ResponseReturnValue:
    """The host fixes a recorded move (a misread die), with a reason for the audit trail."""
    data, cred = acting(game_id, host=True)
    why = str_field(data, "why")
    fixed = action_field(data, service().game(game_id))
    with (
        views.quoted_refusals(lambda: service().game(game_id)),
        views.private_refusals(cred.name, fixed.player),
    ):
        ack = service().correct(
            game_id,
            actor=cred.actor,
            target=int_field(data, "target"),
            action=fixed,
            why=why or "",
            expected_seq=int_field(data, "expected_seq"),
            key=idem_key(data, cred),
        )
    return acknowledge(game_id, None, ack)


@api.post("/games/<game_id>/status")
def set_status(game_id: str) -> ResponseReturnValue:
    """The host ends the game (``finished``), reopens it (``active``) or archives it."""
    data, cred = acting(game_id, host=True)
    status = choice_field(data, "status", ("active", "finished", "archived"), "")
    service().set_status(game_id, status, actor=cred.actor)
    return reply(game_id, None)


@api.get("/games/<game_id>/record")
def record(game_id: str) -> ResponseReturnValue:
    """The game record (JSON Lines), for the host and the players, once the game cannot go
    on. It shows every hidden die: reading it closes the game for good (the table service
    logs who read it, and the game can no longer be reopened)."""
    service().game(game_id)
    cred = at_the_table(game_id)
    text = service().disclose(game_id, actor=cred.actor)
    response = Response(text, mimetype="application/x-ndjson")
    response.headers["Content-Disposition"] = f'attachment; filename="godfather-{game_id}.jsonl"'
    return response


@api.get("/games/<game_id>/events")
def events(game_id: str) -> ResponseReturnValue:
    """Server-Sent Events: the viewer's full picture at once, then one ``update`` per event.
    A reconnect (``Last-Event-ID``) gets the full picture again with what it missed marked."""
    service().game(game_id)
    viewer = viewer_for(game_id)
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    last: int | None = None
    if raw:
        try:
            last = int(raw)
        except ValueError:
            raise ApiError(400, "malformed", "Last-Event-ID must be a move number") from None
    gone = request.environ.get(CLIENT_GONE)  # web.server adds it; None under other servers
    still_valid = None
    cred = credential(game_id, Role.PLAYER) if viewer is not None else None
    if cred is not None:
        still_valid = functools.partial(seat_still_held, keys(), game_id, cred.token)
    stream = hub().stream(
        game_id, viewer, last, gone, still_valid, address=request.remote_addr or ""
    )
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def seat_still_held(store: KeyStore, game_id: str, token: str) -> bool:
    """Whether a seat's session still works (it ends when another phone claims the seat)."""
    return store.lookup(game_id, token) is not None


# --- the table's dice: pairing (host) -----------------------------------------------------------


def pairing_desk() -> PairingDesk:
    desk = companion().pairing
    if desk is None:
        raise ApiError(
            409,
            "no_dice",
            "this companion reads no dice: start it with --dice simulated|phone|bluetooth",
        )
    return desk


def dice_owners(game_id: str) -> list[dict[str, Any]]:
    game = service().game(game_id)
    return owners_of(game.rules.dice_sets(game.state))


def host_acting(game_id: str) -> tuple[dict[str, Any], Credential]:
    """The body of a state-changing host request, and the host's key with its CSRF token."""
    return acting(game_id, host=True)


@api.get("/games/<game_id>/dice")
def dice_status(game_id: str) -> ResponseReturnValue:
    """Host: the table's dice reader, who owns which die, and the pairing in progress (the
    pairing page polls this while dice are being rolled)."""
    service().game(game_id)
    require(game_id, Role.HOST)
    return jsonify(pairing_desk().status(game_id, dice_owners(game_id)))


@api.post("/games/<game_id>/dice/pairing")
def dice_pair(game_id: str) -> ResponseReturnValue:
    """Host: "roll your five dice now" for one family (by seat colour) or the red dice; the
    dice that roll become theirs, saved for this table when the count is reached."""
    data, _ = host_acting(game_id)
    owners = {o["owner"]: o for o in dice_owners(game_id)}
    owner = choice_field(data, "owner", tuple(owners), "")
    count = optional_int_field(data, "count") or owners[owner]["count"]
    if not 1 <= count <= 10:
        raise ApiError(400, "malformed", "count must be 1 to 10 dice")
    desk = pairing_desk()
    desk.start(game_id, owner, count)
    return jsonify(desk.status(game_id, dice_owners(game_id)))


@api.post("/games/<game_id>/dice/pairing/save")
def dice_pair_save(game_id: str) -> ResponseReturnValue:
    """Host: keep the dice found so far (fewer than asked: a die that will not wake up)."""
    host_acting(game_id)
    desk = pairing_desk()
    if desk.pairing is None:
        raise ApiError(409, "no_pairing", "no pairing is running: roll a family's dice first")
    desk.save(desk.dice(game_id))
    return jsonify(desk.status(game_id, dice_owners(game_id)))


def die_named(data: dict[str, Any]) -> DieRef:
    """The die a request names by its ``source`` and ``die`` id."""
    source = str_field(data, "source", max_length=100)
    die = str_field(data, "die", max_length=100)
    return DieRef(source or "", die or "")


@api.post("/games/<game_id>/dice/blink")
def dice_blink(game_id: str) -> ResponseReturnValue:
    """Host: flash one die's LEDs, to find it among many: the source that reads it says
    whether it has lights (Pixels, GoDice and the DIY die do)."""
    data, _ = host_acting(game_id)
    ref = die_named(data)
    desk = pairing_desk()
    dice = desk.dice(game_id)
    if dice.assignment.owner(ref) is None and ref not in dice.hub.last_readings():
        raise ApiError(404, "not_found", f"no die {ref} at this table")
    blinks = dice.blink(ref)
    return jsonify(
        {
            "blinked": blinks,
            "reason": "blinking"
            if blinks
            else "this die cannot blink: only Pixels and GoDice have lights, and DIY dice an LED",
        }
    )


@api.post("/games/<game_id>/dice/whose")
def dice_whose(game_id: str) -> ResponseReturnValue:
    """Host or player: whose red die just landed, when two players were rolling red dice at
    once (the ``whose_die`` dice event). The host may name any of the players it could go
    to; a player can only say it is theirs."""
    data, cred = acting(game_id)
    ref = die_named(data)
    player = str_field(data, "player", required=False, max_length=100) or cred.name
    if cred.role is Role.PLAYER and player != cred.name:
        raise ApiError(403, "forbidden", "a player can only say a die is theirs")
    desk = pairing_desk()
    if desk.table_dice.game_id not in (None, game_id):
        raise ApiError(409, "not_undecided", "the table's dice are following another game")
    dice = desk.dice(game_id)
    candidates = dice.hub.undecided().get(ref)
    if candidates is None:
        raise ApiError(
            409,
            "not_undecided",
            f"die {ref} is not waiting to be told whose it "
            "is: it was counted already, or rolled again, or waited too long "
            "(roll it again)",
        )
    if player not in candidates:
        raise ApiError(400, "malformed", f"player must be one of {', '.join(candidates)}")
    if not dice.hub.answer(ref, player):
        raise ApiError(409, "not_undecided", f"die {ref} was just decided by someone else")
    return jsonify({"die": views.ref_json(ref), "player": player})


@api.post("/games/<game_id>/dice/void")
def dice_void(game_id: str) -> ResponseReturnValue:
    """Host: throw away what ``player`` has rolled so far and start their roll again (the dice
    missed a re-roll, a die fell off the table). Only dice rolled from now on count; the
    player's phone is asked for the roll afresh."""
    data, _ = host_acting(game_id)
    player = str_field(data, "player", max_length=100)
    seated = [s.name for s in service().game(game_id).setup.seats]
    desk = pairing_desk()
    if player not in seated:
        raise ApiError(400, "malformed", f"player must be one of {', '.join(seated)}")
    if desk.table_dice.game_id not in (None, game_id):
        raise ApiError(409, "not_rolling", "the table's dice are following another game")
    if not desk.table_dice.void(game_id, player):
        raise ApiError(
            409, "not_rolling", f"{player} has no roll in progress: nothing to throw away"
        )
    return jsonify({"player": player, "voided": True})


# --- bots: seats the companion plays, and hints ---------------------------------------------


def bot_driver() -> BotDriver:
    driver = companion().bots
    if driver is None:  # create_app always starts one
        raise ApiError(503, "no_bots", "this companion plays no bots")
    return driver


def seat_named(game_id: str, data: dict[str, Any]) -> str:
    """The request's ``player``: a seat of this game."""
    name = str_field(data, "player", max_length=100) or ""
    if name not in {s.name for s in service().game(game_id).setup.seats}:
        raise ApiError(400, "malformed", f"{name!r} is not a player of game {game_id}")
    return name


def bots_json(game_id: str) -> dict[str, Any]:
    """The host's view of the bots: the levels, the bot seats, the rolls someone must make
    for a bot at the table, the bots' recent reasons, and whether hints are on."""
    driver = bot_driver()
    game = service().game(game_id)
    seated = driver.bots(game_id)
    rolls = [
        {"player": w.player, "count": w.dice.count, "ask": w.dice.ask, "prompt": w.dice.prompt}
        for w in game.rules.waiting_for(game.state)
        if w.dice is not None
        and w.player in seated
        and game.can_go_on
        and seated[w.player].dice is BotDice.TABLE
    ]
    return {
        "levels": [
            {"name": lv.name.value, "text": lv.text, "seconds": lv.seconds}
            for lv in LEVELS.values()
        ],
        "default": DEFAULT_LEVEL.value,
        "bots": [seat.to_json() for seat in seated.values()],
        "rolls": rolls,
        "recent": driver.reasons(game_id),
        "hints": driver.seating.hints(game_id),
    }


@api.get("/games/<game_id>/bots")
def bots(game_id: str) -> ResponseReturnValue:
    """Host: the bot seats, the levels, rolls owed by bots at the table, recent reasons."""
    service().game(game_id)
    require(game_id, Role.HOST)
    return jsonify(bots_json(game_id))


@api.post("/games/<game_id>/bots")
def seat_bot(game_id: str) -> ResponseReturnValue:
    """Host: a bot plays this seat (or the bot there changes level, time or dice). Only a
    seat no phone holds: its join code stops working; a phone that claims a new code for it
    takes the seat back from the bot."""
    data, _ = host_acting(game_id)
    name = seat_named(game_id, data)
    if keys().seats(game_id).get(name, {}).get("joined") and name not in bot_driver().bots(game_id):
        raise ApiError(
            409,
            "seat_taken",
            f"a phone holds {name}'s seat: a bot can only take a seat nobody has joined",
        )
    level = choice_field(data, "level", tuple(LEVELS), DEFAULT_LEVEL.value)
    dice = choice_field(data, "dice", tuple(d.value for d in BotDice), BotDice.COMPANION.value)
    ms = optional_int_field(data, "ms")
    try:
        seat = BotSeat(name, level, None if ms is None else ms / 1000, BotDice(dice))
    except SeatingError as exc:
        raise ApiError(400, "malformed", str(exc)) from None
    if name not in bot_driver().bots(game_id):
        keys().new_code(game_id, name)  # the seat's old code must not seat a phone beside it
        hub().notice(game_id, f"{name}'s seat is played by a bot ({level}).")
    bot_driver().seat(game_id, seat)
    return jsonify({"seats": seat_list(game_id), **bots_json(game_id)})


@api.post("/games/<game_id>/bots/remove")
def unseat_bot(game_id: str) -> ResponseReturnValue:
    """Host: a person plays this bot's seat again; it gets a new join code to scan."""
    data, _ = host_acting(game_id)
    name = seat_named(game_id, data)
    if not bot_driver().unseat(game_id, name):
        raise ApiError(409, "not_a_bot", f"{name}'s seat has no bot")
    keys().new_code(game_id, name)
    hub().notice(game_id, f"{name}'s seat is waiting for a person again.")
    return jsonify({"seats": seat_list(game_id), **bots_json(game_id)})


@api.post("/games/<game_id>/bots/roll")
def bot_roll(game_id: str) -> ResponseReturnValue:
    """Host: the faces of a real die someone rolled for a bot whose dice the table rolls
    (``ask`` from ``rolls`` in GET .../bots)."""
    data, _ = host_acting(game_id)
    name = seat_named(game_id, data)
    seat = bot_driver().bots(game_id).get(name)
    if seat is None or seat.dice is not BotDice.TABLE:
        raise ApiError(409, "not_a_bot", f"{name}'s dice are not rolled at the table for a bot")
    faces = data.get("faces")
    if (
        not isinstance(faces, list)
        or not 1 <= len(faces) <= 20
        or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces)
    ):
        raise ApiError(400, "malformed", "faces must be a list of die faces")
    ask = str_field(data, "ask", required=False, max_length=1000)
    ack = service().submit_roll(game_id, name, tuple(faces), actor="dice:host", ask=ask)
    return acknowledge(game_id, None, ack)


@api.post("/games/<game_id>/hints")
def set_hints(game_id: str) -> ResponseReturnValue:
    """Host: may players ask their phones for a hint (the table's house option)?"""
    data, _ = host_acting(game_id)
    allowed = data.get("allowed")
    if not isinstance(allowed, bool):
        raise ApiError(400, "malformed", "allowed must be true or false")
    bot_driver().seating.set_hints(game_id, allowed)
    hub().notice(
        game_id,
        "Hints are on: ask your phone what a bot would play."
        if allowed
        else "Hints are off at this table.",
    )
    return jsonify(bots_json(game_id))


@api.post("/games/<game_id>/hint")
def hint(game_id: str) -> ResponseReturnValue:
    """A player: the move a bot would make in their seat now, worked out from their own
    view only. 403 ``hints_off`` when the table switched hints off, 409 ``no_choice`` when
    they have no choice to make."""
    _, cred = acting(game_id)
    if cred.role is not Role.PLAYER or cred.name is None:
        raise ApiError(
            403, "forbidden", "a hint is for the player whose turn it is, on their own phone"
        )
    if not bot_driver().seating.hints(game_id):
        raise ApiError(403, "hints_off", "the table has switched hints off")
    game = service().game(game_id)
    if not game.can_go_on or not game.rules.legal_actions(game.state, cred.name):
        raise ApiError(409, "no_choice", "you have no choice to make right now")
    with HINTS:  # one at a time: a hint takes a bot's thinking time
        suggestion = suggest(game.rules, game.state, cred.name)
    return jsonify(views.hint(game.rules, game.state, game.seq, cred.name, suggestion))
