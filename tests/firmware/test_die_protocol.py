"""The Python side of the die protocol against the shared vectors (the C side reads them too).

If these pass and ``make host-test`` passes, the firmware and the companion agree byte for
byte; the CRC check value and the COBS examples anchor both to the published definitions.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice.reading import DieState
from companion.die.protocol import (
    COLOURS,
    Ack,
    AckStatus,
    Command,
    FrameDecoder,
    FrameError,
    Info,
    MessageType,
    Problem,
    Reading,
    ReadingFilter,
    Sample,
    WireState,
    blink_command,
    calibrate_command,
    cobs_decode,
    cobs_encode,
    colour_code,
    crc16_ccitt,
    decode_frame,
    encode_frame,
    encode_message,
    parse_payload,
    set_id_command,
    to_die_reading,
)

from .conftest import VECTORS


def _vectors(kind: str) -> list[list[str]]:
    rows = []
    for line in VECTORS.read_text().splitlines():
        parts = line.split()
        if parts and parts[0] == kind:
            rows.append(parts[1:])
    assert rows, f"no {kind} vectors in {VECTORS}"
    return rows


def _hex(s: str) -> bytes:
    return b"" if s == "-" else bytes.fromhex(s)


def _ids(kind: str) -> list[str]:
    return [r[0] for r in _vectors(kind)]


@pytest.mark.parametrize("row", _vectors("crc"), ids=_ids("crc"))
def test_crc_matches_vector(row: list[str]) -> None:
    _, data, crc = row
    assert crc16_ccitt(_hex(data)) == int(crc, 16)


@pytest.mark.parametrize("row", _vectors("cobs"), ids=_ids("cobs"))
def test_cobs_matches_vector(row: list[str]) -> None:
    _, raw, encoded = row
    assert cobs_encode(_hex(raw)) == _hex(encoded)
    assert cobs_decode(_hex(encoded)) == _hex(raw)


def _fields(msg: object) -> dict[str, int]:
    """The vector file's k=v names for a decoded message."""
    if isinstance(msg, Reading):
        return {
            "type": 1,
            "seq": msg.seq,
            "die": msg.die_id,
            "state": int(msg.state),
            "face": msg.face or 0,
            "roll": msg.roll,
            "battery": 255 if msg.battery_pct is None else msg.battery_pct,
            "colour": colour_code(msg.colour),
        }
    if isinstance(msg, Info):
        major, minor = (int(p) for p in msg.firmware.split("."))
        return {
            "type": 2,
            "seq": msg.seq,
            "die": msg.die_id,
            "colour": colour_code(msg.colour),
            "firmware": major << 4 | minor,
            "mask": sum(1 << (f - 1) for f in msg.calibrated_faces),
            "mv": msg.battery_mv or 0,
            "tick_hz": msg.tick_hz,
        }
    if isinstance(msg, Ack):
        return {
            "type": 3,
            "seq": msg.seq,
            "command": msg.command,
            "command_seq": msg.command_seq,
            "status": int(msg.status),
        }
    if isinstance(msg, Sample):
        return {"type": 4, "seq": msg.seq, "x": msg.x, "y": msg.y, "z": msg.z}
    assert isinstance(msg, Command)
    return {"type": int(msg.type), "seq": msg.seq, "target": msg.target}


@pytest.mark.parametrize("row", _vectors("frame"), ids=_ids("frame"))
def test_frame_matches_vector(row: list[str]) -> None:
    _, payload_hex, wire_hex, *kvs = row
    payload, wire = _hex(payload_hex), _hex(wire_hex)
    assert encode_frame(payload) == wire
    assert decode_frame(wire[:-1]) == payload
    msg = parse_payload(payload)
    want = {k: v for k, v in (kv.split("=", 1) for kv in kvs)}
    arg = want.pop("arg", None)
    assert _fields(msg) == {k: int(v) for k, v in want.items()}
    if arg is not None:
        assert isinstance(msg, Command) and msg.args == bytes.fromhex(arg)
    assert encode_message(msg) == payload  # and back: the encoder builds the same bytes


@pytest.mark.parametrize("row", _vectors("bad"), ids=_ids("bad"))
def test_damaged_frame_gives_one_problem_and_no_message(row: list[str]) -> None:
    out = list(FrameDecoder().feed(_hex(row[1])))
    assert len(out) == 1 and isinstance(out[0], Problem)


@pytest.mark.parametrize("row", _vectors("stream"), ids=_ids("stream"))
def test_stream_recovers_after_damage(row: list[str]) -> None:
    _, wire, good = row
    decoder = FrameDecoder()
    msgs = [m for m in decoder.feed(_hex(wire)) if not isinstance(m, Problem)]
    assert len(msgs) == int(good)
    # Byte by byte gives the same: a USB read or a BLE notification may cut anywhere.
    decoder = FrameDecoder()
    one_by_one = [m for b in _hex(wire) for m in decoder.feed(bytes([b]))]
    assert [m for m in one_by_one if not isinstance(m, Problem)] == msgs


def test_a_flipped_bit_is_caught_by_the_crc() -> None:
    wire = bytearray(set_id_command(1, 7).frame())
    wire[3] ^= 0x10
    with pytest.raises(FrameError, match="CRC"):
        decode_frame(bytes(wire[:-1]))


def test_newer_protocol_version_is_reported_not_guessed() -> None:
    payload = bytearray(encode_message(Reading(1, 7, WireState.SETTLED, 3, 1, 50, "red")))
    payload[0] = 2
    (item,) = FrameDecoder().feed(encode_frame(bytes(payload)))
    assert isinstance(item, Problem) and "version 2" in item.detail


readings = st.builds(
    Reading,
    seq=st.integers(0, 255),
    die_id=st.integers(0, 0xFFFF),
    state=st.sampled_from(list(WireState)),
    face=st.integers(1, 6),
    roll=st.integers(0, 0xFFFF),
    battery_pct=st.none() | st.integers(0, 100),
    colour=st.sampled_from(COLOURS),
).map(
    lambda r: Reading(
        r.seq,
        r.die_id,
        r.state,
        r.face if r.state is WireState.SETTLED else None,
        r.roll,
        r.battery_pct,
        r.colour,
    )
)


@given(st.lists(readings, min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_any_chunking_decodes_the_same(msgs: list[Reading], rnd: random.Random) -> None:
    wire = b"".join(encode_frame(encode_message(m)) for m in msgs)
    decoder = FrameDecoder()
    out = []
    i = 0
    while i < len(wire):
        n = rnd.randint(1, 20)  # the HM-10 forwards at most 20 bytes per notification
        out += list(decoder.feed(wire[i : i + n]))
        i += n
    assert out == msgs


@given(st.lists(readings, min_size=3, max_size=6), st.data())
def test_a_lost_byte_costs_at_most_two_frames(msgs: list[Reading], data: st.DataObject) -> None:
    frames = [encode_frame(encode_message(m)) for m in msgs]
    wire = b"".join(frames)
    drop = data.draw(st.integers(0, len(wire) - 1))
    got = [
        m for m in FrameDecoder().feed(wire[:drop] + wire[drop + 1 :]) if not isinstance(m, Problem)
    ]
    # Losing a frame's delimiter merges it with the next: both are lost. Never a wrong message.
    assert len(got) >= len(msgs) - 2
    assert all(m in msgs for m in got)


def test_reading_becomes_the_shared_dice_format() -> None:
    r = to_die_reading(Reading(4, 12, WireState.SETTLED, 5, 33, 80, "red"), "diy-serial")
    assert (r.source, r.die_id, r.state, r.face, r.roll, r.battery, r.colour) == (
        "diy-serial",
        "diy-12",
        DieState.SETTLED,
        5,
        33,
        0.8,
        "red",
    )
    cocked = to_die_reading(Reading(5, 12, WireState.COCKED, None, 34, None, "none"), "x")
    assert cocked.state is DieState.COCKED and cocked.face is None and cocked.battery is None
    assert cocked.colour is None


def test_heartbeats_are_not_new_readings_but_a_same_face_reroll_is() -> None:
    f = ReadingFilter()
    first = to_die_reading(Reading(1, 3, WireState.SETTLED, 6, 10, 90, "red"), "s")
    heartbeat = to_die_reading(Reading(2, 3, WireState.SETTLED, 6, 10, 90, "red"), "s")
    reroll = to_die_reading(Reading(9, 3, WireState.SETTLED, 6, 11, 90, "red"), "s")
    assert [f.changed(first), f.changed(heartbeat), f.changed(reroll)] == [True, False, True]


def test_command_builders_refuse_values_the_die_would_refuse() -> None:
    with pytest.raises(ValueError):
        blink_command(1, 0)
    with pytest.raises(ValueError):
        calibrate_command(1, 7)
    with pytest.raises(ValueError):
        set_id_command(1, 0xFFFF)
    with pytest.raises(ValueError, match="choose one of"):
        colour_code("mauve")
    assert Command(MessageType.STATUS, 300).payload()[2] == 300 & 0xFF
    assert AckStatus(2) is AckStatus.MOVING
