"""A room full of simulated smart dice behind bleak's ``backend=`` seam: no BlueZ, no radio.

Our machines have no Bluetooth in the kernel, so tests, the benchmark and demos put this fake
where the radio would be. Everything above it is the real code: :class:`BleRadio`'s scanner
and connections (through ``bleak-retry-connector``), the sources, trackers and the hub. The
simulated dice speak the real protocol bytes, built with the same codecs' encoders:

- :class:`FakePixel` advertises its manufacturer and service data every ``interval`` and on
  every change, stops advertising while connected (as the firmware does), answers WhoAreYou,
  RequestBatteryLevel and Blink, and notifies RollState while connected.
- :class:`FakeGoDice` advertises its ``GoDice_`` name and, connected, notifies ``R`` and then
  ``S`` + a slightly noisy gravity vector, answers ``Bat`` and ``Col``.
- :class:`FakeHM10` is a DIY die behind an HM-10 module: it advertises service FFE0 (not while
  connected: the module takes one central), forwards the die's UART frames as FFE1
  notifications of at most 20 bytes cut at arbitrary points, and hands our writes to the die.

Dice sleep (stop advertising, drop their link), wake, and drop links on request; a script of
raw packets can be replayed as recorded (:meth:`FakeAir.replay`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, cast

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError

from companion.dice import godice, pixels
from companion.die import protocol as diy
from companion.die.ble_source import HM10_CHAR, HM10_CHUNK, HM10_SERVICE

Notify = Callable[[bytearray], None]


class FakeDevice:
    """One simulated peripheral in a :class:`FakeAir`."""

    name = "device"

    def __init__(self, address: str, rssi: int = -60) -> None:
        self.address = address
        self.rssi = rssi
        self.awake = True
        self.air: FakeAir | None = None
        self.client: FakeClient | None = None
        self.subscribers: dict[str, Notify] = {}
        self.writes: list[tuple[str, bytes]] = []
        self.connections = 0
        self.refuse_connections = 0  # the next N connection attempts fail (interference)

    # Overridden per family.
    def advertisement(self) -> AdvertisementData | None:
        return None

    def gatt(self) -> list[tuple[str, list[tuple[str, list[str]]]]]:
        return []

    def on_write(self, uuid: str, data: bytes) -> None:
        pass

    # Shared behaviour.
    def changed(self) -> None:
        """Advertise now (the firmware updates its advert on every change)."""
        if self.air is not None:
            self.air.broadcast(self)

    def notify(self, uuid: str, data: bytes) -> None:
        callback = self.subscribers.get(uuid)
        if self.client is not None and callback is not None:
            callback(bytearray(data))

    def drop(self) -> None:
        """The link drops (out of range, interference)."""
        client, self.client = self.client, None
        self.subscribers.clear()
        if client is not None:
            client.lost()
        self.changed()

    def sleep(self) -> None:
        """Asleep: drops its link and stops advertising until woken."""
        self.awake = False
        self.drop()

    def wake(self) -> None:
        self.awake = True
        self.changed()


class FakePixel(FakeDevice):
    """A Pixels d6 (current firmware unless ``legacy``)."""

    def __init__(
        self,
        address: str,
        pixel_id: int,
        *,
        legacy: bool = False,
        firmware: int = 1_732_000_000,
        battery: int = 80,
        face: int = 1,
        rssi: int = -60,
    ) -> None:
        super().__init__(address, rssi)
        self.pixel_id = pixel_id
        self.legacy = legacy
        self.firmware = firmware
        self.battery = battery
        self.state = pixels.RollState.ON_FACE
        self.face_index = face - 1
        self.name = f"Pixel{pixel_id & 0xFFFF:04X}"

    def status(self) -> pixels.AdvertStatus:
        return pixels.AdvertStatus(
            6, pixels.DieType.D6, "onyxBlack", self.state, self.face_index, self.battery, False
        )

    def advertisement(self) -> AdvertisementData | None:
        if not self.awake or self.client is not None:
            return None  # connected: the firmware stops its custom adverts
        company = pixels.LEGACY_COMPANY_ID if self.legacy else pixels.COMPANY_ID
        service = pixels.LEGACY_SERVICE if self.legacy else pixels.SERVICE
        identity = pixels.AdvertIdentity(self.pixel_id, self.firmware)
        return AdvertisementData(
            self.name,
            {company: pixels.encode_manufacturer_data(self.status())},
            {pixels.INFO_SERVICE_DATA: pixels.encode_service_data(identity)},
            ["0000180a-0000-1000-8000-00805f9b34fb", service],
            None,
            self.rssi,
            (),
        )

    def gatt(self) -> list[tuple[str, list[tuple[str, list[str]]]]]:
        service, notify, write = pixels.uuids(self.legacy)
        return [(service, [(notify, ["notify"]), (write, ["write", "write-without-response"])])]

    def _notify(self, data: bytes) -> None:
        self.notify(pixels.uuids(self.legacy)[1], data)

    def set_state(self, state: pixels.RollState, face: int | None = None) -> None:
        self.state = state
        if face is not None:
            self.face_index = face - 1
        self._notify(pixels.encode_roll_state(self.state, self.face_index))
        self.changed()

    async def roll(self, face: int, duration: float = 0.05) -> None:
        """Picked up, thrown, tumbling, then at rest on ``face``."""
        self.set_state(pixels.RollState.HANDLING)
        self.set_state(pixels.RollState.ROLLING, random.randint(1, 6))
        await asyncio.sleep(duration)
        self.set_state(pixels.RollState.ROLLED, face)

    def on_write(self, uuid: str, data: bytes) -> None:
        kind, _ = pixels.decode_command(data)
        if kind == pixels.MessageType.WHO_ARE_YOU:
            self._notify(
                pixels.encode_i_am_a_die(
                    pixels.IAmADie(
                        self.pixel_id,
                        pixels.DieType.D6,
                        6,
                        "onyxBlack",
                        self.firmware,
                        self.state,
                        self.face_index,
                        self.battery,
                        pixels.BatteryState.OK,
                    ),
                    legacy=self.legacy,
                )
            )
        elif kind == pixels.MessageType.REQUEST_ROLL_STATE:
            self._notify(pixels.encode_roll_state(self.state, self.face_index))
        elif kind == pixels.MessageType.REQUEST_BATTERY_LEVEL:
            self._notify(pixels.encode_battery_level(self.battery))
        elif kind == pixels.MessageType.BLINK:
            self._notify(bytes([pixels.MessageType.BLINK_ACK]))


class FakeGoDice(FakeDevice):
    """A GoDice in a d6 shell (or ``shell``)."""

    def __init__(
        self,
        address: str,
        *,
        colour: int = 1,
        battery: int = 90,
        shell: godice.Shell = godice.Shell.D6,
        rssi: int = -60,
        seed: int = 0,
    ) -> None:
        super().__init__(address, rssi)
        self.colour = colour
        self.battery = battery
        self.shell = shell
        self.rng = random.Random(seed)
        self.name = f"GoDice_{address.replace(':', '')[-6:]}_{'KRGBYO'[colour]}_v04"
        self.inits: list[bytes] = []

    def advertisement(self) -> AdvertisementData | None:
        if not self.awake:
            return None
        return AdvertisementData(self.name, {}, {}, [godice.SERVICE], None, self.rssi, ())

    def gatt(self) -> list[tuple[str, list[tuple[str, list[str]]]]]:
        return [
            (
                godice.SERVICE,
                [(godice.WRITE, ["write", "write-without-response"]), (godice.NOTIFY, ["notify"])],
            )
        ]

    def send(self, msg: godice.Notification) -> None:
        self.notify(godice.NOTIFY, godice.encode_notification(msg))

    def vector(self, face: int, noise: int = 6) -> godice.Vector:
        x, y, z = godice.vector_for_face(face, self.shell)
        n = self.rng.randint
        return (x + n(-noise, noise), y + n(-noise, noise), z + n(-noise, noise))

    async def roll(
        self, face: int, duration: float = 0.05, stable: godice.Stable = godice.Stable.STABLE
    ) -> None:
        self.send(godice.RollStarted())
        await asyncio.sleep(duration / 2)
        self.send(godice.Settled(godice.Stable.FAKE, self.vector(self.rng.randint(1, 6))))
        await asyncio.sleep(duration / 2)
        self.send(godice.Settled(stable, self.vector(face)))

    def on_write(self, uuid: str, data: bytes) -> None:
        command, _ = godice.decode_command(data)
        if command == 0x19:
            self.inits.append(data)
        elif data == godice.REQUEST_BATTERY:
            self.send(godice.Battery(self.battery))
        elif data == godice.REQUEST_COLOUR:
            self.send(godice.Colour(self.colour))


class FakeHM10(FakeDevice):
    """A DIY die (configured id ``die_id``) behind an HM-10 module. ``roll(face)`` sends what
    the firmware sends for a roll; ``commands`` are the frames we wrote to it, decoded."""

    name = "HMSoft"

    def __init__(
        self,
        address: str,
        die_id: int = 7,
        *,
        colour: str = "white",
        battery: int = 80,
        rssi: int = -60,
        seed: int = 0,
    ) -> None:
        super().__init__(address, rssi)
        self.die_id = die_id
        self.colour = colour
        self.battery = battery
        self.rolls = 0
        self.face: int | None = 1
        self.rng = random.Random(seed)
        self.commands: list[diy.Command] = []
        self._decoder = diy.FrameDecoder()
        self._seq = 0

    def advertisement(self) -> AdvertisementData | None:
        if not self.awake or self.client is not None:
            return None
        return AdvertisementData(self.name, {}, {}, [HM10_SERVICE], None, self.rssi, ())

    def gatt(self) -> list[tuple[str, list[tuple[str, list[str]]]]]:
        return [(HM10_SERVICE, [(HM10_CHAR, ["read", "write-without-response", "notify"])])]

    def uart(self, data: bytes) -> None:
        """Bytes from the die's TX pin: notified in pieces of 1 to 20 bytes."""
        i = 0
        while i < len(data):
            n = self.rng.randint(1, HM10_CHUNK)
            self.notify(HM10_CHAR, data[i : i + n])
            i += n

    def report(self, state: diy.WireState) -> None:
        """One READING frame with the die's state now (the firmware repeats it every 2 s)."""
        self._seq = (self._seq + 1) & 0xFF
        face = self.face if state is diy.WireState.SETTLED else None
        self.uart(
            diy.encode_frame(
                diy.encode_message(
                    diy.Reading(
                        self._seq, self.die_id, state, face, self.rolls, self.battery, self.colour
                    )
                )
            )
        )

    async def roll(self, face: int, duration: float = 0.05) -> None:
        """Thrown, tumbling, then at rest on ``face`` with the next roll count."""
        self.report(diy.WireState.ROLLING)
        await asyncio.sleep(duration)
        self.rolls += 1
        self.face = face
        self.report(diy.WireState.SETTLED)

    def on_write(self, uuid: str, data: bytes) -> None:
        assert uuid == HM10_CHAR and len(data) <= HM10_CHUNK, "the HM-10 forwards 20 bytes"
        for msg in self._decoder.feed(data):
            if isinstance(msg, diy.Command):
                self.commands.append(msg)


class FakeAir:
    """The room the fake scanner listens to and the fake clients connect through.

    bleak instantiates backends itself, so :attr:`scanner_backend` and :attr:`client_backend`
    are subclasses bound to this air. ``interval`` is how often every awake die re-advertises.
    """

    def __init__(self, devices: Iterable[FakeDevice] = (), interval: float = 0.05) -> None:
        self.devices: dict[str, FakeDevice] = {}
        self.interval = interval
        self.scanners: list[FakeScanner] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connect_attempts = 0
        self.connecting = 0  # attempts in progress now, and the most ever at once
        self.most_connecting = 0
        for device in devices:
            self.add(device)
        air = self
        self.scanner_backend: type[FakeScanner] = type("FakeScanner", (FakeScanner,), {"air": air})
        self.client_backend: type[FakeClient] = type("FakeClient", (FakeClient,), {"air": air})

    def add(self, device: FakeDevice) -> FakeDevice:
        device.air = self
        self.devices[device.address] = device
        return device

    def broadcast(self, device: FakeDevice) -> None:
        adv = device.advertisement()
        if adv is None:
            return
        for scanner in list(self.scanners):
            scanner.hear(device, adv)

    def run(self, coro: Any) -> Any:
        """Run ``coro`` on the radio's loop from another thread (a test, the benchmark)."""
        assert self.loop is not None, "no fake scanner has started yet"
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def do(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` on the radio's loop (drop, sleep, wake) from another thread."""
        assert self.loop is not None
        self.loop.call_soon_threadsafe(fn)

    async def replay(
        self, address: str, script: Iterable[tuple[float, str, bytes | dict[int, bytes] | None]]
    ) -> None:
        """Play recorded packets for one die: ``(delay, "adv", {company: data})``,
        ``(delay, "notify", data)`` on its notify characteristic, or ``(delay, "drop", None)``.
        """
        device = self.devices[address]
        for delay, kind, payload in script:
            await asyncio.sleep(delay)
            if kind == "adv":
                assert isinstance(payload, dict)
                base = device.advertisement()
                service_data = base.service_data if base else {}
                uuids = base.service_uuids if base else []
                adv = AdvertisementData(
                    device.name, payload, service_data, uuids, None, device.rssi, ()
                )
                for scanner in list(self.scanners):
                    scanner.hear(device, adv)
            elif kind == "notify":
                assert isinstance(payload, bytes | bytearray)
                for callback in list(device.subscribers.values()):
                    callback(bytearray(payload))
            elif kind == "drop":
                device.drop()


class FakeScanner(BaseBleakScanner):
    air: ClassVar[FakeAir]

    def __init__(
        self,
        detection_callback: Any,
        service_uuids: Any = None,
        scanning_mode: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(detection_callback, service_uuids)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.air.loop = asyncio.get_running_loop()
        self.air.scanners.append(self)
        self._task = asyncio.ensure_future(self._advertise())

    async def stop(self) -> None:
        if self in self.air.scanners:
            self.air.scanners.remove(self)
        if self._task is not None:
            self._task.cancel()

    def hear(self, device: FakeDevice, adv: AdvertisementData) -> None:
        ble = self.create_or_update_device(device.address, device.address, device.name, None, adv)
        self.call_detection_callbacks(ble, adv)

    async def _advertise(self) -> None:
        while True:
            for device in list(self.air.devices.values()):
                self.air.broadcast(device)
            await asyncio.sleep(self.air.interval)


class FakeClient(BaseBleakClient):
    air: ClassVar[FakeAir]

    def __init__(self, address_or_ble_device: Any, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, **kwargs)
        self.device = self.air.devices.get(self.address)
        self._connected = False

    @property
    def name(self) -> str:
        return self.device.name if self.device else self.address

    @property
    def mtu_size(self) -> int:
        return 128

    @property
    def is_connected(self) -> bool:
        return self._connected

    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        air = self.air
        air.connect_attempts += 1
        air.connecting += 1
        air.most_connecting = max(air.most_connecting, air.connecting)
        try:
            await asyncio.sleep(0.005)  # a connection takes a while; others may try meanwhile
            self._connect()
        finally:
            air.connecting -= 1

    def _connect(self) -> None:
        device = self.device
        if device is None or not device.awake:
            raise BleakError(f"Device with address {self.address} was not found")
        if device.refuse_connections > 0:
            device.refuse_connections -= 1
            raise BleakError("le-connection-abort-by-local")
        if device.client is not None:
            raise BleakError("Connection Rejected: the die has one central already")
        services = BleakGATTServiceCollection()
        handle = 0x10
        for service_uuid, chars in device.gatt():
            service = BleakGATTService(None, handle, service_uuid)
            services.add_service(service)
            for uuid, props in chars:
                handle += 2
                # The fake dice list bleak's own property names ("notify", "write").
                properties = cast("list[Any]", props)
                services.add_characteristic(
                    BleakGATTCharacteristic(None, handle, uuid, properties, lambda: 125, service)
                )
            handle += 0x10
        self.services = services
        device.client = self
        device.connections += 1
        self._connected = True

    def lost(self) -> None:
        if self._connected:
            self._connected = False
            if self._disconnected_callback:
                self._disconnected_callback()

    async def disconnect(self) -> None:
        device = self.device
        self._connected = False
        if device is not None and device.client is self:
            device.client = None
            device.subscribers.clear()

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        raise BleakError("Pairing not supported!")

    async def unpair(self) -> None:
        pass

    async def read_gatt_char(self, characteristic: Any, **kwargs: Any) -> bytearray:
        raise BleakError("no readable characteristics")

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        raise BleakError("no descriptors")

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        raise BleakError("no descriptors")

    async def start_notify(self, characteristic: Any, callback: Notify, **kwargs: Any) -> None:
        if not self._connected or self.device is None:
            raise BleakError("Not connected")
        self.device.subscribers[characteristic.uuid] = callback

    async def stop_notify(self, characteristic: Any) -> None:
        if self.device is not None:
            self.device.subscribers.pop(characteristic.uuid, None)

    async def write_gatt_char(self, characteristic: Any, data: Any, response: bool) -> None:
        if not self._connected or self.device is None:
            raise BleakError("Not connected")
        self.device.writes.append((characteristic.uuid, bytes(data)))
        self.device.on_write(characteristic.uuid, bytes(data))
