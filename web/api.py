"""The JSON API under ``/api/``: every game action, the live event stream, and the record.

Every reply that describes a game is built by :mod:`web.render` for the one viewer the request
proves to be (a player's token: that player; anything else: the table screen), so a reply can
never carry another player's hidden dice. Refusals are JSON with ``error``, ``reason`` and, for
an illegal move, ``rule``; see ``web.app`` for the status codes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.dice.assignment import DieRef
from companion.dice.trackers import GODICE_SOURCE, PIXELS_SOURCE
from companion.engine import OPTIONS, Action, action_from_dict, action_view
from companion.engine.errors import MalformedAction
from companion.table import Ack, Refused, TableService
from web import render
from web.dice import PairingDesk, owners_of, ref_json
from web.hub import Hub
from web.keys import Credential
from web.security import (
    ANON_COOKIE,
    ApiError,
    anon_csrf,
    check_csrf,
    credential,
    host_cookie,
    keys,
    require,
    set_secret_cookie,
)
from web.server import CLIENT_GONE

api = Blueprint("api", __name__, url_prefix="/api")

BOARDS = ("3-4", "5-6")


def service() -> TableService:
    return current_app.extensions["companion"].service


def hub() -> Hub:
    return current_app.extensions["companion"].hub


def body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", "send a JSON object with Content-Type: application/json")
    return data


def int_field(data: dict[str, Any], name: str, required: bool = True) -> int | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, "malformed", f"{name} must be a whole number, not {value!r}")
    return value


def action_field(data: dict[str, Any]) -> Action:
    try:
        return action_from_dict(data.get("action"))
    except MalformedAction as exc:
        raise ApiError(400, "malformed", str(exc)) from None


def idem_key(data: dict[str, Any], cred: Credential) -> str | None:
    """The client's double-tap key, scoped to who sent it (one phone cannot spend another's)."""
    key = data.get("key")
    if key is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= 100:
        raise ApiError(400, "malformed", "key must be a short string")
    return f"{cred.actor}:{key}"


def join_url(game_id: str, token: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/join/{game_id}/{token}"


def viewer_for(game_id: str) -> str | None:
    """Whose eyes a read request is for: ``?as=table`` is always the table screen; otherwise
    a player's token makes it that player's view, and anything else the table's."""
    if request.args.get("as") == "table":
        return None
    cred = credential(game_id, "player")
    if request.args.get("as") == "player" and cred is None:
        raise ApiError(401, "unauthorised", "this needs a player's token (scan your QR code)")
    return cred.name if cred else None


def acting(game_id: str, *, host: bool = False) -> tuple[dict[str, Any], Credential]:
    """The body of a state-changing request and the credential it acts with (``"as": "host"``
    for the host's page; always the host's for ``host``), checked in one order for every move
    so a refusal does not depend on which one it is: no such game, a body that is not JSON,
    then the credential and its CSRF token."""
    service().game(game_id)
    data = body()
    role = "host" if host else data.get("as", "player")
    if role not in ("player", "host"):
        raise ApiError(400, "malformed", 'as must be "player" or "host"')
    cred = require(game_id, role)
    check_csrf(cred.token)
    return data, cred


def reply(game_id: str, viewer: str | None, **extra: Any) -> Response:
    game = service().game(game_id)
    return jsonify({**extra, **render.game_picture(game, viewer)})


def acknowledge(game_id: str, viewer: str | None, ack: Ack) -> Response:
    """A move's reply: the picture after it, with which seq took it and whether this was a
    double tap the table had already applied."""
    return reply(game_id, viewer, accepted=ack.seq, duplicate=ack.duplicate)


@contextmanager
def private_refusals(cred: Credential, player: str | None) -> Iterator[None]:
    """An illegal-move reason talks about the acting player's own dice: it goes to that
    player's phone only. Anyone else (the host acting for them) gets the rule, not the facts."""
    try:
        yield
    except Refused as exc:
        if exc.code != "illegal" or cred.name == player:
            raise
        reason = exc.reason
        if reason.startswith("move ") and ": " in reason:  # a correction naming a later move
            reason = reason.split(": ", 1)[0] + "; the reason concerns hidden dice"
        else:
            reason = (
                f"the rules do not allow that now; the reason concerns {player}'s hidden dice "
                "and is shown on their phone only"
            )
        raise Refused(exc.code, reason, exc.rule) from None


# --- games -----------------------------------------------------------------------------


@api.get("/csrf")
def csrf():
    """A CSRF token for creating a game (browsers get it with the home page)."""
    response = Response(mimetype="application/json")
    response.set_data(json.dumps({"csrf": anon_csrf(response)}))
    return response


@api.get("/rules")
def rules():
    return jsonify(
        {
            "boards": list(BOARDS),
            "options": {
                name: {"values": list(values), "default": default, "text": text}
                for name, (values, default, text) in OPTIONS.items()
            },
        }
    )


@api.get("/games")
def list_games():
    out = []
    for g in service().games():
        out.append(
            {
                "id": g.id,
                "status": g.status,
                "created_at": g.created_at,
                "players": [s.name for s in g.setup.seats],
                "round": g.state.round,
                "phase": g.state.phase.value,
                "seq": g.seq,
            }
        )
    return jsonify({"games": out})


@api.post("/games")
def create_game():
    """Create a game; the reply holds the host key (also set as a cookie) and join links."""
    cookie = request.cookies.get(ANON_COOKIE)
    if not cookie:
        raise ApiError(403, "csrf", "no csrf cookie: load the home page (or GET /api/csrf) first")
    check_csrf(cookie)
    data = body()
    setup = {"type": "setup", **{k: v for k, v in data.items() if k != "type"}}
    if setup.get("board") not in (None, *BOARDS):
        raise ApiError(400, "malformed", f"board must be one of {', '.join(BOARDS)}")
    game = service().create_game(setup, actor="host")
    host_key, tokens = keys().issue(game.id, [s.name for s in game.setup.seats])
    dice = current_app.extensions["companion"].dice
    if dice is not None:
        dice.follow(game.id)  # the table's dice now roll for the new game
    response = jsonify(
        {
            "game_id": game.id,
            "host_key": host_key,
            "csrf": keys().csrf_for(host_key),
            "seats": {name: join_url(game.id, tok) for name, tok in tokens.items()},
            "seq": game.seq,
        }
    )
    response.status_code = 201
    set_secret_cookie(response, host_cookie(game.id), host_key)
    return response


@api.get("/games/<game_id>")
def get_game(game_id: str):
    game = service().game(game_id)
    return jsonify(hub().snapshot(game, viewer_for(game_id)))


@api.get("/games/<game_id>/board")
def get_board(game_id: str):
    return jsonify(render.board_json(service().game(game_id).state.board))


@api.get("/games/<game_id>/me")
def me(game_id: str):
    """Who this request is for this game, and the CSRF token that goes with it."""
    service().game(game_id)
    out: dict[str, Any] = {"game_id": game_id, "player": None, "host": False}
    player = credential(game_id, "player")
    host = credential(game_id, "host")
    if player:
        out.update(player=player.name, csrf=keys().csrf_for(player.token))
    if host:
        out.update(host=True, host_csrf=keys().csrf_for(host.token))
    return jsonify(out)


@api.get("/games/<game_id>/seats")
def seats(game_id: str):
    """The host's list of join links (one secret per player), to show as QR codes."""
    service().game(game_id)
    require(game_id, "host")
    tokens = keys().seats(game_id)
    game = service().game(game_id)
    return jsonify(
        {
            "seats": [
                {"name": s.name, "colour": s.colour, "join": join_url(game_id, tokens[s.name])}
                for s in game.setup.seats
                if s.name in tokens
            ]
        }
    )


@api.get("/games/<game_id>/moves")
def moves(game_id: str):
    """The moves in effect, as the table sees them: what the host picks from to undo or
    correct (hidden dice stay hidden even from the host)."""
    game = service().game(game_id)
    require(game_id, "host")
    out = []
    for entry in hub().log(game):
        if entry.kind != "action" or entry.action is None:
            continue
        out.append(
            {
                "seq": entry.seq,
                "type": entry.action.TYPE,
                "player": entry.action.player,
                "action": action_view(entry.before, entry.action, None),
                "lines": render.entry_lines(entry, None),
            }
        )
    return jsonify({"moves": out, "seq": game.seq})


@api.post("/games/<game_id>/actions")
def submit(game_id: str):
    """One action (a roll typed on a phone, a claim, an offer...) as the player or the host."""
    data, cred = acting(game_id)
    expected = int_field(data, "expected_seq")
    action = action_field(data)
    with private_refusals(cred, action.player):
        ack = service().submit(
            game_id,
            action,
            actor=cred.actor,
            expected_seq=expected,
            key=idem_key(data, cred),
        )
    return acknowledge(game_id, cred.name, ack)


@api.post("/games/<game_id>/undo")
def undo(game_id: str):
    """Take back a move: a player their own last one; the host back to ``target``."""
    data, cred = acting(game_id)
    ack = service().undo(
        game_id,
        actor=cred.actor,
        expected_seq=int_field(data, "expected_seq"),
        target=int_field(data, "target", required=False),
        key=idem_key(data, cred),
    )
    return acknowledge(game_id, cred.name, ack)


@api.post("/games/<game_id>/corrections")
def correct(game_id: str):
    """The host fixes a recorded move (a misread die), with a reason for the audit trail."""
    data, cred = acting(game_id, host=True)
    why = data.get("why")
    if not isinstance(why, str):
        raise ApiError(400, "malformed", "why must say why the move is corrected")
    fixed = action_field(data)
    with private_refusals(cred, fixed.player):
        ack = service().correct(
            game_id,
            actor=cred.actor,
            target=int_field(data, "target"),
            action=fixed,
            why=why,
            expected_seq=int_field(data, "expected_seq"),
            key=idem_key(data, cred),
        )
    return acknowledge(game_id, None, ack)


@api.post("/games/<game_id>/status")
def set_status(game_id: str):
    """The host ends the game (``finished``), reopens it (``active``) or archives it."""
    data, cred = acting(game_id, host=True)
    status = data.get("status")
    if status not in ("active", "finished", "archived"):
        raise ApiError(400, "malformed", 'status must be "active", "finished" or "archived"')
    service().set_status(game_id, status, actor=cred.actor)
    return reply(game_id, None)


@api.get("/games/<game_id>/record")
def record(game_id: str):
    """The game record (JSON Lines) once the game is over. Before that it would show every
    hidden die, so it is refused."""
    game = service().game(game_id)
    if game.status == "active" and not game.state.is_over:
        raise ApiError(
            409,
            "not_over",
            "the record shows every die, hidden ones too: it can be exported once the game is "
            "over (or the host ends it)",
        )
    response = Response(service().export(game_id), mimetype="application/x-ndjson")
    response.headers["Content-Disposition"] = f'attachment; filename="godfather-{game_id}.jsonl"'
    return response


@api.get("/games/<game_id>/events")
def events(game_id: str):
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
    stream = hub().stream(game_id, viewer, last, gone, address=request.remote_addr or "")
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# --- the table's dice: pairing (host) -----------------------------------------------------------


def pairing_desk() -> PairingDesk:
    desk = current_app.extensions["companion"].pairing
    if desk is None:
        raise ApiError(
            409,
            "no_dice",
            "this companion reads no dice: start it with --dice simulated|phone|bluetooth",
        )
    return desk


def dice_owners(game_id: str) -> list[dict[str, Any]]:
    game = service().game(game_id)
    return owners_of([(s.name, s.colour) for s in game.setup.seats])


def host_acting(game_id: str) -> Credential:
    """The host's key and its CSRF token, for a state-changing host request."""
    service().game(game_id)
    cred = require(game_id, "host")
    check_csrf(cred.token)
    return cred


@api.get("/games/<game_id>/dice")
def dice_status(game_id: str):
    """Host: the table's dice reader, who owns which die, and the pairing in progress (the
    pairing page polls this while dice are being rolled)."""
    service().game(game_id)
    require(game_id, "host")
    return jsonify(pairing_desk().status(game_id, dice_owners(game_id)))


@api.post("/games/<game_id>/dice/pairing")
def dice_pair(game_id: str):
    """Host: "roll your five dice now" for one family (by seat colour) or the red dice; the
    dice that roll become theirs, saved for this table when the count is reached."""
    host_acting(game_id)
    data = body()
    owners = {o["owner"]: o for o in dice_owners(game_id)}
    owner = data.get("owner")
    if owner not in owners:
        raise ApiError(400, "malformed", f"owner must be one of {', '.join(owners)}")
    count = int_field(data, "count", required=False) or owners[owner]["count"]
    if not 1 <= count <= 10:
        raise ApiError(400, "malformed", "count must be 1 to 10 dice")
    desk = pairing_desk()
    desk.start(game_id, owner, count)
    return jsonify(desk.status(game_id, dice_owners(game_id)))


@api.post("/games/<game_id>/dice/pairing/save")
def dice_pair_save(game_id: str):
    """Host: keep the dice found so far (fewer than asked: a die that will not wake up)."""
    host_acting(game_id)
    desk = pairing_desk()
    if desk.pairing is None:
        raise ApiError(409, "no_pairing", "no pairing is running: roll a family's dice first")
    desk.save(desk.dice(game_id))
    return jsonify(desk.status(game_id, dice_owners(game_id)))


def die_named(data: dict[str, Any]) -> DieRef:
    """The die a request names by its ``source`` and ``die`` id."""
    source, die = data.get("source"), data.get("die")
    if not isinstance(source, str) or not isinstance(die, str):
        raise ApiError(400, "malformed", "send the die's source and die id, as listed")
    return DieRef(source, die)


@api.post("/games/<game_id>/dice/blink")
def dice_blink(game_id: str):
    """Host: flash one die's LEDs, to find it among many. Smart dice only."""
    host_acting(game_id)
    ref = die_named(body())
    desk = pairing_desk()
    dice = desk.dice(game_id)
    if dice.assignment.owner(ref) is None and ref not in dice.hub.last_readings():
        raise ApiError(404, "not_found", f"no die {ref} at this table")
    dice.blink(ref)
    blinks = dice.radio is not None and ref.source in (PIXELS_SOURCE, GODICE_SOURCE)
    return jsonify({"blinked": blinks,
                    "reason": "blinking" if blinks else "only Pixels and GoDice have lights"})


@api.post("/games/<game_id>/dice/whose")
def dice_whose(game_id: str):
    """Host or player: whose red die just landed, when two players were rolling red dice at
    once (the ``whose_die`` dice event). The host may name any of the players it could go
    to; a player can only say it is theirs."""
    data, cred = acting(game_id)
    ref = die_named(data)
    player = data.get("player", cred.name)
    if cred.role == "player" and player != cred.name:
        raise ApiError(403, "forbidden", "a player can only say a die is theirs")
    desk = pairing_desk()
    if desk.table_dice.game_id not in (None, game_id):
        raise ApiError(409, "not_undecided", "the table's dice are following another game")
    dice = desk.dice(game_id)
    candidates = dice.hub.undecided().get(ref)
    if candidates is None:
        raise ApiError(409, "not_undecided", f"die {ref} is not waiting to be told whose it "
                       "is: it was counted already, or rolled again, or waited too long "
                       "(roll it again)")
    if player not in candidates:
        raise ApiError(400, "malformed", f"player must be one of {', '.join(candidates)}")
    if not dice.hub.answer(ref, player):
        raise ApiError(409, "not_undecided", f"die {ref} was just decided by someone else")
    return jsonify({"die": ref_json(ref), "player": player})
