"""Drawn dice for training the face classifier: any body, any pips, on real backgrounds.

Photos of a handful of dice sets teach a network those sets: the classifier trained on photos
alone read a flat drawn red die with white pips, clear to anyone, as a 2 when it showed a 4.
What stays true of every die is the pip layout, so a share of the classifier's training crops
are dice drawn here with the six legal layouts in random colours, pip sizes and spacings,
corner rounding, marbling, bevels, side faces, shadows and glare, on patches of real tray
background, with neighbours crowding in: a die design it has never been shown is then just
one more draw.

Only numpy and OpenCV; the runtime never imports this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pose import die_side

# Pip centres of each face in units of the pip spacing, die frame (x right, y down).
LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
GRID = tuple((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1))


def _legal_sets() -> set[frozenset[tuple[int, int]]]:
    """Every legal face's pip set on the 3×3 grid, in each of its quarter turns."""
    out = set()
    for pips in LAYOUTS.values():
        turned = list(pips)
        for _ in range(4):
            out.add(frozenset(turned))
            turned = [(-y, x) for x, y in turned]
    return out


LEGAL = _legal_sets()
SUPER = 2  # drawn at this many times the picture's side, then scaled down (anti-aliasing)
SHIFT = 4  # fixed-point bits for sub-pixel drawing
NO_FACE = 7  # the classifier's eighth class: a die, but no legal face (vision.net)


def _colour(rng: np.random.Generator) -> np.ndarray:
    """A random BGR colour, spread over hue, saturation and brightness."""
    hsv = np.array(
        [[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(20, 256)]]], np.uint8
    )
    bgr: np.ndarray = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    return bgr


def _lab(bgr: np.ndarray) -> np.ndarray:
    pixel = np.clip(bgr, 0, 255).astype(np.uint8).reshape(1, 1, 3)
    lab: np.ndarray = cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    return lab


def _pip_colour(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    """A pip colour a person can tell from the body: white or black most often, else any
    colour clearly apart in Lab (red on dark grey is allowed, grey on grey is not)."""
    body_lab = _lab(body)
    for _ in range(50):
        r = rng.random()
        if r < 0.35:
            pip = np.full(3, rng.uniform(200, 255), np.float32)
        elif r < 0.6:
            pip = np.full(3, rng.uniform(0, 50), np.float32)
        else:
            pip = _colour(rng)
        if np.linalg.norm(_lab(pip) - body_lab) >= 50:
            return pip
    return np.full(3, 255 if body_lab[0] < 128 else 0, np.float32)


def _rounded_square(centre: np.ndarray, half: float, angle: float, radius: float) -> np.ndarray:
    """Outline of a square with rounded corners, turned by ``angle``, in fixed point."""
    inner = half - radius
    pts = [
        (sx * inner + radius * math.cos(t), sy * inner + radius * math.sin(t))
        for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1)))
        for t in np.linspace(k * math.pi / 2, (k + 1) * math.pi / 2, 6)
    ]
    c, s = math.cos(angle), math.sin(angle)
    turned = np.array(pts, np.float32) @ np.array([[c, s], [-s, c]], np.float32) + centre
    fixed: np.ndarray = (turned * (1 << SHIFT)).astype(np.int32)
    return fixed


def illegal_layout(rng: np.random.Generator) -> tuple[tuple[float, float], ...]:
    """Spots that make no legal face: none (a blank or covered face), a subset of the 3×3
    grid that no face shows, or a legal face with a stray spot off the grid (a smudge)."""
    r = rng.random()
    if r < 0.2:
        return ()
    if r < 0.75:
        while True:
            spots = frozenset(GRID[i] for i in range(9) if rng.random() < rng.uniform(0.2, 0.7))
            if spots and spots not in LEGAL:
                return tuple(spots)
    legal = LAYOUTS[int(rng.integers(1, 7))]
    while True:  # off every grid point, so the stray spot cannot complete another face
        stray = (float(rng.uniform(-1.2, 1.2)), float(rng.uniform(-1.2, 1.2)))
        if min(math.hypot(stray[0] - x, stray[1] - y) for x, y in GRID) >= 0.4:
            break
    return (*legal, stray) if len(legal) < 6 or rng.random() < 0.5 else legal[:-1] + (stray,)


def draw_die(
    canvas: np.ndarray,
    rng: np.random.Generator,
    centre: np.ndarray,
    side: float,
    angle: float,
    value: int,
    layout: tuple[tuple[float, float], ...] | None = None,
) -> None:
    """Draw one die seen from above (maybe with a little of its sides) onto ``canvas``:
    face ``value``, or the spots of ``layout`` when one is given."""
    h = canvas.shape[0]
    body = _colour(rng)
    pips = _pip_colour(rng, body)
    radius = side * rng.uniform(0.02, 0.25)
    # A soft shadow, then the sides a camera not quite overhead sees, under the top face.
    shadow: np.ndarray = np.zeros(canvas.shape[:2], np.float32)
    cv2.fillPoly(
        shadow,
        [_rounded_square(centre + rng.normal(0, 0.08 * side, 2), side / 2, angle, radius)],
        1.0,
        cv2.LINE_AA,
        SHIFT,
    )
    shadow = cv2.GaussianBlur(shadow, (0, 0), side * 0.08)
    canvas *= (1 - rng.uniform(0.0, 0.5) * shadow)[..., None]
    if rng.random() < 0.5:
        cv2.fillPoly(
            canvas,
            [_rounded_square(centre + rng.normal(0, 0.07 * side, 2), side / 2, angle, radius)],
            (body * rng.uniform(0.35, 0.8)).tolist(),
            cv2.LINE_AA,
            SHIFT,
        )
    # The top face: body colour, maybe marbled, lit unevenly, maybe darker at a bevelled edge.
    mask = np.zeros(canvas.shape[:2], np.float32)
    cv2.fillPoly(mask, [_rounded_square(centre, side / 2, angle, radius)], 1.0, cv2.LINE_AA, SHIFT)
    face = np.empty_like(canvas)
    face[:] = body
    if rng.random() < 0.35:
        cells = int(rng.integers(4, 13))
        swirl = cv2.resize(
            rng.random((cells, cells)).astype(np.float32), (h, h), interpolation=cv2.INTER_CUBIC
        )
        swirl = np.clip((swirl - 0.5) * rng.uniform(2, 8) + 0.5, 0, 1)[..., None]
        swirl *= rng.uniform(0.3, 0.8)
        face = face * (1 - swirl) + _colour(rng) * swirl
    yy, xx = np.mgrid[0:h, 0:h].astype(np.float32)
    light = rng.normal(0, 1, 2)
    light /= np.linalg.norm(light) + 1e-6
    grad = ((xx - centre[0]) * light[0] + (yy - centre[1]) * light[1]) / side
    face *= (1 + rng.uniform(0, 0.5) * grad)[..., None]
    if rng.random() < 0.5:
        edge = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, int(side * 0.04)))
        edge = cv2.GaussianBlur(edge, (0, 0), side * rng.uniform(0.02, 0.06))
        face *= (1 - rng.uniform(0.0, 0.4) * (1 - edge))[..., None]
    # Pips: the legal layout, turned with the die, one size, maybe with a dark rim (drilled).
    spacing = side * rng.uniform(0.22, 0.3)
    pip_r = side * rng.uniform(0.07, 0.12)
    c, s = math.cos(angle), math.sin(angle)
    rim = rng.random() < 0.4
    for px, py in LAYOUTS[value] if layout is None else layout:
        at = (
            int((centre[0] + spacing * (px * c - py * s)) * (1 << SHIFT)),
            int((centre[1] + spacing * (px * s + py * c)) * (1 << SHIFT)),
        )
        if rim:
            cv2.circle(
                face,
                at,
                int(pip_r * 1.2 * (1 << SHIFT)),
                (body * rng.uniform(0.3, 0.7)).tolist(),
                -1,
                cv2.LINE_AA,
                SHIFT,
            )
        cv2.circle(face, at, int(pip_r * (1 << SHIFT)), pips.tolist(), -1, cv2.LINE_AA, SHIFT)
    if rng.random() < 0.25:  # glare: a soft bright spot somewhere on the face
        spot: np.ndarray = np.zeros(canvas.shape[:2], np.float32)
        glare = centre + rng.uniform(-0.35, 0.35, 2) * side
        cv2.circle(
            spot, (int(glare[0]), int(glare[1])), int(side * rng.uniform(0.05, 0.15)), 1.0, -1
        )
        spot = cv2.GaussianBlur(spot, (0, 0), side * 0.05)[..., None]
        face = face * (1 - spot) + 255 * spot * rng.uniform(0.5, 1.0)
    m = mask[..., None]
    canvas[:] = canvas * (1 - m) + np.clip(face, 0, 255) * m


@dataclass(frozen=True)
class Drawn:
    """A drawn picture with one die in its middle (and maybe neighbours), and what it shows."""

    picture: np.ndarray  # BGR, uint8
    centre: tuple[float, float]  # the die's centre, pixels
    box: float  # the side of the die's upright box, pixels (as the data set labels dice)
    angle: float  # the die's turn, radians
    label: int  # 0..5 for a face, or NO_FACE


def drawn_die(rng: np.random.Generator, background: np.ndarray, side: int, illegal: float) -> Drawn:
    """A picture ``side`` pixels square on ``background`` (a BGR patch of real tray) with one
    drawn die in the middle, its upright box half the side, at any turn; a share ``illegal``
    of the dice show an :func:`illegal_layout` (label :data:`NO_FACE`). It is cut out for the
    classifier as a photographed die is (:func:`vision.pose.face_crop`)."""
    big = side * SUPER
    canvas = cv2.resize(background, (big, big), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    angle = float(rng.uniform(0, 2 * math.pi))
    box = big / 2
    die = die_side(box, angle)
    centre = np.array([big / 2, big / 2], np.float32)
    for _ in range(int(rng.choice(3, p=[0.6, 0.3, 0.1]))):
        a = rng.uniform(0, 2 * math.pi)
        at = centre + die * rng.uniform(1.0, 1.3) * np.array([math.cos(a), math.sin(a)], np.float32)
        draw_die(
            canvas,
            rng,
            at,
            die * rng.uniform(0.9, 1.1),
            rng.uniform(0, 2 * math.pi),
            int(rng.integers(1, 7)),
        )
    value = int(rng.integers(1, 7))
    layout = illegal_layout(rng) if rng.random() < illegal else None
    draw_die(canvas, rng, centre, die, angle, value, layout)
    picture = cv2.resize(
        np.clip(canvas, 0, 255).astype(np.uint8), (side, side), interpolation=cv2.INTER_AREA
    )
    mid = (big / 2 + 0.5) / SUPER - 0.5  # the canvas's middle, in the picture's pixels
    return Drawn(picture, (mid, mid), side / 2, angle, value - 1 if layout is None else NO_FACE)
