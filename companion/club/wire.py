"""What travels between a table and the club: one definition for both sides.

An event travels as the table service stored it (``StoredEvent``: game, seq, kind, actor, the
payload, the idempotency key, when it was made), so the club's copy is the table's log itself
and a restore gives back exactly what was pushed. Pushes go in batches of consecutive events of
one game; the club keeps them by (table, game, seq), so sending a batch twice changes nothing,
and a batch that would leave a hole is refused with the seq the club has (``Gap``).

Everything a table sends is checked here before the club stores it: a wrong shape is a
:class:`WireError` naming the field, never a crash further in.
"""

from __future__ import annotations

import itertools
import re
from enum import StrEnum
from typing import Any

from companion.table.storage import StoredEvent

MAX_BATCH = 200  # events in one push: a whole game is a few hundred
MAX_PUSH_BYTES = 4 * 1024 * 1024  # a push's body; a batch of 200 events is under 100 KB
MAX_ACTOR = 100  # characters: "player:" and a name of at most 24, "dice:" and a source's name
MAX_KEY = 200  # characters of an idempotency key (the web's are under 50)
MAX_TIME = 40  # characters of an ISO time
GAME_ID = re.compile(r"[0-9a-z][0-9a-z-]{0,39}")  # the service's ids are six hex digits
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}")  # "table-07", "Kitchen"

# The club's API, as both sides name it.
SYNC = "/api/club/sync"  # GET: this table's name and the last seq the club has of each game
BACKUP = "/api/club/backup"  # GET: a table's games; /<game>: one game's whole log
TABLES = "/api/club/tables"  # the admin's: list, add (POST), /<name>/token: a new token


def push_path(game_id: str) -> str:
    """Where a table pushes a game's events (POST)."""
    return f"/api/club/games/{game_id}/events"


class Kind(StrEnum):
    """The kinds of event in a table's log (``docs/table.md``)."""

    SETUP = "setup"
    ACTION = "action"
    UNDO = "undo"
    CORRECTION = "correction"
    STATUS = "status"
    DISCLOSED = "disclosed"


class Status(StrEnum):
    """A game's status at its table."""

    ACTIVE = "active"
    FINISHED = "finished"
    ARCHIVED = "archived"


class WireError(ValueError):
    """What a table sent is not an event the club can keep; the message names the field."""


def event_to_wire(event: StoredEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "kind": event.kind,
        "actor": event.actor,
        "payload": event.payload,
        "idem_key": event.idem_key,
        "created_at": event.created_at,
    }


def event_from_wire(game_id: str, data: object) -> StoredEvent:
    """One pushed event, checked field by field."""
    if not isinstance(data, dict):
        raise WireError("each event is a JSON object")
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**31:
        raise WireError(f"seq must be a whole number from 0, not {seq!r}")
    kind = data.get("kind")
    if kind not in set(Kind):
        raise WireError(f"event {seq}: kind must be one of {', '.join(Kind)}, not {kind!r}")
    if (seq == 0) != (kind == Kind.SETUP):
        raise WireError(f"event {seq}: a game's event 0, and only it, is its setup")
    payload = data.get("payload")
    if not isinstance(payload, dict):
        raise WireError(f"event {seq}: payload must be a JSON object")
    actor = _text(data, "actor", seq, MAX_ACTOR)
    created_at = _text(data, "created_at", seq, MAX_TIME)
    key = data.get("idem_key")
    if key is not None and (not isinstance(key, str) or len(key) > MAX_KEY):
        raise WireError(f"event {seq}: idem_key must be text of at most {MAX_KEY} characters")
    return StoredEvent(game_id, seq, str(kind), actor, payload, key, created_at)


def batch_from_wire(game_id: str, data: object) -> tuple[list[StoredEvent], Status | None]:
    """A push's body: its events (consecutive, at most :data:`MAX_BATCH`), and the game's
    status at the table once the last of them was made, if the table says."""
    if not GAME_ID.fullmatch(game_id):
        raise WireError(f"{game_id!r} is not a game id")
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise WireError('send {"events": [...], "status": ...}')
    raw = data["events"]
    if not 0 < len(raw) <= MAX_BATCH:
        raise WireError(f"send 1 to {MAX_BATCH} events at a time, not {len(raw)}")
    events = [event_from_wire(game_id, e) for e in raw]
    for before, after in itertools.pairwise(events):
        if after.seq != before.seq + 1:
            raise WireError(
                f"the events of a push follow each other: {before.seq} then {after.seq}"
            )
    status = data.get("status")
    if status is not None and status not in set(Status):
        raise WireError(f"status must be one of {', '.join(Status)}, not {status!r}")
    return events, Status(status) if status is not None else None


def _text(data: dict[str, Any], name: str, seq: int, longest: int) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value or len(value) > longest:
        raise WireError(f"event {seq}: {name} must be text of 1 to {longest} characters")
    return value
