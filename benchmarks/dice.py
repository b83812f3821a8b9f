"""Dice layer speed: decode throughput, and settle packet -> engine action with 33 dice.

    .venv/bin/python benchmarks/dice.py

The second figure runs the real radio thread, scanner, Pixels source, tracker and hub over
the fake bleak backend with 33 Pixels dice re-advertising every 50 ms (a full table of
"A New Don": 30 family dice and 3 red); one family's five dice are rolled again and again, and
the time is measured from the moment the last die's "rolled" advert is handed to the scanner
to the moment the hub hands out the Roll action. Target: under 10 ms.
"""

from __future__ import annotations

import platform
import statistics
import sys
import threading
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.dice import godice, pixels
from companion.dice.assignment import Assignment, DieRef
from companion.dice.fakeble import FakeAir, FakePixel
from companion.dice.hub import DiceHub
from companion.dice.pixels_source import PixelsSource, die_id_of
from companion.dice.radio import BleRadio
from companion.gamefiles import GameFiles
from companion.games.new_don import NEW_DON, GodfatherRoll, Seat, Setup, apply, new_game
from companion.games.new_don.boards import load_board


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.machine()} {cpu}, Python {platform.python_version()}"


def decode_throughput() -> None:
    cases = {
        "Pixels advert (manufacturer data)": (
            pixels.decode_manufacturer_data,
            bytes.fromhex("06 21 01 04 cd"),
        ),
        "Pixels RollState": (pixels.decode_message, bytes.fromhex("03 01 04")),
        "Pixels IAmADie (legacy)": (
            pixels.decode_message,
            bytes.fromhex("02 14 0b 00 12 a6 be b3 5a 8a f0 06 30 1e 17 87 88 64 01 05 4f 00"),
        ),
        "GoDice S + face from vector": (
            lambda d: godice.face_from_vector(godice.decode_notification(d).vector),
            bytes.fromhex("53 05 3c f6"),
        ),
    }
    for name, (decode, data) in cases.items():
        n = 50_000
        t = min(timeit.repeat(lambda decode=decode, data=data: decode(data), number=n, repeat=3))
        print(f"  {name:36s} {n / t / 1e6:6.2f} M packets/s ({t / n * 1e6:.2f} µs each)")


def settle_to_action(rolls: int = 100) -> list[float]:
    air = FakeAir([FakePixel(f"C0:{i:02X}", 0x7000 + i) for i in range(33)], interval=0.05)
    seats = ("Maria", "Johnny", "Claire", "Vincent", "Sonny", "Kay")
    assignment = Assignment()
    for i in range(33):
        owner = seats[i // 5] if i < 30 else "vegas"
        assignment.assign(DieRef("pixels", die_id_of(0x7000 + i)), owner)
    done = threading.Event()
    stamp: list[float] = []
    hub = DiceHub(assignment, on_action=lambda a: (stamp.append(time.perf_counter()), done.set()))
    radio = BleRadio(scanner_backend=air.scanner_backend, client_backend=air.client_backend)
    PixelsSource(radio, hub.feed)
    radio.start()
    while len(hub.last_readings()) < 33:
        time.sleep(0.01)
    setup = Setup(tuple(Seat(n) for n in seats))
    state = new_game(setup, load_board(None, 6, GameFiles(NEW_DON)))
    for name, face in zip(seats, (6, 5, 4, 3, 2, 1), strict=True):
        state = apply(state, GodfatherRoll(name, face))
    maria = [d for d in air.devices.values() if isinstance(d, FakePixel)][:5]
    times: list[float] = []
    for _ in range(rolls):
        done.clear()
        stamp.clear()
        hub.clear()
        # Maria must roll five dice; 28 other dice keep advertising.
        hub.expect(NEW_DON, setup.seats, state)
        for die in maria[:4]:
            air.run(die.roll(3, 0.001)).result()
        last = maria[4]
        air.run(_roll_start(last)).result()
        time.sleep(0.002)
        started: list[float] = []

        def settle(last: FakePixel = last, started: list[float] = started) -> None:
            started.append(time.perf_counter())
            last.set_state(pixels.RollState.ROLLED, 5)

        air.do(settle)
        assert done.wait(2), "no action"
        times.append((stamp[0] - started[0]) * 1000)
    radio.stop()
    return times


async def _roll_start(die: FakePixel) -> None:
    die.set_state(pixels.RollState.HANDLING)
    die.set_state(pixels.RollState.ROLLING, 2)


def main() -> None:
    print(f"machine: {machine()}")
    print("decode throughput:")
    decode_throughput()
    times = settle_to_action()
    times.sort()
    p50 = statistics.median(times)
    p99 = times[int(len(times) * 0.99) - 1]
    print(
        f"settle advert -> engine action, 33 Pixels advertising, {len(times)} rolls: "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {times[-1]:.2f} ms (target < 10 ms)"
    )


if __name__ == "__main__":
    main()
