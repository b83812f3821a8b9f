"""The one contract every dice source keeps, so the table treats them all alike.

A *source* is anything that sees physical (or virtual) dice and says what they show: simulated
dice, a phone's tapped faces, Pixels and GoDice over Bluetooth, the DIY die on a USB cable or
over Bluetooth LE, a camera. It is **started with a feed** (the hub's ``feed``: every
:class:`DieReading` goes there, from any thread) and **stopped**; ``start`` returns at once and
nothing a source does may raise into the caller (a pulled cable or a camera that stops is a log
line, and the table plays on). Sources never know the rules: which die counts for whom is the
hub's business.

Besides ``start`` and ``stop`` a source has a ``name`` (for logs and pages) and says what it
``needs`` (a radio, a serial port, a camera), and it may help with three things, each a no-op
in :class:`SourceBase`:

- ``blink(ref)``: flash a die's lights so the host can find it ("which one is diy-7?"); True
  when the die is this source's and the flash is on its way.
- ``pairing(owner, count)``: the host started "roll your five dice now" for ``owner``
  (``None``: the pairing is over and saved). GoDice connect to every die in range, since they
  are heard rolling only when connected; simulated dice roll virtual ones so it can be tried.
- ``new_game(sets)``: the table's dice now serve a game with these dice sets (simulated dice
  deal themselves to them).

Sources are built by name from :mod:`companion.dice.sources`, the one registry.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Protocol, runtime_checkable

from companion.dice.assignment import DieRef
from companion.dice.reading import DieReading
from companion.protocol import DiceSet

log = logging.getLogger(__name__)

Feed = Callable[[DieReading], None]


class Need(StrEnum):
    """What a source needs from the machine it runs on (the status page and errors say it)."""

    NOTHING = "nothing"
    RADIO = "radio"  # the Pi's Bluetooth, shared by every Bluetooth source
    SERIAL_PORT = "serial port"
    CAMERA = "camera"


@runtime_checkable
class DiceSource(Protocol):
    """What the dice service holds: see the module docstring for the contract."""

    name: str
    needs: Need

    def start(self, feed: Feed) -> None:
        """Begin handing readings to ``feed``; returns at once."""

    def stop(self) -> None:
        """Stop and let go of the hardware; no reading reaches the feed afterwards."""

    def blink(self, ref: DieRef) -> bool:
        """Flash ``ref`` if it is this source's die and has lights."""

    def pairing(self, owner: str | None, count: int = 0) -> None:
        """A pairing for ``owner`` began (``None``: it ended)."""

    def new_game(self, sets: Sequence[DiceSet]) -> None:
        """The dice now serve a game with these dice sets."""


class SourceBase:
    """The optional parts of the contract, as no-ops: a source overrides what it offers."""

    name: str = "dice"
    needs: Need = Need.NOTHING

    def blink(self, ref: DieRef) -> bool:
        return False

    def pairing(self, owner: str | None, count: int = 0) -> None:
        return None

    def new_game(self, sets: Sequence[DiceSet]) -> None:
        return None


class PumpedSource(SourceBase):
    """A source whose readings come from a blocking iterator (a camera's frames, a serial
    line), pumped into the feed on a thread of its own.

    ``readings`` is called once, at ``start``; ``close`` (optional) at ``stop``, to end the
    iterator (close the port, release the camera). A source that breaks is logged and ends:
    the other sources and the table play on.
    """

    def __init__(
        self,
        name: str,
        readings: Callable[[], Iterable[DieReading]],
        *,
        needs: Need = Need.NOTHING,
        close: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.needs = needs
        self._readings = readings
        self._close = close
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, feed: Feed) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._thread = threading.Thread(
            target=self._pump, args=(feed,), name=f"dice-{self.name}", daemon=True
        )
        self._thread.start()

    def _pump(self, feed: Feed) -> None:
        try:
            for reading in self._readings():
                if self._stopping.is_set():
                    return
                feed(reading)
        except Exception:  # a broken camera or cable is logged, and the table plays on
            log.exception("dice source %s stopped", self.name)

    def stop(self) -> None:
        self._stopping.set()
        if self._close is not None:
            try:
                self._close()
            except Exception:
                log.exception("dice source %s did not close cleanly", self.name)
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(2)
