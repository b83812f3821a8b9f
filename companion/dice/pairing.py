"""Pairing: "roll your five dice now", and the dice that roll are that family's.

The host page starts a :class:`Pairing` for one owner (a family colour, or a shared pool such as
``vegas`` for the red dice) and a count; every die that is seen rolling and then settling is
collected, whether the assignment knows it or not. ``commit`` writes them into the assignment
(taking them from any previous owner) and the store saves it, so the next game needs no pairing.
To find one die among many, :meth:`DiceService.blink` flashes it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.dice.assignment import Assignment, DieRef
from companion.dice.hub import DiceHub
from companion.dice.reading import DieReading, DieState


class Pairing:
    """Collects the first ``count`` dice that roll after :meth:`start`."""

    def __init__(
        self,
        hub: DiceHub,
        owner: str,
        count: int = 5,
        *,
        sources: tuple[str, ...] | None = None,
        on_found: Callable[[DieRef], None] | None = None,
    ) -> None:
        self.hub = hub
        self.owner = owner
        self.count = count
        self.sources = sources  # only dice of these sources (None: any smart die)
        self.on_found = on_found
        self.found: list[DieRef] = []
        self.done = threading.Event()
        self._moving: set[DieRef] = set()
        self._rolls: dict[DieRef, int | None] = {}
        self._remove: Callable[[], None] | None = None

    def start(self) -> Pairing:
        for ref, reading in self.hub.last_readings().items():
            self._rolls[ref] = reading.roll
        self._remove = self.hub.add_listener(self._on_reading)
        return self

    def cancel(self) -> None:
        if self._remove is not None:
            self._remove()
            self._remove = None

    def _on_reading(self, reading: DieReading) -> None:
        ref = DieRef.of(reading)
        if self.done.is_set() or ref in self.found or ref.source.startswith(("phone:", "sim")):
            return
        if self.sources is not None and ref.source not in self.sources:
            return
        if reading.state is DieState.ROLLING:
            self._moving.add(ref)
            return
        rolled = ref in self._moving or (
            reading.roll is not None and ref in self._rolls and reading.roll != self._rolls[ref]
        )
        if reading.state is DieState.SETTLED and rolled:
            self.found.append(ref)
            if self.on_found:
                self.on_found(ref)
            if len(self.found) >= self.count:
                self.done.set()
                self.cancel()

    def commit(self, assignment: Assignment) -> list[DieRef]:
        """Give the dice found to the owner; returns them."""
        for ref in self.found:
            assignment.assign(ref, self.owner)
        return list(self.found)
