"""Drawn tables: what a die may lie on, or lie beside, that is not a die.

Five rigs show five tables. A new user's may be a speckled carpet, a wood grain, graph paper,
a keyboard, a polka-dot cloth or a board game's printed squares, and each of those has taken
the place of dice in some reader: keys are square, dots are round like pips, a carpet's
speckles are everything at once. These are drawn here at random (any colours, scales and
turns) so that "not a die" is learnt from far more than five tables: the detector learns them
as background in drawn scenes (:mod:`vision.scenes`), the face classifier as "not a die".

Only numpy and OpenCV; the runtime never imports this module.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable

import cv2
import numpy as np


def _colour(rng: np.random.Generator) -> np.ndarray:
    """A random BGR colour, spread over hue, saturation and brightness."""
    hsv = np.array(
        [[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(20, 256)]]], np.uint8
    )
    bgr: np.ndarray = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    return bgr


def _noise(rng: np.random.Generator, side: int, cells: int) -> np.ndarray:
    """Smooth random values in 0..1 varying over about ``side / cells`` pixels."""
    small = rng.random((max(2, cells), max(2, cells))).astype(np.float32)
    noise: np.ndarray = cv2.resize(small, (side, side), interpolation=cv2.INTER_CUBIC)
    return noise.clip(0, 1)


def _two_tone(rng: np.random.Generator, t: np.ndarray) -> np.ndarray:
    """A 0..1 pattern painted between two random colours."""
    a, b = _colour(rng), _colour(rng)
    painted: np.ndarray = a * (1 - t[..., None]) + b * t[..., None]
    return painted


def speckle(rng: np.random.Generator, side: int) -> np.ndarray:
    """A carpet or a stone: speckles of several colours at a fine scale, over a coarse mottle."""
    out = np.zeros((side, side, 3), np.float32)
    weights = rng.dirichlet(np.ones(4))
    for w in weights:
        cells = int(side / rng.uniform(1.5, 6))
        mask = (_noise(rng, side, cells) > rng.uniform(0.4, 0.7)).astype(np.float32)
        out += w * mask[..., None] * _colour(rng)
    return out * rng.uniform(1.2, 2.5) * 0.7 + 0.3 * _two_tone(rng, _noise(rng, side, 4))


def wood(rng: np.random.Generator, side: int) -> np.ndarray:
    """Wood grain: stripes bent by slow noise, light and dark, any direction."""
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = xx * math.cos(a) + yy * math.sin(a)
    bend = _noise(rng, side, 3) * rng.uniform(10, 60)
    t = 0.5 + 0.5 * np.sin((u + bend) * 2 * math.pi / rng.uniform(3, 20))
    t = t ** rng.uniform(0.5, 3)
    return _two_tone(rng, t * 0.7 + 0.3 * _noise(rng, side, side // 4))


def grid(rng: np.random.Generator, side: int) -> np.ndarray:
    """Graph paper, a cutting mat, tiles or a weave: lines at a regular pitch."""
    out = np.empty((side, side, 3), np.float32)
    out[:] = _colour(rng)
    ink = _colour(rng).tolist()
    pitch = rng.uniform(4, 40)
    width = int(rng.integers(1, 3))
    for k in range(int(side / pitch) + 2):
        at = int(k * pitch)
        cv2.line(out, (at, 0), (at, side), ink, width)
        cv2.line(out, (0, at), (side, at), ink, width)
    return out


def dots(rng: np.random.Generator, side: int) -> np.ndarray:
    """Polka dots, a perforated sheet, studs: round spots on a lattice, sized like pips."""
    out = np.empty((side, side, 3), np.float32)
    out[:] = _colour(rng)
    ink = _colour(rng).tolist()
    pitch = rng.uniform(5, 30)
    r = max(1, int(pitch * rng.uniform(0.15, 0.4)))
    shift = rng.random() < 0.5
    for j in range(int(side / pitch) + 2):
        for i in range(int(side / pitch) + 2):
            x = int((i + (0.5 if shift and j % 2 else 0)) * pitch)
            cv2.circle(out, (x, int(j * pitch)), r, ink, -1, cv2.LINE_AA)
    return out


def keys(rng: np.random.Generator, side: int) -> np.ndarray:
    """A keyboard, tiles, a board game's squares: rounded squares in rows, each with a
    letter, a digit or a symbol on it (never a die's pips)."""
    out = np.empty((side, side, 3), np.uint8)  # putText draws on 8-bit pictures only
    out[:] = _colour(rng) * 0.5
    pitch = rng.uniform(12, 60)
    cap, ink = _colour(rng).tolist(), _colour(rng).tolist()
    key = pitch * rng.uniform(0.75, 0.92)
    glyphs = string.ascii_uppercase + string.digits + "#&%@?+-=*"
    for j in range(int(side / pitch) + 1):
        for i in range(int(side / pitch) + 1):
            x, y = i * pitch + (j % 2) * pitch * 0.3, j * pitch
            cv2.rectangle(out, (int(x), int(y)), (int(x + key), int(y + key)), cap, -1, cv2.LINE_AA)
            if rng.random() < 0.8:
                scale = key / 40
                text = "".join(rng.choice(list(glyphs), int(rng.integers(1, 3))))
                cv2.putText(
                    out,
                    text,
                    (int(x + key * 0.2), int(y + key * 0.7)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    scale,
                    ink,
                    max(1, int(scale * 2)),
                    cv2.LINE_AA,
                )
    return out.astype(np.float32)


def clutter(rng: np.random.Generator, side: int) -> np.ndarray:
    """A busy table: cards, coins, pencils, tokens, strokes and printed shapes, overlapping."""
    out: np.ndarray = np.clip(
        _two_tone(rng, _noise(rng, side, int(rng.integers(2, 8)))), 0, 255
    ).astype(np.uint8)  # putText draws on 8-bit pictures only
    for _ in range(int(rng.integers(3, 15))):
        c = _colour(rng).tolist()
        x, y = (int(v) for v in rng.integers(0, side, 2))
        s = int(side * rng.uniform(0.03, 0.3))
        kind = rng.integers(4)
        if kind == 0:
            cv2.circle(out, (x, y), max(2, s // 2), c, -1, cv2.LINE_AA)
        elif kind == 1:
            box = ((x, y), (s, s * rng.uniform(0.3, 1.5)), rng.uniform(0, 180))
            cv2.fillConvexPoly(out, cv2.boxPoints(box).astype(np.int32), c, cv2.LINE_AA)
        elif kind == 2:
            end = (int(x + s * rng.normal()), int(y + s * rng.normal()))
            cv2.line(out, (x, y), end, c, int(rng.integers(1, 6)), cv2.LINE_AA)
        else:
            cv2.putText(
                out,
                rng.choice(list(string.ascii_letters)),
                (x, y),
                cv2.FONT_HERSHEY_SIMPLEX,
                s / 30,
                c,
                max(1, s // 15),
                cv2.LINE_AA,
            )
    return out.astype(np.float32)


KINDS: tuple[Callable[[np.random.Generator, int], np.ndarray], ...] = (
    speckle,
    wood,
    grid,
    dots,
    keys,
    clutter,
)


def background(rng: np.random.Generator, side: int) -> np.ndarray:
    """A drawn table ``side`` pixels square (BGR, uint8): one of :data:`KINDS`, lit unevenly,
    maybe blurred a little."""
    out = KINDS[int(rng.integers(len(KINDS)))](rng, side)
    light = 1 + rng.uniform(-0.4, 0.4) * (_noise(rng, side, 2) - 0.5) * 2
    out = out * light[..., None]
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    return np.clip(out, 0, 255).astype(np.uint8)
