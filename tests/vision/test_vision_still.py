"""Still-frame logic on recorded (drawn) frame sequences: a roll, a pause, a re-roll."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from new_don_boards import board_for_players

from companion.dice.assignment import Assignment
from companion.dice.hub import DiceHub, DiceProblem
from companion.dice.reading import DieState
from companion.games.new_don import NEW_DON, GodfatherRoll, Setup, new_game
from companion.protocol import Seat
from vision.calibration import DEFAULT, ENVIRONMENT, Calibration
from vision.cameras import FolderSource
from vision.reader import DieFound
from vision.source import CameraDiceSource
from vision.still import MotionGate, agree


def roll_frames(synth, path: list[tuple[float, float]], value: int, seed: int = 0):
    """A die sliding along ``path`` (one frame per point), as a camera would record it."""
    out = []
    for i, c in enumerate(path):
        img = synth.mat(seed=seed + i)
        synth.draw_die(img, c, value, angle=5 * len(out))
        out.append(synth.blur(img))
    return out


def test_motion_gate_opens_only_after_the_die_stops(synth) -> None:
    moving = [(60 + 25 * i, 160) for i in range(6)]
    frames = roll_frames(synth, moving, 3)
    still = [synth.blur(_still_die(synth, (185, 160), 3, seed=50 + i)) for i in range(4)]
    gate = MotionGate(still_frames=2)
    opened = [gate.update(f) for f in frames + still]
    assert not any(opened[:7])  # moving, then the first still frame
    assert opened[-1]


def _still_die(synth, centre, value, seed):
    img = synth.mat(seed=seed)
    synth.draw_die(img, centre, value, angle=25)
    return img


def die(value, x=100.0, y=100.0, confidence=0.9) -> DieFound:
    return DieFound(
        value=value,
        box=(int(x) - 15, int(y) - 15, int(x) + 15, int(y) + 15),
        centre=(x, y),
        rect=((x, y), (30, 30), 0),
        colour="red",
        lab=(0, 0, 0),
        confidence=confidence,
        reason="",
    )


def test_frames_that_agree_give_the_value() -> None:
    agreed = agree(
        [[die(5), die(2, x=200)], [die(5, x=101), die(2, x=199)], [die(5), die(None, x=200)]]
    )
    assert [d.value for d in agreed] == [5, 2]


def test_frames_that_disagree_give_unsure() -> None:
    agreed = agree([[die(5)], [die(6)], [die(4)]])
    assert len(agreed) == 1 and agreed[0].value is None


def test_a_die_seen_on_one_frame_only_is_dropped_as_a_phantom() -> None:
    agreed = agree([[die(3)], [die(3), die(1, x=300)], [die(3)]])
    assert [d.value for d in agreed] == [3]


def test_a_die_read_faintly_on_every_frame_is_less_sure_than_one_read_surely() -> None:
    frames = [[die(5, confidence=0.9), die(1, x=200, confidence=0.3)] for _ in range(3)]
    frames[2][0] = die(6, confidence=0.9)  # one frame of three caught glare
    five, one = agree(frames)
    assert (five.value, one.value) == (5, 1)
    assert five.confidence == pytest.approx(2 / 3 * 0.9)
    assert one.confidence == pytest.approx(0.3)


def test_a_camera_seeing_more_dice_than_the_roll_holds_leaves_out_the_least_sure(
    tmp_path: Path,
) -> None:
    """A phantom read as a 1 above Maria's dice (first in reading order) is reported last, so
    the dice hub, which counts a roll's dice in the order they come to rest, counts a die."""
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), np.full((240, 320, 3), 90, np.uint8))
    seen = [die(1, x=160, y=20, confidence=0.35), die(4, y=150), die(6, x=220, y=150)]
    source = CameraDiceSource(
        FolderSource(tmp_path, name="cam0"),
        owner="red",
        gate=MotionGate(still_frames=2),
        read_frames=3,
        read=lambda frame, count: seen,
    )
    readings = list(source.readings())
    assert [(r.state, r.face) for r in readings] == [(DieState.SETTLED, f) for f in (4, 6, 1)]

    seats = (Seat("Maria", "red"), Seat("Johnny", "blue"), Seat("Claire", "green"))
    hub = DiceHub(Assignment())
    hub.expect(NEW_DON, seats, new_game(Setup(seats), board_for_players(3)))
    for r in readings:
        hub.feed(r)
    # Maria's roll for the first Godfather takes one die: her surest, not the phantom.
    assert hub.actions.get_nowait() == GodfatherRoll("Maria", 4)
    assert hub.actions.empty()


def _second_roll(
    tmp_path: Path, seen: list[DieFound]
) -> tuple[list[object], list[object], list[int | None]]:
    """Two dice lie on Maria's tray when the game asks for her Godfather roll; she throws, and
    the camera reads ``seen``: the hub's actions and events, and how many dice the reader was
    told to expect on each frame it read."""
    for i in range(10):  # still, picked up at frame 5, still again
        shade = 90 if i < 5 else 200
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), np.full((240, 320, 3), shade, np.uint8))
    before = [die(3), die(5, x=200)]
    told: list[int | None] = []

    def read(frame: np.ndarray, count: int | None) -> list[DieFound]:
        told.append(count)
        return before if frame[0, 0, 0] == 90 else seen

    seats = (Seat("Maria", "red"), Seat("Johnny", "blue"), Seat("Claire", "green"))
    events: list[object] = []
    now = [100.0]
    hub = DiceHub(Assignment(), clock=lambda: now[0], on_event=events.append)
    source = CameraDiceSource(
        FolderSource(tmp_path, name="cam0"),
        owner="red",
        lacking=hub.lacking,
        gate=MotionGate(still_frames=2),
        read_frames=3,
        read=read,
    )
    for r in source.readings():
        if r.state is DieState.ROLLING and not hub.waiting():
            now[0] += 60  # the game asks a minute later: the dice at rest are not her roll
            hub.expect(NEW_DON, seats, new_game(Setup(seats), board_for_players(3)))
        hub.feed(r)
    actions = []
    while not hub.actions.empty():
        actions.append(hub.actions.get_nowait())
    return actions, events, told


def test_a_phantom_the_camera_cannot_read_asks_for_no_reroll_once_the_roll_is_complete(
    tmp_path: Path,
) -> None:
    """The camera reports what it could not read after the dice it read: when those complete
    the roll, the unread find is a phantom, not a die to roll again; short of it, it is one."""
    phantom = die(None, x=220, y=40, confidence=0.3)
    actions, events, told = _second_roll(tmp_path, [die(4, y=150), phantom])
    assert actions == [GodfatherRoll("Maria", 4)]
    assert not [e for e in events if isinstance(e, DiceProblem)]
    # Nothing asked while the dice lay there; then the one die Maria's roll lacks.
    assert told == [None] * 3 + [1] * 3

    actions, events, _ = _second_roll(tmp_path, [phantom])
    assert actions == []
    problems = [e for e in events if isinstance(e, DiceProblem)]
    # Named by its camera: its id (its place in the roll's order) means nothing on the tray.
    assert [(p.player, p.message) for p in problems] == [
        ("Maria", "A die camera cam0 sees could not be read: roll it again")
    ]


def test_camera_source_reports_rolling_then_the_settled_face(synth, tmp_path: Path) -> None:
    frames = roll_frames(synth, [(60 + 30 * i, 160) for i in range(4)], 6)
    frames += [synth.blur(_still_die(synth, (180, 160), 6, seed=90 + i)) for i in range(6)]
    # Picked up and rolled again: movement, then a 2 at rest.
    frames += roll_frames(synth, [(200, 100 + 20 * i) for i in range(3)], 2, seed=200)
    frames += [synth.blur(_still_die(synth, (120, 240), 2, seed=300 + i)) for i in range(6)]
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"frame{i:03d}.png"), f)
    source = CameraDiceSource(
        FolderSource(tmp_path, name="tray"),
        owner="table",
        gate=MotionGate(still_frames=2),
        read_frames=3,
    )
    readings = list(source.readings())
    states = [(r.state, r.face, r.roll) for r in readings]
    assert states == [
        (DieState.SETTLED, 6, 1),
        (DieState.ROLLING, None, 2),
        (DieState.SETTLED, 2, 2),
    ]
    assert readings[0].source == "camera:tray:table"
    assert readings[0].die_id == "tray/0"


def test_camera_source_reads_with_the_rig_calibration_where_it_was_started(
    synth, tmp_path: Path, monkeypatch
) -> None:
    # `python -m vision calibrate` writes vision-calibration.json where it is run; the
    # companion started there reads with it: here a tray that leaves the die outside.
    shots = tmp_path / "shots"
    shots.mkdir()
    for i in range(6):
        cv2.imwrite(
            str(shots / f"frame{i:03d}.png"),
            synth.blur(_still_die(synth, (240, 160), 4, seed=90 + i)),
        )

    def read() -> list[tuple[DieState, int | None]]:
        source = CameraDiceSource(FolderSource(shots), gate=MotionGate(still_frames=2))
        return [(r.state, r.face) for r in source.readings()]

    monkeypatch.chdir(tmp_path)
    assert read() == [(DieState.SETTLED, 4)]
    Calibration(tray=[[0, 0], [0.5, 0], [0.5, 1], [0, 1]]).save(tmp_path / DEFAULT)
    assert read() == []
    # The Pi's service names its own (VISION_CALIBRATION): there, a tray that holds the die.
    elsewhere = tmp_path / "state" / "rig.json"
    Calibration(tray=[[0.5, 0], [1, 0], [1, 1], [0.5, 1]]).save(elsewhere)
    monkeypatch.setenv(ENVIRONMENT, str(elsewhere))
    assert read() == [(DieState.SETTLED, 4)]
    # One camera per screen: the red family's camera has its own calibration beside it.
    Calibration(tray=[[0, 0], [0.5, 0], [0.5, 1], [0, 1]]).save(elsewhere.with_name("rig-red.json"))
    red = CameraDiceSource(FolderSource(shots), owner="red", gate=MotionGate(still_frames=2))
    assert list(red.readings()) == []
    assert read() == [(DieState.SETTLED, 4)]  # the table's camera: still the rig's
