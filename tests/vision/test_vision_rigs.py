"""Photos of the five rigs (``photos/<rig>/``) read by the shipped networks: dice of 10 to
250 px on white trays, felt trays on carpets, wood, cloth and a round box; and the things on
them that are not dice (carpet, a game board and a hand, emblem dice, a tray's rim).

The shipped networks were trained on every rig, these photos included, so these are
regression checks of the reader as a whole (scale search, classifier, phantom filter); what
a rig the networks never saw gets is measured by ``benchmarks/vision.py``, leaving each rig
out of training in turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from boxes import touching

from vision.calibration import Calibration
from vision.evaluation import Score, match
from vision.pyramid import search_levels
from vision.reader import DiceReader

RIGS = ["box-gray", "dice-photos", "pxl-tray", "roboflow-public", "single-grey"]


def labelled(photos: Path, rig: str) -> dict[str, list[dict]]:
    return json.loads((photos / rig / "labels.json").read_text())


def read_rig(photos: Path, rig: str, reader: DiceReader | None = None) -> Score:
    reader = reader or DiceReader()
    score = Score()
    for name, dice in labelled(photos, rig).items():
        score.add(name, reader.read(cv2.imread(str(photos / rig / name))), dice, 0.0)
    return score


# What the shipped networks read on each rig's test photos (their own training photos): dice
# read right at least, read wrong and things read as a face where no die is at most. A
# change that reads less fails here; the held-out figures are the benchmark's. The misses
# are real shortfalls, kept in sight: box-gray's 1 among emblem dice and its die cut by the
# photo's top edge (both missed); on dice-photos a 2 read as 1. Two of dice-photos' photos
# hold heaps of dice (below). The pins are one network's: the classifier with where outputs
# (docs/vision.md, "The face classifier says where the die is"), which held out reads as
# many dice right as the one before it, with fewer wrong and fewer phantoms; the same recipe
# from another seed reads pxl-tray's test photos 16 right and 1 wrong. Looking again where
# the classifier says a die lies (vision.net.LOOK_AGAIN) reads pxl-tray's 16 right, none
# wrong and 4 unsure where one look read 15, 2 and 3. In 8 bits (vision.quantize), which
# held out read as many right as the float networks, one of those 16 is unsure.
READ_AT_LEAST = {
    "box-gray": (7, 9),
    "dice-photos": (108, 114),
    "pxl-tray": (15, 21),
    "roboflow-public": (5, 5),
    "single-grey": (2, 2),
}
# pxl-tray's green 4 (below) is read as the 6 its side face shows since the half-octave
# search (vision.pyramid.HALF_OCTAVE): the side face's find now lies in the 4's box.
WRONG_AT_MOST = {"dice-photos": 1, "pxl-tray": 1}
UNSURE_AT_MOST = {"pxl-tray": 5}
# A die's side face, found beside its top and read as a face: pxl-tray's green 4 (its side
# shows a 6; with one look that 6 was what the 4 was read as), and roboflow-public's 2,
# whose side shows a 4 when the photo is read unstretched (docs/vision.md, "Looking again
# where the die is").
SIDE_FACES_AT_MOST = {"pxl-tray": 1, "roboflow-public": 1}


@pytest.mark.parametrize("rig", RIGS)
def test_every_rig_is_read(photos, rig: str) -> None:
    # A die the reader is not sure of is unsure, not guessed; a thing it takes for a die
    # is reported unsure, not with a face, unless it touches a die (a side face).
    score = read_rig(photos, rig)
    right, count = READ_AT_LEAST[rig]
    assert score.labelled == count and score.right >= right
    assert score.wrong <= WRONG_AT_MOST.get(rig, 0)
    assert score.abstained <= UNSURE_AT_MOST.get(rig, max(2, score.labelled // 10))
    faces = [m for m in score.mistakes if m.kind == "phantom" and m.read is not None]
    assert len(faces) <= SIDE_FACES_AT_MOST.get(rig, 0)
    dice = labelled(photos, rig)
    for m in faces:
        assert any(touching(m.box, d["box"]) for d in dice[m.name]), m


def test_a_heap_of_dice_taken_for_one_die_is_read_as_its_dice(photos, monkeypatch) -> None:
    # dice-photos: dice piled against each other, which the detector also finds as one big
    # die (four to six times a die's size) that the classifier reads as a face. That find
    # covers dice read surely and showing more than one pip, so it is a heap
    # (vision.net.HEAP_BELOW) and the dice in it are read: all but two, missed.
    # (IMG_20191209_095342's heap was pinned here too until 2026-11-24; the stride-2
    # classifier takes that heap for no die, so it no longer tests the rule. Nor since the
    # half-octave search does IMG_20191208_111751's, pinned until 2026-11-26: its dice are
    # found surely enough that the heap no longer swallows them.)
    name, swallowed = "IMG_20191208_111228.jpg", 6
    dice = labelled(photos, "dice-photos")[name]
    bgr = cv2.imread(str(photos / "dice-photos" / name))
    score = Score()
    score.add(name, DiceReader().read(bgr), dice, 0.0)
    assert score.right == score.labelled - 2 == 20 and score.missed == 2
    assert score.wrong == 0 and score.phantom == 0
    # Taken for one die, the heap swallows dice around it (the surer-then-bigger rule): 6 of
    # the 22 are then missed or read as the heap's face.
    monkeypatch.setattr("vision.net._without_heaps", lambda found: found)
    heaped = Score()
    heaped.add(name, DiceReader().read(bgr), dice, 0.0)
    assert heaped.right <= heaped.labelled - swallowed


def test_dice_of_200_px_are_found_on_a_coarse_level_without_a_calibration(photos) -> None:
    # box-gray: a grey camera in a round box, dice 150-250 px across, side faces showing.
    sizes = [
        np.sqrt((b[2] - b[0]) * (b[3] - b[1]))
        for dice in labelled(photos, "box-gray").values()
        for b in (d["box"] for d in dice)
    ]
    assert min(sizes) > 100  # far bigger than the detector's band: only a coarse level has them
    score = read_rig(photos, "box-gray")
    # All but two found (the 1 among emblem dice, whose one big pip is what it finds, and a
    # die cut in half by the photo's top edge, taken for not a die), none read wrong; what it
    # takes for a die where none is labelled (an emblem die) is unsure.
    assert score.labelled == 9 and score.missed <= 2 and score.wrong == 0
    assert all(m.read is None for m in score.mistakes if m.kind == "phantom")


def test_a_calibrated_die_size_reads_fewer_levels_and_the_same_dice(photos) -> None:
    sides = [
        np.sqrt((b[2] - b[0]) * (b[3] - b[1])) * np.pi / 4
        for dice in labelled(photos, "box-gray").values()
        for b in (d["box"] for d in dice)
    ]
    cal = Calibration(die_px=float(np.median(sides)))
    levels = search_levels((640, 640), cal.die_px * 4 / np.pi)
    assert levels == [2, 3, 4] and len(levels) < len(search_levels((640, 640)))
    score, everywhere = read_rig(photos, "box-gray", DiceReader(cal)), read_rig(photos, "box-gray")
    # Dice of 150 to 260 px, read on the levels where dice of half to twice the median are
    # in the band: no fewer read right than by the search over every level (8 of 9 against
    # 7: the whole search misses the die cut by the photo's edge), none wrong. One level
    # (the one nearest the band's middle for the median die) missed 3 of 9: box-gray's dice
    # do not all fit one level.
    assert score.right == 8 and everywhere.right == 7 and score.wrong == 0
    assert all(m.read is None for m in score.mistakes if m.kind == "phantom")


def test_emblem_dice_are_never_read_as_a_face(photos) -> None:
    # A "1" and a "4" among dice printed with an 8, an S and pictures instead of pips: the
    # emblem dice are not labelled, and none of them may be read as a face.
    name = "00041_jpg-4f13552cec392f15c93b5ce0a0b3cfe8.jpg"
    dice = labelled(photos, "box-gray")[name]
    read = DiceReader().read(cv2.imread(str(photos / "box-gray" / name)))
    taken, extra = match([d.centre for d in read], [d["box"] for d in dice])
    assert dice[0]["value"] == 4 and read[taken[0]].value == 4
    assert extra and all(read[p].value is None for p in extra)
    # The 1 (one big pip among emblems) is missed today: a shortfall, not a wrong read.
    assert 1 not in taken or read[taken[1]].value in (1, None)


@pytest.mark.parametrize(
    "name",
    [
        "K2EY8aOQJ86H0HKrieoF_jpg-7d64b11c60584b42b83b5f32ae5202ba.jpg",
        "IMG_0684_jpeg_jpg-05fb2af505fb39e6a71828752ef4f3e2.jpg",
    ],
)
def test_a_game_board_and_a_hand_beside_the_dice_are_not_dice(photos, name: str) -> None:
    dice = labelled(photos, "roboflow-public")[name]
    read = DiceReader().read(cv2.imread(str(photos / "roboflow-public" / name)))
    taken, extra = match([d.centre for d in read], [d["box"] for d in dice])
    assert len(taken) == len(dice)
    assert all(read[p].value == dice[i]["value"] for i, p in taken.items())
    # Nothing on the board or the hand is read as a face: the board's edge at the picture's
    # left is found on one photo, once or twice, and reported unsure. (A die's side face,
    # touching its die, is another matter: test_every_rig_is_read counts them.)
    off = [p for p in extra if not any(touching(read[p].box, d["box"]) for d in dice)]
    assert len(off) <= 2 and all(read[p].value is None for p in off)


def test_a_speckled_carpet_is_not_dice(photos) -> None:
    # The carpet around pxl-tray's trays, cut where no die lies (no labelled die, no tray):
    # colour speckles of every size, which a reader of one rig took for dice by the dozen.
    found = []
    for name, (x0, y0, x1, y1) in CARPET.items():
        image = cv2.imread(str(photos / "pxl-tray" / name))
        found += DiceReader().read(np.ascontiguousarray(image[y0:y1, x0:x1]))
    assert found == []


def test_the_tray_without_dice_holds_no_dice(dataset, labels) -> None:
    # The lower part of a dice-photos photo: the tray's edge, its magnets and shadows.
    name = "IMG_20191208_111228.jpg"
    assert all(d["box"][1] < 380 for d in labels[name])
    image = cv2.imread(str(dataset / name))
    assert DiceReader().read(np.ascontiguousarray(image[400:])) == []


# Patches of carpet in pxl-tray's photos, away from every tray (x0, y0, x1, y1).
CARPET = {
    "PXL_20240219_191138425_jpg-795b4e0c743451248e6dd6f144b88471.jpg": (0, 440, 200, 640),
    "PXL_20240219_191325243_jpg-39ff27808b7e10663dbf8b25e1548dee.jpg": (440, 440, 640, 640),
    "PXL_20240219_191659849_jpg-2bac07563a87c68b0cb04373e91b5ded.jpg": (0, 0, 160, 200),
}


def _side_face() -> tuple[np.ndarray, list[dict[str, Any]]]:
    # roboflow-public (kept in side-face/, not photos/, so the rig's pins above stay as they
    # were): a grey die at a slant, its top face a 1 seen as a strip and its side face, a 5,
    # larger below it. The detector finds both.
    folder = Path(__file__).resolve().parent / "side-face"
    (name, dice), *_ = labelled(folder.parent, "side-face").items()
    bgr = cv2.imread(str(folder / name))
    return bgr, dice


def test_a_side_face_overlapping_its_die_is_not_read_as_a_die() -> None:
    # Their top faces' squares overlap by 0.15-0.2 of the smaller one, more than
    # vision.net.OVERLAP_MOST: the two finds are one die, and the side face (the smaller
    # find) goes.
    bgr, dice = _side_face()
    read = DiceReader().read(bgr)
    assert [d.value for d in read] == [1]
    assert match([d.centre for d in read], [d["box"] for d in dice])[0] == {0: 0}


def test_a_side_face_overlapping_its_die_less_than_the_rule_is_read(monkeypatch) -> None:
    # The rule is what drops it: allowed an overlap of 0.3 (shipped until 2026-11-24), the
    # side face is read as a 5 beside its 1.
    bgr, _ = _side_face()
    monkeypatch.setattr("vision.net.OVERLAP_MOST", 0.3)
    assert sorted(d.value for d in DiceReader().read(bgr)) == [1, 5]
