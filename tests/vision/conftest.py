"""Shared helpers for the vision tests: real photos of several rigs (copied into
``tests/vision/photos`` with their labels and licences, so a bare clone runs every test), and
synthetic dice drawn with OpenCV."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

PHOTOS = Path(__file__).resolve().parent / "photos"  # one folder per rig; NOTICE.md

# Pip positions of each face on a 3×3 grid (units of the grid step).
FACES = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


@pytest.fixture
def dataset() -> Path:
    """Photos of the ``dice-photos`` rig (a phone over a white tray, dice 26-57 px)."""
    return PHOTOS / "dice-photos"


@pytest.fixture
def labels(dataset: Path) -> dict:
    return json.loads((dataset / "labels.json").read_text())


@pytest.fixture
def photos() -> Path:
    """The folder of every rig's test photos (``photos/<rig>/``, each with labels.json)."""
    return PHOTOS


@pytest.fixture
def dimmed(photos: Path, tmp_path: Path) -> Callable[[str, float, float], Path]:
    """``dimmed(rig, gain, lift)``: a folder of that rig's test photos, with their labels,
    as a dimmer rig would take them (each pixel times ``gain``, plus ``lift``): a new rig's
    light, under which the detector is less sure of the dice."""

    def make(rig: str, gain: float, lift: float) -> Path:
        folder = tmp_path / f"{rig}-dim-{gain}-{lift}"
        folder.mkdir()
        labels = photos / rig / "labels.json"
        (folder / "labels.json").write_text(labels.read_text())
        for name in json.loads(labels.read_text()):
            bgr = cv2.imread(str(photos / rig / name)).astype(np.float32)
            cv2.imwrite(str(folder / name), np.clip(bgr * gain + lift, 0, 255).astype(np.uint8))
        return folder

    return make


def mat(size: int = 320, grey: int = 200, seed: int = 0) -> np.ndarray:
    """A plain, slightly noisy tray mat."""
    rng = np.random.default_rng(seed)
    img = np.full((size, size, 3), grey, np.float32)
    img += rng.normal(0, 2.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_die(
    img: np.ndarray,
    centre: tuple[float, float],
    value: int,
    side: float = 36,
    angle: float = 0,
    body: tuple[int, int, int] = (40, 40, 200),
    pip: tuple[int, int, int] = (255, 255, 255),
) -> None:
    """Draw a die seen from above: a rotated square body and its pips (BGR colours)."""
    rect = (centre, (side, side), angle)
    box = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillConvexPoly(img, box, body, cv2.LINE_AA)
    step = 0.28 * side
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    for gx, gy in FACES[value]:
        x, y = rot @ np.array([gx * step, gy * step]) + np.array(centre)
        cv2.circle(img, (round(x), round(y)), max(2, round(0.09 * side)), pip, -1, cv2.LINE_AA)


def blur(img: np.ndarray) -> np.ndarray:
    """Camera softness, so edges are not razor-sharp."""
    return cv2.GaussianBlur(img, (3, 3), 0)


class Synth:
    """The drawing helpers, as a fixture (pytest's importlib mode cannot import conftest)."""

    mat = staticmethod(mat)
    draw_die = staticmethod(draw_die)
    blur = staticmethod(blur)


@pytest.fixture
def synth() -> type[Synth]:
    return Synth
