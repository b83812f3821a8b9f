"""A table's games brought back from the club: for a Pi whose card was lost.

Each game's log comes back event for event as the table pushed it (the same seqs, kinds,
actors, payloads, idempotency keys and times) and is written to the data folder's event log in
one transaction per game, with the game's status. Then the folder is opened as the table service
opens it, so every game is replayed by the engine before anyone plays on: a game that does
not replay is reported, and the others are there.

Games the folder already has are left as they are: the table's own log is the truth, and a
restore never overwrites it. Run it with ``companion serve`` stopped (the service reads the
folder when it starts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from companion.club.client import ClubClient
from companion.club.wire import BACKUP, GAME_ID, Kind, Status, WireError, event_from_wire
from companion.table import TableService
from companion.table.storage import Storage, StoredEvent


@dataclass
class Restored:
    game_id: str
    game: str
    events: int
    status: str
    can_go_on: bool = False


@dataclass
class RestoreReport:
    table: str
    restored: list[Restored] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # games the folder had already
    damaged: dict[str, str] = field(default_factory=dict)  # game id -> why it does not load


def restore(client: ClubClient, data_dir: Path, table: str | None = None) -> RestoreReport:
    """Fetch every game of this table (the client's token's, or ``table`` with the admin
    key) that ``data_dir`` does not have, and write it there."""
    query = f"?table={quote(table)}" if table else ""
    listing = client.get(BACKUP + query)
    report = RestoreReport(str(listing.get("table", table)))
    storage = Storage(data_dir)
    try:
        present = {game_id for game_id, _, _ in storage.games()}
        for entry in listing.get("games", []):
            game_id = str(entry.get("game_id", ""))
            if not GAME_ID.fullmatch(game_id):
                raise WireError(f"the club listed {game_id!r}, which is not a game id")
            if game_id in present:
                report.kept.append(game_id)
                continue
            answer = client.get(f"{BACKUP}/{game_id}{query}")
            events = _log(game_id, answer.get("events"))
            status = Status(str(answer.get("status")))
            setup = events[0]
            storage.create_game(
                game_id, setup.created_at, setup.payload, setup.actor, events[1:], str(status)
            )
            report.restored.append(
                Restored(game_id, str(entry.get("game", "")), len(events), str(status))
            )
    finally:
        storage.close()
    _check(data_dir, report)
    return report


def _log(game_id: str, raw: object) -> list[StoredEvent]:
    """A whole log from the club, checked: a list of events 0, 1, 2 ..., the setup first."""
    if not isinstance(raw, list) or not raw:
        raise WireError(f"the club sent no events for game {game_id}")
    events = [event_from_wire(game_id, e) for e in raw]
    if events[0].kind != Kind.SETUP or any(e.seq != i for i, e in enumerate(events)):
        raise WireError(f"the club's log of game {game_id} is not events 0, 1, 2 ... in order")
    return events


def _check(data_dir: Path, report: RestoreReport) -> None:
    """Open the folder as the table service does: every game replayed by the engine."""
    service = TableService(data_dir)
    try:
        for restored in report.restored:
            if restored.game_id in service.damaged:
                report.damaged[restored.game_id] = service.damaged[restored.game_id]
            else:
                restored.can_go_on = service.game(restored.game_id).can_go_on
    finally:
        service.close()
