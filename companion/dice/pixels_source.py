"""Pixels dice over bleak: advert mode for the whole table, connected mode where asked.

Advert mode (the default) reads every Pixels die from its advertisements: no connection, so
no slot limit, and 33 dice on one Pi radio. Connected mode (per die: ``connected=True`` in the
assignment's settings) keeps a link, which the die answers with a RollState notification on
every change and which stops it broadcasting its face (see docs/dice.md, Privacy). Both feed
the same :class:`PixelsTracker`, keyed by the pixel id, so switching modes or losing the link
neither loses nor repeats a roll.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bleak import BleakClient
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from companion.dice import pixels
from companion.dice.assignment import Assignment, DieRef
from companion.dice.errors import DiceProtocolError
from companion.dice.radio import RADIO_ERRORS, BleRadio, DieLink
from companion.dice.reading import DieReading
from companion.dice.source import Feed, Need, SourceBase
from companion.dice.sources import SourceContext
from companion.dice.trackers import PIXELS_SOURCE, PixelsTracker

log = logging.getLogger(__name__)

Sink = Callable[[DieReading], None]


def die_id_of(pixel_id: int) -> str:
    """A Pixels die's id in the dice layer: its pixel id, as the app prints it."""
    return f"{pixel_id:08X}"


@dataclass(frozen=True, slots=True)
class PixelsAdvert:
    """What one advertisement says, decoded; ``identity`` needs the scan response."""

    status: pixels.AdvertStatus
    identity: pixels.AdvertIdentity | None
    legacy: bool


def read_advert(adv: AdvertisementData, name: str | None = None) -> PixelsAdvert | None:
    """The Pixels part of an advertisement; None if it is not a Pixels die.

    Raises :class:`DiceProtocolError` for a Pixels advert with damaged data. Company 0xFFFF is
    anyone's test id (and the legacy Pixels one): only with the Pixels service data or service
    UUID, and never with a GoDice name, is it taken for a die.
    """
    data = adv.manufacturer_data
    service_data = adv.service_data.get(pixels.INFO_SERVICE_DATA)
    if pixels.COMPANY_ID in data:
        raw, legacy = data[pixels.COMPANY_ID], False
    elif pixels.LEGACY_COMPANY_ID in data:
        if (name or adv.local_name or "").startswith("GoDice_"):
            return None
        uuids = {u.lower() for u in adv.service_uuids}
        if service_data is None and pixels.LEGACY_SERVICE not in uuids:
            return None
        raw, legacy = data[pixels.LEGACY_COMPANY_ID], True
    else:
        return None
    status = pixels.decode_manufacturer_data(raw)
    identity = pixels.decode_service_data(service_data) if service_data is not None else None
    if pixels.SERVICE in {u.lower() for u in adv.service_uuids}:
        legacy = False
    return PixelsAdvert(status, identity, legacy)


class PixelsSource:
    """Every Pixels die the radio hears, as readings handed to ``sink`` (the hub's ``feed``).

    ``connected`` names the dice (by :func:`die_id_of`) read over a connection instead.
    """

    def __init__(
        self,
        radio: BleRadio,
        sink: Sink,
        *,
        connected: set[str] | None = None,
        retry_min: float = 1.0,
        retry_max: float = 30.0,
    ) -> None:
        self.radio = radio
        self.sink = sink
        self.connected_ids = set(connected or ())
        self.retry_min, self.retry_max = retry_min, retry_max
        self.trackers: dict[str, PixelsTracker] = {}  # by die id
        self.addresses: dict[str, str] = {}  # die id -> address
        self.legacy: dict[str, bool] = {}
        self._ids: dict[str, str] = {}  # address -> die id
        self._raw: dict[str, tuple[pixels.RollState, int]] = {}
        self.links: dict[str, PixelsLink] = {}
        self.problems = 0
        self._told: set[str] = set()
        radio.add_advert_handler(self.on_advert)

    def tracker(self, die_id: str) -> PixelsTracker:
        return self.trackers.setdefault(die_id, PixelsTracker(die_id, PIXELS_SOURCE))

    def on_advert(self, device: BLEDevice, adv: AdvertisementData) -> None:
        try:
            ad = read_advert(adv, device.name)
        except DiceProtocolError as exc:
            self.problems += 1
            if device.address not in self._told:
                self._told.add(device.address)
                log.warning("Pixels die %s: %s (packet dropped)", device.address, exc)
            return
        if ad is None:
            return
        die_id = self._ids.get(device.address)
        if ad.identity is not None:
            die_id = die_id_of(ad.identity.pixel_id)
            self._ids[device.address] = die_id
            self.addresses[die_id] = device.address
        if die_id is None:
            return  # the scan response (with the pixel id) has not come yet
        self.legacy[die_id] = ad.legacy
        if die_id in self.connected_ids:
            self._ensure_link(die_id)
            if die_id in self.links and self.links[die_id].connected.is_set():
                return  # the link is the authority while it stands
        self.apply(die_id, ad, adv.rssi)

    def apply(self, die_id: str, ad: PixelsAdvert, rssi: int | None = None) -> None:
        """One decoded advert into the die's tracker; the readings go to the sink."""
        t = self.tracker(die_id)
        s = ad.status
        firmware = ad.identity.firmware if ad.identity else t.firmware
        if t.last is None or firmware != t.firmware:
            t.identify(firmware, s.die_type, s.led_count, s.colorway)
        if self._raw.get(die_id) != (s.roll_state, s.face_index):
            self._raw[die_id] = (s.roll_state, s.face_index)
            t.signal_dbm = rssi  # only with a change: RSSI alone would be a reading per advert
        out = [t.observe(s.roll_state, s.face_index)]
        if t.battery != s.battery_pct / 100 or t.charging != s.charging:
            out.append(t.power(s.battery_pct, s.charging))
        for reading in out:
            if reading is not None:
                self.sink(reading)

    # --- connected mode --------------------------------------------------------------------

    def _ensure_link(self, die_id: str) -> PixelsLink:
        link = self.links.get(die_id)
        if link is None:
            link = PixelsLink(self, die_id, self.addresses[die_id])
            self.links[die_id] = link
            link.start()
        return link

    def connect(self, die_id: str) -> None:
        """Read ``die_id`` over a connection from now on (thread-safe)."""
        self.connected_ids.add(die_id)

    async def blink(self, die_id: str, colour: int = 0x00FF00, count: int = 3) -> bool:
        """Flash the die (pairing: "which one is mine?"). Adverts cannot carry commands, so a
        die read from adverts is connected for the blink and let go again."""
        message = pixels.blink(count=count, duration_ms=300 * count, color=colour)
        link = self.links.get(die_id)
        if link is not None and link.connected.is_set():
            return await link.send(message)
        address = self.addresses.get(die_id)
        if address is None:
            return False
        once = PixelsLink(self, die_id, address)
        device = await self.radio.advertising(address)
        try:
            async with self.radio.connection(
                device, once.name, lambda: None, lambda c: once.setup(c, once.generation)
            ) as c:
                once.client = c
                return await once.send(message, expect=pixels.MessageType.BLINK)
        except RADIO_ERRORS as exc:
            log.warning("could not blink Pixels die %s: %s", die_id, exc)
            return False


class PixelsLink(DieLink[PixelsSource]):
    """A connected Pixels die: WhoAreYou on connect, then RollState and battery as they come."""

    family = "Pixels"

    def __init__(self, source: PixelsSource, die_id: str, address: str) -> None:
        super().__init__(source, die_id, address)
        self._replies: asyncio.Queue[pixels.Message] | None = None

    async def setup(self, client: BleakClient, generation: int) -> None:
        _, notify, write = pixels.uuids(self.source.legacy.get(self.die_id, False))
        self._write_uuid = write
        self._replies = asyncio.Queue()
        self.client = client
        tracker = self.source.tracker(self.die_id)

        def on_message(msg: pixels.Message) -> None:
            reading = None
            if isinstance(msg, pixels.RollStateMessage):
                reading = tracker.observe(msg.state, msg.face_index)
            elif isinstance(msg, pixels.BatteryLevel):
                charging = msg.state in (pixels.BatteryState.CHARGING, pixels.BatteryState.DONE)
                reading = tracker.power(msg.pct, charging)
            if reading is not None:
                self.source.sink(reading)
            if self._replies is not None:
                self._replies.put_nowait(msg)

        await client.start_notify(
            notify, self.notify_handler(generation, pixels.decode_message, on_message)
        )
        await client.write_gatt_char(write, pixels.who_are_you(), response=True)
        who = await self._await(pixels.IAmADie, 5.0)
        if die_id_of(who.pixel_id) != self.die_id:
            raise DiceProtocolError(
                "Pixels IAmADie", b"", f"pixel id {who.pixel_id:08X} answered for die {self.die_id}"
            )
        tracker.identify(who.firmware, who.die_type, who.led_count, who.colorway)
        for reading in (
            tracker.observe(who.roll_state, who.face_index),
            tracker.power(
                who.battery_pct,
                who.battery_state in (pixels.BatteryState.CHARGING, pixels.BatteryState.DONE),
            ),
        ):
            if reading is not None:
                self.source.sink(reading)

    async def _await(self, kind: type[Any], timeout: float, of: int | None = None) -> Any:
        assert self._replies is not None
        async with asyncio.timeout(timeout):
            while True:
                msg = await self._replies.get()
                if isinstance(msg, kind) and (of is None or getattr(msg, "of", None) == of):
                    return msg

    async def send(self, message: bytes, expect: int | None = None) -> bool:
        if not await self.write(self._write_uuid, message, response=True):
            return False
        if expect is None:
            return True
        try:
            await self._await(pixels.Ack, 2.0, expect)
        except TimeoutError:
            return False
        return True


# --- as a dice source ----------------------------------------------------------------------------


def pixels_dice(
    context: SourceContext, *, retry_min: float = 1.0, retry_max: float = 30.0
) -> PixelsDice:
    """The registry's factory (kind ``pixels``): every Pixels die on the table's radio."""
    return PixelsDice(
        context.radio(), context.hub.assignment, retry_min=retry_min, retry_max=retry_max
    )


class PixelsDice(SourceBase):
    """:class:`PixelsSource` as a dice source: the dice whose assignment settings say
    ``"connected": true`` are read over a link, every other Pixels die from its adverts.
    The radio is the table's, started and stopped by the dice service."""

    name = "Pixels"
    needs = Need.RADIO

    def __init__(self, radio: BleRadio, assignment: Assignment, **options: float) -> None:
        self.radio = radio
        connected = {
            r.die_id
            for r in assignment.dice
            if r.source == PIXELS_SOURCE and assignment.setting(r, "connected", False)
        }
        self._feed: Feed | None = None
        self.pixels = PixelsSource(radio, self._sink, connected=connected, **options)

    def _sink(self, reading: DieReading) -> None:
        feed = self._feed
        if feed is not None:
            feed(reading)

    def start(self, feed: Feed) -> None:
        self._feed = feed

    def stop(self) -> None:
        self._feed = None
        for link in list(self.pixels.links.values()):
            link.stop()

    def blink(self, ref: DieRef) -> bool:
        if ref.source != PIXELS_SOURCE or self.radio.loop is None:
            return False
        self.radio.submit(self.pixels.blink(ref.die_id))
        return True
