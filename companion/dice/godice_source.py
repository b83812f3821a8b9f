"""GoDice over bleak: discovered by name, read over a kept connection.

GoDice say nothing about rolls in their adverts, so each wanted die gets a :class:`GoDiceLink`
that connects (one attempt at a time, within the radio's slot budget), sends the init message,
asks for battery and colour, and turns notifications into readings through a
:class:`GoDiceTracker` that outlives the link. A die that drops mid-roll reports UNSURE (its
result cannot be asked for later), so the table asks for that die again rather than lose it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bleak import BleakClient
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from companion.dice import godice
from companion.dice.assignment import Assignment, DieRef
from companion.dice.radio import BleRadio, DieLink
from companion.dice.reading import DieReading
from companion.dice.source import Feed, Need, SourceBase
from companion.dice.sources import SourceContext
from companion.dice.trackers import GODICE_SOURCE, GoDiceTracker

Sink = Callable[[DieReading], None]


def is_godice(device: BLEDevice, adv: AdvertisementData) -> bool:
    return (adv.local_name or device.name or "").startswith(godice.NAME_PREFIX)


class GoDiceSource:
    """Every wanted GoDice, as readings handed to ``sink`` (the hub's ``feed``).

    ``wanted`` maps a die id (its address) to its shell; ``connect_all`` connects to every
    GoDice heard (pairing), up to the radio's slots.
    """

    def __init__(
        self,
        radio: BleRadio,
        sink: Sink,
        *,
        wanted: dict[str, godice.Shell] | None = None,
        connect_all: bool = False,
        count_tilt: bool = False,
        retry_min: float = 1.0,
        retry_max: float = 30.0,
    ) -> None:
        self.radio = radio
        self.sink = sink
        self.wanted = dict(wanted or {})
        self.connect_all = connect_all
        self.count_tilt = count_tilt
        self.retry_min, self.retry_max = retry_min, retry_max
        self.trackers: dict[str, GoDiceTracker] = {}
        self.links: dict[str, GoDiceLink] = {}
        self.seen: dict[str, str] = {}  # die id -> advertised name
        self.problems = 0
        radio.add_advert_handler(self.on_advert)

    def on_advert(self, device: BLEDevice, adv: AdvertisementData) -> None:
        if not is_godice(device, adv):
            return
        die_id = device.address.upper()
        self.seen[die_id] = adv.local_name or device.name or die_id
        if (die_id in self.wanted or self.connect_all) and die_id not in self.links:
            link = GoDiceLink(self, die_id, device.address)
            self.links[die_id] = link
            link.start()

    def want(self, die_id: str, shell: godice.Shell = godice.Shell.D6) -> None:
        """Connect to ``die_id`` when it is next heard; ``shell`` is what it wears."""
        self.wanted[die_id.upper()] = shell
        if die_id.upper() in self.trackers:
            self.trackers[die_id.upper()].shell = shell

    def tracker(self, die_id: str) -> GoDiceTracker:
        if die_id not in self.trackers:
            self.trackers[die_id] = GoDiceTracker(
                die_id,
                self.wanted.get(die_id, godice.Shell.D6),
                GODICE_SOURCE,
                count_tilt=self.count_tilt,
            )
        return self.trackers[die_id]

    async def blink(
        self, die_id: str, colour: tuple[int, int, int] = (0, 255, 0), count: int = 3
    ) -> bool:
        link = self.links.get(die_id.upper())
        if link is None:
            return False
        return await link.write(godice.WRITE, godice.blink(count=count, colour=colour))


class GoDiceLink(DieLink[GoDiceSource]):
    """A connected GoDice: the init message on connect, then notifications into its tracker."""

    family = "GoDice"

    async def setup(self, client: BleakClient, generation: int) -> None:
        tracker = self.source.tracker(self.die_id)

        def on_notification(msg: godice.Notification) -> None:
            reading = tracker.observe(msg)
            if reading is not None:
                self.source.sink(reading)

        self.client = client
        await client.start_notify(
            godice.NOTIFY,
            self.notify_handler(generation, godice.decode_notification, on_notification),
        )
        for command in (godice.init_message(), godice.REQUEST_BATTERY, godice.REQUEST_COLOUR):
            await client.write_gatt_char(godice.WRITE, command, response=False)
        baseline = tracker.connected()
        if baseline is not None:
            self.source.sink(baseline)

    def lost(self) -> None:
        reading = self.source.tracker(self.die_id).link_lost()
        if reading is not None:
            self.source.sink(reading)


# --- as a dice source ----------------------------------------------------------------------------


def godice_dice(
    context: SourceContext,
    *,
    count_tilt: bool = False,
    retry_min: float = 1.0,
    retry_max: float = 30.0,
) -> GoDice:
    """The registry's factory (kind ``godice``): the paired GoDice, on the table's radio."""
    return GoDice(
        context.radio(),
        context.hub.assignment,
        count_tilt=count_tilt,
        retry_min=retry_min,
        retry_max=retry_max,
    )


class GoDice(SourceBase):
    """:class:`GoDiceSource` as a dice source: it keeps the assignment's GoDice connected,
    each read with the shell its settings name (``"shell": "D6"``). While a pairing runs it
    connects to every GoDice in range (a GoDice is heard rolling only when connected), and
    keeps the ones paired afterwards."""

    name = "GoDice"
    needs = Need.RADIO

    def __init__(self, radio: BleRadio, assignment: Assignment, **options: Any) -> None:
        self.radio = radio
        self.assignment = assignment
        self._feed: Feed | None = None
        self.godice = GoDiceSource(radio, self._sink, wanted=self._wanted(), **options)

    def _wanted(self) -> dict[str, godice.Shell]:
        a = self.assignment
        return {
            r.die_id: godice.Shell[a.setting(r, "shell", "D6")]
            for r in a.dice
            if r.source == GODICE_SOURCE
        }

    def _sink(self, reading: DieReading) -> None:
        feed = self._feed
        if feed is not None:
            feed(reading)

    def start(self, feed: Feed) -> None:
        self._feed = feed

    def stop(self) -> None:
        self._feed = None
        for link in list(self.godice.links.values()):
            link.stop()

    def pairing(self, owner: str | None, count: int = 0) -> None:
        self.godice.connect_all = owner is not None
        if owner is None:
            for die_id, shell in self._wanted().items():
                self.godice.want(die_id, shell)

    def blink(self, ref: DieRef) -> bool:
        if ref.source != GODICE_SOURCE or self.radio.loop is None:
            return False
        self.radio.submit(self.godice.blink(ref.die_id))
        return True
