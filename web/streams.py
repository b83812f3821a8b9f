"""How many event streams may be open at once, so page loads and moves always find a thread.

Every Server-Sent Events stream holds one of the server's worker threads for as long as its
page is open (``web.server``). Streams together may hold at most ``MAX_STREAMS`` threads,
leaving ``SPARE_THREADS`` for page loads, API reads and POSTs, and the streams from one client
address at most ``PER_ADDRESS``, so one stranger on the Wi-Fi cannot take every slot. A
browser opens at most six HTTP/1.1 connections to a site, so 32 leaves room for several
browsers behind one address (the table screen and a laptop on the Pi itself, say).

A stream over a limit is refused at once, never left waiting: 503 ``busy`` when every slot is
taken, 429 ``too_many_streams`` when its address has its share, both with ``Retry-After``
(the pages' EventSource tries again by itself). A slot is taken before the stream's first
byte and given back when the WSGI server closes the stream, which it does however the stream
ends: the client went away, the server is stopping, or it was never started.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

MAX_STREAMS = 256  # a table of 6 phones, a screen and a host page, many times over
SPARE_THREADS = 44  # never held by a stream: page loads, API reads and moves
PER_ADDRESS = 32
RETRY_AFTER = 10  # seconds: how soon a refused stream may try again


@dataclass
class StreamRefused(Exception):
    """A stream over a limit: answered as JSON ``{error, reason}`` with ``Retry-After``."""

    status: int
    code: str
    reason: str
    retry_after: int = RETRY_AFTER


class StreamSlots:
    """The open streams, counted per client address (thread-safe)."""

    def __init__(self, total: int = MAX_STREAMS, per_address: int = PER_ADDRESS) -> None:
        self.total = total
        self.per_address = per_address
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    @property
    def open(self) -> int:
        """How many streams are open now."""
        with self._lock:
            return sum(self._open.values())

    def take(self, address: str) -> Slot:
        """A slot for one more stream from ``address``, or :class:`StreamRefused`."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                raise StreamRefused(
                    503,
                    "busy",
                    f"the companion already serves {self.total} live pages, its most: "
                    "close a page somewhere or try again in a few seconds",
                )
            if self._open[address] >= self.per_address:
                raise StreamRefused(
                    429,
                    "too_many_streams",
                    f"{address} already has {self.per_address} live pages open, the most one "
                    "address may: close some of them",
                )
            self._open[address] += 1
        return Slot(self, address)

    def _give_back(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]


class Slot:
    """One stream's place, given back once however often ``release`` is called."""

    def __init__(self, slots: StreamSlots, address: str) -> None:
        self._slots = slots
        self._address = address
        self._released = False
        self._lock = threading.Lock()

    def release(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        self._slots._give_back(self._address)


class HeldStream(Iterator[str]):
    """A stream's messages, holding its slot until the stream ends or is closed.

    A class, not a generator: a generator that never started runs no ``finally`` when it is
    closed, and a stream refused or dropped before its first byte must still give its slot
    back. The WSGI server calls ``close`` on every response it was given."""

    def __init__(self, messages: Iterator[str], slot: Slot) -> None:
        self._messages = messages
        self._slot = slot

    def __next__(self) -> str:
        try:
            return next(self._messages)
        except BaseException:
            self._slot.release()  # the end of the stream, or a failure in it
            raise

    def close(self) -> None:
        try:
            close = getattr(self._messages, "close", None)
            if close is not None:
                close()
        finally:
            self._slot.release()
