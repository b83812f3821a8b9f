"""Live updates: the table service's events fanned out to every open Server-Sent Events stream.

The table service calls its subscribers inside its write lock, so the callback here only
appends the event to a per-game buffer and wakes the streams. Each stream then builds its own
viewer's picture outside the lock; the same (event, viewer) is rendered once and shared by
every stream of that viewer (a table screen on the TV and one on a laptop, say).

Every stream starts with a ``: keepalive`` comment (the server sends the headers only with the
first bytes, and a phone would sit on "connecting"), then the full picture for its viewer with
the current seq as its id, then one ``update`` per event. A quiet stream gets a comment every
``KEEPALIVE`` seconds so proxies leave it open, and so a phone that vanished without closing
its connection is noticed when the write fails, and its thread freed.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.dice.hub import DiceEvent
from companion.dice.table import TableDice
from companion.protocol import DiceSet
from companion.table import Event, Game, TableService
from web import views
from web.streams import HeldStream, StreamSlots

# Seconds between comments on a quiet stream (the spec suggests ~15). Short, because a
# write is how a vanished client is found: the first write after it left still succeeds,
# the next fails, so its thread comes back within two of these.
KEEPALIVE = 5.0
BUFFER = 512  # events kept per game for streams that fall behind
RETRY_MS = 1500  # how soon EventSource reconnects after a drop
POLL = 1.0  # seconds between checks that the client is still there
REVOKED_TEXT = (
    "This seat was opened on another phone, so this one shows it no more. "
    "If that was not you, tell the host."
)


def sse(event: str | None, data: Any, event_id: int | None = None) -> str:
    """One Server-Sent Events message (JSON data on a single line)."""
    head = ""
    if event_id is not None:
        head += f"id: {event_id}\n"
    if event:
        head += f"event: {event}\n"
    return head + "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"


@dataclass(frozen=True, slots=True)
class Notice:
    """Something every screen of a game is told once, not part of the game ("Maria joined
    the table", "Maria's seat moved to another phone"): public words only."""

    text: str


def _dice_sets(service: TableService, game_id: str) -> list[DiceSet]:
    game = service.game(game_id)
    return game.rules.dice_sets(game.state)


class GameFeed:
    """One game's recent events, and the streams waiting for the next one."""

    def __init__(self, service: TableService, game_id: str) -> None:
        self.game_id = game_id
        self.cond = threading.Condition()
        self.events: deque[Event] = deque(maxlen=BUFFER)
        self.closed = False
        # Dice events (RollWanted, DieCounted...) and table notices ("Maria joined") numbered
        # apart from the game's seq: they are not durable and carry no SSE id; each stream
        # filters dice events for its own viewer, and notices are for everyone.
        self.dice: deque[tuple[int, DiceEvent | Notice]] = deque(maxlen=BUFFER)
        self.dice_n = 0
        self._rendered: OrderedDict[tuple[int, str | None], str] = OrderedDict()
        self._render_lock = threading.Lock()
        self.nouns = {s.owner: s.noun for s in _dice_sets(service, game_id)}
        self.unsubscribe = service.subscribe(self._on_event, game_id)

    def _on_event(self, event: Event) -> None:
        # Called inside the table service's lock: only append and wake.
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def add_dice(self, event: DiceEvent | Notice) -> None:
        # From the dice thread, maybe inside the table service's lock: only append and wake.
        with self.cond:
            self.dice_n += 1
            self.dice.append((self.dice_n, event))
            self.cond.notify_all()

    def dice_after(self, n: int) -> tuple[list[DiceEvent | Notice], int]:
        """Dice events after number ``n`` (a slow stream loses the oldest: they are live
        prompts, and the next one or a reconnect's progress says where the roll stands)."""
        with self.cond:
            return [e for i, e in self.dice if i > n], self.dice_n

    def after(self, seq: int) -> tuple[list[Event], bool]:
        """Buffered events after ``seq``; False if some were already dropped from the buffer."""
        with self.cond:
            out = [e for e in self.events if e.seq > seq]
            complete = not out or out[0].seq == seq + 1
            if not out and self.events and self.events[-1].seq > seq:
                complete = False
        return out, complete

    def update(self, event: Event, viewer: str | None) -> str:
        """The ``update`` message for one viewer, rendered once per (event, viewer)."""
        key = (event.seq, viewer)
        with self._render_lock:
            hit = self._rendered.get(key)
        if hit is not None:
            return hit
        text = sse("update", views.update(event, viewer), event.seq)
        with self._render_lock:
            self._rendered[key] = text
            while len(self._rendered) > BUFFER * 4:
                self._rendered.popitem(last=False)
        return text


class Hub:
    """All feeds, one per game with an open stream, and the count of open streams (``slots``:
    each holds a server thread); closing it ends every stream."""

    def __init__(self, service: TableService, slots: StreamSlots | None = None) -> None:
        self.service = service
        self.slots = slots or StreamSlots()
        self._feeds: dict[str, GameFeed] = {}
        self._lock = threading.Lock()
        self._logs: dict[str, tuple[int, list[views.LogEntry]]] = {}
        self.closed = False
        self.dice: TableDice | None = None  # the table's dice, for a phone's pending roll

    def dice_event(self, game_id: str, event: DiceEvent) -> None:
        """A dice event of ``game_id`` (TableDice's listener). Only games with an open stream
        have a feed. No lock here: this may run inside the table service's lock (the dice
        layer's ``expect`` asks for rolls), while ``feed()`` holds ours to subscribe to the
        service: taking it would be a lock-order deadlock. A dict read is atomic."""
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.add_dice(event)

    def notice(self, game_id: str, text: str) -> None:
        """Tell every open screen of ``game_id`` something public (a ``notice`` message)."""
        self.feed(game_id).add_dice(Notice(text))

    def _dice_progress(self, game_id: str, viewer: str | None) -> str | None:
        dice = self.dice
        if viewer is None or dice is None or dice.game_id != game_id or dice.bridge is None:
            return None
        if dice.bridge.dice is None:
            return None
        msg = views.progress_message(dice.bridge.dice, viewer)
        return sse("dice", msg) if msg else None

    def feed(self, game_id: str) -> GameFeed:
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = GameFeed(self.service, game_id)
            return feed

    def log(self, game: Game) -> list[views.LogEntry]:
        """The game's log, rebuilt only when the game has moved on since the last call."""
        with self._lock:
            cached = self._logs.get(game.id)
        if cached is not None and cached[0] == game.seq:
            return cached[1]
        entries = views.build_log(game, self.service.files(game.rules))
        with self._lock:
            self._logs[game.id] = (game.seq, entries)
        return entries

    def snapshot(self, game: Game, viewer: str | None, since: int | None = None) -> dict[str, Any]:
        """The full picture for a (re)connecting viewer, with the log's recent lines; lines
        newer than ``since`` (the last event the client saw) are marked as missed."""
        data = views.game_picture(game, viewer)
        log = views.log_json(game.rules, self.log(game), viewer)
        if since is not None:
            for item in log:
                item["missed"] = item["seq"] > since
        data["log"] = log
        data["since"] = since
        return data

    def stream(
        self,
        game_id: str,
        viewer: str | None,
        last_event_id: int | None,
        gone: Callable[[], bool] | None = None,
        still_valid: Callable[[], bool] | None = None,
        address: str = "",
    ) -> HeldStream:
        """The text of one SSE stream, until the client goes away or the server stops; it
        holds one of ``slots`` for ``address`` (the client's) until it is closed, or raises
        :class:`web.streams.StreamRefused` at once when there is none.

        ``gone`` (the server's ``CLIENT_GONE``, when it has one) is polled every second: a
        phone that locks its screen drops its connection, and its worker thread must come back
        at once rather than after the keep-alive writes fail. ``still_valid`` is polled as
        often: a player's stream ends with a ``revoked`` message as soon as their seat's
        session ends (the seat was claimed on another phone), so the old phone stops showing
        that player's dice at once."""
        slot = self.slots.take(address)
        return HeldStream(self._messages(game_id, viewer, last_event_id, gone, still_valid), slot)

    def _messages(
        self,
        game_id: str,
        viewer: str | None,
        last_event_id: int | None,
        gone: Callable[[], bool] | None,
        still_valid: Callable[[], bool] | None,
    ) -> Iterator[str]:
        feed = self.feed(game_id)  # subscribe before reading the game: nothing falls between
        dice_cursor = feed.dice_n
        yield f"retry: {RETRY_MS}\n: keepalive\n\n"
        game = self.service.game(game_id)
        since = last_event_id if last_event_id is not None and last_event_id <= game.seq else None
        yield sse("view", self.snapshot(game, viewer, since), game.seq)
        progress = self._dice_progress(game_id, viewer)
        if progress:
            yield progress
        cursor = game.seq
        last_sent = time.monotonic()
        while not self.closed:
            with feed.cond:
                if (
                    not (feed.events and feed.events[-1].seq > cursor)
                    and feed.dice_n == dice_cursor
                    and not self.closed
                ):
                    feed.cond.wait(min(POLL, max(0.0, last_sent + KEEPALIVE - time.monotonic())))
            if self.closed or (gone is not None and gone()):
                return
            if still_valid is not None and not still_valid():
                yield sse("revoked", {"text": REVOKED_TEXT})
                return
            notes, dice_cursor = feed.dice_after(dice_cursor)
            for note in notes:
                if isinstance(note, Notice):
                    last_sent = time.monotonic()
                    yield sse("notice", {"text": note.text})
                    continue
                msg = views.dice_message(note, viewer, feed.nouns)  # the one dice filter
                if msg is not None:
                    last_sent = time.monotonic()
                    yield sse("dice", msg)
            events, complete = feed.after(cursor)
            if not events and complete and time.monotonic() - last_sent < KEEPALIVE:
                continue
            last_sent = time.monotonic()
            if not complete:
                # This stream fell further behind than the buffer: start it afresh.
                game = self.service.game(game_id)
                yield sse("view", self.snapshot(game, viewer, cursor), game.seq)
                cursor = game.seq
                continue
            if not events:
                yield ": keepalive\n\n"
                continue
            for event in events:
                yield feed.update(event, viewer)
                cursor = event.seq

    def close(self) -> None:
        """Wake and end every stream (the server is stopping)."""
        self.closed = True
        with self._lock:
            feeds = list(self._feeds.values())
        for feed in feeds:
            feed.unsubscribe()
            with feed.cond:
                feed.cond.notify_all()
