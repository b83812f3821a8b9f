"""The table's side of the club: every durable event pushed to the club, offline first.

The table service knows nothing of this. :class:`ClubSync` subscribes to it from outside, and
its callback only wakes a thread of its own (``subscribe`` calls it inside the service's lock,
after the event is committed), so a move is acknowledged at the table's own speed whether the
club is there or not. The thread pushes, per game, the events the club does not have yet:

- **Where to resume** is the club's to say: on start, and whenever it has to ask again, the
  thread asks the club for the last seq it has of each of this table's games (``GET
  /api/club/sync``), and pushes from there. The Pi keeps no cursor of its own, so nothing it
  could lose (a restart, a crash mid-push, a card restored from an older copy) can make it
  skip an event; at worst it sends one again, which the club ignores.
- **Every push overlaps** the last event the club has: the club compares it with its own, so a
  table whose log is not the one the club backed up is told (``conflict``) instead of
  appending to someone else's history. That game is then left alone and reported.
- **A push that fails** (no network, the club restarting, a reply lost) is sent again after a
  pause that doubles up to :data:`BACKOFF_MAX` seconds; whether it had arrived does not
  matter, since the club keeps events by (table, game, seq). A gap (the club lost something,
  or was set up anew) is answered with the seq the club has, and the table resends from there.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from companion.club.client import ClubClient, ClubRefused, Unreachable
from companion.club.wire import MAX_BATCH, SYNC, event_to_wire, push_path
from companion.table import Event, Game, TableService

log = logging.getLogger(__name__)

IDLE = 2.0  # seconds between looks at the games when nothing wakes the thread
BACKOFF_MIN = 0.25  # seconds before the first retry; doubled on each failure
BACKOFF_MAX = 4.0  # so a link that comes back is used within about this long
REFUSED_PAUSE = 30.0  # seconds before asking again with a token the club refused


@dataclass
class SyncState:
    """How the backup is going, for a status line and the tests."""

    table: str | None = None  # this table's name at the club, once it answered
    connected: bool = False
    pushed: int = 0  # events the club took from this process
    pushes: int = 0
    failures: int = 0  # pushes or questions that did not get through
    last_error: str | None = None
    conflicts: dict[str, str] = field(default_factory=dict)  # game id -> why it is left alone


class ClubSync:
    """Backs up ``service``'s games to the club at ``url`` with the table's ``token``."""

    def __init__(
        self,
        service: TableService,
        url: str,
        token: str,
        *,
        timeout: float = 5.0,
        idle: float = IDLE,
        ca: str | None = None,
    ) -> None:
        self.service = service
        self.url = url
        self.state = SyncState()
        self._client = ClubClient(url, token, timeout, ca)
        self._idle = idle
        self._cursors: dict[str, int] | None = None  # the club's last seq per game
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._synced = threading.Condition()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Any = None
        self._rng = random.Random()

    # --- running ---------------------------------------------------------------------------

    def start(self) -> ClubSync:
        self._unsubscribe = self.service.subscribe(self._durable)
        self._thread = threading.Thread(target=self._run, name="club-sync", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._client.close()

    def _durable(self, event: Event) -> None:
        """The service's subscriber: called in its lock, so it only wakes the thread."""
        self._wake.set()

    def wait_synced(self, timeout: float) -> bool:
        """Wait until the club has every event of every game here (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        with self._synced:
            while self.pending() != 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.set()
                self._synced.wait(min(left, 0.2))
        return True

    def pending(self) -> int:
        """Events here the club is not known to have (all of them before it first answers)."""
        cursors = self._cursors or {}
        return sum(
            max(0, g.seq - cursors.get(g.id, -1))
            for g in self._games()
            if g.id not in self.state.conflicts
        )

    # --- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        backoff = BACKOFF_MIN
        while not self._stop.is_set():
            try:
                self._wake.clear()
                if self._cursors is None:
                    self._ask_cursors()
                pushed = self._push_pending()
                self.state.connected = True
                backoff = BACKOFF_MIN
                if not pushed:
                    with self._synced:
                        self._synced.notify_all()
                    self._wake.wait(self._idle)
            except Unreachable as exc:
                self._failed(str(exc))
                self._stop.wait(backoff * (0.5 + self._rng.random()))  # jitter: 100 tables
                backoff = min(BACKOFF_MAX, backoff * 2)
            except ClubRefused as exc:
                self._failed(str(exc))
                if exc.status in (401, 403):
                    log.error(
                        "the club at %s refuses this table's token: %s (ask the club's "
                        "admin for a new one)",
                        self.url,
                        exc.reason,
                    )
                    self._stop.wait(REFUSED_PAUSE)
                else:
                    log.error("the club at %s refused: %s", self.url, exc)
                    self._cursors = None  # ask again where to resume
                    self._stop.wait(BACKOFF_MAX)

    def _failed(self, reason: str) -> None:
        if self.state.connected or self.state.last_error != reason:
            log.warning("club backup paused: %s (the table plays on; it catches up later)", reason)
        self.state.connected = False
        self.state.failures += 1
        self.state.last_error = reason

    def _ask_cursors(self) -> None:
        answer = self._client.get(SYNC)
        self.state.table = str(answer.get("table"))
        games = answer.get("games", {})
        self._cursors = (
            {str(k): int(v) for k, v in games.items()} if isinstance(games, dict) else {}
        )

    def _games(self) -> list[Game]:
        return self.service.games(include_archived=True)

    def _push_pending(self) -> bool:
        """One push for each game the club is behind on; whether any was made."""
        assert self._cursors is not None
        pushed = False
        for game in self._games():
            if game.id in self.state.conflicts or self._stop.is_set():
                continue
            have = self._cursors.get(game.id, -1)
            if game.seq > have:
                self._push(game, have)
                pushed = True
        return pushed

    def _push(self, game: Game, have: int) -> None:
        """Up to :data:`MAX_BATCH` events from ``have`` (the club's last, as the overlap it
        checks), with the game's status when they reach its end."""
        assert self._cursors is not None
        first = max(have, 0)
        events = list(game.events[first : first + MAX_BATCH])
        if any(e.seq != first + i for i, e in enumerate(events)):  # the log's seqs are 0, 1, ...
            events = sorted(
                (e for e in game.events if first <= e.seq < first + MAX_BATCH), key=lambda e: e.seq
            )
        body = {
            "events": [event_to_wire(e) for e in events],
            "status": game.status if events[-1].seq == game.seq else None,
        }
        self.state.pushes += 1
        try:
            answer = self._client.post(push_path(game.id), body)
        except ClubRefused as exc:
            if exc.code == "gap" and isinstance(exc.data.get("seq"), int):
                log.info(
                    "the club has game %s up to %s: resending from there", game.id, exc.data["seq"]
                )
                self._cursors[game.id] = exc.data["seq"]
                return
            if exc.code in ("conflict", "malformed"):
                log.error("the club will not back up game %s: %s", game.id, exc.reason)
                self.state.conflicts[game.id] = exc.reason
                return
            raise
        seq = int(answer["seq"])
        self.state.pushed += max(0, seq - have)
        self._cursors[game.id] = seq
