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
from vision.net import Detector
from vision.pyramid import (
    BAND,
    CALIBRATED_SPREAD,
    MAX_SEARCH_PIXELS,
    Pyramid,
    calibrated_level,
    crop_level,
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
