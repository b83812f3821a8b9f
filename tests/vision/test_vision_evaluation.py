"""Scoring by die size: every labelled die counted in the band of its box's longer side, so
the benchmark can show what the rigs' different die sizes do to its figures."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from vision.evaluation import SIZE_EDGES, Score, band_name, evaluate, size_band
from vision.reader import DiceReader, DieFound
from vision.rigs import Rig, find_rigs, rig_sizes


def found(value: int | None, box: tuple[int, int, int, int]) -> DieFound:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    side = box[2] - box[0]
    return DieFound(value, box, (x, y), ((x, y), (side, side), 0), "red", (0, 0, 0), 0.9, "")


# Four labelled dice of 12, 20, 40 and 200 px (the longer side counts: 40 × 30 is 40 px),
# read as: missed, right, wrong and unsure.
LABELS = [
    {"value": 1, "box": [0, 0, 12, 12]},
    {"value": 2, "box": [100, 100, 120, 120]},
    {"value": 3, "box": [200, 200, 240, 230]},
    {"value": 4, "box": [300, 300, 500, 500]},
]
READ = [
    found(2, (100, 100, 120, 120)),
    found(5, (200, 200, 240, 230)),
    found(None, (300, 300, 500, 500)),
]


def score() -> Score:
    s = Score()
    s.add("photo.jpg", READ, LABELS, 0.0)
    return s


def test_size_bands_are_named_and_cut_at_their_edges() -> None:
    widths = (15.9, 16, 23.9, 24, 191, 192, 4000)
    assert [size_band([0, 0, w, 5]) for w in widths] == [0, 1, 1, 2, 7, 8, 8]
    assert band_name(0) == "under 16 px"
    assert band_name(3) == "32-48 px"
    assert band_name(len(SIZE_EDGES)) == "192 px and more"


def test_each_die_is_counted_in_its_size_band_by_outcome() -> None:
    s = score()
    assert (s.right, s.wrong, s.abstained, s.missed) == (1, 1, 1, 1)
    # Columns: right, wrong, unsure, missed.
    assert s.by_size[0].tolist() == [0, 0, 0, 1]  # 12 px: missed
    assert s.by_size[1].tolist() == [1, 0, 0, 0]  # 20 px: right
    assert s.by_size[3].tolist() == [0, 1, 0, 0]  # 40 × 30 px: wrong
    assert s.by_size[8].tolist() == [0, 0, 1, 0]  # 200 px: unsure
    assert s.by_size.sum() == s.labelled
    total = Score()
    total.merge(s)
    total.merge(score())
    assert total.by_size[1].tolist() == [2, 0, 0, 0]
    assert s.as_json()["by_size"] == {
        "under 16 px": {"right": 0, "wrong": 0, "unsure": 0, "missed": 1},
        "16-24 px": {"right": 1, "wrong": 0, "unsure": 0, "missed": 0},
        "32-48 px": {"right": 0, "wrong": 1, "unsure": 0, "missed": 0},
        "192 px and more": {"right": 0, "wrong": 0, "unsure": 1, "missed": 0},
    }


def _benchmark() -> ModuleType:
    """benchmarks/vision.py, which is a script, not a package module."""
    spec = importlib.util.spec_from_file_location(
        "vision_benchmark", Path(__file__).parents[2] / "benchmarks" / "vision.py"
    )
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_benchmark_prints_dice_read_right_by_size() -> None:
    bench = _benchmark()
    pooled = Score()
    pooled.merge(score())
    lines = bench.size_table([("some-rig", score()), ("pooled (1 rig)", pooled)]).splitlines()
    assert "some-rig" in lines[0]
    rows = {line[:18].strip(): line[18:].split() for line in lines[1:]}
    # Bands with no die are left out; a rig's cell is % read right (dice).
    bands = ["under 16 px", "16-24 px", "32-48 px", "192 px and more", "32 px and more"]
    assert list(rows) == bands
    assert rows["16-24 px"][:2] == ["100.0", "(1)"]
    assert rows["under 16 px"][2:] == ["0.0", "/", "0.0", "/", "0.0", "/", "100.0", "(1)"]
    # From 32 px (calibrate's warning size): the wrong 40-px die and the unsure 200-px one.
    assert " ".join(rows["32 px and more"]) == "0.0 (2) 0.0 / 50.0 / 50.0 / 0.0 (2)"


def test_evaluate_reports_dice_by_size() -> None:
    # What `python -m vision evaluate` prints after the confusion matrix.
    lines = score().report().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("by die size"))
    assert [line.split() for line in lines[start + 1 :]] == [
        ["under", "16", "px", "1", "0.0", "/", "0.0", "/", "0.0", "/", "100.0"],
        ["16-24", "px", "1", "100.0", "/", "0.0", "/", "0.0", "/", "0.0"],
        ["32-48", "px", "1", "0.0", "/", "100.0", "/", "0.0", "/", "0.0"],
        ["192", "px", "and", "more", "1", "0.0", "/", "0.0", "/", "100.0", "/", "0.0"],
    ]


def test_the_benchmark_reads_each_photo_told_how_many_dice_it_holds(photos: Path) -> None:
    """The benchmark's "told the count" column: each photo read with its labelled count, as
    the dice hub tells a camera how many dice a roll lacks (box-gray's big faint 1 found)."""
    bench = _benchmark()
    rig = Rig(photos / "box-gray")
    reader = DiceReader()
    plain = evaluate(rig.folder, reader.read)
    told = bench.told_count(rig, reader.read)
    assert (told.labelled, told.right, told.wrong) == (plain.labelled, plain.right + 1, 0)
    line = bench.told_table([("box-gray", plain, told)]).splitlines()[1].split()
    assert line[:2] == ["box-gray", str(plain.labelled)]
    assert line[11] == f"{100 * told.right / told.labelled:.1f}"


def test_told_the_count_the_benchmark_scores_only_the_dice_the_table_counts(
    photos: Path,
) -> None:
    """A reader finding more dice than the photo holds: the hub counts the surest that many
    (the camera reports them surest first), so the told column scores no phantom it drops, and
    a phantom surer than a real die costs that die instead."""
    bench = _benchmark()
    rig = Rig(photos / "box-gray")
    reader = DiceReader()

    def with_phantom(confidence: float) -> Callable[..., list[DieFound]]:
        def read(picture: np.ndarray, count: int | None = None) -> list[DieFound]:
            phantom = replace(found(6, (0, 0, 30, 30)), confidence=confidence)
            return [*reader.read(picture, count), phantom]

        return read

    plain = bench.told_count(rig, reader.read)
    unsure = bench.told_count(rig, with_phantom(0.01))

    def counts(sc: Score) -> tuple[int, ...]:
        return (sc.right, sc.wrong, sc.abstained, sc.missed, sc.phantom, sc.exact_images)

    assert counts(unsure) == counts(plain)
    # Surer than any real die, it is counted, and never more dice than the photo holds.
    sure = bench.told_count(rig, with_phantom(1.0))
    assert sure.phantom > plain.phantom
    assert sure.right + sure.wrong + sure.abstained + sure.phantom <= sure.labelled


def _fold(bench: ModuleType, models: Path, held: str, others: list[Rig]) -> Path:
    """A cached fold that reads ``held``: the shipped networks, 8-bit and float, recorded as
    trained on ``others`` by today's recipe (what the benchmark checks before it reads)."""
    fold = models / held
    (fold / "float").mkdir(parents=True)
    for name in ("dice_net.onnx", "dice_faces.onnx"):
        shutil.copy(bench.SHIPPED / name, fold / name)
        shutil.copy(bench.SHIPPED / "float" / name, fold / "float" / name)
    record = {
        "trained_on": rig_sizes(others),
        "steps": bench.DETECTOR_STEPS,
        "face_steps": bench.FACE_STEPS,
        "seed": 0,
        **bench.recipe(),
    }
    (fold / "dice_net.json").write_text(json.dumps(record))
    return fold


def test_the_benchmark_reads_the_folds_float_networks_when_asked(
    photos: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    """``--float``: every reading (as read, calibrated, told) by the fold's float/ networks,
    and no adapted table, which needs the 8-bit classifier; without float/ it says so."""
    bench = _benchmark()
    rigs = find_rigs(photos)
    held = "box-gray"
    fold = _fold(bench, tmp_path, held, [r for r in rigs if r.name != held])
    used: list[Path] = []

    class Recorded(DiceReader):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            used.append(Path(self.models))

    monkeypatch.setattr(bench, "DiceReader", Recorded)
    # The 12-megapixel timing reads the shipped networks whatever the folds: not this test's.
    monkeypatch.setattr(bench, "big_photo_ms", lambda *a: (1.0, 1.0, 0))
    argv = ["vision.py", "--cached-only", "--float", "--rigs", held]
    argv += ["--datasets", str(photos), "--models", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert "(their float networks)" in out
    assert "Adapted to each rig" not in out
    assert used and set(used) == {fold / "float"}
    table = out.splitlines()[2].split()
    assert table[0] == held and table[2].endswith("%")

    shutil.rmtree(fold / "float")
    assert bench.main() == 2
    assert f"no float networks in {fold / 'float'}" in capsys.readouterr().err
