"""The real scanner, connections, sources and trackers against the fake bleak backend.

The fake dice (companion.dice.fakeble) speak the real bytes; what is tested is our code above
bleak's ``backend=`` seam: adverts for a whole table, links that drop mid-roll, dice that fall
asleep, one connection attempt at a time, and recorded packet sequences with damage in them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

from companion.dice import godice, pixels
from companion.dice.fakeble import FakeAir, FakeGoDice, FakePixel
from companion.dice.godice_source import GoDiceSource
from companion.dice.pixels_source import PixelsSource, die_id_of
from companion.dice.radio import BleRadio
from companion.dice.reading import DieReading, DieState


class Readings:
    """A thread-safe sink that tests can wait on."""

    def __init__(self) -> None:
        self.items: list[DieReading] = []
        self._cond = threading.Condition()

    def __call__(self, reading: DieReading) -> None:
        with self._cond:
            self.items.append(reading)
            self._cond.notify_all()

    def wait(self, what: Callable[[list[DieReading]], bool], timeout: float = 5.0) -> None:
        with self._cond:
            assert self._cond.wait_for(lambda: what(self.items), timeout), self.items[-10:]

    def results(self, die_id: str | None = None) -> list[tuple[str, int | None, int | None]]:
        """Counted rolls: (die, face, roll) the first time each roll number settles."""
        seen: dict[tuple[str, int | None], int | None] = {}
        for r in self.items:
            if r.state is DieState.SETTLED and r.roll and (die_id in (None, r.die_id)):
                seen.setdefault((r.die_id, r.roll), r.face)
        return [(d, f, n) for (d, n), f in seen.items()]


@pytest.fixture
def radio_for() -> Iterator[Callable[..., BleRadio]]:
    radios: list[BleRadio] = []

    def make(air: FakeAir, **kw: object) -> BleRadio:
        radio = BleRadio(
            scanner_backend=air.scanner_backend, client_backend=air.client_backend, **kw
        )  # type: ignore[arg-type]
        radios.append(radio)
        return radio

    yield make
    for radio in radios:
        radio.stop()


def until(what: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_pixels_in_advert_mode_count_each_roll_once(radio_for: Callable[..., BleRadio]) -> None:
    air = FakeAir(
        [FakePixel("AA:01", 0x1001), FakePixel("AA:02", 0x1002, legacy=True)], interval=0.01
    )
    got = Readings()
    radio = radio_for(air)
    PixelsSource(radio, got)
    radio.start()
    got.wait(lambda items: {r.die_id for r in items} == {"00001001", "00001002"})
    assert got.results() == []  # first seen at rest: a baseline, not a roll
    for face in (4, 4, 2):  # the same face twice is still two rolls
        air.run(air.devices["AA:01"].roll(face, 0.01)).result()
        air.run(air.devices["AA:02"].roll(7 - face, 0.01)).result()
    time.sleep(0.1)  # adverts repeat every 10 ms: none of the repeats may count
    assert got.results("00001001") == [("00001001", 4, 1), ("00001001", 4, 2), ("00001001", 2, 3)]
    assert got.results("00001002") == [("00001002", 3, 1), ("00001002", 3, 2), ("00001002", 5, 3)]


def test_handling_a_die_is_not_a_roll(radio_for: Callable[..., BleRadio]) -> None:
    air = FakeAir([FakePixel("AA:01", 0x1001)], interval=0.01)
    got = Readings()
    radio = radio_for(air)
    PixelsSource(radio, got)
    radio.start()
    got.wait(lambda items: len(items) > 0)
    die = air.devices["AA:01"]
    assert isinstance(die, FakePixel)
    air.do(lambda: die.set_state(pixels.RollState.HANDLING))
    air.do(lambda: die.set_state(pixels.RollState.ON_FACE, 3))  # picked up, put down
    time.sleep(0.05)
    assert got.results() == []
    air.do(lambda: die.set_state(pixels.RollState.ROLLING))
    air.do(lambda: die.set_state(pixels.RollState.ON_FACE, 5))  # a gentle roll still counts
    got.wait(lambda items: got.results() == [("00001001", 5, 1)])


def test_33_pixels_advertising_at_once(radio_for: Callable[..., BleRadio]) -> None:
    air = FakeAir([FakePixel(f"AB:{i:02X}", 0x2000 + i) for i in range(33)], interval=0.01)
    got = Readings()
    radio = radio_for(air)
    source = PixelsSource(radio, got)
    radio.start()
    got.wait(lambda items: len({r.die_id for r in items}) == 33)
    for round_ in range(3):
        for i, device in enumerate(air.devices.values()):
            air.run(device.roll((i + round_) % 6 + 1, 0.02))  # type: ignore[attr-defined]
        got.wait(lambda items, n=round_ + 1: len(got.results()) == 33 * n)
    time.sleep(0.05)
    results = got.results()
    assert len(results) == 99 and source.problems == 0
    assert sorted(f for d, f, n in results if d == die_id_of(0x2000 + 7)) == [2, 3, 4]


def test_a_pixel_read_connected_and_its_link_dropping_mid_roll(
    radio_for: Callable[..., BleRadio],
) -> None:
    die = FakePixel("AA:01", 0x1001, legacy=True)
    air = FakeAir([die], interval=0.01)
    got = Readings()
    radio = radio_for(air)
    source = PixelsSource(radio, got, connected={"00001001"}, retry_min=0.01, retry_max=0.05)
    radio.start()
    until(lambda: die.client is not None)
    assert (pixels.LEGACY_WRITE, b"\x01") in die.writes  # WhoAreYou on the legacy UUID
    air.run(die.roll(6, 0.01)).result()
    got.wait(lambda items: got.results() == [("00001001", 6, 1)])
    # Rolling when the link drops; it settles while disconnected and says so in its adverts.
    air.do(lambda: die.set_state(pixels.RollState.ROLLING))
    air.do(die.drop)
    air.do(lambda: die.set_state(pixels.RollState.ROLLED, 2))
    got.wait(lambda items: got.results() == [("00001001", 6, 1), ("00001001", 2, 2)])
    until(lambda: die.connections == 2)  # back on a link, and WhoAreYou repeats nothing
    time.sleep(0.05)
    assert got.results() == [("00001001", 6, 1), ("00001001", 2, 2)]
    assert radio.submit(source.blink("00001001")).result(2)
    assert any(w[1][0] == pixels.MessageType.BLINK for w in die.writes)


def test_blinking_a_die_read_from_adverts(radio_for: Callable[..., BleRadio]) -> None:
    die = FakePixel("AA:01", 0x1001)
    air = FakeAir([die], interval=0.01)
    radio = radio_for(air)
    source = PixelsSource(radio, Readings())
    radio.start()
    until(lambda: "00001001" in source.addresses)
    assert radio.submit(source.blink("00001001")).result(2)
    assert die.client is None  # let go again: advert mode goes on
    assert [w[1][0] for w in die.writes] == [
        pixels.MessageType.WHO_ARE_YOU,
        pixels.MessageType.BLINK,
    ]


def godice_table(
    radio_for: Callable[..., BleRadio], n: int = 1, **kw: object
) -> tuple[FakeAir, GoDiceSource, Readings, BleRadio]:
    air = FakeAir([FakeGoDice(f"D0:{i:02X}", seed=i) for i in range(n)], interval=0.01)
    got = Readings()
    radio = radio_for(air, **kw)
    source = GoDiceSource(
        radio, got, wanted={f"D0:{i:02X}": 0 for i in range(n)}, retry_min=0.01, retry_max=0.05
    )
    radio.start()
    return air, source, got, radio


def test_godice_rolls_with_init_battery_and_colour(radio_for: Callable[..., BleRadio]) -> None:
    air, source, got, _ = godice_table(radio_for)
    die = air.devices["D0:00"]
    assert isinstance(die, FakeGoDice)
    got.wait(lambda items: bool(items) and items[-1].colour == "red")
    assert die.inits == [bytes.fromhex("19 1e 03 32 32 00 ff 00 01 00")]
    assert got.items[-1].battery == 0.9
    for face in (3, 3, 6):
        air.run(die.roll(face, 0.01)).result()
    got.wait(lambda items: len(got.results()) == 3)
    assert got.results() == [("D0:00", 3, 1), ("D0:00", 3, 2), ("D0:00", 6, 3)]
    air.run(die.roll(4, 0.01, stable=godice.Stable.TILT))
    got.wait(lambda items: items[-1].state is DieState.COCKED)
    assert radio_blink(source, "D0:00")
    assert die.writes[-1][1][0] == 0x10


def radio_blink(source: GoDiceSource, die_id: str) -> bool:
    return source.radio.submit(source.blink(die_id)).result(2)


def test_godice_link_dropping_mid_roll_neither_loses_nor_repeats(
    radio_for: Callable[..., BleRadio],
) -> None:
    air, source, got, _ = godice_table(radio_for)
    die = air.devices["D0:00"]
    assert isinstance(die, FakeGoDice)
    until(lambda: die.client is not None)
    old_callbacks = list(die.subscribers.values())
    air.do(lambda: die.send(godice.RollStarted()))
    air.do(die.drop)  # the result of that roll is gone with the link: the die says UNSURE
    got.wait(lambda items: items[-1].state is DieState.UNSURE)
    until(lambda: die.connections == 2 and die.client is not None)
    # A late packet from the old link must not count; the next roll on the new one does.
    for callback in old_callbacks:
        air.do(lambda cb=callback: cb(bytearray(b"S\x40\x00\x00")))
    air.run(die.roll(5, 0.01)).result()
    got.wait(lambda items: len(got.results()) == 1)
    time.sleep(0.05)
    assert got.results() == [("D0:00", 5, 1)]
    assert source.links["D0:00"].connections == 2


def test_a_godice_falling_asleep_is_waited_for_not_hammered(
    radio_for: Callable[..., BleRadio],
) -> None:
    air, _source, got, _ = godice_table(radio_for)
    die = air.devices["D0:00"]
    until(lambda: die.client is not None)
    attempts = air.connect_attempts
    air.do(die.sleep)
    time.sleep(0.3)  # 30 back-off periods: a supervisor that retried blindly would show it
    assert air.connect_attempts == attempts and die.client is None
    air.do(die.wake)
    until(lambda: die.client is not None)
    air.run(die.roll(1, 0.01)).result()  # type: ignore[attr-defined]
    got.wait(lambda items: got.results() == [("D0:00", 1, 1)])


def test_one_connection_attempt_at_a_time_within_the_slot_budget(
    radio_for: Callable[..., BleRadio],
) -> None:
    air, _source, _got, radio = godice_table(radio_for, 7, slots=5)
    for device in list(air.devices.values())[:3]:
        device.refuse_connections = 1  # "le-connection-abort-by-local" once each
    until(lambda: sum(d.client is not None for d in air.devices.values()) == 5)
    time.sleep(0.1)
    assert sum(d.client is not None for d in air.devices.values()) == 5
    assert air.most_connecting == 1
    assert radio.connects == 5
    first = next(d for d in air.devices.values() if d.client is not None)
    air.do(first.sleep)  # a slot frees up: a waiting die takes it
    until(lambda: first.client is None)
    until(lambda: sum(d.client is not None for d in air.devices.values()) == 5)
    assert first.client is None and air.most_connecting == 1


def test_recorded_packets_with_damage_in_them(radio_for: Callable[..., BleRadio]) -> None:
    pixel, dice = FakePixel("AA:01", 0x1001), FakeGoDice("D0:00")
    air = FakeAir([pixel, dice], interval=10)  # only the recording speaks
    got = Readings()
    radio = radio_for(air)
    pixels_source = PixelsSource(radio, got)
    godice_source = GoDiceSource(radio, got, wanted={"D0:00": 0})
    radio.start()
    until(lambda: dice.client is not None)
    c = pixels.COMPANY_ID
    air.run(
        air.replay(
            "AA:01",
            [
                (0, "adv", {c: bytes.fromhex("06 21 05 00 50")}),  # on face 1: baseline
                (0, "adv", {c: bytes.fromhex("06 21 03 02 50")}),  # rolling
                (0, "adv", {c: bytes.fromhex("06 21")}),  # damaged: dropped, logged
                (0, "adv", {c: bytes.fromhex("06 21 09 02 50")}),  # no such roll state: dropped
                (0, "adv", {c: bytes.fromhex("06 21 01 04 cd")}),  # rolled, face 5, charging
                (0, "adv", {c: bytes.fromhex("06 21 01 04 cd")}),  # the same advert again
            ],
        )
    ).result(2)
    air.run(
        air.replay(
            "D0:00",
            [
                (0, "notify", b"R"),
                (0, "notify", b"S\x40"),
                (0, "notify", b"XYZ"),
                (0, "notify", b"FS\x00\x40\x00"),
                (0, "notify", b"S\x05\x3c\xf6"),
                (0, "notify", b"MS\x40\x00\x00"),  # moved, not rolled
            ],
        )
    ).result(2)
    got.wait(lambda items: len(got.results()) == 2)
    time.sleep(0.05)
    assert got.results() == [("00001001", 5, 1), ("D0:00", 3, 1)]
    assert got.items[-1].face == 6 and got.items[-1].roll == 1  # MS: the face, no new roll
    assert pixels_source.problems == 2 and godice_source.problems == 2
    assert any(r.charging for r in got.items if r.die_id == "00001001")


def test_a_legacy_company_id_alone_is_not_a_pixel(radio_for: Callable[..., BleRadio]) -> None:
    from bleak.backends.scanner import AdvertisementData

    from companion.dice.pixels_source import read_advert

    stranger = AdvertisementData("Thermo", {0xFFFF: b"\x06\x21\x01\x04\xcd"}, {}, [], None, -50, ())
    assert read_advert(stranger) is None
    godice_named = AdvertisementData(
        "GoDice_1A2B3C_R_v03",
        {0xFFFF: b"\x06\x21\x01\x04\xcd"},
        {},
        [pixels.LEGACY_SERVICE],
        None,
        -50,
        (),
    )
    assert read_advert(godice_named) is None
    legacy = AdvertisementData(
        "Pixel",
        {0xFFFF: b"\x06\x21\x01\x04\xcd"},
        {pixels.INFO_SERVICE_DATA: bytes(8)},
        [],
        None,
        -50,
        (),
    )
    found = read_advert(legacy)
    assert found is not None and found.legacy and found.status.face_index == 4
