"""A DIY die with an HM-10 module, read over Bluetooth LE with bleak.

The HM-10 is a transparent serial bridge: what the die's UART sends arrives as notifications of
characteristic FFE1 (in pieces of at most 20 bytes, cut wherever the module's buffer happened to
be), and what we write to FFE1 comes out of the module's TX pin. So the frames are exactly the
serial ones and the same :class:`FrameDecoder` reads them; only the transport differs.

:class:`BleDice` is what a game reads (kind ``diy-ble``): the DIY dice on the table's one
Bluetooth radio (:class:`~companion.dice.radio.BleRadio`), so they share its scanner, its one
connection attempt at a time and its connection slots with Pixels and GoDice, and reconnect
as those do (wait for the module to advertise again, then connect). An HM-10 takes one
connection, so each die holds one of the radio's slots (about 5 on a Pi).

:class:`BleDieSource` is the stand-alone transport for ``companion die`` (no radio thread): an
async iterator of :class:`DieReading` for one die that reconnects by itself (new
``BleakClient`` each time, capped back-off) and never lets a radio error escape; a lost link
is one log line. ``scanner_backend`` and ``client_backend`` are bleak's own ``backend=`` seam,
which is how the tests run both against a fake HM-10 that speaks the module's real bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from typing import Any

from bleak import BleakClient, BleakScanner
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.exc import BleakError

from companion.dice.assignment import DieRef
from companion.dice.radio import BleRadio, DieLink
from companion.dice.reading import DieReading
from companion.dice.source import Feed, Need, SourceBase
from companion.dice.sources import SourceContext

from .protocol import (
    Ack,
    AnswerWait,
    Command,
    FrameDecoder,
    Info,
    Message,
    Problem,
    ReadingFilter,
    blink_command,
    die_number,
    sort_message,
)

log = logging.getLogger(__name__)

HM10_SERVICE = "0000ffe0-0000-1000-8000-00805f9b34fb"
HM10_CHAR = "0000ffe1-0000-1000-8000-00805f9b34fb"  # notify + write-without-response
HM10_CHUNK = 20  # the module forwards at most 20 bytes per write (ATT MTU 23)
SOURCE_NAME = "diy-ble"


def is_hm10(device: BLEDevice, adv: AdvertisementData) -> bool:
    """An HM-10 (or a CC41/MLT-BT05 clone): it advertises service FFE0."""
    return HM10_SERVICE in [u.lower() for u in adv.service_uuids]


Notify = Callable[[object, bytearray], None]


def hm10_notify(
    where: str,
    source: str,
    readings: ReadingFilter,
    on_reading: Callable[[DieReading], None],
    on_reply: Callable[[Message], None],
    on_problem: Callable[[Problem], None],
) -> Notify:
    """The FFE1 notification handler for one connection: the notifications are pieces of the
    die's serial stream, so one :class:`FrameDecoder` per connection (a half frame dies with
    the link) puts them back together; a bad frame is ``on_problem`` and a log line, never an
    exception on the radio's loop."""
    decoder = FrameDecoder()

    def on_notify(_char: object, data: bytearray) -> None:
        for item in decoder.feed(bytes(data)):
            if isinstance(item, Problem):
                on_problem(item)
                log.warning("bad data from HM-10 die %s: %s", where, item.detail)
                continue
            kept = sort_message(item, source, readings)
            if isinstance(kept, DieReading):
                on_reading(kept)
            elif kept is not None:
                on_reply(kept)

    return on_notify


async def discover_hm10(
    timeout: float = 5.0, *, scanner_backend: type[BaseBleakScanner] | None = None
) -> list[tuple[BLEDevice, AdvertisementData]]:
    """Every HM-10 module in range. Which of them are dice, only a STATUS tells."""
    if scanner_backend is None:
        found = await BleakScanner.discover(timeout=timeout, return_adv=True)
    else:  # a test's fake backend
        found = await BleakScanner.discover(
            timeout=timeout, return_adv=True, backend=scanner_backend
        )
    return [(d, a) for d, a in found.values() if is_hm10(d, a)]


class BleDieSource:
    """Readings from one HM-10 die, as an async iterator that survives disconnects.

    ``address`` is the module's address (from ``companion die list --ble``); None takes the
    first HM-10 seen.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        source: str = SOURCE_NAME,
        scanner_backend: type[BaseBleakScanner] | None = None,
        client_backend: type[Any] | None = None,
        scan_timeout: float = 10.0,
        connect_timeout: float = 20.0,
        retry_min: float = 1.0,
        retry_max: float = 30.0,
    ) -> None:
        self.address = address
        self.source = source
        self._scanner_backend = scanner_backend
        self._client_backend = client_backend
        self._scan_timeout = scan_timeout
        self._connect_timeout = connect_timeout
        self._retry_min = retry_min
        self._retry_max = retry_max
        self._filter = ReadingFilter()
        self._client: BleakClient | None = None
        self.replies: asyncio.Queue[Message] = asyncio.Queue(maxsize=512)
        self.connected = asyncio.Event()
        self.problems = 0
        self.connects = 0

    def __aiter__(self) -> AsyncIterator[DieReading]:
        return self.readings()

    async def _find(self) -> BLEDevice | None:
        wanted = self.address.lower() if self.address is not None else None

        def fits(device: BLEDevice, advert: AdvertisementData) -> bool:
            return device.address.lower() == wanted if wanted else is_hm10(device, advert)

        if self._scanner_backend is None:
            return await BleakScanner.find_device_by_filter(fits, timeout=self._scan_timeout)
        return await BleakScanner.find_device_by_filter(  # a test's fake backend
            fits, timeout=self._scan_timeout, backend=self._scanner_backend
        )

    async def readings(self) -> AsyncIterator[DieReading]:
        """Yield a DieReading for every change the die reports, forever, reconnecting."""
        delay = self._retry_min
        while True:
            queue: asyncio.Queue[DieReading] = asyncio.Queue()
            lost = asyncio.Event()
            try:
                device = await self._find()
                if device is None:
                    log.warning("no HM-10 die %s in range; scanning again", self.address or "")
                else:
                    await self._connect(device, queue, lost)
                    delay = self._retry_min
                    while not (lost.is_set() and queue.empty()):
                        getter = asyncio.ensure_future(queue.get())
                        waiter = asyncio.ensure_future(lost.wait())
                        try:
                            await asyncio.wait(
                                {getter, waiter}, return_when=asyncio.FIRST_COMPLETED
                            )
                        finally:
                            # Cancelled from outside (the consumer stopped): leave no task behind.
                            waiter.cancel()
                            if not getter.done():
                                getter.cancel()
                        if getter.done() and not getter.cancelled():
                            yield getter.result()
                    log.warning("HM-10 die %s disconnected; reconnecting", device.address)
            except (BleakError, TimeoutError, OSError) as exc:
                log.warning("HM-10 die %s: %s; retrying in %.0f s", self.address or "", exc, delay)
            finally:
                await self._drop()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self._retry_max)

    async def _connect(
        self, device: BLEDevice, queue: asyncio.Queue[DieReading], lost: asyncio.Event
    ) -> None:
        # A new client per attempt: BlueZ misbehaves when one is reused across connections.
        client = BleakClient(
            device,
            disconnected_callback=lambda _c: lost.set(),
            timeout=self._connect_timeout,
            backend=self._client_backend,
        )
        await client.connect()
        self._client = client
        await client.start_notify(
            HM10_CHAR,
            hm10_notify(
                device.address,
                self.source,
                self._filter,
                queue.put_nowait,
                self._reply,
                self._problem,
            ),
        )
        self.connects += 1
        self.connected.set()
        log.info("HM-10 die connected: %s (%s)", device.address, device.name)

    def _reply(self, msg: Message) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.replies.put_nowait(msg)

    def _problem(self, _problem: Problem) -> None:
        self.problems += 1

    async def _drop(self) -> None:
        self.connected.clear()
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(BleakError, TimeoutError, OSError):
                await client.disconnect()

    async def send(self, command: Command) -> bool:
        """Write a command in 20-byte pieces (what the HM-10 forwards); False if not connected."""
        client = self._client
        if client is None or not client.is_connected:
            return False
        frame = command.frame()
        try:
            for i in range(0, len(frame), HM10_CHUNK):
                await client.write_gatt_char(HM10_CHAR, frame[i : i + HM10_CHUNK], response=False)
        except (BleakError, TimeoutError, OSError) as exc:
            log.warning("could not send %s over BLE: %s", command.type.name, exc)
            return False
        return True


class BleLink:
    """Synchronous request/response over a :class:`BleDieSource`, for ``companion die``.

    The source runs on an event loop in a background thread; ``request`` blocks the caller
    (the command line) until the die answers. Same contract as ``SerialLink``.
    """

    def __init__(self, src: BleDieSource) -> None:
        self.src = src
        self._seq = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._pump: Future[None] = asyncio.run_coroutine_threadsafe(self._consume(), self._loop)
        self.readings: list[DieReading] = []

    async def _consume(self) -> None:
        async for reading in self.src:
            self.readings.append(reading)

    def close(self) -> None:
        """Stop the source, disconnect, and end the loop thread with nothing left pending."""

        async def shutdown() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.src._drop()
            await self._loop.shutdown_asyncgens()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shutdown(), self._loop).result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()

    def request(
        self, make: Callable[[int], Command], *, timeout: float = 1.5, attempts: int = 3
    ) -> tuple[Ack, Info | None]:
        """Send ``make(seq)``; wait for its ACK (and INFO after a STATUS). Retries if lost."""
        return asyncio.run_coroutine_threadsafe(
            self._request(make, timeout, attempts), self._loop
        ).result()

    async def _request(
        self, make: Callable[[int], Command], timeout: float, attempts: int
    ) -> tuple[Ack, Info | None]:
        from .serial_source import CommandTimeout

        try:
            await asyncio.wait_for(self.src.connected.wait(), self.src._scan_timeout + 25)
        except TimeoutError:
            raise CommandTimeout(f"could not connect to HM-10 die {self.src.address}") from None
        for _ in range(attempts):
            self._seq = (self._seq + 1) & 0xFF
            command = make(self._seq)
            await self.src.send(command)
            wait = AnswerWait(command)
            deadline = time.monotonic() + timeout
            while (left := deadline - time.monotonic()) > 0:
                try:
                    msg = await asyncio.wait_for(self.src.replies.get(), left)
                except TimeoutError:
                    break
                if (answer := wait.take(msg)) is not None:
                    return answer
        raise CommandTimeout("the die did not answer over BLE")


# --- on the table's radio, as a dice source ------------------------------------------------------


def ble_dice(
    context: SourceContext,
    address: str | None = None,
    *,
    retry_min: float = 1.0,
    retry_max: float = 30.0,
) -> BleDice:
    """The registry's factory (kind ``diy-ble``): the DIY die whose HM-10 has ``address``, or
    with ``auto`` (or None) every HM-10 the radio hears. Whose dice they are, the pairing
    says, as for the serial dice."""
    return BleDice(
        context.radio(),
        None if address in (None, "auto") else address,
        retry_min=retry_min,
        retry_max=retry_max,
    )


class BleDice(SourceBase):
    """DIY dice over Bluetooth LE on the table's radio: one :class:`Hm10Link` per module heard
    (or only the one at ``address``), kept connected, its frames decoded into readings."""

    needs = Need.RADIO

    def __init__(
        self,
        radio: BleRadio,
        address: str | None = None,
        *,
        source: str = SOURCE_NAME,
        retry_min: float = 1.0,
        retry_max: float = 30.0,
    ) -> None:
        self.radio = radio
        self.address = address.upper() if address else None
        self.source = source
        self.name = f"DIY die {address}" if address else "DIY dice over Bluetooth"
        self.retry_min, self.retry_max = retry_min, retry_max
        self.links: dict[str, Hm10Link] = {}  # by module address
        self.where: dict[str, Hm10Link] = {}  # die name (diy-7) -> the link it was heard on
        self.problems = 0
        self.readings = ReadingFilter()
        self._feed: Feed | None = None
        self._seq = 0
        radio.add_advert_handler(self._on_advert)

    def _on_advert(self, device: BLEDevice, adv: AdvertisementData) -> None:
        if self._feed is None or not is_hm10(device, adv):
            return
        if self.address is not None and device.address.upper() != self.address:
            return
        if device.address not in self.links:
            link = Hm10Link(self, device.address, device.address)
            self.links[device.address] = link
            link.start()

    def start(self, feed: Feed) -> None:
        self._feed = feed

    def stop(self) -> None:
        self._feed = None
        for link in list(self.links.values()):
            link.stop()
        self.links.clear()

    def heard(self, reading: DieReading, link: Hm10Link) -> None:
        """A reading from ``link`` (on the radio's loop): into the feed."""
        self.where[reading.die_id] = link
        feed = self._feed
        if feed is not None:
            feed(reading)

    def blink(self, ref: DieRef) -> bool:
        link = self.where.get(ref.die_id)
        number = die_number(ref.die_id)
        if ref.source != self.source or link is None or number is None or self.radio.loop is None:
            return False
        self._seq = (self._seq + 1) & 0xFF
        self.radio.submit(link.send(blink_command(self._seq, 3, number)))
        return True


class Hm10Link(DieLink[BleDice]):
    """One HM-10 kept connected through the radio: notifications on FFE1 into readings;
    commands written in the 20-byte pieces the module forwards."""

    family = "HM-10 die"

    async def setup(self, client: BleakClient, generation: int) -> None:
        source = self.source

        def on_reading(reading: DieReading) -> None:
            if generation == self.generation:  # nothing late from a link already replaced
                source.heard(reading, self)

        def on_problem(_problem: Problem) -> None:
            source.problems += 1

        self.client = client
        await client.start_notify(
            HM10_CHAR,
            hm10_notify(
                self.address,
                source.source,
                source.readings,
                on_reading,
                lambda _reply: None,
                on_problem,
            ),
        )

    async def send(self, command: Command) -> bool:
        frame = command.frame()
        for i in range(0, len(frame), HM10_CHUNK):
            if not await self.write(HM10_CHAR, frame[i : i + HM10_CHUNK]):
                return False
        return True
