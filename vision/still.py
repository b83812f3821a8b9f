"""Waiting for the dice to be still, and agreeing on a result over several still frames.

Reading a rolling die gives nonsense, and one frame can catch glare or a hand. So: compare each
frame with the previous one at low resolution (cheap, and blind to sensor noise); once the
picture has been still for a few frames, read several still frames and report a die's value
only when most of them agree. A die the frames disagree on is reported as unsure.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from vision.reader import DieFound

MOTION_SIDE = 80  # frames are compared at this width: enough to see a die move, not noise


class MotionGate:
    """Says when the picture has stopped changing.

    ``threshold`` is the fraction of low-resolution pixels that may change (by more than
    ``pixel_delta`` grey levels) between frames for them to count as still; ``still_frames`` is
    how many still frames in a row mean the dice have settled.
    """

    def __init__(
        self, threshold: float = 0.002, pixel_delta: int = 12, still_frames: int = 3
    ) -> None:
        self.threshold = threshold
        self.pixel_delta = pixel_delta
        self.still_frames = still_frames
        self._previous: np.ndarray | None = None
        self.still_for = 0

    @staticmethod
    def _small(frame: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        h, w = grey.shape[:2]
        size = (MOTION_SIDE, max(1, round(MOTION_SIDE * h / w)))
        return cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (3, 3), 0)

    def motion(self, frame: np.ndarray) -> float:
        """Fraction of the picture that changed since the last frame (1.0 for the first)."""
        small = self._small(frame)
        previous, self._previous = self._previous, small
        if previous is None:
            return 1.0
        return float(np.count_nonzero(cv2.absdiff(small, previous) > self.pixel_delta) / small.size)

    def update(self, frame: np.ndarray) -> bool:
        """Feed one frame; True once the picture has been still for ``still_frames`` frames."""
        if self.motion(frame) <= self.threshold:
            self.still_for += 1
        else:
            self.still_for = 0
        return self.still_for >= self.still_frames


@dataclass(frozen=True, slots=True)
class AgreedDie:
    """One die after agreement over several frames; ``value`` None when they did not agree.
    ``confidence`` is the share of frames that agreed times the reader's median confidence on
    them (for an unsure die, on the frames that read it unsure, else on all its frames)."""

    value: int | None
    centre: tuple[float, float]
    box: tuple[int, int, int, int]
    colour: str
    confidence: float
    votes: int
    frames: int


Ranked = TypeVar("Ranked", DieFound, AgreedDie)


def surest_first(dice: Iterable[Ranked]) -> list[Ranked]:
    """The order a camera reports a roll's dice in: read before unsure, surer before less sure
    (then top to bottom, left to right, so the order is stable). The dice hub counts a roll's
    dice in the order they come to rest, and a camera's all rest in one frame: seeing more
    dice than the roll lacks (a phantom), the one left uncounted is the least sure."""
    return sorted(dice, key=lambda d: (d.value is None, -d.confidence, d.centre[::-1]))


def agree(
    readings: Sequence[Sequence[DieFound]], quorum: float = 0.6, radius: float | None = None
) -> list[AgreedDie]:
    """Combine the dice read on several still frames of the same roll.

    Dice are tracked by position (a die within ``radius`` pixels of one seen on the first
    frame is the same die; by default half the median die size). A die gets a value when at
    least ``quorum`` of the frames read that same value; a die seen on fewer than half the
    frames is dropped as a phantom.
    """
    frames = [list(r) for r in readings]
    if not frames:
        return []
    every = [d for f in frames for d in f]
    if not every:
        return []
    if radius is None:
        sizes = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in every]
        radius = 0.5 * float(np.median(sizes))
    tracks: list[list[DieFound]] = []
    for frame in frames:
        for die in frame:
            near = [t for t in tracks if math.dist(t[0].centre, die.centre) <= radius]
            if near:
                min(near, key=lambda t: math.dist(t[0].centre, die.centre)).append(die)
            else:
                tracks.append([die])
    agreed = []
    n = len(frames)
    for track in tracks:
        if len(track) < n / 2:
            continue
        votes = Counter(d.value for d in track if d.value is not None)
        value, count = votes.most_common(1)[0] if votes else (None, 0)
        if count < quorum * n:
            value = None
        colours = Counter(d.colour for d in track)
        best = max(track, key=lambda d: d.confidence)
        # The share of frames that agree times how sure the reader was on them (median): a
        # die every frame reads alike but faintly, as a phantom often is, is less sure than a
        # die read surely, which is how the camera's source orders what it reports.
        read = [d.confidence for d in track if d.value == value] or [d.confidence for d in track]
        agreed.append(
            AgreedDie(
                value=value,
                centre=best.centre,
                box=best.box,
                colour=colours.most_common(1)[0][0],
                confidence=count / n * float(np.median(read)),
                votes=count,
                frames=n,
            )
        )
    agreed.sort(key=lambda d: (d.centre[1], d.centre[0]))
    return agreed
