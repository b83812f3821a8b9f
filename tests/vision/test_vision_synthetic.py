"""The drawn dice the face classifier partly learns from (:mod:`vision.synthetic`)."""

from __future__ import annotations

import numpy as np

from vision.synthetic import GRID, LAYOUTS, LEGAL, NO_FACE, drawn_die, illegal_layout


def test_the_legal_sets_are_the_six_faces_in_each_of_their_turns() -> None:
    # 1, 4 and 5 look the same turned; 2, 3 and 6 have two orientations each.
    assert len(LEGAL) == 9
    assert frozenset(LAYOUTS[5]) in LEGAL and frozenset(LAYOUTS[4]) in LEGAL


def test_an_illegal_layout_is_never_a_face() -> None:
    rng = np.random.default_rng(0)
    kinds = {"blank": 0, "grid": 0, "stray": 0}
    for _ in range(3000):
        spots = illegal_layout(rng)
        if not spots:
            kinds["blank"] += 1
        elif all(s in GRID for s in spots):
            kinds["grid"] += 1
            assert frozenset(spots) not in LEGAL
        else:
            kinds["stray"] += 1
            off = [s for s in spots if s not in GRID]
            # The stray spot sits between grid points, so it completes no other face.
            assert all(min(np.hypot(s[0] - x, s[1] - y) for x, y in GRID) >= 0.4 for s in off)
    assert min(kinds.values()) > 300, kinds


def test_a_drawn_picture_has_the_die_in_its_middle_and_every_label() -> None:
    rng = np.random.default_rng(1)
    background = np.full((48, 48, 3), 180, np.uint8)
    labels = set()
    for _ in range(200):
        drawn = drawn_die(rng, background, 64, illegal=0.2)
        assert drawn.picture.shape == (64, 64, 3) and drawn.picture.dtype == np.uint8
        assert drawn.box == 32 and abs(drawn.centre[0] - 31.5) < 0.5
        # The die is there: its middle differs from the plain tray around it.
        x, y = (int(v) for v in drawn.centre)
        assert np.abs(drawn.picture[y - 6 : y + 6, x - 6 : x + 6].astype(int) - 180).max() > 10
        labels.add(drawn.label)
    assert labels == {0, 1, 2, 3, 4, 5, NO_FACE}
