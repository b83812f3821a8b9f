"""The tray region (:mod:`vision.tray`): given by hand or found on the empty tray, and nothing
outside it read, on drawn trays and on real photos."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from boxes import touching

from vision.backgrounds import speckle
from vision.calibration import Calibration, CalibrationError
from vision.evaluation import Score, match
from vision.net import DieNet
from vision.pyramid import Pyramid, search_levels
from vision.reader import DiceReader
from vision.tray import TrayError, check, contains, find_tray, in_pixels, parse


def hexagon(centre: tuple[float, float], radius: float) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, 7)[:-1] + 0.3
    return np.int32(
        np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)], axis=1)
    )


def carpet_with_a_tray(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A speckled carpet with a hexagonal felt tray on it, as ``pxl-tray``'s rig has."""
    rng = np.random.default_rng(seed)
    img = np.clip(speckle(rng, 480), 0, 255).astype(np.uint8)
    tray = hexagon((250, 230), 180)
    cv2.fillPoly(img, [tray], (40, 110, 30), cv2.LINE_AA)
    cv2.polylines(img, [tray], True, (20, 60, 15), 6, cv2.LINE_AA)  # its rim
    return cv2.GaussianBlur(img, (3, 3), 0), tray


def area_overlap(a: np.ndarray, b: np.ndarray, shape: tuple[int, ...]) -> float:
    ma, mb = np.zeros(shape[:2], np.uint8), np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(ma, [np.int32(np.round(a))], 1)
    cv2.fillPoly(mb, [np.int32(np.round(b))], 1)
    return float((ma & mb).sum() / (ma | mb).sum())


def test_a_tray_is_found_on_the_empty_frame_of_a_carpet(synth) -> None:
    img, tray = carpet_with_a_tray()
    found = find_tray(img)
    assert area_overlap(in_pixels(found, img.shape), tray, img.shape) > 0.9


def test_a_picture_with_no_tray_in_its_middle_says_to_draw_it() -> None:
    # Squares of every colour, and in the middle one small even patch: not a tray.
    rng = np.random.default_rng(2)
    squares = rng.integers(0, 256, (15, 20, 3), dtype=np.uint8)
    img = cv2.resize(squares, (320, 240), interpolation=cv2.INTER_NEAREST)
    img[105:135, 145:175] = (90, 90, 90)
    with pytest.raises(TrayError, match="--tray"):
        find_tray(img)


def test_corners_typed_in_pixels_become_fractions_and_back() -> None:
    shape = (480, 640, 3)
    tray = parse("64,48 576,48 576,432 64,432", shape)
    assert tray == [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]
    assert parse("64,48,576,432", shape) == tray  # a rectangle by two corners
    # The same tray on the camera at another resolution.
    assert contains(tray, (960, 1280, 3), (1200, 900)) is False
    assert contains(tray, (960, 1280, 3), (640, 480)) is True
    for bad in ["1,2,3", "1,2 3,4 5,6 7", "a,b c,d e,f"]:
        with pytest.raises(TrayError):
            parse(bad, shape)
    with pytest.raises(TrayError):
        check([[0, 0], [2, 0], [0, 1]])  # corners are fractions of the picture


def test_a_calibration_keeps_its_tray_and_refuses_a_bad_one(tmp_path) -> None:
    cal = Calibration(die_px=30.0, tray=[[0.1, 0.1], [0.9, 0.1], [0.5, 0.9]])
    cal.save(tmp_path / "cal.json")
    assert Calibration.load(tmp_path / "cal.json").tray == cal.tray
    (tmp_path / "bad.json").write_text(json.dumps({"tray": [[0, 0], [1, 1]]}))
    with pytest.raises(CalibrationError, match="tray"):
        Calibration.load(tmp_path / "bad.json")


def test_nothing_outside_the_tray_is_read(synth) -> None:
    img = synth.mat(size=320)
    inside = [(60, 70, 3), (130, 200, 5)]
    outside = [(250, 80, 2), (260, 240, 6)]
    for x, y, v in inside + outside:
        synth.draw_die(img, (x, y), v, angle=10 * v)
    img = synth.blur(img)
    tray = parse("0,0 190,0 190,320 0,320", img.shape)
    everything = DiceReader().read(img)
    assert sorted(d.value for d in everything) == [2, 3, 5, 6]
    dice = DiceReader(Calibration(tray=tray)).read(img)
    assert sorted(d.value for d in dice) == [3, 5]
    assert all(d.centre[0] < 190 for d in dice)


def test_dice_in_a_real_tray_are_read_and_the_carpet_and_next_tray_are_not(photos) -> None:
    # pxl-tray's rig: a felt tray on a speckled carpet, the next tray's dice at the picture's
    # edge (not labelled: they are not this tray's). With the tray's outline (found on the
    # photo with its dice painted out, as calibrate finds it on the empty tray), all but one
    # labelled die are found, one read wrong, nothing outside the tray is reported, and
    # what is left inside it that is not a labelled die is reported unsure, never a face
    # unless it is a die's side face.
    folder = photos / "pxl-tray"
    labels = json.loads((folder / "labels.json").read_text())
    net = DieNet()
    total = Score()
    outside = {"untrayed": 0, "trayed": 0}  # the detector's finds outside the tray
    side_faces = 0
    for name, dice in labels.items():
        image = cv2.imread(str(folder / name))
        empty = image.copy()
        mask = np.zeros(image.shape[:2], np.uint8)
        for d in dice:
            x0, y0, x1, y1 = (int(v) for v in d["box"])
            mask[max(0, y0 - 4) : y1 + 4, max(0, x0 - 4) : x1 + 4] = 255
        empty = cv2.inpaint(empty, mask, 9, cv2.INPAINT_TELEA)
        tray = find_tray(empty)
        assert all(
            contains(
                tray,
                image.shape,
                ((d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2),
            )
            for d in dice
        )
        h, w = image.shape[:2]
        assert not any(contains(tray, image.shape, c) for c in [(5, 5), (w - 5, h - 5)])
        read = DiceReader(Calibration(tray=tray)).read(image)
        assert all(contains(tray, image.shape, d.centre) for d in read), name
        total.add(name, read, dice, 0.0)
        _, extra = match([d.centre for d in read], [d["box"] for d in dice])
        # A find read as a face where no die is labelled is a die's side face, beside it.
        faces = [read[p] for p in extra if read[p].value is not None]
        assert all(any(touching(f.box, d["box"]) for d in dice) for f in faces), name
        side_faces += len(faces)
        levels = search_levels(image.shape, None)
        for key, region in (("untrayed", None), ("trayed", tray)):
            finds = net.detector.find(Pyramid(image), levels, region)
            outside[key] += sum(not contains(tray, image.shape, f.centre) for f in finds)
    # Of the 21 dice, one may be taken for not a die, and a green 4 on a stretched photo is
    # either read as the 6 its side face shows or left unsure beside its side face read as a
    # 6 (as without the tray: test_vision_rigs.py, READ_AT_LEAST and SIDE_FACES_AT_MOST).
    assert total.missed <= 1 and total.wrong + side_faces <= 1
    # Without the tray the detector takes 68 things on the carpet and in the next tray for
    # dice (13 of them over 0.3; it reads from 0.2, READ_FROM); with it, it finds nothing
    # outside the tray. At most 2 finds are left inside it
    # where no die is labelled (unsure, asserted above).
    assert outside == {"untrayed": 68, "trayed": 0}
    assert total.phantom <= 2
