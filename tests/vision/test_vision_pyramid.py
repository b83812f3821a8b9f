"""The scale search (:mod:`vision.pyramid`): which levels are read, what they cost, and that
dice far smaller or larger than the detector learnt are found on real photos of three rigs.

The shipped networks were trained on every rig, these photos included, so the reading tests
are regression checks; what a new rig gets is measured by ``benchmarks/vision.py``, leaving
each rig out of training in turn."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.evaluation import Score
from vision.net import MODELS, READ_FROM, Detector
from vision.pyramid import (
    BAND,
    BAND_MIDDLE,
    CALIBRATED_SPREAD,
    HALF_OCTAVE,
    MAX_SEARCH_PIXELS,
    Pyramid,
    calibrated_level,
    crop_level,
    half_octave,
    search_levels,
    smallest_die,
)
from vision.reader import DiceReader


def rig(photos, name: str) -> tuple:
    folder = photos / name
    return folder, json.loads((folder / "labels.json").read_text())


def score(reader: DiceReader, image: np.ndarray, dice: list[dict]) -> Score:
    s = Score()
    s.add("picture", reader.read(image), dice, 0.0)
    return s


def test_each_level_halves_the_one_before_exactly() -> None:
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (101, 67, 3), dtype=np.uint8)
    pyramid = Pyramid(img)
    assert pyramid.built == 1  # nothing is made before it is asked for
    two = pyramid.level(2)
    assert two.shape == (25, 16, 3) and pyramid.built == 3
    # A pixel of level 1 is the mean of the 2×2 pixels it covers (odd edges dropped).
    one = pyramid.level(1).astype(float)
    expected = img[:100, :66].astype(float).reshape(50, 2, 33, 2, 3).mean(axis=(1, 3))
    assert np.abs(one - expected).max() <= 0.5


def test_every_die_size_is_in_the_band_on_some_level_read() -> None:
    # From the smallest die a 640-px photo is searched for to one filling half the picture,
    # each size lands inside the detector's band on at least one level read.
    levels = search_levels((640, 640, 3))
    for size in np.geomspace(smallest_die((640, 640, 3)), 320, 60):
        assert any(BAND[0] <= size / 2**k <= BAND[1] for k in levels), size


def test_reading_every_scale_costs_about_a_third_more_than_the_picture() -> None:
    for shape in [(480, 640, 3), (640, 640, 3), (960, 1280, 3)]:
        h, w = shape[:2]
        pixels = sum((h >> k) * (w >> k) for k in search_levels(shape))
        assert pixels <= 4 / 3 * h * w


def test_with_the_half_octave_every_die_is_near_the_band_s_middle_on_some_level() -> None:
    # Whole levels alone leave a die as far as half an octave (√2) from the middle of the
    # band on every level; with the half-octave picture's levels, a quarter octave. (Dice
    # under the band's middle are on the finest level, which the half octave does not add to.)
    shape = (640, 640, 3)
    half = half_octave(Pyramid(np.zeros(shape, np.uint8)))
    assert half.shape == (453, 453, 3) and half.fx == pytest.approx(HALF_OCTAVE, rel=1e-3)
    whole = [2.0**-k for k in search_levels(shape)]
    both = whole + [half.fx * 2.0**-k for k in search_levels(half.shape)]
    for size in np.geomspace(BAND_MIDDLE, 320, 60):
        off = [
            min(abs(np.log2(size * s / BAND_MIDDLE)) for s in scales) for scales in (whole, both)
        ]
        assert off[1] <= 0.26, size
    assert (
        max(
            min(abs(np.log2(size * s / BAND_MIDDLE)) for s in whole)
            for size in np.geomspace(BAND_MIDDLE, 320, 60)
        )
        > 0.45
    )


def test_the_search_reads_about_twice_the_picture_s_pixels() -> None:
    # The whole levels cost 4/3 of the finest; the half-octave picture's half as much again.
    for shape in [(480, 640, 3), (640, 640, 3), (3024, 4032, 3)]:
        h, w = shape[:2]
        half = half_octave(Pyramid(np.zeros(shape, np.uint8)))
        hh, hw = half.shape[:2]
        pixels = sum((h >> k) * (w >> k) for k in search_levels(shape))
        pixels += sum((hh >> k) * (hw >> k) for k in search_levels(half.shape))
        finest = search_levels(shape)[0]
        assert pixels <= 2 * (h >> finest) * (w >> finest)


def test_dice_found_between_the_levels_are_placed_on_the_photo(photos) -> None:
    # The half-octave picture's finds, carried back to the photo, lie on its dice at their
    # size: on the test photos of five rigs nearly every labelled die has one within half a
    # side of its centre, about as big as its box (the median; some are a pip of a big die);
    # and the search keeps some of them over the whole levels' finds of the same die.
    detector = Detector(MODELS / "dice_net.onnx", READ_FROM)
    labelled, sizes, kept = 0, [], 0
    for name in ["box-gray", "dice-photos", "pxl-tray", "roboflow-public", "single-grey"]:
        folder, labels = rig(photos, name)
        for photo, dice in labels.items():
            pyramid = Pyramid(cv2.imread(str(folder / photo)))
            half = half_octave(pyramid)
            finds = [
                (half.to_source(d.centre), d.size / half.fx, d.heat)
                for d in detector.banded(half, search_levels(half.shape))
            ]
            for die in dice:
                x0, y0, x1, y1 = die["box"]
                side = max(x1 - x0, y1 - y0)
                near = [
                    f
                    for f in finds
                    if np.hypot(f[0][0] - (x0 + x1) / 2, f[0][1] - (y0 + y1) / 2) < side / 2
                ]
                labelled += 1
                if near:
                    sizes.append(max(near, key=lambda f: f[2])[1] / side)
            whole = {d.centre for d in detector.banded(pyramid, search_levels(pyramid.shape))}
            kept += sum(d.centre not in whole for d in detector.search(pyramid))
    assert len(sizes) >= 0.95 * labelled
    assert 0.7 <= float(np.median(sizes)) <= 1.3
    assert kept


def test_a_big_photo_is_searched_from_the_half_that_fits_the_budget() -> None:
    # A 12-megapixel photo: the detector never reads the picture itself, only a quarter and
    # coarser, so its cost is bounded, not 12 megapixels' worth.
    shape = (3024, 4032, 3)
    levels = search_levels(shape)
    assert levels[0] == 2
    assert (3024 >> 2) * (4032 >> 2) <= MAX_SEARCH_PIXELS < (3024 >> 1) * (4032 >> 1)
    assert smallest_die(shape) == 4 * BAND[0]


def test_a_calibrated_die_size_reads_the_levels_of_half_to_twice_that_die() -> None:
    for shape, box in [((640, 640, 3), 20), ((640, 640, 3), 80), ((3024, 4032, 3), 300)]:
        levels = search_levels(shape, die_box=box)
        # Fewer levels than the search without a calibration, yet every die from half to
        # twice the calibrated size is inside the band on one of them.
        assert len(levels) < len(search_levels(shape)), (shape, box)
        for size in np.geomspace(box / CALIBRATED_SPREAD, box * CALIBRATED_SPREAD, 30)[1:-1]:
            assert any(BAND[0] <= size / 2**k <= BAND[1] for k in levels), (box, size)
        assert calibrated_level(box) in levels
    assert search_levels((640, 640, 3), die_box=20) == [0, 1]
    assert search_levels((640, 640, 3), die_box=80) == [1, 2, 3]
    # Small dice on a big photo: the finer levels a search without calibration skips.
    assert search_levels((3024, 4032, 3), die_box=30)[0] == 0 < search_levels((3024, 4032, 3))[0]
    # A die bigger than the picture can hold: its nearest level there is.
    assert search_levels((640, 640, 3), die_box=2000) == [4]
    # A die is cut from the level where it is still at least 28 px across.
    assert crop_level(20) == 0 and crop_level(56) == 1 and crop_level(300) == 3


def test_the_detector_reads_only_the_levels_it_must(dataset, monkeypatch) -> None:
    # A 12-megapixel picture: the detector is run on a quarter of it and coarser halves,
    # never on the picture itself or its half.
    shapes: list[tuple[int, int]] = []
    peaks = Detector.peaks

    def recording(self, img, min_heat=None):
        shapes.append(img.shape[:2])
        return peaks(self, img, min_heat)

    monkeypatch.setattr(Detector, "peaks", recording)
    photo = cv2.imread(str(dataset / "IMG_20191209_095545.jpg"))
    big = cv2.resize(photo[80:560], (4032, 3024), interpolation=cv2.INTER_LINEAR)
    DiceReader().read(big)
    assert max(h * w for h, w in shapes) <= MAX_SEARCH_PIXELS
    assert shapes[0] == (756, 1008)
    # The half-octave picture is read from its quarter too.
    assert (534, 712) in shapes


@pytest.mark.parametrize("scale", [0.45, 4.0])
def test_dice_far_smaller_or_larger_than_photographed_are_found(
    dataset, labels, scale: float
) -> None:
    # Dice of 37 px made 17 px or 150 px: found on the finest level or on a coarse one.
    name = "IMG_20191209_095545.jpg"
    image = cv2.resize(
        cv2.imread(str(dataset / name)),
        None,
        fx=scale,
        fy=scale,
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC,
    )
    boxes = [{"value": d["value"], "box": [v * scale for v in d["box"]]} for d in labels[name]]
    s = score(DiceReader(), image, boxes)
    assert s.missed == 0 and s.phantom == 0 and s.wrong == 0
