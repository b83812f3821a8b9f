"""DIY dice on a serial line (an Arduino Nano on USB, or a hub), read with pyserial.

The source runs one background thread per port that opens the port, decodes frames and puts a
:class:`DieReading` on a queue for every *change*; iterate the source to get them. It never
raises out of that thread: a cable pulled out, garbage on the line or a port that is not there
yet become one clear log line each, and the thread reopens the port with a capped back-off, so
the dice layer sees the die come back by itself when it is plugged in again.

:class:`SerialDice` is the same line as a dice source (kind ``diy-serial``): readings pumped into
the hub, and the host's Blink sent to the die that shows up on this port.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import serial
from serial.tools import list_ports

from companion.dice.assignment import DieRef
from companion.dice.reading import DieReading
from companion.dice.source import Need, PumpedSource
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

BAUDRATE = 9600  # the firmware's rate; also the HM-10's factory rate
SOURCE_NAME = "diy-serial"

# USB-serial chips found on Arduino Nanos, Unos and Pro Mini adapters. They are generic, so a
# match is only a candidate: `companion die list` asks each one for a STATUS to be sure.
KNOWN_USB_IDS: dict[tuple[int, int], str] = {
    (0x1A86, 0x7523): "CH340 (most Nano clones)",
    (0x0403, 0x6001): "FTDI FT232R (Nano, FTDI adapters)",
    (0x0403, 0x6015): "FTDI FT231X",
    (0x10C4, 0xEA60): "Silicon Labs CP2102",
    (0x2341, 0x0043): "Arduino Uno",
    (0x2341, 0x0001): "Arduino Uno",
    (0x2A03, 0x0043): "Arduino Uno (arduino.org)",
}

OpenPort = Callable[[str], serial.SerialBase]


def find_die_ports() -> list[str]:
    """Serial ports whose USB ids are those of the boards a DIY die or hub is built on."""
    return sorted(p.device for p in list_ports.comports() if (p.vid, p.pid) in KNOWN_USB_IDS)


def open_serial(port: str, baudrate: int = BAUDRATE) -> serial.SerialBase:
    """Open ``port`` (a device path or a pyserial URL such as ``loop://``) for frame reading."""
    return serial.serial_for_url(port, baudrate=baudrate, timeout=0.2, write_timeout=1.0)


@dataclass
class LineStats:
    """What a source has seen on its line, for ``companion die list`` and the logs."""

    frames: int = 0
    problems: int = 0
    connects: int = 0
    lost: int = 0


class SerialDieSource:
    """Readings from every die on one serial port, as an iterator fed by a background thread.

    ``port`` is a device path (``/dev/ttyUSB0``, better a stable ``/dev/serial/by-id/...``
    link) or None to take the first port with a known USB id. ``open_port`` is the seam tests
    use; by default it is :func:`open_serial`.
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        source: str = SOURCE_NAME,
        open_port: OpenPort = open_serial,
        retry_min: float = 0.5,
        retry_max: float = 5.0,
    ) -> None:
        self.port = port
        self.source = source
        self.stats = LineStats()
        self._open_port = open_port
        self._retry_min = retry_min
        self._retry_max = retry_max
        self._readings: queue.Queue[DieReading] = queue.Queue()
        self.replies: queue.Queue[Message] = queue.Queue(maxsize=512)
        self._filter = ReadingFilter()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self.connected = threading.Event()

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> SerialDieSource:
        """Start the reader thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name=f"die-serial-{self.port or 'auto'}", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread and close the port; iteration ends once the queue is drained."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> SerialDieSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __iter__(self) -> Iterator[DieReading]:
        while not (self._stop.is_set() and self._readings.empty()):
            try:
                yield self._readings.get(timeout=0.1)
            except queue.Empty:
                continue

    def get(self, timeout: float | None = None) -> DieReading | None:
        """The next reading, or None after ``timeout`` seconds without one."""
        try:
            return self._readings.get(timeout=timeout)
        except queue.Empty:
            return None

    def send(self, command: Command) -> bool:
        """Write a command to the line; False when no port is open right now."""
        ser = self._serial
        if ser is None:
            return False
        try:
            with self._write_lock:
                ser.write(command.frame())
                ser.flush()
        except (serial.SerialException, OSError) as exc:
            log.warning("could not send %s to %s: %s", command.type.name, self.port, exc)
            return False
        return True

    # --- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        delay = self._retry_min
        complained: str | None = None
        while not self._stop.is_set():
            port = self.port or next(iter(find_die_ports()), None)
            if port is None:
                if complained != "none":
                    log.warning("no DIY die or hub found on USB; waiting for one to be plugged in")
                    complained = "none"
                self._stop.wait(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            try:
                ser = self._open_port(port)
            except (serial.SerialException, OSError, ValueError) as exc:
                if complained != f"open {port}":
                    log.warning("cannot open die port %s (%s); will keep trying", port, exc)
                    complained = f"open {port}"
                self._stop.wait(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            complained = None
            delay = self._retry_min
            self.stats.connects += 1
            log.info("die line open on %s", port)
            self._serial = ser
            self.connected.set()
            try:
                self._read_until_lost(ser, port)
            finally:
                self.connected.clear()
                self._serial = None
                with contextlib.suppress(serial.SerialException, OSError):
                    ser.close()

    def _read_until_lost(self, ser: serial.SerialBase, port: str) -> None:
        # A fresh decoder per connection: whatever half frame was pending died with the cable.
        decoder = FrameDecoder()
        last_complaint = 0.0
        try:
            while not self._stop.is_set():
                # Every port serial_for_url opens (a tty, loop://, socket://) has in_waiting;
                # the stubs declare it only on Serial.
                data = ser.read(max(1, ser.in_waiting))  # type: ignore[attr-defined]
                if not data:
                    continue
                for item in decoder.feed(data):
                    if isinstance(item, Problem):
                        self.stats.problems += 1
                        now = time.monotonic()
                        # One line per second at most: a noisy cable must not flood the log.
                        if now - last_complaint > 1.0:
                            log.warning(
                                "bad data on %s: %s (%d bad frames so far; skipped, the die "
                                "repeats its state every 2 s)",
                                port,
                                item.detail,
                                self.stats.problems,
                            )
                            last_complaint = now
                        continue
                    self.stats.frames += 1
                    self._accept(item)
        except (serial.SerialException, OSError) as exc:
            self.stats.lost += 1
            log.warning("die line on %s lost (%s): unplugged? reopening when it is back", port, exc)

    def _accept(self, msg: Message) -> None:
        kept = sort_message(msg, self.source, self._filter)
        if isinstance(kept, DieReading):
            self._readings.put(kept)
        elif kept is not None:
            # Bounded: nobody reads replies while no command is running, and a die streaming
            # samples must not grow memory without end.
            with contextlib.suppress(queue.Full):
                self.replies.put_nowait(kept)


class CommandTimeout(TimeoutError):
    """The die did not answer a command, even after the retries."""


class SerialLink:
    """A request/response conversation with a die over a source's line, for ``companion die``.

    Commands are retried: a byte lost on the way in makes the die drop the frame silently
    (its CRC fails), and an Arduino Nano spends its first two seconds after the port opens in
    its bootloader (opening the port resets it).
    """

    def __init__(self, src: SerialDieSource) -> None:
        self.src = src
        self._seq = 0

    def next_seq(self) -> int:
        """A fresh command sequence number, so a late ACK is not taken for the new one."""
        self._seq = (self._seq + 1) & 0xFF
        return self._seq

    def request(
        self,
        make: Callable[[int], Command],
        *,
        timeout: float = 0.8,
        attempts: int = 4,
    ) -> tuple[Ack, Info | None]:
        """Send ``make(seq)`` and wait for its ACK (and the INFO a STATUS brings)."""
        if not self.src.connected.wait(timeout * attempts):
            raise CommandTimeout(f"no die port open ({self.src.port or 'auto-detect'})")
        for _ in range(attempts):
            command = make(self.next_seq())
            self.src.send(command)
            wait = AnswerWait(command)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    msg = self.src.replies.get(timeout=max(0.01, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if (answer := wait.take(msg)) is not None:
                    return answer
        raise CommandTimeout("the die did not answer (is it powered, and on this port?)")


# --- as a dice source ----------------------------------------------------------------------------


def serial_dice(
    context: SourceContext,
    port: str | None = None,
    *,
    open_port: OpenPort = open_serial,
    retry_min: float = 0.5,
    retry_max: float = 5.0,
) -> SerialDice:
    """The registry's factory (kind ``diy-serial``): the DIY dice on ``port`` (``auto`` or
    None: the first port with a known USB id). Whose dice they are, the pairing says."""
    return SerialDice(
        None if port in (None, "auto") else port,
        open_port=open_port,
        retry_min=retry_min,
        retry_max=retry_max,
    )


class SerialDice(PumpedSource):
    """A :class:`SerialDieSource` pumped into the hub. The port opens at ``start`` (opening it
    resets a Nano, which then needs 2 s) and is retried until it is there."""

    def __init__(self, port: str | None, **options: Any) -> None:
        self.line = SerialDieSource(port, **options)
        self.seen: set[str] = set()  # the dice heard on this line: Blink goes to them only
        self._seq = 0
        super().__init__(
            f"DIY dice on {port or 'the first USB die port'}",
            self._readings,
            needs=Need.SERIAL_PORT,
            close=self.line.stop,
        )

    def _readings(self) -> Iterator[DieReading]:
        for reading in self.line.start():
            self.seen.add(reading.die_id)
            yield reading

    def blink(self, ref: DieRef) -> bool:
        number = die_number(ref.die_id)
        if ref.source != self.line.source or ref.die_id not in self.seen or number is None:
            return False
        self._seq = (self._seq + 1) & 0xFF
        return self.line.send(blink_command(self._seq, 3, number))
