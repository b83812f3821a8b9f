"""GoDice (Particula): the notification and command layouts, and the face from the gravity vector.

Written from the wire facts in ``research/ble-dice.md`` §2 (the protocol is public in
Particula's repositories); none of Particula's code is used, because its licence forbids
redistribution and commercial use. Pure functions, bytes in and values out; every decoder
raises :class:`DiceProtocolError` on a packet it cannot read.

The die does not compute its face: on settling it sends a gravity vector (int8, about 64 per g)
and the host picks the nearest reference vector for the shell the die is wearing, which only
the host knows (so it is stored per die, see ``Shell``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from companion.dice.errors import DiceProtocolError, need

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"  # Nordic UART Service
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"  # NUS RX: host -> die
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"  # NUS TX: die -> host
NAME_PREFIX = "GoDice_"


class Shell(IntEnum):
    """The shell clipped over the d6 core (numbers as in Particula's APIs)."""

    D6 = 0
    D20 = 1
    D10 = 2
    D10X = 3
    D4 = 4
    D8 = 5
    D12 = 6


class Stable(StrEnum):
    """How the die says it came to rest. Only a plain ``S`` is a roll by default."""

    STABLE = "S"
    FAKE = "FS"  # a brief pause during a roll
    TILT = "TS"  # at rest, leaning
    MOVE = "MS"  # moved or placed, not rolled


COLOURS = ("black", "red", "green", "blue", "yellow", "orange")

Vector = tuple[int, int, int]

D6_VECTORS: dict[int, Vector] = {
    1: (-64, 0, 0),
    2: (0, 0, 64),
    3: (0, 64, 0),
    4: (0, -64, 0),
    5: (0, 0, -64),
    6: (64, 0, 0),
}
D20_VECTORS: dict[int, Vector] = {
    1: (-64, 0, -22),
    2: (42, -42, 40),
    3: (0, 22, -64),
    4: (0, 22, 64),
    5: (-42, -42, 42),
    6: (22, 64, 0),
    7: (-42, -42, -42),
    8: (64, 0, -22),
    9: (-22, 64, 0),
    10: (42, -42, -42),
    11: (-42, 42, 42),
    12: (22, -64, 0),
    13: (-64, 0, 22),
    14: (42, 42, 42),
    15: (-22, -64, 0),
    16: (42, 42, -42),
    17: (0, -22, -64),
    18: (0, -22, 64),
    19: (-42, 42, -42),
    20: (64, 0, 22),
}
D24_VECTORS: dict[int, Vector] = {
    1: (20, -60, -20),
    2: (20, 0, 60),
    3: (-40, -40, 40),
    4: (-60, 0, 20),
    5: (40, 20, 40),
    6: (-20, -60, -20),
    7: (20, 60, 20),
    8: (-40, 20, -40),
    9: (-40, 40, 40),
    10: (-20, 0, 60),
    11: (-20, -60, 20),
    12: (60, 0, 20),
    13: (-60, 0, -20),
    14: (20, 60, -20),
    15: (20, 0, -60),
    16: (40, -20, -40),
    17: (-20, 60, -20),
    18: (-40, -40, -40),
    19: (40, -20, 40),
    20: (20, -60, 20),
    21: (60, 0, -20),
    22: (40, 20, -40),
    23: (-20, 0, -60),
    24: (-20, 60, 20),
}
_D10 = (8, 2, 6, 1, 4, 3, 9, 0, 7, 5, 5, 7, 0, 9, 3, 4, 1, 6, 2, 8)
_D4 = (3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2)
_D8 = (3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6)

# Per shell: which reference table, and how its raw result maps to the number on top. Data,
# not code: a new shell is one line.
SHELLS: dict[Shell, tuple[dict[int, Vector], tuple[int, ...] | None, int]] = {
    Shell.D6: (D6_VECTORS, None, 1),
    Shell.D20: (D20_VECTORS, None, 1),
    Shell.D10: (D20_VECTORS, _D10, 1),
    Shell.D10X: (D20_VECTORS, _D10, 10),
    Shell.D4: (D24_VECTORS, _D4, 1),
    Shell.D8: (D24_VECTORS, _D8, 1),
    Shell.D12: (D24_VECTORS, tuple(list(range(1, 13)) * 2), 1),
}


def face_from_vector(vector: Vector, shell: Shell = Shell.D6) -> int:
    """The number on top: the nearest reference vector for the shell, then its transform."""
    table, transform, scale = SHELLS[shell]
    x, y, z = vector
    raw = min(
        table,
        key=lambda k: (table[k][0] - x) ** 2 + (table[k][1] - y) ** 2 + (table[k][2] - z) ** 2,
    )
    return (transform[raw - 1] if transform else raw) * scale


def vector_for_face(face: int, shell: Shell = Shell.D6) -> Vector:
    """A reference vector that reads as ``face`` (the simulated die's side)."""
    table, transform, scale = SHELLS[shell]
    for raw, vec in table.items():
        if (transform[raw - 1] if transform else raw) * scale == face:
            return vec
    raise ValueError(f"a {shell.name} shell has no face {face}")


# --- notifications -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollStarted:
    pass


@dataclass(frozen=True, slots=True)
class Settled:
    kind: Stable
    vector: Vector


@dataclass(frozen=True, slots=True)
class Battery:
    pct: int


@dataclass(frozen=True, slots=True)
class Colour:
    code: int

    @property
    def name(self) -> str:
        return COLOURS[self.code] if self.code < len(COLOURS) else f"colour {self.code}"


@dataclass(frozen=True, slots=True)
class Charging:
    on: bool


@dataclass(frozen=True, slots=True)
class Tap:
    double: bool = False


Notification = RollStarted | Settled | Battery | Colour | Charging | Tap

_STABLE_PREFIXES = (b"FS", b"TS", b"MS")


def _vector(data: bytes, at: int) -> Vector:
    x, y, z = struct.unpack_from("<bbb", data, at)
    return (x, y, z)


def decode_notification(data: bytes) -> Notification:
    """One notification. Longer prefixes are tried first: ``TS`` and ``Tap`` both start with T."""
    data = bytes(data)
    need("GoDice notification", data, 1)
    if data.startswith(b"DTap"):
        return Tap(double=True)
    if data.startswith(b"Tap"):
        return Tap()
    if data.startswith(b"Bat"):
        need("GoDice battery", data, 4)
        if data[3] > 100:
            raise DiceProtocolError("GoDice battery", data, f"level {data[3]} % over 100")
        return Battery(data[3])
    if data.startswith(b"Col"):
        need("GoDice colour", data, 4)
        return Colour(data[3])
    if data.startswith(b"Char"):
        need("GoDice charging", data, 5)
        return Charging(bool(data[4]))
    if data[:2] in _STABLE_PREFIXES:
        need(f"GoDice {data[:2].decode()}", data, 5)
        return Settled(Stable(data[:2].decode()), _vector(data, 2))
    if data[:1] == b"S":
        need("GoDice stable", data, 4, exact=True)
        return Settled(Stable.STABLE, _vector(data, 1))
    if data[:1] == b"R":
        return RollStarted()
    raise DiceProtocolError(
        "GoDice notification", data, "no known prefix (R, S, FS, TS, MS, Bat, Col, Char, Tap, DTap)"
    )


def encode_notification(msg: Notification) -> bytes:
    """The die's side of :func:`decode_notification` (the simulator and tests use it)."""
    if isinstance(msg, RollStarted):
        return b"R"
    if isinstance(msg, Settled):
        return msg.kind.value.encode() + struct.pack("<bbb", *msg.vector)
    if isinstance(msg, Battery):
        return b"Bat" + bytes([msg.pct])
    if isinstance(msg, Colour):
        return b"Col" + bytes([msg.code])
    if isinstance(msg, Charging):
        return b"Char" + bytes([int(msg.on)])
    return b"DTap" if msg.double else b"Tap"


# --- commands ------------------------------------------------------------------------------

REQUEST_BATTERY = bytes([0x03])
REQUEST_COLOUR = bytes([0x17])
LEDS_OFF = bytes([0x14])
DEFAULT_SENSITIVITY = 30

RGB = tuple[int, int, int]


def leds_on(led1: RGB, led2: RGB | None = None) -> bytes:
    """Both LEDs steady (``0x08``)."""
    return bytes([0x08, *led1, *(led2 or led1)])


def blink(
    count: int = 3,
    on_ms: int = 500,
    off_ms: int = 500,
    colour: RGB = (0, 255, 0),
    parallel: bool = True,
    leds: int = 0,
) -> bytes:
    """Blink the LEDs (``0x10``); 255 blinks is forever, times are in 10 ms steps."""
    return bytes([0x10, *_blink_args(count, on_ms, off_ms, colour, parallel, leds)])


def _blink_args(
    count: int, on_ms: int, off_ms: int, colour: RGB, parallel: bool, leds: int
) -> bytes:
    return bytes(
        [
            min(count, 255),
            min(on_ms // 10, 255),
            min(off_ms // 10, 255),
            *colour,
            int(parallel),
            leds,
        ]
    )


def init_message(sensitivity: int = DEFAULT_SENSITIVITY) -> bytes:
    """Sent on every connection: pins the roll sensitivity and blinks green three times, the
    same greeting the vendor's app gives (``19 1e 03 32 32 00 ff 00 01 00``)."""
    return bytes([0x19, sensitivity, *_blink_args(3, 500, 500, (0, 255, 0), True, 0)])


def decode_command(data: bytes) -> tuple[int, bytes]:
    """What the host asked (the simulated die's side): the command byte and its arguments."""
    need("GoDice command", data, 1)
    return data[0], bytes(data[1:])
