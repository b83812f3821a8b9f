"""The dice layer as the table starts and stops it: one hub, the sources, the radio they share.

:class:`DiceService` holds the hub, the saved assignment of one table and whichever sources the
table has, each built by kind through the one registry (:mod:`companion.dice.sources`): phone
entry always, then simulated dice (the default with no hardware), Pixels and GoDice, the DIY
die on a serial port or over Bluetooth LE, cameras. Sources that need the Pi's Bluetooth share
one :class:`~companion.dice.radio.BleRadio`, made (and bleak imported) only when such a source
is built. ``start`` and ``stop`` return promptly; nothing here blocks on the radio. See
docs/dice.md for how the table wires it in (:mod:`companion.dice.table`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.dice.assignment import Assignment, AssignmentStore, DieRef
from companion.dice.hub import DiceEvent, DiceHub
from companion.dice.pairing import Pairing
from companion.dice.phone import PhoneEntry
from companion.dice.source import DiceSource
from companion.dice.sources import SourceContext, SourceKind, SourceSpec, build
from companion.protocol import DiceSet, Game, Seat

if TYPE_CHECKING:  # bleak: imported only when a Bluetooth source asks for the radio
    from companion.dice.godice_source import GoDiceSource
    from companion.dice.pixels_source import PixelsSource
    from companion.dice.radio import BleRadio

log = logging.getLogger(__name__)


class DiceService:
    """One table's dice. ``sources`` are specs (or bare kinds) for the registry: e.g.
    ``["simulated"]``, ``["pixels", "godice"]``, ``[SourceSpec("diy-serial", {"port":
    "auto"})]``; phone entry is always there. ``radio`` is the Bluetooth radio to use instead
    of the default one (tests pass one on the fake backend)."""

    def __init__(
        self,
        data_dir: Path | str,
        table: str = "default",
        *,
        sources: Iterable[SourceSpec | str] = (),
        on_action: Callable[[Any], None] | None = None,
        on_event: Callable[[DiceEvent], None] | None = None,
        radio: BleRadio | None = None,
        tick: float = 0.2,
        **hub_options: Any,
    ) -> None:
        self.store = AssignmentStore(data_dir)
        self.table = table
        self.assignment: Assignment = self.store.load(table)
        self.hub = DiceHub(self.assignment, on_action=on_action, on_event=on_event, **hub_options)
        self._radio = radio
        self.context = SourceContext(self.hub, self._the_radio)
        self.sources: list[DiceSource] = []
        self.kinds: dict[str, list[DiceSource]] = {}
        self._lock = threading.Lock()
        self._started = False
        self._tick = tick
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        phone = self.add(SourceKind.PHONE)
        assert isinstance(phone, PhoneEntry)
        self.phone = phone
        for spec in sources:
            self.add(spec)

    # --- sources ---------------------------------------------------------------------------

    def add(self, spec: SourceSpec | str | DiceSource) -> DiceSource:
        """Build a source through the registry (or take one built already) and, if the dice
        are running, start it. Raises :class:`~companion.dice.sources.SourceError` with a
        sentence when it cannot be built (no camera there, an unknown kind)."""
        if isinstance(spec, SourceSpec | str):
            kind = SourceSpec.of(spec).kind
            source = build(spec, self.context)
        else:
            kind, source = spec.name, spec
        with self._lock:
            self.sources.append(source)
            self.kinds.setdefault(kind, []).append(source)
            started = self._started
        if started:
            self._start_radio()
            source.start(self.hub.feed)
        return source

    def _the_radio(self) -> BleRadio:
        """The table's one Bluetooth radio (a :class:`SourceContext`'s ``radio``)."""
        with self._lock:
            if self._radio is None:
                from companion.dice.radio import BleRadio

                self._radio = BleRadio()
            return self._radio

    @property
    def radio(self) -> BleRadio | None:
        """The radio, if a source has asked for one."""
        return self._radio

    def _start_radio(self) -> None:
        if self._radio is not None:
            self._radio.start()  # idempotent

    def of_kind(self, kind: str) -> list[DiceSource]:
        return list(self.kinds.get(kind, ()))

    @property
    def pixels(self) -> PixelsSource | None:
        """The Pixels source on the radio, if the table has one (its counters, for tests)."""
        found = self.of_kind(SourceKind.PIXELS)
        return found[0].pixels if found else None  # type: ignore[attr-defined]

    @property
    def godice(self) -> GoDiceSource | None:
        """The GoDice source on the radio, if the table has one."""
        found = self.of_kind(SourceKind.GODICE)
        return found[0].godice if found else None  # type: ignore[attr-defined]

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> DiceService:
        """Start the radio (if a source needs it), then every source; returns at once."""
        with self._lock:
            if self._started:
                return self
            self._started = True
            sources = list(self.sources)
        self._start_radio()
        for source in sources:
            source.start(self.hub.feed)
        self._stop.clear()
        self._ticker = threading.Thread(target=self._run_ticks, name="dice-tick", daemon=True)
        self._ticker.start()
        return self

    def stop(self) -> None:
        with self._lock:
            self._started = False
            sources = list(self.sources)
        self._stop.set()
        for source in reversed(sources):
            try:
                source.stop()
            except Exception:  # one source's trouble must not keep the others running
                log.exception("dice source %s did not stop cleanly", source.name)
        if self._radio is not None:
            self._radio.stop()
        if self._ticker is not None:
            self._ticker.join(2)

    def _run_ticks(self) -> None:
        while not self._stop.wait(self._tick):
            try:
                self.hub.tick()
            except Exception:  # a bad callback must not stop the clock for every roll
                log.exception("dice hub tick failed")

    # --- what the table calls --------------------------------------------------------------

    def new_game(self, sets: Sequence[DiceSet]) -> None:
        """The dice now serve another game: forget the last one's pending rolls and tell the
        sources its dice sets (simulated dice deal themselves to them)."""
        self.hub.clear()
        for source in list(self.sources):
            source.new_game(sets)

    def expect(
        self, rules: Game[Any, Any, Any], seats: tuple[Seat, ...], state: Any, applied: Any = None
    ) -> None:
        """After every applied action (pass it): what the game waits for now."""
        self.hub.expect(rules, seats, state, applied)

    def enter(self, player: str, faces: list[int]) -> None:
        """A phone entry (raises PhoneEntryError with a sentence for the phone)."""
        self.phone.enter(player, faces)

    def void(self, player: str) -> bool:
        """Throw away what ``player`` has rolled so far (a missed re-roll, a die off the
        table): the roll starts again. False if they have no roll in progress."""
        return self.hub.void(player)

    def pair(
        self, owner: str, count: int = 5, on_found: Callable[[DieRef], None] | None = None
    ) -> Pairing:
        """Start "roll your dice now" for ``owner``; :meth:`save_pairing` when it is done.
        Every source hears of it (GoDice connect to every die in range; simulated dice roll
        virtual smart dice)."""
        pairing = Pairing(self.hub, owner, count, on_found=on_found).start()
        for source in list(self.sources):
            source.pairing(owner, count)
        return pairing

    def save_pairing(self, pairing: Pairing, **settings: Any) -> list[DieRef]:
        found = pairing.commit(self.assignment)
        if settings:
            for ref in found:
                self.assignment.assign(ref, pairing.owner, **settings)
        self.store.save(self.table, self.assignment)
        for source in list(self.sources):
            source.pairing(None)
        return found

    def blink(self, ref: DieRef) -> bool:
        """Flash a die's lights (pairing: "which one is it?"). Fire and forget: True when a
        source took it (the die is theirs and has lights)."""
        return any(source.blink(ref) for source in list(self.sources))
