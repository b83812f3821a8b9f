"""The dice layer as the table service starts and stops it.

:class:`DiceService` holds the hub, the saved assignment of one table and whichever sources
the table has: simulated dice (the default with no hardware), phone entry (always), and the
Bluetooth families on their own radio thread. ``start`` and ``stop`` return promptly; nothing
here blocks on the radio. See docs/dice.md for how the table service wires it in.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.dice import godice
from companion.dice.assignment import Assignment, AssignmentStore, DieRef
from companion.dice.godice_source import GoDiceSource
from companion.dice.hub import DiceEvent, DiceHub
from companion.dice.pairing import Pairing
from companion.dice.phone import PhoneEntry
from companion.dice.pixels_source import PixelsSource
from companion.dice.radio import BleRadio
from companion.dice.simulated import SimulatedDice
from companion.dice.trackers import GODICE_SOURCE, PIXELS_SOURCE
from companion.protocol import DiceSet, Game, Seat

log = logging.getLogger(__name__)


class DiceService:
    """One table's dice. ``bluetooth`` starts the radio with Pixels and GoDice sources;
    ``simulate`` gives each of the game's dice sets virtual dice."""

    def __init__(self, data_dir: Path | str, table: str = "default", *,
                 on_action: Callable[[Any], None] | None = None,
                 on_event: Callable[[DiceEvent], None] | None = None,
                 bluetooth: bool = False, simulate: Iterable[DiceSet] = (),
                 roll_time: float = 1.5, radio: BleRadio | None = None,
                 tick: float = 0.2, **hub_options: Any) -> None:
        self.store = AssignmentStore(data_dir)
        self.table = table
        self.assignment: Assignment = self.store.load(table)
        self.hub = DiceHub(self.assignment, on_action=on_action, on_event=on_event,
                           **hub_options)
        self.phone = PhoneEntry(self.hub)
        sets = list(simulate)
        self.simulated = SimulatedDice(self.hub, sets, roll_time=roll_time) if sets else None
        self.radio = radio or (BleRadio() if bluetooth else None)
        self.pixels: PixelsSource | None = None
        self.godice: GoDiceSource | None = None
        if self.radio is not None:
            connected = {r.die_id for r in self.assignment.dice
                         if r.source == PIXELS_SOURCE
                         and self.assignment.setting(r, "connected", False)}
            self.pixels = PixelsSource(self.radio, self.hub.feed, connected=connected)
            wanted = {r.die_id: godice.Shell[self.assignment.setting(r, "shell", "D6")]
                      for r in self.assignment.dice if r.source == GODICE_SOURCE}
            self.godice = GoDiceSource(self.radio, self.hub.feed, wanted=wanted)
        self._tick = tick
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> DiceService:
        """Start every source; returns at once."""
        if self.radio is not None:
            self.radio.start()
        if self.simulated is not None:
            self.simulated.start()
        self._stop.clear()
        self._ticker = threading.Thread(target=self._run_ticks, name="dice-tick", daemon=True)
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self.simulated is not None:
            self.simulated.stop()
        if self.radio is not None:
            self.radio.stop()
        if self._ticker is not None:
            self._ticker.join(2)

    def _run_ticks(self) -> None:
        while not self._stop.wait(self._tick):
            try:
                self.hub.tick()
            except Exception:  # a bad callback must not stop the clock for every roll
                log.exception("dice hub tick failed")

    # --- what the table service calls ------------------------------------------------------

    def expect(self, rules: Game[Any, Any, Any], seats: tuple[Seat, ...], state: Any,
               applied: Any = None) -> None:
        """After every applied action (pass it): what the game waits for now."""
        self.hub.expect(rules, seats, state, applied)

    def enter(self, player: str, faces: list[int]) -> None:
        """A phone entry (raises PhoneEntryError with a sentence for the phone)."""
        self.phone.enter(player, faces)

    def pair(self, owner: str, count: int = 5,
             on_found: Callable[[DieRef], None] | None = None) -> Pairing:
        """Start "roll your dice now" for ``owner``; :meth:`save_pairing` when it is done."""
        if self.godice is not None:
            self.godice.connect_all = True  # GoDice must be connected to be heard rolling
        return Pairing(self.hub, owner, count, on_found=on_found).start()

    def save_pairing(self, pairing: Pairing, **settings: Any) -> list[DieRef]:
        found = pairing.commit(self.assignment)
        for ref in found:
            if settings:
                self.assignment.assign(ref, pairing.owner, **settings)
            if ref.source == GODICE_SOURCE and self.godice is not None:
                self.godice.want(ref.die_id, godice.Shell[self.assignment.setting(
                    ref, "shell", "D6")])
        if self.godice is not None:
            self.godice.connect_all = False
        self.store.save(self.table, self.assignment)
        return found

    def blink(self, ref: DieRef) -> None:
        """Flash a die's LEDs (pairing: "which one is it?"). Fire and forget."""
        if self.radio is None:
            return
        if ref.source == PIXELS_SOURCE and self.pixels is not None:
            self.radio.submit(self.pixels.blink(ref.die_id))
        elif ref.source == GODICE_SOURCE and self.godice is not None:
            self.radio.submit(self.godice.blink(ref.die_id))
