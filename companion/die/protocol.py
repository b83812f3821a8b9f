"""The DIY die's frame protocol (``firmware/PROTOCOL.md``): pure functions, bytes in, messages out.

No serial port, no Bluetooth, no clock here: the serial and BLE sources, the ``companion die``
commands and the tests all share this one decoder, and the firmware's C code is checked against
the same test vectors (``firmware/protocol/vectors.txt``), so the two sides cannot drift apart.

Wire format: ``COBS(payload + CRC-16/CCITT-FALSE little-endian) + 0x00``. The payload starts
``version, type, seq``. A receiver that loses a byte or starts listening mid-frame drops that one
frame (its CRC fails or it is cut short) and is back in step at the next ``0x00``.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum

from companion.dice.reading import DieReading, DieState

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 32
# The longest good frame without its delimiter: payload + CRC + one COBS code byte.
MAX_ENCODED = MAX_PAYLOAD + 3
DIE_ID_UNSET = 0
DIE_ID_ANY = 0xFFFF

# Colour codes 0..10; the index is the code on the wire. PROTOCOL.md has the same table.
COLOURS: tuple[str, ...] = (
    "none",
    "red",
    "white",
    "black",
    "blue",
    "green",
    "yellow",
    "orange",
    "purple",
    "grey",
    "brown",
)


class MessageType(IntEnum):
    """First byte after the version. Die -> host below 0x80, host -> die from 0x80."""

    READING = 0x01
    INFO = 0x02
    ACK = 0x03
    SAMPLE = 0x04
    STATUS = 0x81
    BLINK = 0x82
    CALIBRATE = 0x83
    SET_ID = 0x84
    SET_COLOUR = 0x85
    STREAM = 0x86


class WireState(IntEnum):
    """The die's state byte in a READING."""

    ROLLING = 0
    SETTLED = 1
    COCKED = 2
    UNSURE = 3


class AckStatus(IntEnum):
    """Result byte of an ACK; the names are what the CLI tells the user."""

    OK = 0
    BAD_ARGUMENT = 1
    MOVING = 2
    TOO_CLOSE = 3
    UNKNOWN_COMMAND = 4
    BAD_VERSION = 5


ACK_HELP = {
    AckStatus.OK: "done",
    AckStatus.BAD_ARGUMENT: "the die refused the value",
    AckStatus.MOVING: "the die is moving: let it rest flat, then try again",
    AckStatus.TOO_CLOSE: (
        "that is the same side as a face already calibrated: turn the die to the asked face"
    ),
    AckStatus.UNKNOWN_COMMAND: "the die's firmware does not know this command (update it)",
    AckStatus.BAD_VERSION: "the die speaks another protocol version (update the firmware)",
}

_WIRE_TO_STATE = {
    WireState.ROLLING: DieState.ROLLING,
    WireState.SETTLED: DieState.SETTLED,
    WireState.COCKED: DieState.COCKED,
    WireState.UNSURE: DieState.UNSURE,
}


class FrameError(ValueError):
    """A frame that is damaged on the wire: bad COBS, bad CRC, too short or too long."""


class MessageError(ValueError):
    """A frame that arrived intact but whose payload we cannot use (version, type, length)."""


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): small to compute on an 8-bit AVR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the output holds no 0x00, so 0x00 can end frames."""
    out = bytearray([0])
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; a zero byte or a code running past the end means damage."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        i += 1
        if code == 0 or i + code - 1 > len(data):
            raise FrameError("COBS code byte points past the end of the frame")
        block = data[i : i + code - 1]
        if 0 in block:
            raise FrameError("zero byte inside a COBS frame")
        out += block
        i += code - 1
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    """Wire bytes for one payload: CRC appended, COBS-stuffed, 0x00 at the end."""
    if not 1 <= len(payload) <= MAX_PAYLOAD:
        raise ValueError(f"payload must be 1..{MAX_PAYLOAD} bytes, got {len(payload)}")
    body = payload + struct.pack("<H", crc16_ccitt(payload))
    return cobs_encode(body) + b"\x00"


def decode_frame(encoded: bytes) -> bytes:
    """Payload of one frame given without its 0x00 delimiter; FrameError if damaged."""
    if len(encoded) > MAX_ENCODED:
        raise FrameError(f"frame of {len(encoded)} bytes is longer than any the die sends")
    raw = cobs_decode(encoded)
    if len(raw) < 3:
        raise FrameError(f"frame of {len(raw)} bytes is too short to hold a CRC")
    payload, crc = raw[:-2], struct.unpack("<H", raw[-2:])[0]
    if crc16_ccitt(payload) != crc:
        raise FrameError("CRC mismatch (a byte was lost or damaged)")
    return payload


# --- messages --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """What the die says about itself: sent on every change and every 2 s as a heartbeat."""

    seq: int
    die_id: int
    state: WireState
    face: int | None
    roll: int
    battery_pct: int | None  # None: unknown, or powered from USB
    colour: str


@dataclass(frozen=True, slots=True)
class Info:
    """The die's identity and set-up, sent at boot and in answer to STATUS."""

    seq: int
    die_id: int
    colour: str
    firmware: str
    calibrated_faces: frozenset[int]
    battery_mv: int | None
    tick_hz: int


@dataclass(frozen=True, slots=True)
class Ack:
    """The die's answer to a command, matched to it by ``command_seq``."""

    seq: int
    command: int
    command_seq: int
    status: AckStatus


@dataclass(frozen=True, slots=True)
class Sample:
    """One raw accelerometer sample (counts, 16384 = 1 g), only while streaming is on."""

    seq: int
    x: int
    y: int
    z: int


@dataclass(frozen=True, slots=True)
class Command:
    """A host -> die command. ``target`` is the die id it is meant for, or DIE_ID_ANY."""

    type: MessageType
    seq: int
    target: int = DIE_ID_ANY
    args: bytes = b""

    def payload(self) -> bytes:
        """The command's payload bytes (frame it with :func:`encode_frame`)."""
        return (
            bytes([PROTOCOL_VERSION, self.type, self.seq & 0xFF])
            + struct.pack("<H", self.target)
            + self.args
        )

    def frame(self) -> bytes:
        """The command as wire bytes, ready to write to a port."""
        return encode_frame(self.payload())


Message = Reading | Info | Ack | Sample | Command


def colour_code(name: str) -> int:
    """Wire code of a colour name; ValueError listing the names when it is not one of them."""
    try:
        return COLOURS.index(name.lower())
    except ValueError:
        raise ValueError(f"unknown colour {name!r}; choose one of {', '.join(COLOURS)}") from None


def _colour_name(code: int) -> str:
    return COLOURS[code] if code < len(COLOURS) else f"colour-{code}"


def status_command(seq: int, target: int = DIE_ID_ANY) -> Command:
    """Ask the die for an INFO."""
    return Command(MessageType.STATUS, seq, target)


def blink_command(seq: int, times: int, target: int = DIE_ID_ANY) -> Command:
    """Blink the die's LED ``times`` times (1..25), to find it on the table."""
    if not 1 <= times <= 25:
        raise ValueError(f"blink 1..25 times, not {times}")
    return Command(MessageType.BLINK, seq, target, bytes([times]))


def calibrate_command(seq: int, face: int, target: int = DIE_ID_ANY) -> Command:
    """Record the die's present rest vector as ``face``'s normal; face 0 resets the table."""
    if not 0 <= face <= 6:
        raise ValueError(f"face must be 1..6 (or 0 to reset), not {face}")
    return Command(MessageType.CALIBRATE, seq, target, bytes([face]))


def set_id_command(seq: int, die_id: int, target: int = DIE_ID_ANY) -> Command:
    """Give the die a new id, 1..65534, kept in its EEPROM."""
    if not 1 <= die_id <= 0xFFFE:
        raise ValueError(f"a die id is 1..65534, not {die_id}")
    return Command(MessageType.SET_ID, seq, target, struct.pack("<H", die_id))


def set_colour_command(seq: int, colour: str, target: int = DIE_ID_ANY) -> Command:
    """Record the die's colour (its family, or red for Vegas), kept in its EEPROM."""
    return Command(MessageType.SET_COLOUR, seq, target, bytes([colour_code(colour)]))


def stream_command(seq: int, on: bool, target: int = DIE_ID_ANY) -> Command:
    """Turn the raw-sample stream on or off (for recording traces)."""
    return Command(MessageType.STREAM, seq, target, bytes([1 if on else 0]))


def parse_payload(payload: bytes) -> Message:
    """Decode one frame's payload; MessageError when it is not something we understand."""
    if len(payload) < 3:
        raise MessageError(f"payload of {len(payload)} bytes has no header")
    version, mtype, seq = payload[0], payload[1], payload[2]
    if version != PROTOCOL_VERSION:
        raise MessageError(
            f"protocol version {version}, this companion speaks {PROTOCOL_VERSION}: "
            "update the firmware or the companion"
        )
    body = payload[3:]
    try:
        kind = MessageType(mtype)
    except ValueError:
        raise MessageError(f"unknown message type 0x{mtype:02x}") from None
    # Longer bodies are accepted: a later minor revision may append fields.
    try:
        if kind is MessageType.READING:
            die_id, state, face, roll, battery, colour = struct.unpack_from("<HBBHBB", body)
            wire_state = WireState(state)
            if wire_state is WireState.SETTLED and not 1 <= face <= 6:
                raise MessageError(f"settled reading with face {face}")
            return Reading(
                seq,
                die_id,
                wire_state,
                face if wire_state is WireState.SETTLED else None,
                roll,
                None if battery > 100 else battery,
                _colour_name(colour),
            )
        if kind is MessageType.INFO:
            die_id, colour, fw, mask, mv, tick_hz = struct.unpack_from("<HBBBHB", body)
            return Info(
                seq,
                die_id,
                _colour_name(colour),
                f"{fw >> 4}.{fw & 0x0F}",
                frozenset(f for f in range(1, 7) if mask & (1 << (f - 1))),
                mv or None,
                tick_hz,
            )
        if kind is MessageType.ACK:
            command, command_seq, status = struct.unpack_from("<BBB", body)
            return Ack(seq, command, command_seq, AckStatus(status))
        if kind is MessageType.SAMPLE:
            x, y, z = struct.unpack_from("<hhh", body)
            return Sample(seq, x, y, z)
        target = struct.unpack_from("<H", body)[0]
        return Command(kind, seq, target, bytes(body[2:]))
    except struct.error:
        raise MessageError(f"{kind.name} message too short ({len(body)} body bytes)") from None
    except ValueError as exc:  # an unknown state or status enum value
        raise MessageError(f"{kind.name} message: {exc}") from None


def encode_message(msg: Message) -> bytes:
    """Payload bytes for a message: the inverse of :func:`parse_payload` (used by simulators)."""
    if isinstance(msg, Command):
        return msg.payload()
    head = bytes([PROTOCOL_VERSION])
    if isinstance(msg, Reading):
        return (
            head
            + bytes([MessageType.READING, msg.seq])
            + struct.pack(
                "<HBBHBB",
                msg.die_id,
                msg.state,
                msg.face or 0,
                msg.roll,
                255 if msg.battery_pct is None else msg.battery_pct,
                colour_code(msg.colour),
            )
        )
    if isinstance(msg, Info):
        major, minor = (int(p) for p in msg.firmware.split("."))
        mask = sum(1 << (f - 1) for f in msg.calibrated_faces)
        return (
            head
            + bytes([MessageType.INFO, msg.seq])
            + struct.pack(
                "<HBBBHB",
                msg.die_id,
                colour_code(msg.colour),
                major << 4 | minor,
                mask,
                msg.battery_mv or 0,
                msg.tick_hz,
            )
        )
    if isinstance(msg, Ack):
        return head + bytes([MessageType.ACK, msg.seq, msg.command, msg.command_seq, msg.status])
    return head + bytes([MessageType.SAMPLE, msg.seq]) + struct.pack("<hhh", msg.x, msg.y, msg.z)


def die_name(die_id: int) -> str:
    """The ``die_id`` a DIY die has in DieReading: stable across rolls, ports and radios."""
    return f"diy-{die_id}"


def die_number(name: str) -> int | None:
    """The configured id back from :func:`die_name` (a command's target); None if ``name`` is
    not a DIY die's."""
    prefix, _, number = name.partition("-")
    if prefix != "diy" or not number.isdigit() or not 0 < int(number) < DIE_ID_ANY:
        return None
    return int(number)


def to_die_reading(msg: Reading, source: str, signal_dbm: int | None = None) -> DieReading:
    """The shared dice format for one READING."""
    return DieReading(
        source=source,
        die_id=die_name(msg.die_id),
        state=_WIRE_TO_STATE[msg.state],
        face=msg.face,
        roll=msg.roll,
        battery=None if msg.battery_pct is None else msg.battery_pct / 100,
        colour=None if msg.colour == "none" else msg.colour,
        signal_dbm=signal_dbm,
    )


# --- streams ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong on the line, for a log line: never an exception in a source's loop."""

    kind: str  # "frame" (damaged on the wire), "message" (intact but unusable), "overflow"
    detail: str


@dataclass
class FrameDecoder:
    """Split a byte stream into messages, resynchronising on 0x00 after any damage.

    Feed it whatever the port returns, in any chunking (HM-10 notifications are at most 20 bytes,
    a USB read may hold half a frame or five); it keeps the partial frame between calls.
    """

    frames: int = 0
    problems: int = 0
    _buf: bytearray = field(default_factory=bytearray)
    _overflow: bool = False

    def feed(self, data: bytes) -> Iterator[Message | Problem]:
        """Yield every message completed by ``data``, and a Problem for every bad frame."""
        for byte in data:
            if byte != 0:
                if len(self._buf) < MAX_ENCODED:
                    self._buf.append(byte)
                else:
                    self._overflow = True
                continue
            encoded, overflow = bytes(self._buf), self._overflow
            self._buf.clear()
            self._overflow = False
            if not encoded:
                continue
            if overflow:
                self.problems += 1
                yield Problem("overflow", "no frame delimiter for too long: line noise?")
                continue
            try:
                msg = parse_payload(decode_frame(encoded))
            except FrameError as exc:
                self.problems += 1
                yield Problem("frame", str(exc))
                continue
            except MessageError as exc:
                self.problems += 1
                yield Problem("message", str(exc))
                continue
            self.frames += 1
            yield msg


@dataclass
class ReadingFilter:
    """Turn the die's heartbeats into the stream of *changes* that DieReading promises."""

    _last: dict[str, DieReading] = field(default_factory=dict)

    def changed(self, reading: DieReading) -> bool:
        """True when ``reading`` differs from the last one kept for the same die."""
        if self._last.get(reading.die_id) == reading:
            return False
        self._last[reading.die_id] = reading
        return True


def sort_message(msg: Message, source: str, readings: ReadingFilter) -> DieReading | Message | None:
    """Where one message from the line goes, the same for the serial and the BLE source.

    A READING that changed becomes a DieReading; one that did not (a heartbeat) goes nowhere,
    nor does a Command, which is only our own write echoed back. Anything else (ACK, INFO,
    SAMPLE) is a reply, for whoever is waiting on a command.
    """
    if isinstance(msg, Reading):
        reading = to_die_reading(msg, source)
        return reading if readings.changed(reading) else None
    if isinstance(msg, Command):
        return None
    return msg


@dataclass
class AnswerWait:
    """What one command waits for: its ACK and, after a STATUS, the INFO that follows it.

    The ACK must name the command's type and sequence number, so a late ACK to an earlier try
    is not taken for this one. Pure, so the serial and the BLE links agree on what an answer is.
    """

    command: Command
    ack: Ack | None = None

    def take(self, msg: Message) -> tuple[Ack, Info | None] | None:
        """The whole answer once ``msg`` completes it; None while more is still to come."""
        if isinstance(msg, Ack) and (msg.command, msg.command_seq) == (
            self.command.type,
            self.command.seq,
        ):
            self.ack = msg
            if self.command.type is not MessageType.STATUS:
                return msg, None
        elif isinstance(msg, Info) and self.ack is not None:
            return self.ack, msg
        return None
