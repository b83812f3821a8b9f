"""The API's description as OpenAPI 3.1, served at ``/openapi.json``.

Written by hand next to the routes it describes; a test checks that every ``/api/`` route of
the app appears here with its methods, so the two cannot drift apart silently.
"""

from __future__ import annotations

from typing import Any

_ERROR = {"$ref": "#/components/responses/Error"}
_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}


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
                "content": {content: {"schema": response or {"type": "object"}}},
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
                "schema": {"type": "string"},
                "description": "the csrf value returned with the key this request uses",
            }
        )
    if parameters:
        op["parameters"] = parameters
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    return op


_PICTURE = {"$ref": "#/components/schemas/Picture"}
_MOVE = {
    "type": "object",
    "required": ["expected_seq"],
    "properties": {
        "expected_seq": {"type": "integer", "description": "the seq the client saw"},
        "key": {"type": "string", "description": "idempotency key: a double tap applies once"},
        "as": {"enum": ["player", "host"], "default": "player"},
    },
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
                "X-CSRF-Token. Refusals are JSON {error, reason, rule?}: 400 malformed, "
                "401 no credential, 403 forbidden or CSRF, 404 not found, 409 stale or closed, "
                "422 illegal (rule names the rulebook section)."
            ),
        },
        "paths": {
            "/api/csrf": {"get": _op("A CSRF token (and cookie) for creating a game", errors=())},
            "/api/rules": {"get": _op("Boards and house-rule options", errors=())},
            "/api/games": {
                "get": _op("Saved games", errors=()),
                "post": _op(
                    "Create a game; returns the host key (also set as a cookie) and join links",
                    ok="201",
                    csrf=True,
                    errors=("400", "403", "422"),
                    body={
                        "type": "object",
                        "required": ["players"],
                        "properties": {
                            "players": {
                                "type": "array",
                                "minItems": 3,
                                "maxItems": 6,
                                "items": {
                                    "oneOf": [
                                        {"type": "string"},
                                        {
                                            "type": "object",
                                            "properties": {
                                                "name": {"type": "string"},
                                                "colour": {"type": "string"},
                                            },
                                        },
                                    ]
                                },
                            },
                            "board": {"enum": ["3-4", "5-6"]},
                            "options": {"type": "object", "description": "house rules"},
                        },
                    },
                    response={
                        "type": "object",
                        "properties": {
                            "game_id": {"type": "string"},
                            "host_key": {"type": "string"},
                            "csrf": {"type": "string"},
                            "seats": {"type": "object", "additionalProperties": {"type": "string"}},
                            "seq": {"type": "integer"},
                        },
                    },
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
                    "Host: join links per player", params=game, errors=("401", "404")
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
                "post": _op(
                    "Submit an action (docs/game-record.md) as the player, or as the host",
                    params=game,
                    csrf=True,
                    response=_PICTURE,
                    errors=("400", "401", "403", "404", "409", "422"),
                    body={
                        **_MOVE,
                        "required": ["action", "expected_seq"],
                        "properties": {
                            **_MOVE["properties"],
                            "action": {"type": "object", "description": "a record line"},
                        },
                    },
                )
            },
            "/api/games/{game_id}/undo": {
                "post": _op(
                    "Undo: a player their own last move; the host back to target",
                    params=game,
                    csrf=True,
                    response=_PICTURE,
                    errors=("400", "401", "403", "404", "409", "422"),
                    body={
                        **_MOVE,
                        "properties": {**_MOVE["properties"], "target": {"type": "integer"}},
                    },
                )
            },
            "/api/games/{game_id}/corrections": {
                "post": _op(
                    "Host: correct a recorded move (a misread die), with a reason",
                    params=game,
                    csrf=True,
                    response=_PICTURE,
                    errors=("400", "401", "403", "404", "409", "422"),
                    body={
                        "type": "object",
                        "required": ["target", "action", "why", "expected_seq"],
                        "properties": {
                            "target": {"type": "integer"},
                            "action": {"type": "object"},
                            "why": {"type": "string"},
                            "expected_seq": {"type": "integer"},
                            "key": {"type": "string"},
                        },
                    },
                )
            },
            "/api/games/{game_id}/status": {
                "post": _op(
                    "Host: end (finished), reopen (active) or archive the game",
                    params=game,
                    csrf=True,
                    response=_PICTURE,
                    errors=("400", "401", "403", "404"),
                    body={
                        "type": "object",
                        "required": ["status"],
                        "properties": {"status": {"enum": ["active", "finished", "archived"]}},
                    },
                )
            },
            "/api/games/{game_id}/record": {
                "get": _op(
                    "The game record (JSON Lines), once the game is over",
                    params=game,
                    content="application/x-ndjson",
                    response={"type": "string"},
                    errors=("404", "409"),
                )
            },
            "/api/games/{game_id}/dice": {
                "get": _op(
                    "Host: the table's dice reader (mode), each family's and the red dice's "
                    "paired dice, the pairing in progress, and the Pixels privacy warning",
                    params=game,
                    errors=("401", "404", "409"),
                )
            },
            "/api/games/{game_id}/dice/pairing": {
                "post": _op(
                    "Host: 'roll your five dice now' for owner (a seat colour, or vegas); the "
                    "dice that roll are found (poll GET .../dice) and saved for this table "
                    "when count is reached",
                    params=game,
                    csrf=True,
                    errors=("400", "401", "403", "404", "409"),
                    body={
                        "type": "object",
                        "required": ["owner"],
                        "properties": {
                            "owner": {"type": "string"},
                            "count": {"type": "integer", "minimum": 1, "maximum": 10},
                        },
                    },
                )
            },
            "/api/games/{game_id}/dice/pairing/save": {
                "post": _op(
                    "Host: keep the dice the running pairing has found so far",
                    params=game,
                    csrf=True,
                    errors=("401", "403", "404", "409"),
                )
            },
            "/api/games/{game_id}/dice/blink": {
                "post": _op(
                    "Host: flash one die's LEDs (Pixels and GoDice) to find it",
                    params=game,
                    csrf=True,
                    errors=("400", "401", "403", "404", "409"),
                    body={
                        "type": "object",
                        "required": ["source", "die"],
                        "properties": {"source": {"type": "string"}, "die": {"type": "string"}},
                    },
                )
            },
            "/api/games/{game_id}/events": {
                "get": _op(
                    "Server-Sent Events: 'view' (full picture, id = seq) on every (re)connect, "
                    "then 'update' per event (id = seq); ': keepalive' comments at once and "
                    "every 10 s. Send Last-Event-ID (EventSource does) to have missed lines "
                    "marked. With a dice reader, 'dice' messages (no id): the roller's own "
                    "stream gets roll_wanted/progress/counted (count and faces) and problem; "
                    "other streams at most 'rolling' (who, not how many).",
                    params=[
                        *game,
                        as_param,
                        {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer"}},
                    ],
                    content="text/event-stream",
                    response={"type": "string"},
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
                "Error": {
                    "type": "object",
                    "required": ["error", "reason"],
                    "properties": {
                        "error": {"type": "string"},
                        "reason": {"type": "string"},
                        "rule": {"type": "string"},
                    },
                },
                "Picture": {
                    "type": "object",
                    "description": "one viewer's picture of the game",
                    "properties": {
                        "seq": {"type": "integer"},
                        "status": {"enum": ["active", "finished", "archived"]},
                        "viewer": {"type": ["string", "null"]},
                        "view": {"type": "object", "description": "engine player_view"},
                        "choices": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "action": {"type": "object"},
                                    "group": {"type": "string"},
                                    "label": {"type": "string"},
                                    "dice": {"type": "array", "items": {"type": "integer"}},
                                    "helps": {"type": "string"},
                                },
                            },
                        },
                        "can_undo": {"type": "boolean"},
                        "scores": {"type": "object"},
                        "log": {"type": "array", "items": {"type": "object"}},
                    },
                },
            },
        },
    }
