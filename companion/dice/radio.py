"""Bluetooth in its own asyncio thread: one scanner for every die, serialised connections.

The table service and the web app never wait on the radio: :meth:`BleRadio.start` returns at
once, everything Bluetooth runs on the radio's own event loop, and callers hand it work with
:meth:`BleRadio.submit` (a ``concurrent.futures.Future`` they may ignore). A radio error is a
log line, never an exception in a caller.

Connections follow what BlueZ on a Pi needs (research §4.3-4.4): one connection attempt at a
time (an ``asyncio.Lock``), a budget of connection slots (about 5 stable ones on the Pi's own
radio), a new ``BleakClient`` per attempt through ``bleak-retry-connector``, and per die a
supervisor that waits for the die to advertise again before retrying, with capped exponential
back-off, so a die asleep in the box costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from concurrent.futures import Future
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bleak import BleakClient, BleakScanner
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError
from bleak_retry_connector import establish_connection

from companion.dice.errors import DiceProtocolError

log = logging.getLogger(__name__)

T = TypeVar("T")
M = TypeVar("M")
AdvertHandler = Callable[[BLEDevice, AdvertisementData], None]
Notify = Callable[[object, bytearray], None]
RADIO_ERRORS = (BleakError, TimeoutError, OSError, DiceProtocolError)


class BleRadio:
    """The event-loop thread, the scanner and the connection budget shared by all BLE dice.

    ``scanner_backend`` / ``client_backend`` are bleak's ``backend=`` seam (tests pass the fake
    radio of :mod:`companion.dice.fakeble`). ``slots`` is how many dice may be connected at once.
    """

    def __init__(
        self,
        *,
        scanner_backend: type[Any] | None = None,
        client_backend: type[Any] | None = None,
        slots: int = 5,
        connect_attempts: int = 2,
        scan_retry: float = 5.0,
    ) -> None:
        self.scanner_backend = scanner_backend
        self.client_backend = client_backend
        self.slots = slots
        self.connect_attempts = connect_attempts
        self.scan_retry = scan_retry
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._handlers: list[AdvertHandler] = []
        self._seen: dict[str, tuple[BLEDevice, float]] = {}
        self._heard: dict[str, asyncio.Event] = {}
        self._connect_lock: asyncio.Lock | None = None
        self._slots: asyncio.Semaphore | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._clients: set[BleakClient] = set()
        self.adverts = 0
        self.connects = 0
        self.scanning = threading.Event()

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> BleRadio:
        """Start the radio thread and the scanner; returns at once (idempotent)."""
        if self._thread is not None:
            return self
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            assert self.loop is not None
            asyncio.set_event_loop(self.loop)
            self._connect_lock = asyncio.Lock()
            self._slots = asyncio.Semaphore(self.slots)
            ready.set()
            self.loop.run_forever()

        self._thread = threading.Thread(target=run, name="dice-radio", daemon=True)
        self._thread.start()
        ready.wait()
        self.submit(self._scan())
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Cancel every task, disconnect every die, end the thread."""
        loop, thread = self.loop, self._thread
        if loop is None or thread is None:
            return

        async def shutdown() -> None:
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            for client in list(self._clients):
                with contextlib.suppress(*RADIO_ERRORS):
                    await client.disconnect()
            await loop.shutdown_asyncgens()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shutdown(), loop).result(timeout)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        loop.close()
        self.loop, self._thread = None, None
        self.scanning.clear()

    def submit(self, coro: Coroutine[Any, Any, T]) -> Future[T]:
        """Run ``coro`` on the radio loop; never blocks. The task is cancelled by ``stop``."""
        if self.loop is None:
            coro.close()
            raise RuntimeError("the radio is not started")

        async def tracked() -> T:
            task = asyncio.current_task()
            assert task is not None
            self._tasks.add(task)
            try:
                return await coro
            finally:
                self._tasks.discard(task)

        return asyncio.run_coroutine_threadsafe(tracked(), self.loop)

    def call(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the radio loop soon (thread-safe)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn)

    # --- adverts ---------------------------------------------------------------------------

    def add_advert_handler(self, handler: AdvertHandler) -> None:
        """``handler(device, adv)`` for every advert, on the radio loop. Keep it quick."""
        self._handlers.append(handler)

    async def _scan(self) -> None:
        # One scanner for every die family; it restarts by itself if the adapter goes away.
        while True:
            scanner = BleakScanner(self._on_advert, backend=self.scanner_backend)
            try:
                await scanner.start()
                self.scanning.set()
                await asyncio.Event().wait()  # until cancelled by stop()
            except RADIO_ERRORS as exc:
                log.warning(
                    "Bluetooth scanning failed (%s); trying again in %.0f s", exc, self.scan_retry
                )
            finally:
                self.scanning.clear()
                with contextlib.suppress(*RADIO_ERRORS):
                    await scanner.stop()
            await asyncio.sleep(self.scan_retry)

    def _on_advert(self, device: BLEDevice, adv: AdvertisementData) -> None:
        self.adverts += 1
        self._seen[device.address] = (device, time.monotonic())
        heard = self._heard.get(device.address)
        if heard is not None:
            heard.set()
        for handler in self._handlers:
            try:
                handler(device, adv)
            except Exception:  # a bad handler must not stop the scanner for everyone
                log.exception("advert handler failed for %s", device.address)

    def feed_advert(self, device: BLEDevice, adv: AdvertisementData) -> None:
        """Hand an advert in as if the scanner heard it (for other scanners, replays)."""
        self._on_advert(device, adv)

    async def advertising(self, address: str, since: float = 0.0) -> BLEDevice:
        """The die's BLEDevice once it has advertised after ``since`` (monotonic seconds): a
        die asleep or out of range is waited for here, not hammered with connects."""
        while True:
            seen = self._seen.get(address)
            if seen is not None and seen[1] > since:
                return seen[0]
            heard = self._heard.setdefault(address, asyncio.Event())
            heard.clear()
            await heard.wait()

    # --- connections -----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def connection(
        self,
        device: BLEDevice,
        name: str,
        on_lost: Callable[[], object],
        setup: Callable[[BleakClient], Awaitable[None]],
    ) -> AsyncIterator[BleakClient]:
        """Connect, run ``setup`` (subscribe, greet) while holding the one-attempt lock, and
        hold a connection slot until the block ends; always disconnects."""
        assert self._slots is not None and self._connect_lock is not None

        def lost(_client: BleakClient) -> None:
            on_lost()

        async with self._slots:
            client: BleakClient | None = None
            try:
                async with self._connect_lock:
                    client = await establish_connection(
                        BleakClient,
                        device,
                        name,
                        disconnected_callback=lost,
                        max_attempts=self.connect_attempts,
                        backend=self.client_backend,
                    )
                    self._clients.add(client)
                    self.connects += 1
                    await setup(client)
                yield client
            finally:
                if client is not None:
                    self._clients.discard(client)
                    with contextlib.suppress(*RADIO_ERRORS):
                        await client.disconnect()


class LinkOwner(Protocol):
    """The dice source a link belongs to: its radio, its back-off, its bad-packet count."""

    radio: BleRadio
    retry_min: float
    retry_max: float
    problems: int


S = TypeVar("S", bound=LinkOwner)


class DieLink(Generic[S]):
    """Keeps one die of a source connected for as long as it is wanted, reconnecting after
    every loss.

    Subclasses name their ``family`` and say how to greet the die (:meth:`setup`) and what a
    lost link means (:meth:`lost`). Each connection gets a new *generation*; notifications
    arriving from an older one are dropped, so nothing is counted twice across a reconnect.
    """

    family: ClassVar[str] = "die"  # the first word of the link's name in the logs

    def __init__(self, source: S, die_id: str, address: str) -> None:
        self.source = source
        self.die_id = die_id
        self.radio = source.radio
        self.address = address
        self.name = f"{self.family} {die_id}"
        self.retry_min = source.retry_min
        self.retry_max = source.retry_max
        self.generation = 0
        self.client: BleakClient | None = None
        self.connected = asyncio.Event()
        self.connections = 0
        self.failures = 0
        self._task: Future[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = self.radio.submit(self.run())

    def stop(self) -> None:
        if self._task is not None:
            task, self._task = self._task, None
            self.radio.call(task.cancel)

    async def setup(self, client: BleakClient, generation: int) -> None:
        """Subscribe and greet the die (runs under the radio's connect lock)."""

    def lost(self) -> None:
        """The link dropped (called on the radio loop)."""

    def notify_handler(
        self, generation: int, decode: Callable[[bytes], M], handle: Callable[[M], None]
    ) -> Notify:
        """The notification callback for connection ``generation``: ``handle(decode(data))``.

        A late packet from a link already replaced is dropped, never counted twice; one that
        ``decode`` cannot read is counted in the source's ``problems``, logged and dropped, so
        a bad packet never ends the link.
        """

        def on_notify(_char: object, data: bytearray) -> None:
            if generation != self.generation:
                return
            try:
                msg = decode(bytes(data))
            except DiceProtocolError as exc:
                self.source.problems += 1
                log.warning("%s: %s (packet dropped)", self.name, exc)
                return
            handle(msg)

        return on_notify

    async def run(self) -> None:
        delay = self.retry_min
        since = 0.0
        while True:
            device = await self.radio.advertising(self.address, since)
            lost = asyncio.Event()
            self.generation += 1
            generation = self.generation
            # The disconnect callback may come from another thread on some backends.
            on_lost = functools.partial(asyncio.get_running_loop().call_soon_threadsafe, lost.set)

            async def greet(client: BleakClient, generation: int = generation) -> None:
                await self.setup(client, generation)

            try:
                async with self.radio.connection(device, self.name, on_lost, greet) as client:
                    self.client = client
                    self.connected.set()
                    self.connections += 1
                    delay = self.retry_min
                    log.info("%s connected (%s)", self.name, self.address)
                    await lost.wait()
                    log.info("%s disconnected; waiting for it to advertise", self.name)
            except RADIO_ERRORS as exc:
                self.failures += 1
                log.warning(
                    "%s (%s): %s; retrying in %.1f s",
                    self.name,
                    self.address,
                    exc or type(exc).__name__,
                    delay,
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max)
            finally:
                self.generation += 1  # anything still arriving from that link is stale
                self.client = None
                self.connected.clear()
                self.lost()
            since = time.monotonic()

    async def write(self, char: str, data: bytes, response: bool = False) -> bool:
        """Write if connected; False (and a log line) otherwise."""
        client = self.client
        if client is None or not client.is_connected:
            return False
        try:
            await client.write_gatt_char(char, data, response=response)
        except RADIO_ERRORS as exc:
            log.warning("%s: could not write %s: %s", self.name, data.hex(" "), exc)
            return False
        return True
