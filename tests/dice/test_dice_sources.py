"""The one dice-source contract and its registry: every kind built by name, Bluetooth loaded
only when a Bluetooth source is, and the sources that were hard to reach before (the DIY die
over Bluetooth and on a serial cable) feeding a game through the table's dice."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.dice.assignment import DieRef
from companion.dice.fakeble import FakeAir, FakeHM10
from companion.dice.radio import BleRadio
from companion.dice.source import DiceSource, Need
from companion.dice.sources import BUILTIN, SourceError, SourceKind, SourceSpec, factory
from companion.dice.table import TableDice
from companion.die.protocol import (
    Command,
    FrameDecoder,
    MessageType,
    Reading,
    WireState,
    encode_frame,
    encode_message,
)
from companion.simulate import random_setup
from companion.table import TableService

ROOT = Path(__file__).resolve().parents[2]


def fresh_interpreter(code: str) -> str:
    """Run ``code`` in a new Python (nothing imported yet by other tests); its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


BLUETOOTH_WEB_VISION = (
    "bleak",
    "companion.dice.radio",
    "companion.die.ble_source",
    "web",
    "vision",
    "flask",
    "cv2",
    "serial",
)


def loaded(banned: tuple[str, ...]) -> str:
    """Code printing which of the ``banned`` modules (or packages) the interpreter has loaded."""
    return (
        f"import sys\nprint(sorted({{b for b in {banned!r} for m in sys.modules "
        f"if m == b or m.startswith(b + '.')}}))"
    )


def test_the_table_service_loads_no_bluetooth_dice_web_or_vision_code():
    """The table service runs on a machine with no Bluetooth library, no camera stack and no
    web server: importing it loads none of them, nor any dice code, not even indirectly."""
    banned = (*BLUETOOTH_WEB_VISION, "companion.dice", "companion.die")
    assert fresh_interpreter(f"import companion.table\n{loaded(banned)}") == "[]"


def test_bluetooth_is_imported_only_when_a_bluetooth_source_is_built(tmp_path):
    """A table with simulated dice and phones (the dice bridge, the service, the hub) runs
    without bleak; building a Bluetooth source through the registry is what loads it."""
    code = f"""
import sys, time
from companion.dice.table import TableDice
from companion.simulate import random_setup
from companion.table import TableService
service = TableService({str(tmp_path / "games")!r})
game = service.create_game(random_setup(3))
dice = TableDice(service, {str(tmp_path / "dice")!r}, mode="simulated", roll_time=0.0)
dice.follow(game.id)
while len(service.game(game.id).effective) < 3:  # the roll-off, off the simulated dice
    time.sleep(0.01)
{loaded(BLUETOOTH_WEB_VISION)}
from companion.dice.sources import factory
factory("diy-ble")
print("bleak" in sys.modules, "companion.dice.radio" in sys.modules)
dice.stop()
service.close()
"""
    before, after = fresh_interpreter(code).splitlines()
    assert before == "[]"
    assert after == "True True"


def test_every_built_in_kind_has_a_factory_and_unknown_ones_say_what_there_is():
    assert set(BUILTIN) == set(SourceKind)
    for kind in SourceKind:
        assert callable(factory(kind)), kind
    with pytest.raises(SourceError) as err:
        factory("ouija")
    assert "no dice source 'ouija'" in str(err.value) and "diy-ble" in str(err.value)


def test_a_wrong_option_is_a_sentence_not_a_traceback(tmp_path):
    service = TableService(tmp_path / "games")
    dice = TableDice(service, tmp_path / "dice", mode="phone")
    try:
        with pytest.raises(SourceError) as err:
            dice.add_source(SourceSpec("diy-serial", {"baud": 115200}))
        assert "diy-serial" in str(err.value) and "baud" in str(err.value)
        with pytest.raises(SourceError) as err:
            dice.add_source(SourceSpec("camera", {"spec": "/no/such", "owner": "red"}))
        assert "'/no/such' is not 'picam', a device number" in str(err.value)
    finally:
        dice.stop()
        service.close()


def test_every_source_keeps_the_contract(tmp_path):
    """Built through the registry, each source says what it needs and offers the optional
    parts; the dice service is what starts and stops them."""
    service = TableService(tmp_path / "games")
    air = FakeAir()
    radio = BleRadio(scanner_backend=air.scanner_backend, client_backend=air.client_backend)
    dice = TableDice(
        service,
        tmp_path / "dice",
        mode="bluetooth",
        radio=radio,
        sources=[SourceSpec("diy-serial", {"port": str(tmp_path / "no-tty")}), "diy-ble"],
    )
    try:
        needs = {s.name: s.needs for s in dice.dice.sources}
        assert needs == {
            "phone entry": Need.NOTHING,
            "Pixels": Need.RADIO,
            "GoDice": Need.RADIO,
            "DIY dice on " + str(tmp_path / "no-tty"): Need.SERIAL_PORT,
            "DIY dice over Bluetooth": Need.RADIO,
        }
        assert all(isinstance(s, DiceSource) for s in dice.dice.sources)
        assert dice.dice.radio is radio and radio.scanning.wait(5)  # one radio for all three
    finally:
        dice.stop()
        service.close()


# --- the DIY die over Bluetooth LE, on the table's radio ------------------------------------------


def until(what: Callable[[], object], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, Path]]:
    service = TableService(tmp_path / "games")
    yield service, tmp_path / "dice"
    service.close()


def the_roll(service: TableService, game_id: str, player: str) -> dict:
    until(lambda: any(a.player == player for _, a in service.game(game_id).effective))
    event = next(
        e
        for e in service.game(game_id).events
        if e.kind == "action" and e.payload.get("player") == player
    )
    assert event.actor == "dice"
    return event.payload


def test_a_diy_die_over_bluetooth_is_paired_and_rolls_for_its_family(table):
    """``--die-ble auto``: the radio hears two HM-10 modules and keeps both connected. Maria
    pairs hers ("roll your dice now"), it rolls her Godfather roll-off, a dropped link comes
    back by itself, and Blink reaches that die only, in the module's 20-byte writes."""
    service, data = table
    maria, other = FakeHM10("C8:FD:19:00:00:07", die_id=7), FakeHM10("C8:FD:19:00:00:08", 8)
    air = FakeAir([maria, other], interval=0.01)
    radio = BleRadio(scanner_backend=air.scanner_backend, client_backend=air.client_backend)
    dice = TableDice(service, data, mode="phone", radio=radio, tick=0.01, early_grace=0.0)
    try:
        dice.add_source(
            SourceSpec("diy-ble", {"address": "auto", "retry_min": 0.01, "retry_max": 0.05})
        )
        until(lambda: maria.client is not None and other.client is not None)
        for module in (maria, other):  # the heartbeat: at rest, a baseline and not a roll
            air.do(lambda m=module: m.report(WireState.SETTLED))
        until(lambda: len(dice.dice.hub.last_readings()) == 2)

        pairing = dice.dice.pair("red", 1)
        air.run(maria.roll(2)).result(5)
        assert pairing.done.wait(5) and pairing.found == [DieRef("diy-ble", "diy-7")]
        dice.dice.save_pairing(pairing)
        assert dice.dice.store.load("default").owner(DieRef("diy-ble", "diy-7")) == "red"

        air.do(maria.drop)  # out of range a moment: the radio connects again by itself
        until(lambda: maria.connections == 2 and maria.client is not None)
        game = service.create_game(random_setup(3))
        dice.follow(game.id)
        air.run(maria.roll(5)).result(5)
        assert the_roll(service, game.id, "Maria") == {
            "type": "godfather_roll",
            "player": "Maria",
            "face": 5,
        }

        assert dice.dice.blink(DieRef("diy-ble", "diy-7"))
        until(lambda: maria.commands)
        [blink] = maria.commands
        assert (blink.type, blink.target, blink.args) == (MessageType.BLINK, 7, bytes([3]))
        assert not other.commands
        assert not dice.dice.blink(DieRef("diy-serial", "diy-7"))  # not this source's die
    finally:
        dice.stop()
    assert radio.loop is None  # the table's dice took the radio down with them


def test_a_diy_die_at_one_address_leaves_the_other_modules_alone(table):
    service, data = table
    wanted, stranger = FakeHM10("C8:FD:19:00:00:07", 7), FakeHM10("C8:FD:19:00:00:09", 9)
    air = FakeAir([wanted, stranger], interval=0.01)
    radio = BleRadio(scanner_backend=air.scanner_backend, client_backend=air.client_backend)
    dice = TableDice(
        service,
        data,
        mode="phone",
        radio=radio,
        sources=[SourceSpec("diy-ble", {"address": "c8:fd:19:00:00:07"})],
    )
    try:
        until(lambda: wanted.client is not None)
        time.sleep(0.1)
        assert stranger.connections == 0 and air.connect_attempts == 1
    finally:
        dice.stop()


# --- the DIY die on a serial cable --------------------------------------------------------------


class Pty:
    """A tty standing in for the die's USB adapter: the test writes the die's side."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def send(self, state: WireState, face: int | None, roll: int) -> None:
        os.write(
            self.master, encode_frame(encode_message(Reading(0, 4, state, face, roll, 90, "blue")))
        )

    def commands(self) -> list[Command]:
        os.set_blocking(self.master, False)
        try:
            data = os.read(self.master, 1024)
        except BlockingIOError:
            return []
        return [m for m in FrameDecoder().feed(data) if isinstance(m, Command)]

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def test_a_diy_die_on_a_serial_port_rolls_for_the_family_it_is_paired_to(table):
    """``--die-port``: the die's frames on a real tty reach the game, once the die is paired
    to Johnny's blue; Blink goes out on that line to that die."""
    service, data = table
    line = Pty()
    dice = TableDice(
        service,
        data,
        mode="phone",
        tick=0.01,
        early_grace=0.0,
        sources=[SourceSpec("diy-serial", {"port": line.path, "retry_min": 0.05})],
    )
    try:
        [serial] = dice.dice.of_kind("diy-serial")
        until(lambda: serial.line.connected.is_set())  # type: ignore[attr-defined]
        line.send(WireState.SETTLED, 1, 0)
        until(lambda: dice.dice.hub.last_readings())
        dice.dice.assignment.assign(DieRef("diy-serial", "diy-4"), "blue")
        game = service.create_game(random_setup(3))
        dice.follow(game.id)
        line.send(WireState.ROLLING, None, 0)
        line.send(WireState.SETTLED, 6, 1)
        assert the_roll(service, game.id, "Johnny") == {
            "type": "godfather_roll",
            "player": "Johnny",
            "face": 6,
        }
        assert dice.dice.blink(DieRef("diy-serial", "diy-4"))
        until(
            lambda: (
                (sent := line.commands())
                and sent[0].type is MessageType.BLINK
                and sent[0].target == 4
            )
        )
        assert not dice.dice.blink(DieRef("diy-serial", "diy-5"))  # never heard on this line
    finally:
        dice.stop()
        line.close()


# --- the camera, registered by the vision layer ---------------------------------------------------

PIPS = {3: [(-1, -1), (0, 0), (1, 1)], 5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)]}


def tray_photo(centre: tuple[float, float], face: int, angle: float, seed: int):
    """A red die seen from above on a grey mat, softened like a camera's picture."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(seed)
    img = np.clip(
        np.full((320, 320, 3), 200, np.float32) + rng.normal(0, 2.0, (320, 320, 3)), 0, 255
    ).astype(np.uint8)
    side = 36
    cv2.fillConvexPoly(
        img,
        cv2.boxPoints((centre, (side, side), angle)).astype(np.int32),
        (40, 40, 200),
        cv2.LINE_AA,
    )
    t = np.deg2rad(angle)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    for gx, gy in PIPS[face]:
        x, y = turn @ np.array([gx, gy]) * 0.28 * side + np.array(centre)
        cv2.circle(img, (round(x), round(y)), 3, (255, 255, 255), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_a_camera_from_the_vision_layer_rolls_for_the_player_behind_its_screen(table, tmp_path):
    """``--camera FOLDER=Maria``: the companion finds the camera's parts through the vision
    layer's entry points (it never imports vision), and the camera's reading of a die that
    tumbled and came to rest on 5 is Maria's Godfather roll-off."""
    import cv2

    from companion.dice.camera import camera_parts

    open_camera, read_dice = camera_parts()
    assert (open_camera.__module__, read_dice.__module__) == ("vision.cameras", "vision.source")
    shots = tmp_path / "behind-marias-screen"
    shots.mkdir()
    frames = [tray_photo((60 + 30 * i, 160), 3, 5 * i, i) for i in range(4)]  # tumbling
    frames += [tray_photo((180, 160), 5, 25, 90 + i) for i in range(6)]  # at rest on 5
    for i, frame in enumerate(frames):
        cv2.imwrite(str(shots / f"frame{i:03d}.png"), frame)
    service, data = table
    game = service.create_game(random_setup(3))
    dice = TableDice(service, data, mode="phone", tick=0.01)
    try:
        dice.follow(game.id)
        camera = dice.add_source(SourceSpec("camera", {"spec": str(shots), "owner": "Maria"}))
        assert (camera.name, camera.needs) == ("camera cam0 (Maria)", Need.CAMERA)
        assert the_roll(service, game.id, "Maria") == {
            "type": "godfather_roll",
            "player": "Maria",
            "face": 5,
        }
    finally:
        dice.stop()
