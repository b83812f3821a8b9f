"""The legal-face check: every real face passes at any turn and size; impossible layouts fail."""

from __future__ import annotations

import numpy as np
import pytest

from vision.faces import LAYOUTS, fit_face


def turned(points: np.ndarray, degrees: float, scale: float, shift: tuple[float, float]):
    t = np.deg2rad(degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return points @ rot.T * scale + np.array(shift)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("degrees", [0, 17, 45, 71, 133])
def test_every_face_is_legal_at_any_turn(value: int, degrees: float) -> None:
    pips = turned(LAYOUTS[value], degrees, scale=9.0, shift=(50, 40))
    fit = fit_face(pips, step=9.0, centre=np.array([50.0, 40.0]))
    assert fit is not None and fit.legal and fit.value == value


def test_small_jitter_is_tolerated_as_from_a_real_photo() -> None:
    rng = np.random.default_rng(1)
    for value in range(2, 7):
        pips = turned(LAYOUTS[value], 30, 10, (0, 0)) + rng.normal(0, 0.6, (value, 2))
        assert fit_face(pips).legal


@pytest.mark.parametrize(
    "pips",
    [
        [[0, 0], [10, 0], [20, 0], [30, 0]],  # four in a row: no face looks like that
        [[0, 0], [10, 0], [0, 10]],  # an L of three: a 3 is a diagonal
        [[0, 0], [10, 0], [20, 0], [0, 10], [10, 10]],  # five in two rows
        [[0, 0], [10, 0], [20, 0], [0, 10], [10, 10], [20, 20]],  # a broken 6
    ],
)
def test_impossible_layouts_are_not_legal(pips) -> None:
    fit = fit_face(np.array(pips, float))
    assert fit is not None and not fit.legal


def test_a_lone_pip_is_a_one_only_in_the_middle_of_the_die() -> None:
    centre = np.array([24.0, 24.0])
    assert fit_face(np.array([[24.5, 23.0]]), step=14, centre=centre).legal
    assert not fit_face(np.array([[10.0, 10.0]]), step=14, centre=centre).legal


def test_no_pips_or_seven_pips_is_no_face() -> None:
    assert fit_face(np.zeros((0, 2))) is None
    assert fit_face(np.arange(14.0).reshape(7, 2)) is None
