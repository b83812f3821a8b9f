"""``benchmarks/vision_misses.py``: the trace of every labelled die through the reader.

The trace rebuilds the reader's steps to say where a die was lost; these tests hold it to the
reader itself (the same dice right, wrong, unsure and missed as the benchmark's scoring of
:class:`vision.reader.DiceReader` on the same photos) and check that it says so when it no
longer follows the reader, on the test photos of every rig with the shipped networks."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from vision.evaluation import Score
from vision.net import MODELS, SURE_ONLY_BELOW, DieNet, NetDie
from vision.pyramid import Pyramid
from vision.reader import DiceReader

PHOTOS = Path(__file__).parent / "photos"
RIGS = ["box-gray", "dice-photos", "pxl-tray", "roboflow-public", "single-grey"]


@pytest.fixture(scope="module")
def misses() -> Iterator[ModuleType]:
    path = Path(__file__).parents[2] / "benchmarks" / "vision_misses.py"
    spec = importlib.util.spec_from_file_location("vision_misses", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["vision_misses"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    yield module
    del sys.modules["vision_misses"]


@pytest.mark.parametrize("rig", RIGS)
def test_the_trace_counts_each_die_as_the_benchmark_scores_it(misses: ModuleType, rig: str) -> None:
    trace = misses.trace_rig(PHOTOS / rig, MODELS)
    score, reader = Score(), DiceReader()
    for name, dice in json.loads((PHOTOS / rig / "labels.json").read_text()).items():
        bgr = cv2.imread(str(PHOTOS / rig / name))
        assert bgr is not None, name
        score.add(name, reader.read(bgr), dice, 0.0)
    assert trace.labelled == score.labelled
    assert (trace.right, trace.wrong) == (score.right, score.wrong)
    assert sum(trace.unsure.values()) == score.abstained
    assert sum(trace.missed.values()) == score.missed
    assert set(trace.missed) <= set(misses.MISS_STEPS)
    assert set(trace.unsure) <= set(misses.UNSURE_KINDS)
    # Every die is in the size table once, under its outcome.
    outcomes = ("right", "wrong", "unsure", "missed")
    assert sum(len(trace.sizes.get(k, [])) for k in outcomes) == trace.labelled


def test_the_trace_follows_the_reader_when_a_faint_find_is_unsure_after_its_second_look(
    misses: ModuleType,
    dimmed: Callable[[str, float, float], Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under a dimmer light faint finds are read from MIN_VALUE (coloured like the dice read
    # surely) and get a second look; the reader drops those it then reads unsurely, and the
    # trace must drop them too. Here every second look of a faint find halves its faces.
    real = DieNet._second_look
    faint = 0

    def doubting(self: DieNet, pyramid: Pyramid, dice: list[NetDie]) -> list[NetDie]:
        nonlocal faint
        out = real(self, pyramid, dice)
        low = [d.heat < SURE_ONLY_BELOW for d in out]
        faint += sum(low)
        halved = np.array([0.5] * 6 + [1.0, 1.0])
        return [
            replace(d, probabilities=d.probabilities * halved) if lo else d
            for d, lo in zip(out, low, strict=True)
        ]

    monkeypatch.setattr(DieNet, "_second_look", doubting)
    for rig in RIGS:
        for gain, lift in ((0.35, 20.0), (0.3, 30.0)):
            misses.trace_rig(dimmed(rig, gain, lift), MODELS)
    assert faint >= 2  # faint finds read at 0.5-0.9, given a second look


def test_the_trace_says_when_it_no_longer_follows_the_reader(
    misses: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = DieNet.find

    def one_die_more(self, bgr, *args, **kwargs):  # type: ignore[no-untyped-def]
        dice = real(self, bgr, *args, **kwargs)
        return dice + dice[:1]

    monkeypatch.setattr(DieNet, "find", one_die_more)
    with pytest.raises(RuntimeError, match=r"no longer follows DieNet\.find"):
        misses.trace_rig(PHOTOS / "single-grey", MODELS)


def test_it_refuses_networks_that_saw_the_rig_they_trace(
    misses: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The shipped networks were trained on every rig: as a fold for single-grey they would
    # trace photos they learnt, and the breakdown would say nothing of a new rig.
    fold = tmp_path / "single-grey"
    fold.mkdir()
    for name in ("dice_net.onnx", "dice_faces.onnx", "dice_net.json"):
        shutil.copy(MODELS / name, fold / name)
    assert "single-grey" in json.loads((fold / "dice_net.json").read_text())["trained_on"]
    monkeypatch.setattr(
        sys,
        "argv",
        [
            "vision_misses.py",
            "--rigs",
            "single-grey",
            "--models",
            str(tmp_path),
            "--datasets",
            str(PHOTOS),
        ],
    )
    assert misses.main() == 2
    assert "was trained on single-grey" in capsys.readouterr().err
