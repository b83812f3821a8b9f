"""The API's description as OpenAPI 3.1, served at ``/openapi.json``.

Written by hand next to the routes it describes; a test checks that every ``/api/`` route of
the app appears here with its methods, so the two cannot drift apart silently.
"""

from __future__ import annotations

from typing import Any

from companion.bots import LEVELS
from companion.protocol.seats import COLOURS, MAX_NAME

_STRING = {"type": "string"}
_INTEGER = {"type": "integer"}
_OBJECT = {"type": "object"}
_NAME = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_NAME,
    "description": "printable text: no control or invisible formatting characters",
}
_COLOUR = {"enum": list(COLOURS)}
_ERROR = {"$ref": "#/components/responses/Error"}
_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": _STRING}
# A move can be refused for every reason a game-changing request can: malformed, no or wrong
# credential, CSRF, no such game, stale seq or finished game, and the rules themselves.
_MOVE_ERRORS = ("400", "401", "403", "404", "409", "422")


def _object(
    properties: dict[str, Any], *required: str, description: str | None = None
) -> dict[str, Any]:
    """An object schema, spelled one way everywhere (the keys in the order the document
    has always had them, so the served JSON does not change)."""
    schema: dict[str, Any] = {"type": "object"}
    if required:
        schema["required"] = list(required)
    if description is not None:
        schema["description"] = description
    schema["properties"] = properties
    return schema


def _op(
    summary: str,
    *,
    ok: str = "200",
    body: dict[str, Any] | None = None,
    errors: tuple[str, ...] = ("400", "404"),
    response: dict[str, Any] | None = None,
    csrf: bool = False,
    params: list[dict[str, Any]] | None = None,
    content: str = "application/json",
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "responses": {
            ok: {
                "description": "OK",
                "content": {content: {"schema": response or _OBJECT}},
            },
            **{code: _ERROR for code in errors},
        },
    }
    parameters = list(params or [])
    if csrf:
        parameters.append(
            {
                "name": "X-CSRF-Token",
                "in": "header",
                "required": True,
                "schema": _STRING,
                "description": "the csrf value returned with the key this request uses",
            }
        )
    if parameters:
        op["parameters"] = parameters
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    return op


def _game_post(summary: str, **kwargs: Any) -> dict[str, Any]:
    """A POST about one game: every one names the game in its path and needs the CSRF header
    (``web.api`` checks it on each), so neither can be forgotten on a new one."""
    return _op(summary, params=[_GAME_ID], csrf=True, **kwargs)


_PICTURE = {"$ref": "#/components/schemas/Picture"}
# What every move's body carries besides the move itself.
_MOVE_FIELDS = {
    "expected_seq": {"type": "integer", "description": "the seq the client saw"},
    "key": {"type": "string", "description": "idempotency key: a double tap applies once"},
    "as": {"enum": ["player", "host"], "default": "player"},
}


def spec() -> dict[str, Any]:
    game = [_GAME_ID]
    as_param = {
        "name": "as",
        "in": "query",
        "schema": {"enum": ["table", "player"]},
        "description": "table: the shared screen's view even with a player cookie; player: "
        "require a player token",
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Godfather table companion",
            "version": "1",
            "description": (
                "Every reply about a game is built for one viewer through the engine's "
                "player_view/action_view: a player's token shows that player's hidden dice and "
                "no one else's. Credentials: X-Host-Key or X-Player-Token headers, or the "
                "host_<game>/player_<game> cookies the pages use. Every POST needs "
                "X-CSRF-Token. Refusals are JSON {error, reason, rule?, quote?, instead?}: 400 "
                "malformed, "
                "401 no credential, 403 forbidden or CSRF, 404 not found, 409 stale or closed, "
                "422 illegal (rule names the rulebook section; quote is that section in the "
                "rulebook's words and instead one line saying what to do instead, where the "
                "game prints its rulebook)."
            ),
        },
        "paths": {
            "/api/csrf": {"get": _op("A CSRF token (and cookie) for creating a game", errors=())},
            "/api/rules": {"get": _op("Boards and house-rule options", errors=())},
            "/api/games": {
                "get": _op("Saved games", errors=()),
                "post": _op(
                    "Owner (X-Table-Key, the owner cookie, or the companion's own screen): "
                    "create a game; returns the host key (also set as a cookie) and one "
                    "single-use join link per seat",
                    ok="201",
                    csrf=True,
                    errors=("400", "403", "413", "422"),
                    body=_object(
                        {
                            "players": {
                                "type": "array",
                                "minItems": 3,
                                "maxItems": 6,
                                "items": {
                                    "oneOf": [
                                        _NAME,
                                        _object({"name": _NAME, "colour": _COLOUR}, "name"),
                                    ]
                                },
                            },
                            "board": {"enum": ["3-4", "5-6"]},
                            "options": {"type": "object", "description": "house rules"},
                        },
                        "players",
                    ),
                    response=_object(
                        {
                            "game_id": _STRING,
                            "host_key": _STRING,
                            "csrf": _STRING,
                            "seats": {"type": "object", "additionalProperties": _STRING},
                            "seq": _INTEGER,
                        }
                    ),
                ),
            },
            "/api/games/{game_id}": {
                "get": _op(
                    "The game for the caller (a player's own view, else the table's), with log",
                    params=[*game, as_param],
                    response=_PICTURE,
                    errors=("401", "404"),
                )
            },
            "/api/games/{game_id}/board": {
                "get": _op("The board to draw: districts, neighborhoods, tracks", params=game)
            },
            "/api/games/{game_id}/me": {
                "get": _op("Who the caller is in this game, with CSRF tokens", params=game)
            },
            "/api/games/{game_id}/seats": {
                "get": _op(
                    "Host: each seat, whether a phone has joined it, and its join link while "
                    "its code is unclaimed",
                    params=game,
                    errors=("401", "404"),
                )
            },
            "/api/games/{game_id}/seats/code": {
                "post": _game_post(
                    "Host: a new single-use join code for one seat (a lost phone); the phone "
                    "that claims it takes the seat over. Returns the seats as GET .../seats",
                    errors=("400", "401", "403", "404"),
                    body=_object({"player": _STRING}, "player"),
                )
            },
            "/api/games/{game_id}/join": {
                "post": _op(
                    "A phone sits down: trade a seat's join code (it works once) for this "
                    "phone's session token (also set as the player cookie) and its CSRF token; "
                    "the seat's previous phone loses it",
                    params=game,
                    errors=("400", "403", "404"),
                    body=_object({"code": _STRING}, "code"),
                    response=_object({"player": _STRING, "token": _STRING, "csrf": _STRING}),
                )
            },
            "/api/games/{game_id}/moves": {
                "get": _op(
                    "Host: the moves in effect, as the table sees them (to undo or correct)",
                    params=game,
                    errors=("401", "404"),
                )
            },
            "/api/games/{game_id}/actions": {
                "post": _game_post(
                    "Submit an action (docs/game-record.md) as the player (the host referees "
                    "but does not move for players: 403)",
                    response=_PICTURE,
                    errors=_MOVE_ERRORS,
                    body=_object(
                        {
                            **_MOVE_FIELDS,
                            "action": {"type": "object", "description": "a record line"},
                        },
                        "action",
                        "expected_seq",
                    ),
                )
            },
            "/api/games/{game_id}/dice/roll": {
                "post": _game_post(
                    "Player: the faces of a roll the game waits for from them (ask: from the "
                    "picture's dice_wanted). No expected_seq: rolls by different players never "
                    "conflict; 409 stale only if that roll is no longer wanted",
                    response=_PICTURE,
                    errors=_MOVE_ERRORS,
                    body=_object(
                        {
                            "faces": {"type": "array", "items": _INTEGER},
                            "ask": _STRING,
                            "key": _STRING,
                        },
                        "faces",
                    ),
                )
            },
            "/api/games/{game_id}/undo": {
                "post": _game_post(
                    "Undo: a player their own last move; the host back to target",
                    response=_PICTURE,
                    errors=_MOVE_ERRORS,
                    body=_object({**_MOVE_FIELDS, "target": _INTEGER}, "expected_seq"),
                )
            },
            "/api/games/{game_id}/corrections": {
                "post": _game_post(
                    "Host: correct a recorded move (a misread die), with a reason",
                    response=_PICTURE,
                    errors=_MOVE_ERRORS,
                    body=_object(
                        {
                            "target": _INTEGER,
                            "action": _OBJECT,
                            "why": _STRING,
                            "expected_seq": _INTEGER,
                            "key": _STRING,
                        },
                        "target",
                        "action",
                        "why",
                        "expected_seq",
                    ),
                )
            },
            "/api/games/{game_id}/status": {
                "post": _game_post(
                    "Host: end (finished), reopen (active) or archive the game",
                    response=_PICTURE,
                    errors=("400", "401", "403", "404"),
                    body=_object(
                        {"status": {"enum": ["active", "finished", "archived"]}}, "status"
                    ),
                )
            },
            "/api/games/{game_id}/record": {
                "get": _op(
                    "Host or a seat: the game record (JSON Lines, every die), once the game "
                    "is over or ended; reading it closes the game for good",
                    params=game,
                    content="application/x-ndjson",
                    response=_STRING,
                    errors=("401", "404", "409"),
                )
            },
            "/api/games/{game_id}/dice": {
                "get": _op(
                    "Host: the table's dice reader (mode) and its sources ({name, needs}), "
                    "each family's and the red dice's paired dice, the pairing in progress, "
                    "and the Pixels privacy warning",
                    params=game,
                    errors=("401", "404", "409"),
                )
            },
            "/api/games/{game_id}/dice/pairing": {
                "post": _game_post(
                    "Host: 'roll your five dice now' for owner (a seat colour, or vegas); the "
                    "dice that roll are found (poll GET .../dice) and saved for this table "
                    "when count is reached",
                    errors=("400", "401", "403", "404", "409"),
                    body=_object(
                        {
                            "owner": _STRING,
                            "count": {"type": "integer", "minimum": 1, "maximum": 10},
                        },
                        "owner",
                    ),
                )
            },
            "/api/games/{game_id}/dice/pairing/save": {
                "post": _game_post(
                    "Host: keep the dice the running pairing has found so far",
                    errors=("401", "403", "404", "409"),
                )
            },
            "/api/games/{game_id}/dice/blink": {
                "post": _game_post(
                    "Host: flash one die's LEDs (Pixels, GoDice, DIY dice) to find it; "
                    "blinked false (with a reason) for a die without lights",
                    errors=("400", "401", "403", "404", "409"),
                    body=_object({"source": _STRING, "die": _STRING}, "source", "die"),
                )
            },
            "/api/games/{game_id}/dice/void": {
                "post": _game_post(
                    "Host: throw away what player has rolled so far and start their roll "
                    "again (the dice missed a re-roll, a die fell off the table): only dice "
                    "rolled from now on count, and the roller's stream gets roll_wanted "
                    "afresh. 409 no_dice without a dice reader, 400 for a name not at the "
                    "table, 409 not_rolling when that player has no roll in progress",
                    errors=("400", "401", "403", "404", "409"),
                    body=_object({"player": _STRING}, "player"),
                    response=_object(
                        {"player": _STRING, "voided": {"const": True}}, "player", "voided"
                    ),
                )
            },
            "/api/games/{game_id}/dice/whose": {
                "post": _game_post(
                    "Host or player: whose red die just landed, when two players were rolling "
                    "red dice at once (the whose_die dice message); a player can only name "
                    "themselves (player defaults to the caller)",
                    errors=("400", "401", "403", "404", "409"),
                    body=_object(
                        {
                            "source": _STRING,
                            "die": _STRING,
                            "player": _STRING,
                            "as": _MOVE_FIELDS["as"],
                        },
                        "source",
                        "die",
                    ),
                )
            },
            "/api/games/{game_id}/bots": {
                "get": _op(
                    "Host: the bots: levels ({name, text, seconds}), the default level, the "
                    "bot seats ({player, level, seconds, budget, dice}), the rolls owed by bots "
                    "whose dice someone rolls at the table ({player, count, ask, prompt}), the "
                    "bots' recent moves with their public reasons, and whether hints are on",
                    params=game,
                    errors=("401", "404"),
                ),
                "post": _game_post(
                    "Host: a bot plays this seat (or the bot there changes): level, time per "
                    "move in ms (20-10000; default the level's), who rolls its dice (companion: "
                    "the companion's virtual dice, or the table's simulated ones; table: a real "
                    "die, read by the table's dice or typed with POST .../bots/roll). Only a seat "
                    "no phone holds (409 seat_taken); its join code stops working, and a phone "
                    "that claims a new code takes the seat back. Returns {seats, ...GET .../bots}",
                    errors=("400", "401", "403", "404", "409"),
                    body=_object(
                        {
                            "player": _STRING,
                            "level": {"enum": list(LEVELS)},
                            "ms": _INTEGER,
                            "dice": {"enum": ["companion", "table"]},
                        },
                        "player",
                    ),
                ),
            },
            "/api/games/{game_id}/bots/remove": {
                "post": _game_post(
                    "Host: a person plays this bot's seat again; it gets a new join code. 409 "
                    "not_a_bot. Returns {seats, ...GET .../bots}",
                    errors=("400", "401", "403", "404", "409"),
                    body=_object({"player": _STRING}, "player"),
                )
            },
            "/api/games/{game_id}/bots/roll": {
                "post": _game_post(
                    "Host: the faces of a real die someone rolled for a bot whose dice the "
                    "table rolls (ask from GET .../bots rolls); 409 not_a_bot for any other "
                    "seat. Returns the table's picture",
                    errors=_MOVE_ERRORS,
                    body=_object(
                        {
                            "player": _STRING,
                            "faces": {"type": "array", "items": _INTEGER},
                            "ask": _STRING,
                        },
                        "player",
                        "faces",
                    ),
                    response=_PICTURE,
                )
            },
            "/api/games/{game_id}/hints": {
                "post": _game_post(
                    "Host: may players ask their phones for a hint (the table's house option; "
                    "on by default)? Returns GET .../bots",
                    errors=("400", "401", "403", "404"),
                    body=_object({"allowed": {"type": "boolean"}}, "allowed"),
                )
            },
            "/api/games/{game_id}/hint": {
                "post": _game_post(
                    "A player: the move a bot would make in their seat now, worked out from "
                    "their own view only (up to 0.5 s); changes nothing. 403 hints_off when the "
                    "table switched hints off (or for the host), 409 no_choice when the player "
                    "has no choice to make",
                    errors=("400", "401", "403", "404", "409"),
                    body=_OBJECT,
                    response=_object(
                        {
                            "seq": _INTEGER,
                            "action": _OBJECT,
                            "label": _STRING,
                            "group": {"type": ["string", "null"]},
                            "reason": {"type": ["string", "null"]},
                            "ms": _INTEGER,
                        }
                    ),
                )
            },
            "/api/games/{game_id}/events": {
                "get": _op(
                    "Server-Sent Events: 'view' (full picture, id = seq) on every (re)connect, "
                    "then 'update' per event (id = seq); ': keepalive' comments at once and every"
                    " 10 s. 'notice' {text} for every screen (a player joined); on a player's "
                    "stream, 'revoked' {text} when the seat was claimed on another phone (the "
                    "stream then ends). Send Last-Event-ID (EventSource does) to have missed "
                    "lines marked. With a dice reader, 'dice' messages (no id): the roller's own "
                    "stream gets roll_wanted/progress/counted (count and faces) and problem; "
                    "other streams at most 'rolling' (who, not how many). A red die two players "
                    "could have rolled: whose_die (the die and its candidates, no face) to the "
                    "table and to those players.",
                    params=[
                        *game,
                        as_param,
                        {"name": "Last-Event-ID", "in": "header", "schema": _INTEGER},
                    ],
                    content="text/event-stream",
                    response=_STRING,
                    errors=("400", "401", "404"),
                )
            },
        },
        "components": {
            "responses": {
                "Error": {
                    "description": "refused, with a reason a person can act on",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                }
            },
            "schemas": {
                "Error": _object(
                    {
                        "error": _STRING,
                        "reason": _STRING,
                        "rule": _STRING,
                        "quote": _STRING,
                        "instead": _STRING,
                    },
                    "error",
                    "reason",
                ),
                "Picture": _object(
                    {
                        "seq": _INTEGER,
                        "status": {"enum": ["active", "finished", "archived"]},
                        "viewer": {"type": ["string", "null"]},
                        "view": {"type": "object", "description": "engine player_view"},
                        "choices": {
                            "type": "array",
                            "items": _object(
                                {
                                    "action": _OBJECT,
                                    "group": _STRING,
                                    "label": _STRING,
                                    "dice": {"type": "array", "items": _INTEGER},
                                    "helps": _STRING,
                                }
                            ),
                        },
                        "can_undo": {"type": "boolean"},
                        "scores": _OBJECT,
                        "log": {"type": "array", "items": _OBJECT},
                    },
                    description="one viewer's picture of the game",
                ),
            },
        },
    }
