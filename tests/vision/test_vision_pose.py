"""How a die lies (:mod:`vision.pose`): its turn from its edges, and the squared crop."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.pose import die_angle, face_crop
from vision.synthetic import drawn_die


def _off(a: float, b: float) -> float:
    """How far apart two turns are, modulo a quarter turn, in degrees."""
    return abs(math.degrees((a - b + math.pi / 4) % (math.pi / 2) - math.pi / 4))


def test_the_turn_of_drawn_dice_of_every_colour_is_found() -> None:
    rng = np.random.default_rng(3)
    background = np.full((48, 48, 3), 190, np.uint8)
    errors = []
    for _ in range(300):
        drawn = drawn_die(rng, background, 64, illegal=0.1)
        errors.append(_off(die_angle(drawn.picture, drawn.centre, drawn.box), drawn.angle))
    # Marbling, glare, neighbours and side faces pull it a little, never the wrong way round.
    median, ninety = np.percentile(errors, [50, 90])
    assert median < 2.5 and ninety < 6, (median, ninety)


def test_turning_a_photo_turns_every_die_with_it(dataset: Path, labels: dict) -> None:
    name = "IMG_20191209_095545.jpg"
    bgr = cv2.imread(str(dataset / name))
    h, w = bgr.shape[:2]
    turn = 20.0
    m = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    turned = cv2.warpAffine(bgr, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    for die in labels[name]:
        x0, y0, x1, y1 = die["box"]
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        size = math.sqrt((x1 - x0) * (y1 - y0))
        before = die_angle(bgr, centre, size)
        moved = tuple(m @ np.array([*centre, 1.0]))
        # The upright box of a turned die is larger or smaller; its side is the same.
        side = size / (abs(math.cos(before)) + abs(math.sin(before)))
        after_box = side * (
            abs(math.cos(before - math.radians(turn))) + abs(math.sin(before - math.radians(turn)))
        )
        after = die_angle(turned, moved, after_box)
        assert _off(after, before - math.radians(turn)) < 4, (die, before, after)


def test_a_squared_crop_has_the_die_square_and_filling_it_bar_a_rim() -> None:
    picture = np.full((200, 200, 3), 200, np.uint8)
    side, turn = 60.0, math.radians(30)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    cv2.fillPoly(picture, [np.rint(corners @ rot.T + 100).astype(np.int32)], (40, 40, 160))
    box = side * (math.cos(turn) + math.sin(turn))  # the die's upright box
    angle = die_angle(picture, (100, 100), box)
    assert _off(angle, turn) < 1 or _off(angle, -turn) < 1
    crop = face_crop(picture, (100, 100), box, angle).astype(int)
    assert crop.shape == (32, 32, 3)
    # Die side x 1.15 = 32 px: the die is the middle 27.8 px, square; the rest is tray.
    assert (np.abs(crop[3:29, 3:29] - (40, 40, 160)).max(axis=2) < 30).all()
    rim = np.concatenate(
        [
            crop[:1].reshape(-1, 3),
            crop[-1:].reshape(-1, 3),
            crop[:, :1].reshape(-1, 3),
            crop[:, -1:].reshape(-1, 3),
        ]
    )
    assert (np.abs(rim - 200).max(axis=1) < 30).all()


def test_the_turn_is_taken_in_the_channel_where_the_edges_are() -> None:
    # A die as bright as its tray, brighter in one channel and darker in the next (a magenta
    # die on a green tray), and a faint grating at another turn in the third channel: the
    # turn is the die's only if each pixel's gradient is taken in its strongest channel (in
    # the channels' mean the die's edges cancel out, and in a fixed channel they may be
    # missing or the grating's).
    side, turn = 40.0, math.radians(25)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    square = [np.rint(corners @ rot.T + 60).astype(np.int32)]
    box = side * (math.cos(turn) + math.sin(turn))
    xs = np.arange(120, dtype=np.float64)
    grating = np.rint(128 + 6 * np.sin(2 * np.pi * (xs[None, :] * 0.9 + xs[:, None] * 0.4) / 9))
    for channel in range(3):
        picture = np.full((120, 120, 3), 128, np.uint8)
        up, down, faint = channel, (channel + 1) % 3, (channel + 2) % 3
        for c, value in ((up, 228), (down, 28)):
            plane = picture[:, :, c].copy()
            cv2.fillPoly(plane, square, value)
            picture[:, :, c] = plane
        picture[:, :, faint] = grating.astype(np.uint8)
        assert _off(die_angle(picture, (60, 60), box), turn) < 1.5, channel
