"""The HM-10 source through bleak, with a fake bleak backend where the radio would be.

Our machines have no Bluetooth in the kernel, so the fake sits at the lowest seam bleak offers
(``backend=`` on BleakScanner and BleakClient) and behaves as an HM-10 does: it advertises
service FFE0, forwards the die's UART bytes as FFE1 notifications of at most 20 bytes cut at
arbitrary points, forwards our writes to the die, and drops the link when told to. Everything
above it (scanning, connecting, notifications, reconnecting, the decoder) is the real code.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection

from companion.die.ble_source import (
    HM10_CHAR,
    HM10_CHUNK,
    HM10_SERVICE,
    BleDieSource,
    BleLink,
    discover_hm10,
)
from companion.die.protocol import (
    Ack,
    AckStatus,
    Command,
    FrameDecoder,
    Info,
    Reading,
    WireState,
    blink_command,
    encode_frame,
    encode_message,
    status_command,
)

from .conftest import FIRMWARE, collapse, parse_trace_expectations, simulate


class FakeHM10:
    """One HM-10 with a die behind it. ``sessions`` holds the UART bytes each connection sees;
    a session that ends makes the module drop the link (out of range, battery sagging)."""

    def __init__(self, address: str, sessions: list[bytes], seed: int = 1) -> None:
        self.address = address
        self.sessions = list(sessions)
        self.rng = random.Random(seed)
        self.writes: list[bytes] = []
        self.answer: Callable[[Command], bytes] | None = None
        self.connections = 0


class FakeScanner(BaseBleakScanner):
    modules: ClassVar[list[FakeHM10]] = []
    others: ClassVar[list[str]] = ["11:22:33:44:55:66"]  # a heart-rate strap, say

    def __init__(
        self, detection_callback: Any, service_uuids: Any, scanning_mode: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(detection_callback, service_uuids)

    async def start(self) -> None:
        self._task = asyncio.ensure_future(self._advertise())

    async def _advertise(self) -> None:
        # Modules advertise over and over, as real ones do every 100 ms or so.
        ads = [(m.address, "HMSoft", [HM10_SERVICE]) for m in self.modules]
        ads += [(a, "HRM", ["0000180d-0000-1000-8000-00805f9b34fb"]) for a in self.others]
        while True:
            for address, name, uuids in ads:
                adv = AdvertisementData(name, {}, {}, uuids, None, -60, ())
                device = self.create_or_update_device(address, address, name, None, adv)
                self.call_detection_callbacks(device, adv)
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self._task.cancel()


class FakeClient(BaseBleakClient):
    def __init__(self, address_or_ble_device: Any, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, **kwargs)
        self.module = next(m for m in FakeScanner.modules if m.address == self.address)
        self._connected = False
        self._pump: asyncio.Task[None] | None = None
        self._notify: Callable[[bytearray], None] | None = None

    @property
    def name(self) -> str:
        return "HMSoft"

    @property
    def mtu_size(self) -> int:
        return 23

    @property
    def is_connected(self) -> bool:
        return self._connected

    async def connect(self, pair: bool, **kwargs: Any) -> None:
        services = BleakGATTServiceCollection()
        service = BleakGATTService(None, 0x10, HM10_SERVICE)
        services.add_service(service)
        services.add_characteristic(
            BleakGATTCharacteristic(
                None,
                0x12,
                HM10_CHAR,
                ["read", "write-without-response", "notify"],
                lambda: HM10_CHUNK,
                service,
            )
        )
        self.services = services
        self._connected = True
        self.module.connections += 1

    async def disconnect(self) -> None:
        self._connected = False
        if self._pump:
            self._pump.cancel()

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        pass

    async def unpair(self) -> None:
        pass

    async def read_gatt_char(self, characteristic: Any, **kwargs: Any) -> bytearray:
        raise NotImplementedError

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        raise NotImplementedError

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        raise NotImplementedError

    async def stop_notify(self, characteristic: Any) -> None:
        self._notify = None

    async def start_notify(self, characteristic: Any, callback: Any, **kwargs: Any) -> None:
        assert characteristic.uuid == HM10_CHAR
        self._notify = callback
        data = self.module.sessions.pop(0) if self.module.sessions else None
        self._pump = asyncio.ensure_future(self._run(data))

    async def _send(self, data: bytes) -> None:
        i = 0
        while i < len(data) and self._connected and self._notify:
            n = self.module.rng.randint(1, HM10_CHUNK)  # the module cuts where it likes
            self._notify(bytearray(data[i : i + n]))
            i += n
            await asyncio.sleep(0)

    async def _run(self, data: bytes | None) -> None:
        if data is None:  # the last session: stay connected, answer commands
            return
        await self._send(data)
        await asyncio.sleep(0.01)
        self._connected = False  # the link drops
        if self._disconnected_callback:
            self._disconnected_callback()

    async def write_gatt_char(self, characteristic: Any, data: Any, response: bool) -> None:
        assert not response, "the HM-10 takes write-without-response"
        self.module.writes.append(bytes(data))
        if self.module.answer:
            for msg in FrameDecoder().feed(b"".join(self.module.writes)):
                if isinstance(msg, Command):
                    self.module.writes.clear()
                    await self._send(self.module.answer(msg))


def reading(state: WireState, face: int | None, roll: int, seq: int = 0) -> bytes:
    return encode_frame(encode_message(Reading(seq, 3, state, face, roll, 64, "white")))


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 20))


def setup(*modules: FakeHM10) -> None:
    FakeScanner.modules = list(modules)


def source(address: str | None = None) -> BleDieSource:
    return BleDieSource(
        address,
        scanner_backend=FakeScanner,
        client_backend=FakeClient,
        scan_timeout=1.0,
        retry_min=0.01,
        retry_max=0.05,
    )


async def take(src: BleDieSource, n: int) -> list[tuple[str, int | None, int | None, str]]:
    got = []
    async for r in src:
        got.append((r.state.value, r.face, r.roll, r.die_id))
        if len(got) == n:
            break
    return got


def test_discovery_finds_hm10_modules_only() -> None:
    setup(FakeHM10("AA:00:00:00:00:01", []), FakeHM10("AA:00:00:00:00:02", []))
    found = run(discover_hm10(timeout=0.2, scanner_backend=FakeScanner))
    assert sorted(d.address for d, _ in found) == ["AA:00:00:00:00:01", "AA:00:00:00:00:02"]


def test_readings_survive_chunking_noise_and_a_dropped_link() -> None:
    first = (
        reading(WireState.UNSURE, None, 0)
        + reading(WireState.SETTLED, 3, 0)
        + b"\x07\x99garbage\x00"
        + reading(WireState.ROLLING, None, 0)
        + reading(WireState.SETTLED, 5, 1)
        + reading(WireState.ROLLING, None, 1)[:6]
    )
    second = (
        reading(WireState.ROLLING, None, 1)  # the heartbeat after reconnecting
        + reading(WireState.SETTLED, 5, 2)
    )  # a re-roll to the same face
    module = FakeHM10("AA:00:00:00:00:07", [first, second])
    setup(module)
    src = source("aa:00:00:00:00:07")
    got = run(take(src, 6))
    assert got == [
        ("unsure", None, 0, "diy-3"),
        ("settled", 3, 0, "diy-3"),
        ("rolling", None, 0, "diy-3"),
        ("settled", 5, 1, "diy-3"),
        ("rolling", None, 1, "diy-3"),
        ("settled", 5, 2, "diy-3"),
    ]
    assert module.connections == 2 and src.problems == 1


def test_commands_go_out_in_20_byte_writes_and_are_answered() -> None:
    module = FakeHM10("AA:00:00:00:00:09", [])
    setup(module)
    sent: list[bytes] = []

    def die(cmd: Command) -> bytes:
        sent.append(cmd.frame())
        out = encode_frame(encode_message(Ack(1, cmd.type, cmd.seq, AckStatus.OK)))
        if cmd.type.name == "STATUS":
            out += encode_frame(
                encode_message(Info(2, 3, "white", "0.1", frozenset({1, 2}), 3700, 50))
            )
        return out

    module.answer = die
    link = BleLink(source(module.address))
    try:
        ack, _ = link.request(lambda s: blink_command(s, 4))
        assert ack.status is AckStatus.OK
        ack, info = link.request(status_command)
        assert info is not None and info.die_id == 3 and info.calibrated_faces == {1, 2}
    finally:
        link.close()
    assert all(len(w) <= HM10_CHUNK for w in module.writes)
    assert [parse.type.name for parse in (Command(*_cmd_fields(f)) for f in sent)] == [
        "BLINK",
        "STATUS",
    ]


def _cmd_fields(wire: bytes) -> tuple[Any, int, int, bytes]:
    (msg,) = list(FrameDecoder().feed(wire))
    assert isinstance(msg, Command)
    return msg.type, msg.seq, msg.target, msg.args


def test_the_simulated_firmware_read_over_the_fake_hm10(make: Callable[..., Path]) -> None:
    """The AVR binary's real UART bytes, as the HM-10 would notify them, link dropped halfway."""
    uart = simulate(make, "rolls")
    cut = len(uart) // 2
    module = FakeHM10("AA:00:00:00:00:0B", [uart[:cut], uart[cut:]], seed=5)
    setup(module)
    expected = parse_trace_expectations(FIRMWARE / "traces" / "rolls.csv")

    async def read_all() -> list[str]:
        words = []
        src = source(module.address)
        async for r in src:
            words.append(f"settled face={r.face} roll={r.roll}" if r.face else r.state.value)
            if words[-1] == expected[-1]:
                break
        return words

    assert collapse(run(read_all())) == expected
    assert module.connections == 2
