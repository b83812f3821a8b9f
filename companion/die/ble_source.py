"""A DIY die with an HM-10 module, read over Bluetooth LE with bleak.

The HM-10 is a transparent serial bridge: what the die's UART sends arrives as notifications of
characteristic FFE1 (in pieces of at most 20 bytes, cut wherever the module's buffer happened to
be), and what we write to FFE1 comes out of the module's TX pin. So the frames are exactly the
serial ones and the same :class:`FrameDecoder` reads them; only the transport differs.

:class:`BleDieSource` is an async iterator of :class:`DieReading` for one die. It reconnects by
itself (new ``BleakClient`` each time, capped back-off) and never lets a radio error escape
into the dice layer; a lost link is one log line. ``scanner_backend`` and ``client_backend`` are
bleak's own ``backend=`` seam, which is how the tests run it against a fake HM-10 that speaks
the module's real bytes.
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
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError

from companion.dice.reading import DieReading

from .protocol import (
    Ack,
    AnswerWait,
    Command,
    FrameDecoder,
    Info,
    Message,
    Problem,
    ReadingFilter,
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


async def discover_hm10(
    timeout: float = 5.0, *, scanner_backend: type[Any] | None = None
) -> list[tuple[BLEDevice, AdvertisementData]]:
    """Every HM-10 module in range. Which of them are dice, only a STATUS tells."""
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
        scanner_backend: type[Any] | None = None,
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
        if self.address is not None:
            wanted = self.address.lower()
            return await BleakScanner.find_device_by_filter(
                lambda d, a: d.address.lower() == wanted,
                timeout=self._scan_timeout,
                backend=self._scanner_backend,
            )
        return await BleakScanner.find_device_by_filter(
            is_hm10, timeout=self._scan_timeout, backend=self._scanner_backend
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
        decoder = FrameDecoder()

        def on_notify(_char: object, data: bytearray) -> None:
            for item in decoder.feed(bytes(data)):
                if isinstance(item, Problem):
                    self.problems += 1
                    log.warning("bad data from HM-10 die %s: %s", device.address, item.detail)
                    continue
                kept = sort_message(item, self.source, self._filter)
                if isinstance(kept, DieReading):
                    queue.put_nowait(kept)
                elif kept is not None:
                    with contextlib.suppress(asyncio.QueueFull):
                        self.replies.put_nowait(kept)

        await client.start_notify(HM10_CHAR, on_notify)
        self.connects += 1
        self.connected.set()
        log.info("HM-10 die connected: %s (%s)", device.address, device.name)

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
