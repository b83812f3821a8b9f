"""The die's firmware, built and run: the C core on the host, the AVR binary under simavr.

Each trace in firmware/traces is a scene (rolls, slides, a die leaning on another, re-rolls to
the same face, knocks and handling) with the readings a referee would expect written in it.
The host build checks the core alone; the replay build is the real ATmega328P firmware (timer,
UART, ADC, EEPROM) with the trace in flash, run under simavr, its UART bytes decoded by the
companion's own reader, roll by roll.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import tty
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.dice.reading import DieReading, DieState
from companion.die.protocol import (
    Ack,
    AckStatus,
    FrameDecoder,
    Info,
    MessageType,
    Problem,
    Reading,
    blink_command,
    set_colour_command,
    set_id_command,
    status_command,
)
from companion.die.serial_source import SerialDieSource

from .conftest import (
    FIRMWARE,
    TRACES,
    VECTORS,
    collapse,
    describe,
    parse_trace_expectations,
    require,
    simulate,
)

FLASH_BYTES = 32 * 1024
BOOTLOADER_BYTES = 2 * 1024  # the old Nano bootloader; Optiboot needs only 512
RAM_BYTES = 2 * 1024


def run_tap(cmd: list[str]) -> tuple[int, int, str]:
    """Run a TAP-printing test program; (passed, failed, output)."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    passed = len(re.findall(r"^ok \d+", proc.stdout, re.M))
    failed = len(re.findall(r"^not ok \d+", proc.stdout, re.M))
    assert proc.returncode == (1 if failed else 0), proc.stdout + proc.stderr
    return passed, failed, proc.stdout


def test_host_core_passes_the_vectors_traces_and_commands(make: Callable[..., Path]) -> None:
    require("gcc", "make")
    build = make("host-die")
    make(str(build / "test_core"))
    passed, failed, out = run_tap(
        [str(build / "test_core"), str(VECTORS), *(str(t) for t in TRACES)]
    )
    failures = "\n".join(line for line in out.splitlines() if line.startswith(("not ok", "#")))
    assert failed == 0, failures
    assert passed >= 100  # vectors, 5 traces, calibration, command-line damage


@pytest.mark.parametrize("offset", [101, 202, 303])
def test_host_core_on_the_same_scenes_with_other_noise(
    make: Callable[..., Path], tmp_path: Path, offset: int
) -> None:
    """The thresholds must not be tuned to one random draw: replay the scenes re-noised."""
    require("gcc", "make")
    build = make("host-die")
    make(str(build / "test_core"))
    subprocess.run(
        [
            sys.executable,
            str(FIRMWARE / "tools" / "make_traces.py"),
            "--out",
            str(tmp_path),
            "--seed-offset",
            str(offset),
        ],
        check=True,
    )
    _, failed, out = run_tap(
        [str(build / "test_core"), str(VECTORS), *(str(p) for p in sorted(tmp_path.glob("*.csv")))]
    )
    assert failed == 0, out


def _size(build: Path) -> tuple[int, int]:
    out = subprocess.run(
        ["avr-size", "-C", "--mcu=atmega328p", str(build / "die.elf")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    flash = int(re.search(r"Program:\s+(\d+) bytes", out).group(1))  # type: ignore[union-attr]
    ram = int(re.search(r"Data:\s+(\d+) bytes", out).group(1))  # type: ignore[union-attr]
    return flash, ram


@pytest.mark.parametrize("board", ["nano", "promini"])
def test_avr_firmware_builds_and_fits_the_atmega328p(
    build_dir: Path, board: str, record_property: Callable[[str, object], None]
) -> None:
    require("avr-gcc", "avr-size", "make")
    build = build_dir / board
    proc = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE), f"BUILD={build}", f"BOARD={board}", "all"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    flash, ram = _size(build)
    record_property("flash_bytes", flash)
    record_property("static_ram_bytes", ram)
    print(
        f"\n{board}: flash {flash} B of {FLASH_BYTES} ({flash / FLASH_BYTES:.1%}), "
        f"static RAM {ram} B of {RAM_BYTES} ({ram / RAM_BYTES:.1%})"
    )
    assert flash <= FLASH_BYTES - BOOTLOADER_BYTES
    assert ram <= RAM_BYTES // 2  # the other half is the stack's
    assert (build / "die.hex").stat().st_size > 0


@pytest.mark.parametrize("trace", [t.stem for t in TRACES])
def test_avr_firmware_under_simavr_reports_each_roll(make: Callable[..., Path], trace: str) -> None:
    uart = simulate(make, trace)
    decoder = FrameDecoder()
    msgs = list(decoder.feed(uart))
    assert not [m for m in msgs if isinstance(m, Problem)], "the simulated line must be clean"
    # Every frame the die sent arrived: the sequence numbers run without a gap.
    seqs = [m.seq for m in msgs]  # type: ignore[union-attr]
    assert seqs == [i & 0xFF for i in range(len(seqs))]
    hello = msgs[0]
    assert isinstance(hello, Info) and hello.firmware == "0.1" and hello.die_id == 0
    # The ADC measured the 3.9 V supply through the band-gap (1.1 V, 10 bits: +-15 mV).
    assert hello.battery_mv is not None and abs(hello.battery_mv - 3900) <= 15
    readings = [m for m in msgs if isinstance(m, Reading)]
    assert all(r.battery_pct == 75 for r in readings)
    expected = parse_trace_expectations(FIRMWARE / "traces" / f"{trace}.csv")
    assert collapse([describe(r) for r in readings]) == expected


def test_avr_firmware_obeys_commands_sent_into_its_uart(make: Callable[..., Path]) -> None:
    """Commands go in through the simulated UART's RX pin, between rolls and during one."""
    uart = simulate(
        make,
        "same_face",
        (40, set_id_command(1, 42).frame()),
        (50, set_colour_command(2, "red").frame()),
        (60, status_command(3).frame()),
        (70, blink_command(4, 3, target=42).frame()),
        (80, set_id_command(5, 9, target=7).frame()),  # for another die on a hub: ignored
        (90, b"\x13\x37garbage\x00"),  # line noise: dropped, the die carries on
        (100, status_command(6, target=42).frame()),
    )
    msgs = [m for m in FrameDecoder().feed(uart) if not isinstance(m, Problem)]
    acks = {(m.command, m.command_seq): m.status for m in msgs if isinstance(m, Ack)}
    assert acks == {
        (MessageType.SET_ID, 1): AckStatus.OK,
        (MessageType.SET_COLOUR, 2): AckStatus.OK,
        (MessageType.STATUS, 3): AckStatus.OK,
        (MessageType.BLINK, 4): AckStatus.OK,
        (MessageType.STATUS, 6): AckStatus.OK,
    }
    infos = [m for m in msgs if isinstance(m, Info)]
    assert (infos[-1].die_id, infos[-1].colour) == (42, "red")
    readings = [m for m in msgs if isinstance(m, Reading)]
    assert readings[-1].die_id == 42 and readings[-1].colour == "red"
    # The commands did not disturb the rolls: same readings as without them.
    expected = parse_trace_expectations(FIRMWARE / "traces" / "same_face.csv")
    assert collapse([describe(r) for r in readings]) == expected


def test_serial_source_reads_the_simulated_die_through_a_pty(make: Callable[..., Path]) -> None:
    """The full reader (pyserial, thread, filter) on the firmware's real bytes, via a tty."""
    uart = simulate(make, "leaning")
    master, slave = os.openpty()
    tty.setraw(slave)
    src = SerialDieSource(os.ttyname(slave), retry_min=0.05).start()
    try:
        assert src.connected.wait(5)

        def write_slowly() -> None:
            for i in range(0, len(uart), 7):  # as a USB adapter would: a few bytes at a time
                os.write(master, uart[i : i + 7])

        threading.Thread(target=write_slowly, daemon=True).start()
        got: list[DieReading] = []
        while (r := src.get(timeout=3)) is not None:
            got.append(r)
    finally:
        src.stop()
        os.close(master)
        os.close(slave)
    words = []
    for r in got:
        assert r.source == "diy-serial" and r.die_id == "diy-0" and r.battery == 0.75
        if r.state is DieState.SETTLED:
            words.append(f"settled face={r.face} roll={r.roll}")
        elif r.state is DieState.COCKED:
            words.append(f"cocked roll={r.roll}")
        else:
            words.append(r.state.value)
    assert collapse(words) == parse_trace_expectations(FIRMWARE / "traces" / "leaning.csv")
