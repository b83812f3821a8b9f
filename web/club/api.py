"""The club's JSON API: tables push and restore, the admin manages tables, anyone reads the
public summaries.

| route | who | what |
|---|---|---|
| ``GET /api/club/sync`` | a table | ``{table, games: {game_id: seq}}``: where to resume |
| ``POST /api/club/games/<id>/events`` | a table | ``{events, status}`` → ``{seq}``; 409 |
| ``GET /api/club/backup`` | a table; the admin with ``?table=`` | the table's games |
| ``GET /api/club/backup/<id>`` | the same | ``{game_id, status, events}``: every die |
| ``GET /api/club/tables`` | the admin | every table, its games and events, when last seen |
| ``POST /api/club/tables`` | the admin | ``{name}`` → 201 ``{table, token}`` |
| ``POST /api/club/tables/<name>/token`` | the admin | a new token; the old one stops working |
| ``GET /api/club/live``, ``/finished``, ``/league/<game>`` | anyone | public summaries |

A push refused with 409 says why: ``gap`` (with the ``seq`` the club has: resend from the one
after it) or ``conflict`` (the club has another event under that seq).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request

from companion.club.league import standings
from companion.club.store import ClubStore, GameRow, NoSuchTable
from companion.club.wire import (
    BACKUP,
    SYNC,
    TABLES,
    batch_from_wire,
    event_to_wire,
)
from web.body import json_body, str_field
from web.security import ApiError

api = Blueprint("club_api", __name__)


def store() -> ClubStore:
    store: ClubStore = current_app.extensions["club"]
    return store


def _bearer() -> str | None:
    value = request.headers.get("Authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def as_table() -> str:
    """The table whose token the request carries (401 without one, 403 for another key)."""
    token = _bearer()
    if token is None:
        raise ApiError(401, "unauthorised", "send the table's token: Authorization: Bearer T")
    table = store().table_of(token)
    if table is None:
        if store().is_admin(token):
            raise ApiError(
                403, "forbidden", "events come from a table's own token, not the admin key"
            )
        raise ApiError(
            401,
            "unauthorised",
            "this is not a token of any table here: ask the club's admin for the table's token",
        )
    return table


def as_admin() -> None:
    token = _bearer()
    if token is None or not store().is_admin(token):
        raise ApiError(
            401 if token is None else 403,
            "not_admin",
            "this needs the club's admin key: Authorization: Bearer KEY",
        )


def as_reader() -> tuple[str, str]:
    """Who may read a table's whole log: the table itself, or the admin naming it
    (``?table=``); the table and "table" or "admin"."""
    named = request.args.get("table")
    token = _bearer()
    if token is not None and store().table_of(token) is None and store().is_admin(token):
        if named is None:
            raise ApiError(400, "malformed", "the admin names the table: ?table=NAME")
        if not store().has_table(named):
            raise NoSuchTable(f"there is no table {named!r}")
        return named, "admin"
    table = as_table()
    if named is not None and named != table:
        raise ApiError(403, "forbidden", "a table's token reads its own games only")
    return table, "table"


# --- a table's sync ------------------------------------------------------------------------


@api.get(SYNC)
def sync() -> Any:
    table = as_table()
    return jsonify({"table": table, "games": store().cursors(table)})


@api.post("/api/club/games/<game_id>/events")
def push(game_id: str) -> Any:
    table = as_table()
    events, status = batch_from_wire(game_id, json_body())
    return jsonify({"seq": store().push(table, game_id, events, status)})


# --- restore: a table's whole logs ---------------------------------------------------------


@api.get(BACKUP)
def backup_games() -> Any:
    table, _ = as_reader()
    return jsonify({"table": table, "games": store().backup_games(table)})


@api.get(f"{BACKUP}/<game_id>")
def backup_log(game_id: str) -> Any:
    table, reader = as_reader()
    status, events = store().backup_log(table, game_id, reader)
    return jsonify(
        {
            "table": table,
            "game_id": game_id,
            "status": status,
            "events": [event_to_wire(e) for e in events],
        }
    )


# --- the admin's -----------------------------------------------------------------------------


@api.get(TABLES)
def tables() -> Any:
    as_admin()
    return jsonify(
        {
            "tables": [
                {
                    "name": t.name,
                    "created_at": t.created_at.isoformat(),
                    "last_seen": t.last_seen.isoformat() if t.last_seen else None,
                    "games": t.games,
                    "events": t.events,
                }
                for t in store().tables()
            ]
        }
    )


@api.post(TABLES)
def add_table() -> Any:
    as_admin()
    name = str_field(json_body(), "name", max_length=40) or ""
    token = store().add_table(name)
    return jsonify({"table": name, "token": token}), 201


@api.post(f"{TABLES}/<name>/token")
def new_token(name: str) -> Any:
    as_admin()
    return jsonify({"table": name, "token": store().new_token(name)})


# --- public ----------------------------------------------------------------------------------


def public(row: GameRow) -> dict[str, Any]:
    """A game as anyone may see it: its public summary and where it is, nothing else."""
    return {
        "table": row.table,
        "game_id": row.game_id,
        "game": row.game,
        "seq": row.seq,
        "status": row.status,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
        "players": row.players,
        "progress": row.progress,
        "waiting": row.waiting,
        "view": row.view,
        "over": row.over,
        "can_go_on": row.can_go_on,
        "scores": row.scores,
        "problem": row.problem,
    }


@api.get("/api/club/live")
def live() -> Any:
    return jsonify({"games": [public(r) for r in store().live()]})


@api.get("/api/club/finished")
def finished() -> Any:
    return jsonify({"games": [public(r) for r in store().finished()]})


@api.get("/api/club/league/<game>")
def league(game: str) -> Any:
    return jsonify(
        {
            "game": game,
            "standings": [
                {
                    "player": s.player,
                    "plays": s.plays,
                    "wins": s.wins,
                    "points": s.points,
                    "rating": round(s.rating, 2),
                    "mu": round(s.mu, 2),
                    "sigma": round(s.sigma, 2),
                }
                for s in standings(store().league_games(game))
            ],
        }
    )
