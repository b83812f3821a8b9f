"""The blob-and-cluster recipe most blog posts copy, kept as the baseline to beat.

Golsteyn (2020) and its many copies: median blur, ``SimpleBlobDetector`` on the pips, DBSCAN on
the pip centres, one die per cluster, value = pips in the cluster. Implemented as the research
notes ran it, to be fair to it: blob size and cluster radius scaled to the die size, and both
pip polarities searched (dark pips on light dice and light pips on dark dice), keeping for each
cluster the polarity that gives a legal count. DBSCAN with ``min_samples=1`` is single-link
clustering with radius ``eps``, done here with a union-find to avoid a scikit-learn dependency.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.reader import DieFound


def _detector(die_px: float, dark: bool) -> cv2.SimpleBlobDetector:
    p = cv2.SimpleBlobDetector.Params()
    p.blobColor = 0 if dark else 255
    p.filterByArea = True
    pip = 0.18 * die_px  # pip diameter on a standard die
    p.minArea = math.pi * (0.25 * pip) ** 2
    p.maxArea = math.pi * (0.9 * pip) ** 2
    p.filterByCircularity = False
    p.filterByInertia = True
    p.minInertiaRatio = 0.6
    p.filterByConvexity = False
    return cv2.SimpleBlobDetector.create(p)


def dbscan_single_link(points: np.ndarray, eps: float) -> list[list[int]]:
    """DBSCAN with ``min_samples=1``: groups of points linked by steps of at most ``eps``."""
    parent = list(range(len(points)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            if math.dist(points[i], points[j]) <= eps:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(points)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def read_baseline(bgr: np.ndarray, die_px: float = 32.0) -> list[DieFound]:
    """The recipe on one picture; ``die_px`` is the die edge it is scaled to."""
    grey = cv2.cvtColor(cv2.medianBlur(bgr, 3), cv2.COLOR_BGR2GRAY)
    eps = 0.6 * die_px  # a 6 spans about 0.6 die; pips of neighbours are usually further
    per_polarity = []
    for dark in (True, False):
        keypoints = _detector(die_px, dark).detect(grey)
        pts = np.array([k.pt for k in keypoints], float).reshape(-1, 2)
        per_polarity.append([pts[g] for g in dbscan_single_link(pts, eps)])
    # Polarity choice: a cluster of up to six blobs is a die; clusters of the two polarities
    # that overlap are the same die, and the one whose count is legal (or larger) wins.
    dice: list[np.ndarray] = []
    for cluster in per_polarity[0] + per_polarity[1]:
        centre = cluster.mean(axis=0)
        clash = [i for i, d in enumerate(dice) if math.dist(d.mean(axis=0), centre) < 0.5 * die_px]
        if not clash:
            dice.append(cluster)
            continue
        i = clash[0]
        if len(dice[i]) > 6 or (len(cluster) <= 6 and len(cluster) > len(dice[i])):
            dice[i] = cluster
    found = []
    for cluster in dice:
        cx, cy = cluster.mean(axis=0)
        half = die_px / 2
        box = (int(cx - half), int(cy - half), int(cx + half), int(cy + half))
        value = len(cluster) if len(cluster) <= 6 else None
        found.append(
            DieFound(
                value=value,
                box=box,
                centre=(float(cx), float(cy)),
                rect=((float(cx), float(cy)), (die_px, die_px), 0.0),
                colour="",
                lab=(0.0, 0.0, 0.0),
                confidence=0.5,
                reason="baseline",
            )
        )
    return found
