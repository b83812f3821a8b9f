"""Every endpoint the API documents, fed malformed requests: wrong types, deep nesting, huge
bodies, broken and hostile Unicode, as a stranger, a player and the host. Not one may answer
5xx, and not one may change anything: no game, move, status, seat or pairing.

The endpoints come from ``/openapi.json`` itself, so a new endpoint is attacked as soon as it
is documented (and ``test_openapi_documents_every_api_route`` makes sure it is)."""

from __future__ import annotations

import itertools
import json
import sqlite3
from typing import Any

import pytest
from web_client import PLAYERS

from web.keys import FILENAME as KEYS_FILE

# Values of the wrong JSON type for a field of each type. None is left out: an absent
# optional field is allowed, and null is how a client says "absent".
WRONG = {
    "integer": ["1", 1.5, True, [], {}, 2**80, "\ud800"],
    "string": [1, True, [], {}, 1e308, "\ud800", "x" * 70_000],
    "object": ["x", 1, [], True],
    "array": ["x", 1, {}, True],
    "enum": ["nonsense", 1, [], {}, "\u202e"],
    "boolean": ["true", 1, 0, [], {}],
}
RAW = [
    b"",
    b"{",
    b"[]",
    b"null",
    b'"text"',
    b"\xff\xfe\x00garbage",
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"a": "\\ud800"}',
    b'{"a": ' + b"1" * 5000 + b"}",
    ("[" * 20000 + "]" * 20000).encode(),
    ('{"a":' * 5000 + "1" + "}" * 5000).encode(),
    b'{"x": "' + b"y" * 100_000 + b'"}',
]


def schema_type(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "enum"
    if "oneOf" in schema or "$ref" in schema:
        return "object"
    kind = schema.get("type", "object")
    return kind[0] if isinstance(kind, list) else kind


def bodies(operation: dict[str, Any]) -> list[tuple[str, bytes, str]]:
    """(label, raw body, content type) for one POST: raw garbage, then each field of the
    documented body set alone to each wrong value, then every field wrong at once."""
    out = [(f"raw {i}", raw, "application/json") for i, raw in enumerate(RAW)]
    out.append(("json as text/plain", b"{}", "text/plain"))
    schema = (
        operation.get("requestBody", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema", {})
    )
    props = schema.get("properties", {})
    for name, prop in props.items():
        for i, value in enumerate(WRONG[schema_type(prop)]):
            out.append((f"{name}={i}", json.dumps({name: value}).encode(), "application/json"))
    if props:
        combos = itertools.product(*(WRONG[schema_type(p)][:3] for p in props.values()))
        for i, combo in enumerate(itertools.islice(combos, 6)):
            body = dict(zip(props, combo, strict=True))
            out.append((f"all wrong {i}", json.dumps(body).encode(), "application/json"))
    return out


def snapshot(server) -> tuple[Any, ...]:
    """Everything a request could change: games with their status and seq, every key and
    seat row, and the dice pairing in progress."""
    games = tuple((g.id, g.status, g.seq) for g in server.service.games(include_archived=True))
    db = sqlite3.connect(server.data_dir / KEYS_FILE)
    try:
        keys = tuple(db.execute("SELECT * FROM keys ORDER BY token"))
    finally:
        db.close()
    desk = server.app.extensions["companion"].pairing
    return games, keys, repr(desk.pairing)


@pytest.fixture
def table(tmp_path, server_factory):
    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game(
        [
            {"name": n, "colour": c}
            for n, c in zip(PLAYERS, ("red", "blue", "green", "yellow"), strict=True)
        ]
    )
    for name, face in zip(PLAYERS, (6, 4, 2, 1), strict=True):
        server.act(game, name, {"type": "godfather_roll", "player": name, "face": face})
    return server, game


def test_no_malformed_request_gets_a_5xx_or_changes_anything(table):
    server, game = table
    spec = server.client().get("/openapi.json").data
    before = snapshot(server)
    seat = game.seats["Maria"]
    who = {
        "stranger": (None, {}),
        "player": (seat.csrf, {"X-Player-Token": seat.token}),
        "host": (game.host_csrf, {"X-Host-Key": game.host_key}),
    }
    sent = 0
    for path, ops in spec["paths"].items():
        if "post" not in ops:
            continue
        url = path.replace("{game_id}", game.id)
        for label, raw, ctype in bodies(ops["post"]):
            for role, (csrf, headers) in who.items():
                hdrs = {**headers, "Content-Type": ctype}
                if csrf:
                    hdrs["X-CSRF-Token"] = csrf
                r = server.client().request("POST", url, raw=raw, headers=hdrs)
                sent += 1
                where = f"POST {path} {label} as {role}"
                assert 400 <= r.status < 500, (where, r.status, r.text[:300])
                assert isinstance(r.data, dict) and r.data.get("reason"), (where, r.text[:300])
                assert snapshot(server) == before, where
    assert sent > 1000


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/%00",
        "/api/games/" + "a" * 3000,
        "/api/games/%ED%A0%80",  # a surrogate's UTF-8 bytes: not valid UTF-8
        "/api/games/%F0%9F%98%80/board",
        "/api/games/..%2F..%2Fetc/record",
        "/api/games/{id}/events?last_event_id=x",
        "/api/games/{id}/events?last_event_id=" + "9" * 5000,
        "/api/games/{id}/events?as=player",
        "/api/games/{id}?as=player",
        "/api/games/{id}/record",
        "/api/games/{id}/seats",
        "/api/games/{id}/moves",
        "/api/games/{id}/dice",
        "/host/{id}/seats/qr?player=%00",
        "/join/{id}/%ED%A0%80",
        "/play/{id}",
        "/end/%00",
        "/table/" + "z" * 3000,
    ],
)
def test_malformed_reads_get_a_4xx(table, path):
    server, game = table
    before = snapshot(server)
    r = server.client().get(path.replace("{id}", game.id))
    assert r.status < 500, (path, r.status, r.text[:300])
    if path.startswith("/api/") and "/join/" not in path:
        assert 400 <= r.status < 500 and r.data.get("reason"), (path, r.status, r.text[:300])
    assert snapshot(server) == before
