"""The serial source and ``companion die`` against a real tty, as a die's cable would be.

A pty pair stands in for the USB adapter: the test (or the die's core running on the PC,
``firmware/build/die_host``) writes at one end, pyserial reads at the other. Unplugging is
closing the pty; replugging is a new pty behind the same stable path, as udev's
``/dev/serial/by-id`` links behave.
"""

from __future__ import annotations

import io
import logging
import math
import os
import subprocess
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.dice.reading import DieState
from companion.die.cli import add_die_parser, run_die
from companion.die.protocol import Reading, WireState, encode_frame, encode_message
from companion.die.serial_source import SerialDieSource

from .conftest import require


def frame(state: WireState, face: int | None, roll: int, seq: int = 0) -> bytes:
    return encode_frame(encode_message(Reading(seq, 7, state, face, roll, 90, "red")))


class Pty:
    """One end for the test to write, a tty path for the source to open."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def drain(
    src: SerialDieSource, want: int, timeout: float = 5.0
) -> list[tuple[str, int | None, int | None]]:
    got = []
    end = time.monotonic() + timeout
    while len(got) < want and time.monotonic() < end:
        r = src.get(timeout=0.1)
        if r is not None:
            got.append((r.state.value, r.face, r.roll))
    return got


def test_garbage_and_a_lost_byte_cost_only_the_damaged_frames(
    caplog: pytest.LogCaptureFixture,
) -> None:
    line = Pty()
    caplog.set_level(logging.WARNING)
    with SerialDieSource(line.path, retry_min=0.05) as src:
        assert src.connected.wait(5)
        damaged = frame(WireState.SETTLED, 2, 1)
        line.write(b"\xff\x13noise\x00\x00")  # the line before the die was ready
        line.write(frame(WireState.SETTLED, 4, 0))
        line.write(damaged[:5] + damaged[6:])  # a byte lost on the wire
        line.write(frame(WireState.ROLLING, None, 1))
        line.write(frame(WireState.SETTLED, 6, 2)[3:])  # plugged in mid-frame
        line.write(frame(WireState.SETTLED, 6, 3))
        got = drain(src, 3)
        assert got == [("settled", 4, 0), ("rolling", None, 1), ("settled", 6, 3)]
        assert src.stats.problems == 3
        assert src.connected.is_set()  # still reading: garbage is not an error
    line.unplug()
    # One line, not three: complaints are limited to one a second so noise cannot flood the log.
    assert caplog.text.count("bad data on") == 1 and "skipped" in caplog.text


def test_unplug_and_replug_resume_by_themselves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    link = tmp_path / "ttyDIE"  # what /dev/serial/by-id/... is: a stable name for a moving tty
    first = Pty()
    link.symlink_to(first.path)
    with SerialDieSource(str(link), retry_min=0.05, retry_max=0.2) as src:
        assert src.connected.wait(5)
        first.write(frame(WireState.SETTLED, 3, 5))
        assert drain(src, 1) == [("settled", 3, 5)]

        first.unplug()  # cable out, in the middle of a frame
        deadline = time.monotonic() + 5
        while src.connected.is_set() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not src.connected.is_set()
        time.sleep(0.3)  # a few failed reopen attempts against the vanished tty

        second = Pty()  # cable back in: a new tty behind the same name
        link.unlink()
        link.symlink_to(second.path)
        assert src.connected.wait(5)
        second.write(frame(WireState.SETTLED, 3, 5) + frame(WireState.ROLLING, None, 5))
        second.write(frame(WireState.SETTLED, 3, 6))  # a re-roll to the same face
        # The heartbeat repeating the last state is not news; the roll after it is.
        assert drain(src, 2) == [("rolling", None, 5), ("settled", 3, 6)]
        assert src.stats.connects == 2 and src.stats.lost == 1
    second.unplug()
    assert "lost" in caplog.text and "reopening" in caplog.text


def test_iterating_the_source_ends_when_it_is_stopped() -> None:
    line = Pty()
    src = SerialDieSource(line.path, retry_min=0.05).start()
    assert src.connected.wait(5)
    line.write(frame(WireState.SETTLED, 1, 0))
    time.sleep(0.3)
    src.stop()
    assert [(r.state, r.face) for r in src] == [(DieState.SETTLED, 1)]
    line.unplug()


# --- companion die, against the die's real core on the other end of the tty ------------------


@pytest.fixture
def die_host(make: Callable[..., Path]) -> Iterator[tuple[str, int]]:
    """The firmware's core running on the PC behind a pty: (port path, control fd)."""
    require("gcc", "make")
    build = make("host-die")
    line = Pty()
    ctl_read, ctl_write = os.pipe()
    proc = subprocess.Popen(
        [str(build / "die_host"), "-s", "5", "-c", str(ctl_read)],
        stdin=line.master,
        stdout=line.master,
        pass_fds=(ctl_read,),
    )
    os.close(ctl_read)
    yield line.path, ctl_write
    proc.kill()
    proc.wait()
    os.close(ctl_write)
    line.unplug()


def cli(*argv: str, prompt: Callable[[str], str] = input) -> tuple[int, str]:
    import argparse

    parser = argparse.ArgumentParser(prog="companion")
    add_die_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    status = run_die(parser.parse_args(list(argv)), prompt=prompt, out=out)
    return status, out.getvalue()


def test_cli_lists_names_colours_and_blinks_a_die(die_host: tuple[str, int]) -> None:
    port, _ = die_host
    status, text = cli("die", "list", "--port", port)
    assert status == 0 and "diy-0 (no id yet" in text and "battery 3.90 V" in text
    assert cli("die", "set-id", "12", "--port", port)[0] == 0
    status, text = cli("die", "--port", port, "set-colour", "red")  # --port before works too
    assert status == 0 and "diy-12  colour red" in text
    assert cli("die", "blink", "--times", "2", "--port", port, "--die", "12")[0] == 0
    # A hub address that is not this die: nobody answers, and the command says so.
    status, text = cli("die", "blink", "--port", port, "--die", "13")
    assert status == 2 and "no answer" in text


def skewed(face: int, degrees: float = 28.0) -> tuple[int, int, int]:
    """What a sensor glued in 28 degrees askew reads with ``face`` up (1 g = 16384)."""
    n = {1: (0, 0, 1), 2: (0, 1, 0), 3: (1, 0, 0), 4: (-1, 0, 0), 5: (0, -1, 0), 6: (0, 0, -1)}
    v = n[face]
    k = (math.sqrt(0.5), math.sqrt(0.5), 0.0)
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    kv = sum(a * b for a, b in zip(k, v, strict=True))
    kx = (k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0])
    r = [v[i] * c + kx[i] * s + k[i] * kv * (1 - c) for i in range(3)]
    return round(r[0] * 16384), round(r[1] * 16384), round(r[2] * 16384)


def test_guided_calibration_teaches_a_crooked_die_its_faces(die_host: tuple[str, int]) -> None:
    port, ctl = die_host
    asked: list[str] = []

    def put_down(face: int) -> None:
        x, y, z = skewed(face)
        os.write(ctl, f"rest {x} {y} {z}\n".encode())
        time.sleep(0.3)  # a person presses Enter after letting go: 35 ticks at 250 Hz

    put_down(1)
    with SerialDieSource(port) as src:  # before: the askew sensor makes face 1 look cocked
        states = [r.state for r in iter(lambda: src.get(timeout=0.5), None)]
    assert states[-1] is DieState.COCKED

    def user(question: str) -> str:
        asked.append(question)
        face = int(question.split()[1])
        if not (face == 2 and asked.count(question) == 1):
            put_down(face)  # the user turns the die... except the first time for face 2
        return ""

    status, text = cli("die", "calibrate", "--port", port, prompt=user)
    assert status == 0, text
    assert "same side as a face already calibrated" in text  # face 2 asked while 1 was up
    assert asked.count("Face 2 up, then Enter: ") == 2
    assert "calibrated faces 123456" in text

    put_down(5)
    with SerialDieSource(port) as src:
        last = None
        while (r := src.get(timeout=0.5)) is not None:
            last = r
    assert last is not None and (last.state, last.face) == (DieState.SETTLED, 5)


def test_cli_says_so_when_nothing_answers() -> None:
    line = Pty()  # a port with no die behind it
    status, text = cli("die", "set-id", "3", "--port", line.path)
    line.unplug()
    assert status == 2 and "did not answer" in text
