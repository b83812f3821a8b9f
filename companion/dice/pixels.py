"""Pixels dice (Systemic Games): UUIDs, advertisement and message layouts, as pure functions.

Bytes in, values out; no bleak here, so every layout is tested on real bytes without a radio.
The constants and layouts are ported from the MIT-licensed ``GameWithPixels/DiceFirmware`` and
``pixels-js`` (Copyright (c) Systemic Games), as summarised in ``research/ble-dice.md`` §1.
Every decoder raises :class:`DiceProtocolError` on a short or impossible packet; the sources
catch it and drop the packet.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from companion.dice.errors import DiceProtocolError, need

# --- identity on the air -------------------------------------------------------------------

# Firmware from late 2024 on (DiceFirmware 571e0ce) uses its own random base UUID and the
# Systemic Games company id; older firmware used the Nordic-UART-like UUIDs (shared with GoDice,
# so the service alone does not tell a legacy Pixel from a GoDice) and the test company 0xFFFF.
SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = LEGACY_SERVICE  # yes: the legacy notify characteristic shares the service UUID
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
COMPANY_ID = 0x0D39
LEGACY_COMPANY_ID = 0xFFFF
INFO_SERVICE_DATA = "0000180a-0000-1000-8000-00805f9b34fb"  # pixel id + firmware date

# Firmware dates (UNIX seconds) that change how faces and states must be read.
FW_2023_11_17 = 1_704_150_000  # at or before: d6/d4 face indices use the old order
FW_2024_05_22 = 1_716_336_000  # before: a slightly tilted d6 reports "crooked" on a flat face


def uuids(legacy: bool) -> tuple[str, str, str]:
    """(service, notify, write) for a die of either firmware generation."""
    return (LEGACY_SERVICE, LEGACY_NOTIFY, LEGACY_WRITE) if legacy else (SERVICE, NOTIFY, WRITE)


class RollState(IntEnum):
    UNKNOWN = 0
    ROLLED = 1  # finished rolling on a face, after what looked like a proper roll
    HANDLING = 2  # picked up, moved about
    ROLLING = 3
    CROOKED = 4  # at rest, but not on a face
    ON_FACE = 5  # at rest on a face without having moved enough to call it a roll


class BatteryState(IntEnum):
    OK = 0
    LOW = 1
    CHARGING = 2
    DONE = 3
    BAD_CHARGING = 4
    ERROR = 5


class DieType(IntEnum):
    UNKNOWN = 0
    D4 = 1
    D6 = 2
    D8 = 3
    D10 = 4
    D00 = 5
    D12 = 6
    D20 = 7
    D6PIPPED = 8
    D6FUDGE = 9
    M20 = 10


# When the die type is unknown (old firmware), pixels-js guesses it from the LED count.
_TYPE_FROM_LEDS = {
    4: DieType.D4,
    6: DieType.D6,
    8: DieType.D8,
    10: DieType.D10,
    12: DieType.D12,
    20: DieType.D20,
    21: DieType.D6PIPPED,
}
D6_TYPES = frozenset({DieType.D6, DieType.D6PIPPED, DieType.D6FUDGE})

COLORWAYS = (
    "unknown",
    "onyxBlack",
    "hematiteGrey",
    "midnightGalaxy",
    "auroraSky",
    "clear",
    "whiteAurora",
)


def die_type_of(raw_type: int, led_count: int) -> DieType:
    """The die type, guessed from the LED count when the firmware does not say."""
    try:
        kind = DieType(raw_type)
    except ValueError:
        kind = DieType.UNKNOWN
    return _TYPE_FROM_LEDS.get(led_count, DieType.UNKNOWN) if kind is DieType.UNKNOWN else kind


def colorway_name(code: int) -> str:
    return (
        COLORWAYS[code]
        if code < len(COLORWAYS)
        else ("custom" if code in (0xF, 0xFF) else "unknown")
    )


# --- faces ---------------------------------------------------------------------------------

_OLD_D6 = (1, 5, 4, 3, 2, 6)  # index -> face, firmware at or before FW_2023_11_17
_OLD_D4 = {3: 2, 2: 3, 5: 4}  # anything else -> 1


def face_value(kind: DieType, index: int, firmware: int | None, led_count: int = 6) -> int:
    """The number on top, from the face index a die reports (pixels-js ``faceFromIndex``).

    Dice whose firmware predates 2024 number d6 and d4 faces in another order; without a known
    firmware date we assume current firmware (every die the app has touched since is updated).
    """
    old = firmware is not None and firmware <= FW_2023_11_17 and led_count == 6
    if kind in D6_TYPES:
        if not 0 <= index <= 5:
            raise DiceProtocolError("face index", bytes([index & 0xFF]), "a d6 has indices 0..5")
        return _OLD_D6[index] if old and kind is not DieType.D6PIPPED else index + 1
    if kind is DieType.D4 and old:
        return _OLD_D4.get(index, 1)
    if kind is DieType.D10:
        return index
    if kind is DieType.D00:
        return index * 10
    return index + 1


# --- advertisement -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AdvertStatus:
    """The manufacturer data every advertisement carries (bleak strips the company id)."""

    led_count: int
    die_type: DieType
    colorway: str
    roll_state: RollState
    face_index: int
    battery_pct: int
    charging: bool


@dataclass(frozen=True, slots=True)
class AdvertIdentity:
    """The scan response's service data: which die this is, and its firmware build date."""

    pixel_id: int
    firmware: int  # build timestamp, UNIX seconds


def decode_manufacturer_data(data: bytes) -> AdvertStatus:
    """``manufacturer_data[0x0D39]`` (or ``[0xFFFF]`` on legacy firmware): 5 bytes."""
    need("Pixels manufacturer data", data, 5)
    leds, design, state, face, battery = data[:5]
    try:
        roll_state = RollState(state)
    except ValueError:
        raise DiceProtocolError(
            "Pixels manufacturer data", data, f"roll state {state} is not one of 0..5"
        ) from None
    return AdvertStatus(
        leds,
        die_type_of(design >> 4, leds),
        colorway_name(design & 0x0F),
        roll_state,
        face,
        battery & 0x7F,
        bool(battery & 0x80),
    )


def decode_service_data(data: bytes) -> AdvertIdentity:
    """``service_data[0x180A]``: pixel id u32 and firmware build time u32, little-endian."""
    need("Pixels service data", data, 8)
    pixel_id, firmware = struct.unpack_from("<II", data)
    return AdvertIdentity(pixel_id, firmware)


def encode_manufacturer_data(status: AdvertStatus, raw_type: int | None = None) -> bytes:
    """The die's side of :func:`decode_manufacturer_data` (the simulator and tests use it)."""
    kind = status.die_type if raw_type is None else raw_type
    colour = COLORWAYS.index(status.colorway) if status.colorway in COLORWAYS else 0xF
    return bytes(
        [
            status.led_count,
            (int(kind) << 4) | colour,
            int(status.roll_state),
            status.face_index,
            (status.battery_pct & 0x7F) | (0x80 * status.charging),
        ]
    )


def encode_service_data(identity: AdvertIdentity) -> bytes:
    return struct.pack("<II", identity.pixel_id, identity.firmware)


# --- messages over the connected service ----------------------------------------------------


class MessageType(IntEnum):
    WHO_ARE_YOU = 1
    I_AM_A_DIE = 2
    ROLL_STATE = 3
    TELEMETRY = 4
    DEBUG_LOG = 18
    REQUEST_ROLL_STATE = 23
    BLINK = 29
    BLINK_ACK = 30
    REQUEST_BATTERY_LEVEL = 33
    BATTERY_LEVEL = 34
    REQUEST_RSSI = 35
    RSSI = 36
    POWER_OPERATION = 53
    BLINK_ID = 65
    BLINK_ID_ACK = 66


@dataclass(frozen=True, slots=True)
class IAmADie:
    """The answer to WhoAreYou: who the die is and how it lies right now."""

    pixel_id: int
    die_type: DieType
    led_count: int
    colorway: str
    firmware: int
    roll_state: RollState
    face_index: int
    battery_pct: int
    battery_state: BatteryState | None
    name: str = ""


@dataclass(frozen=True, slots=True)
class RollStateMessage:
    state: RollState
    face_index: int


@dataclass(frozen=True, slots=True)
class BatteryLevel:
    pct: int
    state: BatteryState | None


@dataclass(frozen=True, slots=True)
class Rssi:
    dbm: int


@dataclass(frozen=True, slots=True)
class Ack:
    """BlinkAck, BlinkIdAck: the die did what it was asked."""

    of: MessageType


@dataclass(frozen=True, slots=True)
class Other:
    """A message we do not need here (debug log, telemetry, ...): kept, never an error."""

    type: int
    payload: bytes


Message = IAmADie | RollStateMessage | BatteryLevel | Rssi | Ack | Other


def _roll_state(value: int, data: bytes) -> RollState:
    try:
        return RollState(value)
    except ValueError:
        raise DiceProtocolError(
            "Pixels message", data, f"roll state {value} is not one of 0..5"
        ) from None


def _battery_state(value: int) -> BatteryState | None:
    try:
        return BatteryState(value)
    except ValueError:
        return None  # a newer firmware's state: the level still counts


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def decode_message(data: bytes) -> Message:
    """One notification from the die: byte 0 is the type, the rest a packed LE payload."""
    need("Pixels message", data, 1)
    kind = data[0]
    if kind == MessageType.ROLL_STATE:
        need("Pixels RollState", data, 3)
        return RollStateMessage(_roll_state(data[1], data), data[2])
    if kind == MessageType.I_AM_A_DIE:
        return decode_i_am_a_die(data)
    if kind == MessageType.BATTERY_LEVEL:
        need("Pixels BatteryLevel", data, 3)
        if data[1] > 100:
            raise DiceProtocolError("Pixels BatteryLevel", data, f"level {data[1]} % over 100")
        return BatteryLevel(data[1], _battery_state(data[2]))
    if kind == MessageType.RSSI:
        need("Pixels Rssi", data, 2)
        return Rssi(struct.unpack_from("<b", data, 1)[0])
    if kind == MessageType.BLINK_ACK:
        return Ack(MessageType.BLINK)
    if kind == MessageType.BLINK_ID_ACK:
        return Ack(MessageType.BLINK_ID)
    return Other(kind, bytes(data[1:]))


LEGACY_I_AM_A_DIE_SIZE = 22


def decode_i_am_a_die(data: bytes) -> IAmADie:
    """Both layouts: the legacy flat 22 bytes, and the current one of size-prefixed chunks."""
    need("Pixels IAmADie", data, 2)
    if data[0] != MessageType.I_AM_A_DIE:
        raise DiceProtocolError("Pixels IAmADie", data, f"type {data[0]}, expected 2")
    if len(data) == LEGACY_I_AM_A_DIE_SIZE:
        (
            _,
            leds,
            colour,
            raw_type,
            _hash,
            pixel_id,
            _flash,
            firmware,
            state,
            face,
            pct,
            battery,
        ) = struct.unpack("<BBBBIIHIBBBB", data)
        return IAmADie(
            pixel_id,
            die_type_of(raw_type, leds),
            leds,
            colorway_name(colour),
            firmware,
            _roll_state(state, data),
            face,
            pct,
            _battery_state(battery),
        )
    chunks: list[bytes] = []
    at = 1
    while at < len(data) and len(chunks) < 6:
        size = data[at]
        if size == 0 or at + size > len(data):
            raise DiceProtocolError(
                "Pixels IAmADie", data, f"chunk {len(chunks) + 1} at byte {at} claims {size} bytes"
            )
        chunks.append(bytes(data[at + 1 : at + size]))
        at += size
    if len(chunks) < 6:
        raise DiceProtocolError(
            "Pixels IAmADie", data, f"{len(chunks)} chunks, expected 6 (or the 22-byte legacy form)"
        )
    version, info, _design, name, _settings, status = chunks
    if len(version) < 6 or len(info) < 7 or len(status) < 4:
        raise DiceProtocolError(
            "Pixels IAmADie", data, "version, die or status chunk too short for its fields"
        )
    firmware = struct.unpack_from("<I", version, 2)[0]
    pixel_id, _chip, raw_type, leds, colour = struct.unpack_from("<IBBBB", info)
    pct, battery, state, face = status[:4]
    return IAmADie(
        pixel_id,
        die_type_of(raw_type, leds),
        leds,
        colorway_name(colour),
        firmware,
        _roll_state(state, data),
        face,
        pct,
        _battery_state(battery),
        _text(name),
    )


def encode_i_am_a_die(die: IAmADie, legacy: bool = False) -> bytes:
    """The die's reply, in either layout (for the simulator and the tests)."""
    colour = COLORWAYS.index(die.colorway) if die.colorway in COLORWAYS else 0xFF
    battery = int(die.battery_state or 0)
    if legacy:
        return struct.pack(
            "<BBBBIIHIBBBB",
            2,
            die.led_count,
            colour,
            int(die.die_type),
            0,
            die.pixel_id,
            0,
            die.firmware,
            int(die.roll_state),
            die.face_index,
            die.battery_pct,
            battery,
        )

    def chunk(payload: bytes) -> bytes:
        return bytes([len(payload) + 1]) + payload

    name = die.name.encode()[:31]
    return b"\x02" + b"".join(
        [
            chunk(struct.pack("<HIHHHH", 0x0100, die.firmware, 1, 1, 1, 1)),
            chunk(
                struct.pack("<IBBBBB", die.pixel_id, 1, int(die.die_type), die.led_count, colour, 0)
            ),
            chunk(b""),
            chunk(name),
            chunk(struct.pack("<III", 0, 0, 0)),
            chunk(bytes([die.battery_pct, battery, int(die.roll_state), die.face_index])),
        ]
    )


def encode_roll_state(state: RollState, face_index: int) -> bytes:
    return bytes([MessageType.ROLL_STATE, int(state), face_index])


def encode_battery_level(pct: int, state: BatteryState = BatteryState.OK) -> bytes:
    return bytes([MessageType.BATTERY_LEVEL, pct, int(state)])


# Host -> die.


def who_are_you() -> bytes:
    return bytes([MessageType.WHO_ARE_YOU])


def request_roll_state() -> bytes:
    return bytes([MessageType.REQUEST_ROLL_STATE])


def request_battery_level() -> bytes:
    return bytes([MessageType.REQUEST_BATTERY_LEVEL])


def blink(
    count: int = 3,
    duration_ms: int = 1000,
    color: int = 0xFF0000,
    face_mask: int = 0xFFFFFFFF,
    fade: int = 0,
    loop_count: int = 1,
) -> bytes:
    """Flash the die's LEDs: how a player finds which die is theirs while pairing."""
    return struct.pack(
        "<BBHIIBB",
        MessageType.BLINK,
        count,
        duration_ms,
        color & 0xFFFFFF,
        face_mask,
        fade,
        loop_count,
    )


def blink_id(brightness: int = 0x80, loop_count: int = 1) -> bytes:
    return bytes([MessageType.BLINK_ID, brightness, loop_count])


def decode_command(data: bytes) -> tuple[MessageType | int, bytes]:
    """What the host asked (the simulated die's side): the type and its payload."""
    need("Pixels command", data, 1)
    try:
        return MessageType(data[0]), bytes(data[1:])
    except ValueError:
        return data[0], bytes(data[1:])
