"""The Pixels and GoDice layouts as pure functions, on the bytes of research/ble-dice.md."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice import godice, pixels
from companion.dice.errors import DiceProtocolError

# --- Pixels ----------------------------------------------------------------------------------

NAT20_I_AM_A_DIE = bytes.fromhex(
    "02 14 0b 00 12 a6 be b3 5a 8a f0 06 30 1e 17 87 88 64 01 05 4f 00"
)


def test_the_captured_legacy_i_am_a_die_from_nat20() -> None:
    msg = pixels.decode_message(NAT20_I_AM_A_DIE)
    assert isinstance(msg, pixels.IAmADie)
    assert (msg.pixel_id, msg.led_count, msg.die_type) == (0x06F08A5A, 20, pixels.DieType.D20)
    assert msg.firmware == 1686669079  # 2023-06-13
    assert (msg.roll_state, msg.face_index, msg.battery_pct) == (pixels.RollState.ROLLED, 5, 79)
    assert pixels.face_value(msg.die_type, msg.face_index, msg.firmware, 20) == 6


def test_advert_manufacturer_and_service_data() -> None:
    status = pixels.decode_manufacturer_data(bytes.fromhex("06 21 01 04 cd"))
    assert status == pixels.AdvertStatus(
        6, pixels.DieType.D6, "onyxBlack", pixels.RollState.ROLLED, 4, 77, True
    )
    assert pixels.face_value(status.die_type, status.face_index, None) == 5
    identity = pixels.decode_service_data(bytes.fromhex("78 56 34 12 00 39 3c 67"))
    assert identity == pixels.AdvertIdentity(0x12345678, 1732000000)
    assert pixels.encode_manufacturer_data(status) == bytes.fromhex("06 21 01 04 cd")
    assert pixels.encode_service_data(identity) == bytes.fromhex("78 56 34 12 00 39 3c 67")


def test_roll_state_battery_rssi_acks_and_other_messages() -> None:
    assert pixels.decode_message(bytes.fromhex("03 01 04")) == pixels.RollStateMessage(
        pixels.RollState.ROLLED, 4
    )
    assert pixels.decode_message(bytes.fromhex("22 4b 02")) == pixels.BatteryLevel(
        75, pixels.BatteryState.CHARGING
    )
    assert pixels.decode_message(bytes.fromhex("24 c4")) == pixels.Rssi(-60)
    assert pixels.decode_message(b"\x1e") == pixels.Ack(pixels.MessageType.BLINK)
    assert pixels.decode_message(b"\x42") == pixels.Ack(pixels.MessageType.BLINK_ID)
    assert pixels.decode_message(b"\x12hello") == pixels.Other(18, b"hello")


def test_commands_are_the_documented_bytes() -> None:
    assert pixels.blink(3, 1000, 0xFF0000, 0xFFFFFFFF, 0, 1) == bytes.fromhex(
        "1d 03 e8 03 00 00 ff 00 ff ff ff ff 00 01"
    )
    assert pixels.who_are_you() == b"\x01"
    assert pixels.request_roll_state() == b"\x17"
    assert pixels.request_battery_level() == b"\x21"
    assert pixels.blink_id(0x80, 1) == bytes.fromhex("41 80 01")


@pytest.mark.parametrize("legacy", [True, False])
def test_i_am_a_die_round_trips_in_both_layouts(legacy: bool) -> None:
    die = pixels.IAmADie(
        0xCAFE0001,
        pixels.DieType.D6,
        6,
        "auroraSky",
        1732000000,
        pixels.RollState.ON_FACE,
        2,
        55,
        pixels.BatteryState.OK,
        "" if legacy else "Red 1",
    )
    data = pixels.encode_i_am_a_die(die, legacy=legacy)
    assert len(data) == 22 if legacy else len(data) > 22
    assert pixels.decode_message(data) == die


def test_both_uuid_generations() -> None:
    assert pixels.uuids(False) == (pixels.SERVICE, pixels.NOTIFY, pixels.WRITE)
    assert pixels.uuids(True) == ("6e400001-b5a3-f393-e0a9-e50e24dcca9e",) * 2 + (
        "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
    )
    assert (pixels.COMPANY_ID, pixels.LEGACY_COMPANY_ID) == (0x0D39, 0xFFFF)


def test_old_firmware_numbers_d6_faces_in_another_order() -> None:
    old = pixels.FW_2023_11_17
    assert [pixels.face_value(pixels.DieType.D6, i, old) for i in range(6)] == [1, 5, 4, 3, 2, 6]
    assert [pixels.face_value(pixels.DieType.D6, i, old + 1) for i in range(6)] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert [pixels.face_value(pixels.DieType.D4, i, old) for i in (0, 2, 3, 5)] == [1, 3, 2, 4]
    assert pixels.face_value(pixels.DieType.D10, 0, None) == 0
    assert pixels.face_value(pixels.DieType.D00, 3, None) == 30
    assert pixels.die_type_of(0, 21) is pixels.DieType.D6PIPPED


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "0 bytes"),
        (b"\x03\x01", "RollState"),
        (b"\x03\x09\x01", "roll state 9"),
        (b"\x22\x65\x00", "over 100"),
        (b"\x02\x14\x0b", "chunk"),
        (b"\x02" + b"\x05\x00\x00\x00\x00" * 3, "3 chunks"),
        (b"\x24", "Rssi"),
    ],
)
def test_short_or_impossible_messages_are_a_clear_error(data: bytes, words: str) -> None:
    with pytest.raises(DiceProtocolError, match=words):
        pixels.decode_message(data)


def test_short_advert_data_is_a_clear_error() -> None:
    with pytest.raises(DiceProtocolError, match="4 bytes, expected at least 5"):
        pixels.decode_manufacturer_data(b"\x06\x21\x01\x04")
    with pytest.raises(DiceProtocolError, match="roll state 7"):
        pixels.decode_manufacturer_data(b"\x06\x21\x07\x04\x10")
    with pytest.raises(DiceProtocolError, match="Pixels service data"):
        pixels.decode_service_data(b"\x01\x02")
    with pytest.raises(DiceProtocolError, match=r"indices 0\.\.5"):
        pixels.face_value(pixels.DieType.D6, 6, None)


@given(st.binary(max_size=40))
def test_no_bytes_crash_the_pixels_decoders(data: bytes) -> None:
    for decode in (
        pixels.decode_message,
        pixels.decode_manufacturer_data,
        pixels.decode_service_data,
    ):
        with contextlib.suppress(DiceProtocolError):
            decode(data)


# --- GoDice ----------------------------------------------------------------------------------


def test_golden_vectors() -> None:
    assert godice.decode_notification(bytes.fromhex("53 40 00 00")) == godice.Settled(
        godice.Stable.STABLE, (64, 0, 0)
    )
    assert godice.face_from_vector((64, 0, 0)) == 6
    tilt = godice.decode_notification(bytes.fromhex("54 53 c0 00 00"))
    assert tilt == godice.Settled(godice.Stable.TILT, (-64, 0, 0))
    assert godice.face_from_vector(tilt.vector) == 1
    assert (
        godice.face_from_vector(godice.decode_notification(bytes.fromhex("53 05 3c f6")).vector)
        == 3
    )


def test_every_notification_type() -> None:
    d = godice.decode_notification
    assert d(b"R") == godice.RollStarted()
    assert d(b"FS\x00\x40\x00") == godice.Settled(godice.Stable.FAKE, (0, 64, 0))
    assert d(b"MS\x00\x00\xc0") == godice.Settled(godice.Stable.MOVE, (0, 0, -64))
    assert d(b"Bat\x57") == godice.Battery(87)
    assert d(b"Col\x03").name == "blue"  # type: ignore[union-attr]
    assert d(b"Char\x01") == godice.Charging(True)
    assert d(b"Tap") == godice.Tap()
    assert d(b"DTap") == godice.Tap(double=True)
    for msg in (
        godice.RollStarted(),
        godice.Settled(godice.Stable.TILT, (1, -2, 3)),
        godice.Battery(5),
        godice.Colour(4),
        godice.Charging(False),
        godice.Tap(True),
    ):
        assert d(godice.encode_notification(msg)) == msg


def test_godice_commands_are_the_documented_bytes() -> None:
    assert godice.init_message() == bytes.fromhex("19 1e 03 32 32 00 ff 00 01 00")
    assert godice.blink(2, 300, 200, (255, 0, 0), False, 1) == bytes.fromhex(
        "10 02 1e 14 ff 00 00 00 01"
    )
    assert godice.leds_on((1, 2, 3)) == bytes.fromhex("08 01 02 03 01 02 03")
    assert (godice.REQUEST_BATTERY, godice.REQUEST_COLOUR, godice.LEDS_OFF) == (
        b"\x03",
        b"\x17",
        b"\x14",
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "0 bytes"),
        (b"S\x40", "2 bytes, expected 4 bytes"),
        (b"S\x40\x00\x00\x00", "5 bytes, expected 4 bytes"),
        (b"TS\x40", "GoDice TS"),
        (b"Bat", "GoDice battery"),
        (b"Bat\xc8", "over 100"),
        (b"Col", "GoDice colour"),
        (b"Char", "GoDice charging"),
        (b"X", "no known prefix"),
    ],
)
def test_short_or_unknown_notifications_are_a_clear_error(data: bytes, words: str) -> None:
    with pytest.raises(DiceProtocolError, match=words):
        godice.decode_notification(data)


@pytest.mark.parametrize("shell", list(godice.Shell))
def test_every_shell_reads_its_own_reference_vectors(shell: godice.Shell) -> None:
    table, transform, scale = godice.SHELLS[shell]
    faces = {godice.face_from_vector(v, shell) for v in table.values()}
    expected = {(transform[k - 1] if transform else k) * scale for k in table}
    assert faces == expected
    for face in faces:
        assert godice.face_from_vector(godice.vector_for_face(face, shell), shell) == face


@given(st.integers(1, 6), st.tuples(*[st.integers(-15, 15)] * 3))
def test_the_d6_face_is_stable_under_noise(face: int, noise: tuple[int, int, int]) -> None:
    x, y, z = godice.vector_for_face(face)
    assert godice.face_from_vector((x + noise[0], y + noise[1], z + noise[2])) == face


@given(st.binary(max_size=12))
def test_no_bytes_crash_the_godice_decoder(data: bytes) -> None:
    with contextlib.suppress(DiceProtocolError):
        godice.decode_notification(data)
