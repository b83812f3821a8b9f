"""Camera dice reading on five rigs, each read by networks that never saw it.

    .venv/bin/python benchmarks/vision.py [--json] [--train | --cached-only] [--any-recipe]
                                          [--rigs a,b] [--models DIR] [--datasets DIR]
                                          [--seed N] [--python PY] [--float]

The rigs are the labelled folders under ``../shared/datasets`` (``dice-photos`` and the four
of ``dice-photos-more``; :mod:`vision.rigs`). For each rig both networks are trained on the
*other* rigs only (``vision.train``, into ``build/vision-rigs/<rig>/``; each record names the
rigs and photo counts it was trained on and the recipe it was trained by, both checked before
use) and the rig is read by them: **leave one rig out**. So every figure is what a new user's
rig would see, not a new photo of a rig already learnt. The shipped ``vision/dice_net.onnx``
is trained on all five rigs and is *not* what these figures measure.

Beside the network it scores the blob-and-cluster baseline (given the die size, since it
cannot find the scale itself), and the network again with a calibration that gives the die
size. The size given is each photo's own (the median side of its labelled dice), as a
calibration of the camera that took it would give: the rigs' photos were taken from several
heights, so one size for a whole rig would be a calibration of none of its cameras. Time
per photo is on one core, for the rigs' 640×640 photos, and for 12-megapixel photos (photos
of ``pxl-tray`` enlarged to 4032×3024, dice ~300 px). The dice are also counted by size
(the longer side of each labelled box, :data:`vision.evaluation.SIZE_EDGES`): % read right
per size band and rig, since the rigs differ most in how big their dice are, and what a
camera too far away costs is what ``calibrate``'s size warning is about.

A second table is the rig's calibration as ``python -m vision calibrate`` makes it: the face
classifier adapted to the rig (:mod:`vision.adapt`) from ten of its photos or more, holding
fifty dice or more, as ten rolls would (their labels unused but for how many dice each
holds, which calibrate knows from the dice shown: the detector's threshold and the "not a
die" cut are chosen from it), and the rig's other photos read by the fold as trained and as
adapted, so no photo is both adapted on and scored.

A last table reads each photo told how many dice it holds (its labels' count), as the dice
hub tells the companion's camera how many dice a roll lacks: finding fewer, the reader looks
harder among its faint finds; finding more, the table counts only the surest that many.

Training needs PyTorch (``--python`` names an interpreter with it). A fold's networks are
cached in ``--models`` (default ``build/vision-rigs/<rig>/``) and reused when their record
matches; ``--train`` rebuilds them, ``--cached-only`` reads only the rigs already trained and
lists the others as not measured. ``--any-recipe`` also reads cached folds trained by an
older recipe (never one that saw the rig it reads), and marks each such row with what
differs. Each fold trained is timed and the time printed: on the shared 2-core machine here
a fold took 22-39 minutes, niced, two at a time (docs/vision.md).

``--float`` reads each fold's float networks (the ``float/`` folder training keeps beside
the 8-bit ones) instead of the 8-bit networks the reader ships: the 8-bit networks' activation
ranges come from a few photos (:mod:`vision.quantize`), and quantizing the same float networks
again moved a rig by 15-26 dice read right, so a reading rule's gain of a few dozen dice is
judged on both. The adapted table is left out (adapting matches the 8-bit classifier).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.adapt import (  # noqa: E402
    ROLLS,
    AdaptError,
    adapt_calibration,
    statistics,
    training_crops,
    write_statistics,
)
from vision.augment import DETECTOR_STEPS, FACE_STEPS, recipe  # noqa: E402
from vision.baseline import read_baseline  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.cli import GOOD_DIE  # noqa: E402
from vision.draw import mistake_sheet  # noqa: E402
from vision.evaluation import SIZE_EDGES, Score, band_name, evaluate, wilson  # noqa: E402
from vision.net import MODELS as SHIPPED  # noqa: E402
from vision.quantize import FLOAT  # noqa: E402
from vision.reader import DiceReader, DieFound  # noqa: E402
from vision.rigs import DATASETS, Rig, find_rigs, leave_one_out, rig_sizes  # noqa: E402
from vision.still import surest_first  # noqa: E402

BUILD = ROOT / "build" / "vision-rigs"
BIG = (4032, 3024)  # a 12-megapixel phone photo
# The photos a rig is adapted on: ROLLS, holding this many labelled dice or more (ten rolls of
# five dice; single-grey's photos hold two or three dice each).
ROLLED_DICE = 50
TARGETS = "targets: >= 97% read right on every rig (none below 95%), < 2% wrong, < 1% phantom"


def is_current(
    info: dict[str, Any],
    trained_on: dict[str, int],
    steps: int = DETECTOR_STEPS,
    face_steps: int = FACE_STEPS,
    seed: int = 0,
) -> bool:
    """Whether a rig's networks were trained on exactly ``trained_on`` (rig: photos) by
    today's recipe (steps, jitter, crop placing, drawn dice, widths, band) from ``seed``, so
    a stale network, or one that saw the rig it reads, is never scored."""
    return (
        info.get("trained_on") == trained_on
        and info.get("steps") == steps
        and info.get("face_steps") == face_steps
        and info.get("seed", 0) == seed
        and all(info.get(k) == v for k, v in recipe().items())
    )


def differences(
    info: dict[str, Any], steps: int = DETECTOR_STEPS, face_steps: int = FACE_STEPS, seed: int = 0
) -> list[str]:
    """What in a network's record differs from today's recipe (and steps and seed), by name."""
    today = {"steps": steps, "face_steps": face_steps, "seed": seed, **recipe()}
    return [k for k, v in today.items() if info.get(k, 0 if k == "seed" else None) != v]


def cached(
    held: Rig,
    others: list[Rig],
    models: Path,
    steps: int,
    face_steps: int,
    seed: int,
    any_recipe: bool,
) -> tuple[Path, list[str]] | None:
    """The cached networks that may read ``held`` and what in their recipe differs from
    today's (nothing, unless ``any_recipe``), or None. Networks that saw ``held``, or that
    were trained on other photos of the other rigs, are never taken."""
    path = models / held.name
    meta = path / "dice_net.json"
    if not meta.exists():
        return None
    info = json.loads(meta.read_text())
    if info.get("trained_on") != rig_sizes(others):
        return None
    if is_current(info, rig_sizes(others), steps, face_steps, seed):
        return path, []
    return (path, differences(info, steps, face_steps, seed)) if any_recipe else None


def rig_model(
    held: Rig,
    others: list[Rig],
    python: str,
    steps: int,
    face_steps: int,
    retrain: bool,
    models: Path,
    seed: int = 0,
) -> Path:
    """The networks that read ``held``: trained on ``others`` only (reused when built)."""
    path = models / held.name
    trained_on = rig_sizes(others)
    if not retrain and cached(held, others, models, steps, face_steps, seed, False):
        return path
    print(
        f"{held.name}: training on {', '.join(trained_on)} ({steps} and {face_steps} "
        f"steps, seed {seed})...",
        file=sys.stderr,
        flush=True,
    )
    t0 = time.time()
    subprocess.run(
        [
            python,
            "-m",
            "vision.train",
            *(str(r.folder) for r in others),
            "--out",
            str(path),
            "--steps",
            str(steps),
            "--face-steps",
            str(face_steps),
            "--seed",
            str(seed),
        ],
        cwd=ROOT,
        check=True,
        env=os.environ | {"OMP_NUM_THREADS": "1"},
    )
    minutes = (time.time() - t0) / 60
    print(f"{held.name}: trained in {minutes:.0f} min", file=sys.stderr)
    (path / "train_minutes.txt").write_text(f"{minutes:.1f}\n")
    return path


def train_minutes(model: Path) -> float | None:
    """How long the fold in ``model`` took to train, when this benchmark trained it."""
    path = model / "train_minutes.txt"
    return float(path.read_text()) if path.exists() else None


def median_side(dice: list[dict[str, Any]]) -> float:
    """The median side of labelled ``dice``, pixels (labels are upright boxes: their mean
    side is about 4/π of a square die's side, whatever its turn)."""
    boxes = [d["box"] for d in dice]
    return float(np.median([np.sqrt((b[2] - b[0]) * (b[3] - b[1])) for b in boxes]) * np.pi / 4)


def given_size(
    rig: Rig, read: Callable[..., Sequence[DieFound]], names: Sequence[str] | None = None
) -> Score:
    """``rig`` (or its photos ``names``) read by ``read(picture, die_px)`` with each photo's
    own die size (a photo with no dice gets the rig's), as a calibration of the camera that
    took it would give it."""
    labels = rig.labels()
    everywhere = median_side([d for dice in labels.values() for d in dice])
    score = Score()
    for name in sorted(labels) if names is None else names:
        side = median_side(labels[name]) if labels[name] else everywhere
        score.merge(evaluate(rig.folder, partial(read, die_px=side), names=[name]))
    return score


def told_count(rig: Rig, read: Callable[..., Sequence[DieFound]]) -> Score:
    """``rig`` read by ``read(picture, count)`` told how many dice each photo holds (its
    labels' count), as the camera's reader is told how many dice a roll lacks by the dice
    hub (:meth:`companion.dice.hub.DiceHub.lacking`)."""
    labels = rig.labels()
    score = Score()
    for name in sorted(labels):
        score.merge(evaluate(rig.folder, partial(counted, read, len(labels[name])), names=[name]))
    return score


def counted(
    read: Callable[..., Sequence[DieFound]], count: int, picture: np.ndarray
) -> list[DieFound]:
    """The dice of ``picture`` the table counts in a roll of ``count``: the reader told the
    count, then the surest ``count`` of what it found, in the order the camera reports them
    (:func:`vision.still.surest_first`), since the hub counts no die past the roll's size."""
    return surest_first(read(picture, count=count))[:count]


def read_calibrated(
    model: Path, bgr: np.ndarray, die_px: float, cal: Calibration | None = None
) -> list[DieFound]:
    """``bgr`` read by the networks in ``model`` with a calibration giving ``die_px`` (and
    what else ``cal`` holds: an adapted classifier)."""
    return DiceReader(replace(cal or Calibration(), die_px=die_px), models=model).read(bgr)


def adapted(model: Path, held: Rig, others: list[Rig]) -> tuple[int, Score, Score, Score]:
    """``held`` with the face classifier in ``model`` adapted to it as ``calibrate`` adapts
    it (:mod:`vision.adapt`, from :data:`ROLLS` of its photos or more, holding
    :data:`ROLLED_DICE` dice; of their labels only how many dice each holds, for the
    detector's threshold and the "not a die" cut): how many photos it was adapted on, and
    the rest read as trained, as adapted, and as adapted with each photo's die size given
    (the whole calibration: :func:`given_size`). A fold made before the adaptation existed
    gets its training statistics first, from ``others``."""
    try:
        statistics(model)
    except AdaptError:
        print(f"{held.name}: measuring its fold's training crops...", file=sys.stderr, flush=True)
        write_statistics(model, training_crops(model, others))
    chosen, rest = held.split(ROLLS, ROLLED_DICE)
    photos = []
    for name in chosen:
        photo = cv2.imread(str(held.folder / name))
        assert photo is not None, name
        photos.append(photo)
    cal = Calibration()
    labels = held.labels()
    adapt_calibration(cal, photos, model, dice=[len(labels[n]) for n in chosen])
    return (
        len(chosen),
        evaluate(held.folder, DiceReader(models=model).read, names=rest),
        evaluate(held.folder, DiceReader(cal, models=model).read, names=rest),
        given_size(held, partial(read_calibrated, model, cal=cal), names=rest),
    )


def big_photo_ms(models: Path, rig: Rig, n: int = 8) -> tuple[float, float, int]:
    """Milliseconds per 12-megapixel photo (middle of ``n``; wall clock and CPU), and dice
    read on them: photos of ``rig`` cut to 4:3 and enlarged to :data:`BIG`."""
    reader = DiceReader(models=models)
    wall, cpu, dice = [], [], 0
    for name in rig.photos()[:n]:
        img = cv2.imread(str(rig.folder / name))
        assert img is not None, name
        h, w = img.shape[:2]
        top = (h - w * 3 // 4) // 2
        big = cv2.resize(img[top : top + w * 3 // 4], BIG, interpolation=cv2.INTER_CUBIC)
        reader.read(big)  # networks loaded, caches warm, as in the companion
        t0, c0 = time.perf_counter(), time.process_time()
        dice += sum(d.value is not None for d in reader.read(big))
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return 1000 * float(np.median(wall)), 1000 * float(np.median(cpu)), dice


def percent(k: int, n: int) -> str:
    return f"{100 * k / max(n, 1):.1f}%"


def table(rows: list[tuple[str, Score, Score, Score]]) -> str:
    """The leave-one-rig-out table: per rig and pooled, network, calibrated, baseline."""
    head = (
        f"{'rig (held out)':18}{'dice':>6}{'right':>8}{'95% interval':>14}{'wrong':>8}"
        f"{'unsure':>8}{'missed':>8}{'phantom':>9}{'ms':>8}{'cpu':>7}"
        f"{'calibrated':>12}{'baseline':>10}"
    )
    lines = [head]
    for name, s, cal, base in rows:
        lo, hi = wilson(s.right, s.labelled)
        lines.append(
            f"{name:18}{s.labelled:>6}{percent(s.right, s.labelled):>8}"
            f"{f'{100 * lo:.1f}–{100 * hi:.1f}':>14}{percent(s.wrong, s.labelled):>8}"
            f"{percent(s.abstained, s.labelled):>8}{percent(s.missed, s.labelled):>8}"
            f"{percent(s.phantom, s.labelled):>9}{s.ms_per_image:>8.1f}"
            f"{s.cpu_ms_per_image:>7.1f}"
            f"{percent(cal.right, cal.labelled):>12}{percent(base.right, base.labelled):>10}"
        )
    return "\n".join(lines)


# The size from which the benchmark also sums dice apart: the size under which `python -m
# vision calibrate` warns that dice are read worse (it must be one of SIZE_EDGES).
READABLE_FROM = int(GOOD_DIE)


def size_table(rows: list[tuple[str, Score]]) -> str:
    """Dice read right by their size (the longer side of the label's box) on each rig, and
    right / wrong / unsure / missed pooled: what the rigs' different die sizes do to the
    figures above. The last row sums the dice of :data:`READABLE_FROM` px and more."""
    first = SIZE_EDGES.index(READABLE_FROM) + 1
    names = [name for name, _ in rows[:-1]]
    widths = [max(len(n), 12) + 2 for n in names]
    lines = [
        f"{'die size':18}"
        + "".join(f"{n:>{w}}" for n, w in zip(names, widths, strict=True))
        + "   pooled: right / wrong / unsure / missed (dice)"
    ]
    bands = [(band_name(b), slice(b, b + 1)) for b in range(len(SIZE_EDGES) + 1)]
    for label, band in [*bands, (f"{READABLE_FROM} px and more", slice(first, None))]:
        counts = [sc.by_size[band].sum(axis=0) for _, sc in rows]
        if not counts[-1].sum():
            continue
        cells = [
            f"{f'{100 * c[0] / c.sum():.1f} ({c.sum()})' if c.sum() else '-':>{w}}"
            for c, w in zip(counts[:-1], widths, strict=True)
        ]
        pooled = counts[-1]
        shares = " / ".join(f"{100 * k / pooled.sum():.1f}" for k in pooled)
        lines.append(f"{label:18}" + "".join(cells) + f"   {shares} ({pooled.sum()})")
    return "\n".join(lines)


def adapted_table(rows: list[tuple[str, int, Score, Score, Score]]) -> str:
    """Per rig and pooled: the photos not adapted on, read as trained, as adapted, and as
    adapted with the die size given."""

    def shares(sc: Score) -> str:
        parts = (sc.right, sc.wrong, sc.abstained, sc.missed, sc.phantom)
        return " / ".join(f"{100 * k / max(sc.labelled, 1):.1f}" for k in parts)

    lines = [
        f"{'rig (held out)':18}{'photos':>7}{'dice':>6}   {'as trained':<32}{'adapted':<32}"
        "adapted, die size given",
    ]
    for name, n, *scores in rows:
        lines.append(
            f"{name:18}{n:>7}{scores[1].labelled:>6}   "
            + "".join(f"{shares(sc):<32}" for sc in scores).rstrip()
        )
    return "\n".join(lines)


def told_table(rows: list[tuple[str, Score, Score]]) -> str:
    """Per rig and pooled: read as is, and told how many dice each photo holds."""

    def shares(sc: Score) -> str:
        parts = (sc.right, sc.wrong, sc.abstained, sc.missed, sc.phantom)
        return " / ".join(f"{100 * k / max(sc.labelled, 1):.1f}" for k in parts)

    lines = [f"{'rig (held out)':18}{'dice':>6}   {'as read':<32}{'told the count':<32}cpu ms"]
    for name, plain, told in rows:
        lines.append(
            f"{name:18}{plain.labelled:>6}   {shares(plain):<32}{shares(told):<32}"
            f"{plain.cpu_ms_per_image:.1f} -> {told.cpu_ms_per_image:.1f}"
        )
    return "\n".join(lines)


def machine() -> str:
    """The machine the figures were measured on, for the report."""
    info = Path("/proc/cpuinfo")
    lines = info.read_text().splitlines() if info.exists() else []
    names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    cpu = names[0] if names else platform.processor() or "unknown CPU"
    flags = next((line for line in lines if line.startswith("flags")), "")
    if flags:
        # The 8-bit networks are 2-3 times faster than float with 8-bit dot products (VNNI)
        # and about as slow without (vision.net's exact kernel): say which this was.
        vnni = "vnni" in flags
        cpu += ", with VNNI" if vnni else ", no VNNI: 8-bit networks as slow as float"
    return (
        f"{platform.machine()}, {os.cpu_count()} cores ({cpu}), Python {platform.python_version()}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--train", action="store_true", help="retrain every rig's networks")
    p.add_argument(
        "--cached-only",
        action="store_true",
        help="train nothing: read only the rigs whose networks are in --models",
    )
    p.add_argument(
        "--any-recipe",
        action="store_true",
        help="also read cached networks trained by another recipe (marked, with "
        "what differs); never networks that saw the rig they read",
    )
    p.add_argument("--steps", type=int, default=DETECTOR_STEPS, help="detector training steps")
    p.add_argument(
        "--face-steps", type=int, default=FACE_STEPS, help="face classifier training steps"
    )
    p.add_argument(
        "--python", default=sys.executable, help="interpreter with PyTorch, to train the networks"
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="train the networks from this seed (a seed alone moves a rig's "
        "figure: judge a change over two)",
    )
    p.add_argument(
        "--models",
        type=Path,
        default=None,
        help="folder of the rigs' networks, one subfolder per rig held out "
        "(default build/vision-rigs, or build/vision-rigs-seedN for --seed N)",
    )
    p.add_argument(
        "--datasets",
        type=Path,
        default=DATASETS,
        help=f"folder holding the rigs' labelled folders (default {DATASETS})",
    )
    p.add_argument(
        "--rigs",
        default=None,
        help="comma-separated rigs to read (default: all); training still leaves "
        "out only the rig read",
    )
    p.add_argument(
        "--float",
        dest="float_networks",
        action="store_true",
        help="read each fold's float networks (its float/ folder), not the 8-bit ones; "
        "no adapted table",
    )
    p.add_argument(
        "--mistakes",
        metavar="DIR",
        type=Path,
        help="draw every die read wrong, unsure or missed, and every phantom, one picture per rig",
    )
    args = p.parse_args()
    if args.train and args.cached_only:
        p.error("--train and --cached-only contradict each other")
    models = args.models or BUILD.with_name(
        f"{BUILD.name}-seed{args.seed}" if args.seed else BUILD.name
    )
    if not args.datasets.is_dir():
        print(f"error: no data sets at {args.datasets} (--datasets)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rigs = find_rigs(args.datasets)
    wanted = set(args.rigs.split(",")) if args.rigs else {r.name for r in rigs}
    rows: list[tuple[str, Score, Score, Score]] = []
    adapted_rows: list[tuple[str, int, Score, Score, Score]] = []
    adapted_pooled = [Score(), Score(), Score()]
    out: dict[str, Any] = {}
    notes: list[str] = []
    not_measured: list[str] = []
    pooled = [Score(), Score(), Score()]
    told_rows: list[tuple[str, Score, Score]] = []
    told_pooled = Score()
    for held, others in leave_one_out(rigs):
        if held.name not in wanted:
            continue
        found = (
            None
            if args.train
            else cached(
                held, others, models, args.steps, args.face_steps, args.seed, args.any_recipe
            )
        )
        if found is None and args.cached_only:
            not_measured.append(held.name)
            continue
        if found is None:
            try:
                model = rig_model(
                    held,
                    others,
                    args.python,
                    args.steps,
                    args.face_steps,
                    args.train,
                    models,
                    args.seed,
                )
            except subprocess.CalledProcessError:
                print(
                    f"error: training for {held.name} failed; --python must name an "
                    "interpreter with PyTorch (pip install torch==2.13.0)",
                    file=sys.stderr,
                )
                return 2
            differs: list[str] = []
        else:
            model, differs = found
        record = json.loads((model / "dice_net.json").read_text())
        assert held.name not in record["trained_on"]
        name = held.name + ("*" if differs else "")
        if differs:
            notes.append(
                f"* {held.name}: networks trained by an older recipe "
                f"({record.get('steps')} and {record.get('face_steps')} steps; "
                f"differs in {', '.join(differs)})"
            )
        minutes = train_minutes(model)
        if minutes is not None:
            notes.append(f"{held.name}: its fold took {minutes:.0f} min to train")
        nets = model / FLOAT if args.float_networks else model
        if not (nets / "dice_net.onnx").exists():
            kind = "float networks" if args.float_networks else "networks"
            print(f"error: no {kind} in {nets}: train the fold again", file=sys.stderr)
            return 2
        reader = DiceReader(models=nets)
        first = cv2.imread(str(held.folder / held.photos()[0]))
        assert first is not None, held.photos()[0]
        reader.read(first)  # load the networks before the clock starts, as the companion does
        scores = (
            evaluate(held.folder, reader.read),
            given_size(held, partial(read_calibrated, nets)),
            given_size(held, read_baseline),
        )
        for total, sc in zip(pooled, scores, strict=True):
            total.merge(sc)
        rows.append((name, scores[0], scores[1], scores[2]))
        told = told_count(held, reader.read)
        told_pooled.merge(told)
        told_rows.append((name, scores[0], told))
        out[held.name] = {
            "network": scores[0].as_json(mistakes=False),
            "calibrated": scores[1].as_json(mistakes=False),
            "baseline": scores[2].as_json(mistakes=False),
            "told_count": told.as_json(mistakes=False),
        }
        if not args.float_networks:
            n, before, after, sized = adapted(model, held, others)
            for total, sc in zip(adapted_pooled, (before, after, sized), strict=True):
                total.merge(sc)
            adapted_rows.append((name, n, before, after, sized))
            out[held.name]["adapted"] = {
                "photos": n,
                "as_trained": before.as_json(mistakes=False),
                "adapted": after.as_json(mistakes=False),
                "adapted_die_size_given": sized.as_json(mistakes=False),
            }
        out[held.name] |= {
            "float_networks": args.float_networks,
            "trained_on": record["trained_on"],
            "older_recipe": differs,
            "train_minutes": minutes,
        }
        print(table(rows[-1:]).splitlines()[1], file=sys.stderr, flush=True)
        if args.mistakes and scores[0].mistakes:
            args.mistakes.mkdir(parents=True, exist_ok=True)
            sheet = args.mistakes / f"{held.name}.jpg"
            cv2.imwrite(str(sheet), mistake_sheet(held.folder, scores[0].mistakes))
    measured = len(rows)
    rows.append(
        (f"pooled ({measured} rig{'s' if measured != 1 else ''})", pooled[0], pooled[1], pooled[2])
    )
    big_rig = next((r for r in rigs if r.name == "pxl-tray"), rigs[0])
    big_ms, big_cpu, big_dice = big_photo_ms(SHIPPED, big_rig)
    if args.json:
        out["pooled"] = {
            "network": pooled[0].as_json(mistakes=False),
            "calibrated": pooled[1].as_json(mistakes=False),
            "baseline": pooled[2].as_json(mistakes=False),
            "told_count": told_pooled.as_json(mistakes=False),
        }
        if adapted_rows:
            out["pooled"]["adapted"] = {
                "as_trained": adapted_pooled[0].as_json(mistakes=False),
                "adapted": adapted_pooled[1].as_json(mistakes=False),
                "adapted_die_size_given": adapted_pooled[2].as_json(mistakes=False),
            }
        out["not_measured"] = not_measured
        out["ms_per_12mp_photo"] = round(big_ms, 1)
        out["cpu_ms_per_12mp_photo"] = round(big_cpu, 1)
        out["machine"] = machine()
        print(json.dumps(out, indent=1))
        return 0
    print(
        "Leave one rig out: each rig read by networks trained on the other rigs only"
        + (" (their float networks)." if args.float_networks else ".")
    )
    print(table(rows))
    for note in notes:
        print(note)
    if not_measured:
        print(
            f"not measured (no trained fold in {models}): {', '.join(not_measured)}; "
            "run without --cached-only to train them"
        )
    net = pooled[0]
    print(
        f"(percentages of labelled dice; 'phantom' is found where no die is labelled, "
        f"{sum(m.kind == 'phantom' and m.read is None for m in net.mistakes)} of the "
        f"{net.phantom} pooled phantoms reported unsure; 'calibrated' is read right with "
        "each photo's die size given, as a calibration of its camera would; 'baseline' is "
        "blob+DBSCAN given that size)"
    )
    print(
        f"12-megapixel photos ({BIG[0]}×{BIG[1]}, shipped networks): {big_ms:.0f} ms "
        f"per photo ({big_cpu:.0f} ms of CPU), {big_dice} dice read on 8"
    )
    print(TARGETS)
    print()
    print("By die size (the longer side of its labelled box), held out: % read right (dice)")
    print(size_table([(name, sc) for name, sc, *_ in rows]))
    print()
    if adapted_rows:
        print(
            f"Adapted to each rig as `python -m vision calibrate` adapts it: the face "
            f"classifier matched to {ROLLS} or more of the rig's photos holding {ROLLED_DICE} "
            'dice or more and the detector\'s threshold and "not a die" cut chosen by how '
            "many dice each holds (no other label; augmented copies kept together), then the "
            "rig's other photos read as trained, as adapted, and as adapted with each photo's "
            "die size given (right / wrong / unsure / missed / phantom, % of dice):"
        )
        adapted_rows.append(
            (
                f"pooled ({measured} rig{'s' if measured != 1 else ''})",
                sum(r[1] for r in adapted_rows),
                adapted_pooled[0],
                adapted_pooled[1],
                adapted_pooled[2],
            )
        )
        print(adapted_table(adapted_rows))
        print()
    print(
        "Told how many dice each photo holds, as the camera's reader is told how many dice "
        "a roll lacks by the dice hub (finding fewer, it looks harder; finding more, the "
        "table counts the surest that many; right / wrong / unsure / missed / phantom, "
        "% of dice):"
    )
    told_rows.append((f"pooled ({measured} rig{'s' if measured != 1 else ''})", net, told_pooled))
    print(told_table(told_rows))
    print()
    print(
        "time: ms per 640×640 photo on one core, wall clock and CPU (the CPU time is what "
        "reading costs when other work shares the machine), networks loaded first"
    )
    print(f"machine: {machine()}")
    print()
    print("pooled, network:")
    print(net.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
