"""Both readers on drawn dice (known answers by construction: every face at any turn, dark and
light dice, touching dice, glare, an illegal smudge), and the hand-built one on real photos.
The network reader's photo tests are in ``test_vision_net.py``.

The face classifier is trained partly on dice drawn by :mod:`vision.synthetic`, a different
and far more varied drawer than the one here whose impossible layouts include L-shaped
spots like the smudge below: these cases check that it knows plainly drawn dice, not how
well it reads photos, which ``benchmarks/vision.py`` measures on rigs it never saw."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.evaluation import Score
from vision.reader import ClassicReader, DiceReader


def values_by_position(dice, centres):
    """The value read nearest each drawn centre (None when nothing is near)."""
    out = []
    for c in centres:
        near = [d for d in dice if np.hypot(d.centre[0] - c[0], d.centre[1] - c[1]) < 12]
        out.append(near[0].value if len(near) == 1 else ("none" if not near else "many"))
    return out


@pytest.mark.parametrize("angle", [0, 20, 45, 70])
@pytest.mark.parametrize("Reader", [ClassicReader, DiceReader])
def test_reads_every_face_at_any_turn(Reader, angle: float, synth) -> None:
    img = synth.mat()
    centres = [(60, 70), (160, 70), (260, 70), (60, 220), (160, 220), (260, 220)]
    for value, c in enumerate(centres, start=1):
        synth.draw_die(img, c, value, angle=angle + 7 * value)
    dice = Reader().read(synth.blur(img))
    assert values_by_position(dice, centres) == [1, 2, 3, 4, 5, 6]
    assert len(dice) == 6  # and nothing else: no phantom dice on a plain mat
    if Reader is DiceReader:  # its outline is turned as the die was drawn
        for die in dice:
            turn = (die.rect[2] - (angle + 7 * (die.value or 0)) + 45) % 90 - 45
            assert abs(turn) < 4, (die.value, die.rect)


@pytest.mark.parametrize("Reader", [ClassicReader, DiceReader])
def test_dark_dice_with_white_pips_and_white_dice_with_black_pips(Reader, synth) -> None:
    img = synth.mat(grey=150)
    synth.draw_die(img, (80, 100), 5, body=(25, 25, 25), pip=(245, 245, 245))
    synth.draw_die(img, (220, 100), 3, angle=30, body=(250, 250, 250), pip=(20, 20, 20))
    synth.draw_die(img, (150, 230), 6, angle=12, body=(40, 160, 40), pip=(60, 220, 250))
    dice = Reader().read(synth.blur(img))
    assert values_by_position(dice, [(80, 100), (220, 100), (150, 230)]) == [5, 3, 6]


def test_touching_dice_are_split_and_both_read_by_the_network(synth) -> None:
    # The five-rig detector finds the drawn red 2 against the 4 on the half-octave levels
    # only (on the whole levels, its pips and a box around both dice: a strict xfail until
    # the thirty-third session).
    test_touching_dice_are_split_and_both_read(DiceReader, synth)


@pytest.mark.parametrize("Reader", [ClassicReader])
def test_touching_dice_are_split_and_both_read(Reader, synth) -> None:
    img = synth.mat()
    # Edge to edge, different colours, as dice often stop against each other.
    synth.draw_die(img, (130, 160), 4, body=(200, 60, 30))
    synth.draw_die(img, (167, 160), 2, body=(40, 40, 200))
    dice = Reader().read(synth.blur(img))
    assert values_by_position(dice, [(130, 160), (167, 160)]) == [4, 2]


@pytest.mark.parametrize("Reader", [ClassicReader, DiceReader])
def test_glare_on_a_white_die_is_not_a_pip(Reader, synth) -> None:
    img = synth.mat(grey=120)
    synth.draw_die(img, (160, 160), 4, angle=10, body=(235, 235, 235), pip=(20, 20, 20))
    # A specular highlight between the pips: brighter than the body, the opposite of the pips.
    cv2.circle(img, (163, 158), 3, (255, 255, 255), -1)
    dice = Reader().read(synth.blur(img))
    assert values_by_position(dice, [(160, 160)]) == [4]


@pytest.mark.parametrize("Reader", [ClassicReader, DiceReader])
def test_a_blank_face_is_a_die_but_unsure(Reader, synth) -> None:
    img = synth.mat()
    synth.draw_die(img, (160, 160), 1, body=(40, 160, 40), pip=(40, 160, 40))  # pips unseen
    synth.draw_die(img, (80, 80), 6, angle=20)
    dice = Reader().read(synth.blur(img))
    blank, six = values_by_position(dice, [(160, 160), (80, 80)])
    assert six == 6
    # Never a guess. The five-rig networks, which learnt "not a die" from drawn tables (tiles,
    # keys), drop a plain blank square as not a die ("none") rather than report it unsure.
    assert blank is None or (Reader is DiceReader and blank == "none")


@pytest.mark.parametrize("Reader", [ClassicReader, DiceReader])
def test_a_smudge_that_is_no_legal_face_is_unsure_not_a_guess(Reader, synth) -> None:
    img = synth.mat()
    synth.draw_die(img, (160, 160), 1, body=(40, 40, 200))
    # Two more spots in an L with the centre pip: three spots, but not a "3".
    cv2.circle(img, (170, 160), 3, (255, 255, 255), -1)
    cv2.circle(img, (160, 150), 3, (255, 255, 255), -1)
    dice = Reader().read(synth.blur(img))
    assert len(dice) == 1 and dice[0].value is None


def test_an_empty_tray_has_no_dice(synth) -> None:
    assert ClassicReader().read(synth.blur(synth.mat(seed=3))) == []


def test_rejects_a_grey_picture(synth) -> None:
    with pytest.raises(ValueError):
        ClassicReader().read(np.zeros((10, 10), np.uint8))


# Photos from the real set with their labels: regression cases that the pipeline reads
# exactly (every die right, nothing extra) today; the answers come from labels.json.
REAL_PHOTOS = [
    "IMG_20191209_095431.jpg",
    "IMG_20191209_095447.jpg",
    "IMG_20191209_095545.jpg",
    "IMG_20191209_100610.jpg",
    "IMG_20191208_112659.jpg",
]


def test_real_photos_from_the_data_set(dataset, labels) -> None:
    score = Score()
    for name in REAL_PHOTOS:
        image = cv2.imread(str(dataset / name))
        score.add(name, ClassicReader().read(image), labels[name], 0.0)
    # Several colours, white and coloured pips, touching dice: all read, nothing extra.
    assert score.labelled == 33
    assert score.right == score.labelled
    assert score.phantom == 0


def test_a_die_is_named_by_its_body_not_its_big_pip(synth) -> None:
    """Many dice show their 1 as one big pip, often red. A die's colour is the median of
    the middle of its square (vision.colour.die_colour), as calibrate measures its
    palette's dice, so even turned a die is named by its body: the middle of its upright box
    alone, which the network reader once took, is mostly that pip on a die at 45° (it named
    these dice pink, red and blue)."""
    img = synth.mat(grey=150)
    centres = [(80, 90), (220, 90), (150, 220)]
    bodies = {"white": (245, 245, 245), "green": (40, 160, 40), "blue": (160, 60, 20)}
    for (x, y), body in zip(centres, bodies.values(), strict=True):
        synth.draw_die(img, (x, y), 1, side=48, angle=45, body=body, pip=body)
        cv2.circle(img, (x, y), 9, (30, 30, 200), -1, cv2.LINE_AA)  # a big red 1
    dice = DiceReader().read(synth.blur(img))
    named = {}
    for c in centres:
        near = [d for d in dice if np.hypot(d.centre[0] - c[0], d.centre[1] - c[1]) < 12]
        assert len(near) == 1, (c, dice)
        named[c] = near[0].colour
    assert list(named.values()) == list(bodies)


def test_told_how_many_dice_are_in_view_it_finds_the_faint_one(photos) -> None:
    """A camera's roll: the dice hub knows how many dice it holds. On this box-gray photo the
    big plain 1 is too faint a find to keep (few-pip faces are, docs/vision.md); told that
    four dice are in view, the reader looks for the fourth and reads it, and told no more
    than it reads surely, it reads as it would untold."""
    folder = photos / "box-gray"
    name = "00098_jpg-0c02265863461e1ef282730aeb28a768.jpg"
    labels = json.loads((folder / "labels.json").read_text())[name]
    image = cv2.imread(str(folder / name))
    reader = DiceReader()

    def score(count: int | None) -> tuple[int, int, int]:
        s = Score()
        s.add(name, reader.read(image, count), labels, 0.0)
        return s.right, s.wrong, s.phantom

    assert score(None) == (3, 0, 0)
    assert score(4) == (4, 0, 0)
    assert score(3) == score(None)
