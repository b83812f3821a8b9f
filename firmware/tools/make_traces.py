#!/usr/bin/env python3
"""Synthesise accelerometer traces for the die's detector tests, with their expected outcomes.

Why synthetic: no die has been built yet, so nothing has been recorded. Each trace is a
scripted scene (rest, roll, slide, lean, handling, knock) played through a small rigid-body
model of a d6 with an MPU-6050 inside: the sensor reads the specific force (gravity plus linear
acceleration) in the die's frame, at 50 Hz, 16384 counts per g, clipped at +-2 g, with a fixed
per-axis offset and white noise of the size the datasheet gives. The expected readings written
into each file come from the *scene* (what physically happened), never from running the
detector, so the tests are not circular. Replace or add traces recorded from a real die with
``companion die record`` (same CSV format); see hardware.md.

Run: python3 firmware/tools/make_traces.py   (deterministic: fixed seeds)
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

RATE_HZ = 50
ONE_G = 16384
NOISE = 40  # counts rms: about 2.5 mg, MPU-6050 at a 44 Hz low-pass
OFFSET = (180, -240, 310)  # counts: zero-g offsets well inside the datasheet's +-50/80 mg
OUT = Path(__file__).resolve().parent.parent / "traces"

# Face normals in the die's frame, as the firmware's default table assumes.
NORMALS = {1: (0, 0, 1), 2: (0, 1, 0), 3: (1, 0, 0), 4: (-1, 0, 0), 5: (0, -1, 0), 6: (0, 0, -1)}

Quat = tuple[float, float, float, float]
Vec = tuple[float, float, float]


def qmul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def qconj(q: Quat) -> Quat:
    return (q[0], -q[1], -q[2], -q[3])


def qnorm(q: Quat) -> Quat:
    n = math.sqrt(sum(c * c for c in q))
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def qaxis(axis: Vec, angle: float) -> Quat:
    n = math.sqrt(sum(c * c for c in axis)) or 1.0
    s = math.sin(angle / 2) / n
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def rotate(q: Quat, v: Vec) -> Vec:
    r = qmul(qmul(q, (0.0, *v)), qconj(q))
    return (r[1], r[2], r[3])


def slerp(a: Quat, b: Quat, t: float) -> Quat:
    d = sum(x * y for x, y in zip(a, b, strict=True))
    if d < 0:
        b = (-b[0], -b[1], -b[2], -b[3])
        d = -d
    if d > 0.9995:
        return qnorm(tuple(x + (y - x) * t for x, y in zip(a, b, strict=True)))  # type: ignore[arg-type]
    th = math.acos(d)
    sa = math.sin((1 - t) * th) / math.sin(th)
    sb = math.sin(t * th) / math.sin(th)
    return qnorm(tuple(sa * x + sb * y for x, y in zip(a, b, strict=True)))  # type: ignore[arg-type]


def face_up(face: int, yaw: float) -> Quat:
    """Orientation (die -> world) with ``face`` pointing up, turned ``yaw`` about the vertical."""
    n = NORMALS[face]
    up = (0.0, 0.0, 1.0)
    c = (n[1] * up[2] - n[2] * up[1], n[2] * up[0] - n[0] * up[2], n[0] * up[1] - n[1] * up[0])
    d = sum(x * y for x, y in zip(n, up, strict=True))
    if math.sqrt(sum(x * x for x in c)) < 1e-9:
        base = (1.0, 0.0, 0.0, 0.0) if d > 0 else qaxis((1.0, 0.0, 0.0), math.pi)
    else:
        base = qaxis(c, math.acos(d))
    return qnorm(qmul(qaxis(up, yaw), base))


class Scene:
    """A die on a table, recorded sample by sample, with what a referee would have seen."""

    seed_offset = 0

    def __init__(self, seed: int, start_face: int) -> None:
        self.rng = random.Random(seed + 1000 * self.seed_offset)
        self.q = face_up(start_face, self.rng.uniform(0, 2 * math.pi))
        self.samples: list[tuple[int, int, int]] = []
        self.expect: list[str] = ["unsure"]
        self.roll = 0
        self.face = start_face
        self.notes: list[str] = []

    def _emit(self, lin: Vec = (0.0, 0.0, 0.0)) -> None:
        f = (lin[0], lin[1], lin[2] + 1.0)  # specific force: what an accelerometer feels
        body = rotate(qconj(self.q), f)
        out = []
        for i in range(3):
            v = round(body[i] * ONE_G * 1.004 + OFFSET[i] + self.rng.gauss(0, NOISE))
            out.append(max(-32768, min(32767, v)))
        self.samples.append((out[0], out[1], out[2]))

    def rest(self, seconds: float, first: bool = False) -> None:
        for _ in range(round(seconds * RATE_HZ)):
            self._emit()
        if first:
            self.expect.append(f"settled face={self.face} roll={self.roll}")

    def _tumble(self, seconds: float, spin: float, lin_sd: float) -> None:
        axis = tuple(self.rng.gauss(0, 1) for _ in range(3))
        for _ in range(round(seconds * RATE_HZ)):
            axis = tuple(a + self.rng.gauss(0, 0.3) for a in axis)
            self.q = qnorm(qmul(qaxis(axis, spin / RATE_HZ), self.q))  # type: ignore[arg-type]
            self._emit(tuple(self.rng.gauss(0, lin_sd) for _ in range(3)))  # type: ignore[arg-type]

    def _land(self, target: Quat, seconds: float = 0.3) -> None:
        start = self.q
        n = round(seconds * RATE_HZ)
        for k in range(1, n + 1):
            t = k / n
            self.q = slerp(start, target, 1 - (1 - t) ** 2)
            bump = 0.5 * (1 - t) * self.rng.choice((-1, 1))
            self._emit((self.rng.gauss(0, 0.05), self.rng.gauss(0, 0.05), bump))

    def roll_to(
        self,
        face: int,
        *,
        lean_toward: int | None = None,
        lean_deg: float = 0.0,
        rest_s: float = 1.5,
    ) -> None:
        """Shake in the hand, throw, bounce and tumble, come to rest on ``face``.

        With ``lean_toward``, the die ends tipped ``lean_deg`` toward that face, as when it
        lands against another die: cocked, no result.
        """
        self._tumble(0.5, spin=8.0, lin_sd=0.6)  # shaken in a cupped hand
        self._tumble(0.16, spin=14.0, lin_sd=0.0)
        for _ in range(round(0.16 * RATE_HZ)):  # in the air: free fall, the sensor reads ~0 g
            self.q = qnorm(qmul(qaxis((1.0, 0.3, 0.2), 14.0 / RATE_HZ), self.q))
            self._emit((0.0, 0.0, -1.0))
        for spin in (12.0, 9.0, 6.0):  # bounce, then tumble across the felt
            self._emit((self.rng.uniform(-1, 1), self.rng.uniform(-1, 1), 2.5))
            self._tumble(0.24, spin=spin, lin_sd=0.25)
        target = face_up(face, self.rng.uniform(0, 2 * math.pi))
        if lean_toward is not None:
            target = self._tipped(target, face, lean_toward, lean_deg)
        self._land(target)
        self.roll += 1
        self.expect.append("rolling")
        if lean_toward is None:
            self.face = face
            self.expect.append(f"settled face={face} roll={self.roll}")
        else:
            self.face = 0
            self.expect.append(f"cocked roll={self.roll}")
        self.rest(rest_s)

    def _tipped(self, q: Quat, face: int, toward: int, deg: float) -> Quat:
        """``q`` tipped ``deg`` degrees about the edge between ``face`` and ``toward``."""
        n = NORMALS[face]
        m = NORMALS[toward]
        edge = (n[1] * m[2] - n[2] * m[1], n[2] * m[0] - n[0] * m[2], n[0] * m[1] - n[1] * m[0])
        return qnorm(qmul(q, qaxis(edge, math.radians(deg))))

    def tilt_rest(self, deg: float, toward: int, seconds: float) -> None:
        """Lean the resting die a little, as on a warped mat: a few degrees still reads the face."""
        self.q = self._tipped(self.q, self.face, toward, deg)
        self.rest(seconds)

    def fall_flat(self, face: int, rest_s: float = 1.5) -> None:
        """A cocked die nudged: it drops onto ``face``. A new roll: the last one had no result."""
        self._emit((0.3, 0.0, 0.2))
        self._land(face_up(face, self.rng.uniform(0, 2 * math.pi)), seconds=0.16)
        self._emit((0.0, 0.0, 1.2))
        self.roll += 1
        self.face = face
        self.expect += ["rolling", f"settled face={face} roll={self.roll}"]
        self.rest(rest_s)

    def slide(self, rest_s: float = 1.5) -> None:
        """Pushed across the table without turning over: not a roll, the counter stays."""
        heading = self.rng.uniform(0, 2 * math.pi)
        hx, hy = math.cos(heading), math.sin(heading)
        profile = [0.15, 0.3, 0.4, 0.4, 0.4, 0.35] + [-0.3] * 12
        for a in profile:
            self._emit(
                (
                    a * hx + self.rng.gauss(0, 0.04),
                    a * hy + self.rng.gauss(0, 0.04),
                    self.rng.gauss(0, 0.04),
                )
            )
        self.expect += ["rolling", f"settled face={self.face} roll={self.roll}"]
        self.rest(rest_s)

    def handle(self, rest_s: float = 1.5) -> None:
        """Picked up, looked at, put back on the same face: not a roll either."""
        start = self.q
        tip = qnorm(qmul(qaxis((0.6, 0.8, 0.0), math.radians(25)), start))
        n = round(1.2 * RATE_HZ)
        for k in range(n):
            t = math.sin(math.pi * k / (n - 1))
            self.q = slerp(start, tip, t)
            self._emit(tuple(self.rng.gauss(0, 0.03) for _ in range(3)))  # type: ignore[arg-type]
        self.q = start
        self.expect += ["rolling", f"settled face={self.face} roll={self.roll}"]
        self.rest(rest_s)

    def knock(self, rest_s: float = 1.0) -> None:
        """Someone bumps the table: a 40 ms jolt. The die did not move: nothing to report."""
        self._emit((0.2, -0.1, 0.5))
        self._emit((0.05, 0.0, -0.15))
        self.rest(rest_s)

    def write(self, name: str, title: str) -> None:
        lines = [
            f"# {title}",
            "# Synthesised by firmware/tools/make_traces.py (not recorded from hardware).",
            f"# rate_hz={RATE_HZ} counts_per_g={ONE_G}",
        ]
        lines += [f"# expect: {e}" for e in self.expect]
        lines.append("ax,ay,az")
        lines += [f"{x},{y},{z}" for x, y, z in self.samples]
        (OUT / f"{name}.csv").write_text("\n".join(lines) + "\n")


def main() -> None:
    global OUT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="directory for the CSV files")
    parser.add_argument(
        "--seed-offset",
        type=int,
        default=0,
        help="shift every scene's seed: the same scenes with other noise, for robustness runs",
    )
    args = parser.parse_args()
    OUT = args.out
    OUT.mkdir(parents=True, exist_ok=True)
    Scene.seed_offset = args.seed_offset

    s = Scene(seed=11, start_face=1)
    s.rest(1.0, first=True)
    for face in (4, 6, 2, 5, 3, 1):
        s.roll_to(face)
    s.write("rolls", "Six rolls, one to each face")

    s = Scene(seed=23, start_face=3)
    s.rest(1.0, first=True)
    s.roll_to(3)
    s.roll_to(3)
    s.roll_to(6)
    s.roll_to(6, rest_s=0.8)
    s.write("same_face", "Re-rolls that land on the face already showing")

    s = Scene(seed=37, start_face=2)
    s.rest(1.0, first=True)
    s.slide()
    s.roll_to(5)
    s.slide()
    s.slide(rest_s=1.0)
    s.write("slides", "Slides across the table between rolls")

    s = Scene(seed=41, start_face=6)
    s.rest(1.0, first=True)
    s.roll_to(4, lean_toward=2, lean_deg=32)
    s.fall_flat(2)
    s.roll_to(5, lean_toward=1, lean_deg=22)
    s.fall_flat(5)
    s.tilt_rest(5, toward=3, seconds=1.0)
    s.roll_to(1)
    s.write("leaning", "A die landing against another (cocked), then nudged flat")

    s = Scene(seed=53, start_face=4)
    s.rest(1.0, first=True)
    s.knock()
    s.handle()
    s.roll_to(4)
    s.knock()
    s.handle(rest_s=1.0)
    s.write("handling", "Table knocks and a die picked up and put back")


if __name__ == "__main__":
    main()
