"""The face classifier adapted to a rig from its own photos (:mod:`vision.adapt`), on real
photos made darker than any rig the networks learnt: a new rig's light."""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest

from vision.adapt import (
    BLEND,
    CUTS,
    FACES,
    HEATS,
    MIN_DICE,
    STATISTICS,
    AdaptError,
    _layer_statistics,
    _layers,
    adapt,
    adapt_calibration,
    pick_thresholds,
    rig_crops,
    statistics,
)
from vision.calibration import Calibration, CalibrationError, fingerprint
from vision.cli import main
from vision.evaluation import evaluate
from vision.net import (
    MIN_HEAT,
    MIN_VALUE,
    MODELS,
    NOT_A_DIE_FROM,
    NOT_A_DIE_FROM_ADAPTED,
    VIEWS,
    DieNet,
    NetDie,
)
from vision.reader import DiceReader, _net


@pytest.fixture
def dim_rig(dimmed: Callable[[str, float, float], Path]) -> Path:
    """The dice-photos rig's test photos as a dim rig would take them: under half the light,
    the blacks lifted."""
    return dimmed("dice-photos", 0.45, 20)


def _photos(folder: Path) -> list[np.ndarray]:
    return [cv2.imread(str(p)) for p in sorted(folder.glob("*.jpg"))]


def _rolls(folder: Path) -> tuple[list[np.ndarray], list[int]]:
    """A labelled folder as calibrate's rolls: the photos, and how many dice each holds."""
    labels = json.loads((folder / "labels.json").read_text())
    names = sorted(labels)
    return [cv2.imread(str(folder / n)) for n in names], [len(labels[n]) for n in names]


def test_the_shipped_statistics_are_those_of_the_shipped_classifier() -> None:
    source = statistics(MODELS)
    layers = _layers(onnx.load(str(MODELS / FACES)))
    assert [layer.name for layer in layers] == list(source)
    assert all(len(m) == len(s) > 0 and (s > 0).all() for m, s in source.values())


def test_each_layer_is_matched_to_its_training_statistics_on_the_rig(dim_rig, monkeypatch) -> None:
    inputs, dice = rig_crops(_photos(dim_rig))
    assert dice >= MIN_DICE
    source = statistics(MODELS)
    before = onnx.load(str(MODELS / FACES))
    # As shipped, the first layer's spread is moved BLEND of the way from the rig's to the
    # training's: the rig's taken as BLEND of itself and the rest of the training's.
    shipped = onnx.load_from_string(adapt(MODELS, inputs))
    first = _layers(before)[0]
    train_sd = source[first.name][1]
    rig_sd = _layer_statistics(before, first, inputs)[1]
    sd = _layer_statistics(shipped, _layers(shipped)[0], inputs)[1]
    assert 0 < BLEND < 1
    assert sd == pytest.approx(
        rig_sd * train_sd / (BLEND * rig_sd + (1 - BLEND) * train_sd), rel=0.01
    )
    # Moved all the way, each layer is matched to the training statistics.
    monkeypatch.setattr("vision.adapt.BLEND", 1.0)
    after = onnx.load_from_string(adapt(MODELS, inputs))
    for shipped, adapted in zip(_layers(before), _layers(after), strict=True):
        train_mean, train_sd = source[shipped.name]
        _, was_sd = _layer_statistics(before, shipped, inputs)
        mean, sd = _layer_statistics(after, adapted, inputs)
        # The dim rig's outputs are off the training ones; adapted, each channel's mean and
        # spread are the training ones (to the bias's 32-bit rounding).
        assert np.abs(was_sd / train_sd - 1).mean() > 0.05
        assert sd == pytest.approx(train_sd, rel=0.02)
        assert mean == pytest.approx(train_mean, abs=0.02 * train_sd.max())


def test_adapted_to_a_dim_rig_it_reads_more_of_its_dice_right(dim_rig) -> None:
    cal = Calibration()
    assert adapt_calibration(cal, _photos(dim_rig)) >= MIN_DICE
    as_trained = evaluate(dim_rig, DiceReader().read)
    adapted = evaluate(dim_rig, DiceReader(cal).read)
    assert adapted.right > as_trained.right
    assert adapted.wrong <= as_trained.wrong and adapted.phantom <= as_trained.phantom


def test_knowing_the_dice_on_each_roll_lowers_the_threshold_for_a_dim_rig(dim_rig) -> None:
    # The dim rig's dice peak lower: the threshold at which the reader finds as many dice as
    # the rolls hold is lower, and from it more dice are read right (none more wrong).
    photos, dice = _rolls(dim_rig)
    cal = Calibration()
    adapt_calibration(cal, photos, dice=dice)
    assert cal.min_heat is not None and cal.min_heat in HEATS and cal.min_heat < MIN_HEAT
    adapted = Calibration()
    adapted.set_faces(cal.adapted_faces(cal.faces_from or ""), cal.faces_from or "")
    from_default = evaluate(dim_rig, DiceReader(adapted).read)
    from_picked = evaluate(dim_rig, DiceReader(cal).read)
    assert from_picked.right > from_default.right
    assert from_picked.wrong <= from_default.wrong and from_picked.phantom <= from_default.phantom
    # Without the dice known, no threshold is chosen (and an old one is not kept).
    adapt_calibration(cal, photos)
    assert cal.min_heat is None


def _key(d: NetDie) -> tuple[tuple[float, float], float, int]:
    return d.centre, d.size, d.best


@pytest.mark.parametrize("rig", ["dice-photos", "pxl-tray"])
def test_below_the_trained_threshold_an_adapted_classifier_keeps_its_sure_reads(
    photos, monkeypatch, rig
) -> None:
    # Read from 0.15 (a threshold a calibration may choose), the detector makes finds the
    # trained threshold would not; those the adapted classifier is unsure of go, the rest
    # stay. (The shipped classifier's bytes stand in for an adapted one: the rule is the same.)
    faces = (MODELS / FACES).read_bytes()
    net = DieNet(min_heat=0.15, faces=faces, not_a_die_from=NOT_A_DIE_FROM)
    monkeypatch.setattr("vision.net.SMALL_SIDE", 0.0)  # another rule, tested on its own
    dropped = kept_low = 0
    for path in sorted((photos / rig).glob("*.jpg")):
        bgr = cv2.imread(str(path))
        kept = net.read(bgr).dice
        with monkeypatch.context() as m:
            m.setattr("vision.net.SURE_ONLY_BELOW", 0.0)  # the rule off
            every = net.read(bgr).dice
        doubted = [d for d in every if d.heat < MIN_HEAT and d.best_probability < MIN_VALUE]
        gone = {id(d) for d in doubted}
        assert [_key(d) for d in kept] == [_key(d) for d in every if id(d) not in gone]
        dropped += len(doubted)
        kept_low += sum(1 for d in kept if d.heat < MIN_HEAT)
    # Both happen on each rig's photos (on pxl-tray's, 2 dropped since the half-octave
    # search, 3 or more before it).
    assert dropped >= 2 and kept_low >= 1


def test_the_rolls_choose_how_sure_not_a_die_must_be_too(dim_rig) -> None:
    # From 0.3 "not a die" the adapted classifier drops finds it keeps from 0.4: on the dim
    # rig these are dice, and the labelled counts keep the default cut. Rolls whose counts
    # are what the reader finds from 0.3 (a rig whose extra finds are phantoms) choose 0.3.
    # (A find dropped may leave room for another beside it: a photo may read more from 0.3.)
    photos, dice = _rolls(dim_rig)
    cal = Calibration()
    adapt_calibration(cal, photos, dice=dice)
    assert cal.not_a_die_from == NOT_A_DIE_FROM_ADAPTED
    strict = [
        len(DiceReader(replace(cal, min_heat=MIN_HEAT, not_a_die_from=0.3)).read(p)) for p in photos
    ]
    loose = [len(DiceReader(replace(cal, min_heat=MIN_HEAT)).read(p)) for p in photos]
    assert any(a < b for a, b in zip(strict, loose, strict=True)) and 0.3 in CUTS
    assert pick_thresholds(cal, photos, strict) == (MIN_HEAT, 0.3)
    cal.min_heat, cal.not_a_die_from = MIN_HEAT, 0.3
    assert [len(DiceReader(cal).read(p)) for p in photos] == strict
    # The cut belongs to the adapted classifier: without it, the trained one's holds.
    unadapted = Calibration(min_heat=MIN_HEAT, not_a_die_from=0.3)
    assert [len(DiceReader(unadapted).read(p)) for p in photos] == [
        len(DiceReader(Calibration(min_heat=MIN_HEAT)).read(p)) for p in photos
    ]


def test_a_calibrated_threshold_is_kept_and_read_from(dim_rig, tmp_path) -> None:
    path = tmp_path / "rig.json"
    Calibration(min_heat=0.15).save(path)
    assert Calibration.load(path).min_heat == 0.15
    # Read from 0.15, more dice are found on the dim photos (those under 0.3 read surely).
    lowered, shipped = (
        DiceReader(Calibration.load(path)),
        DiceReader(Calibration(min_heat=MIN_HEAT)),
    )
    found = [(len(lowered.read(p)), len(shipped.read(p))) for p in _photos(dim_rig)]
    assert sum(low for low, _ in found) > sum(high for _, high in found)
    path.write_text(json.dumps({"min_heat": 3}))
    with pytest.raises(CalibrationError, match="between 0 and 1"):
        Calibration.load(path)
    Calibration(not_a_die_from=0.3).save(path)
    assert Calibration.load(path).not_a_die_from == 0.3
    path.write_text(json.dumps({"not_a_die_from": "most"}))
    with pytest.raises(CalibrationError, match="not_a_die_from must be a probability"):
        Calibration.load(path)


def test_too_few_dice_are_refused_and_the_calibration_kept(photos) -> None:
    cal = Calibration(die_px=30.0)
    empty = np.full((480, 640, 3), 90, np.uint8)
    with pytest.raises(AdaptError, match=f"at least {MIN_DICE}"):
        adapt_calibration(cal, [empty, empty])
    assert cal.faces_from is None and cal == Calibration(die_px=30.0)


def test_statistics_of_another_classifier_are_refused(tmp_path) -> None:
    for name in ("dice_net.onnx", FACES, STATISTICS):
        shutil.copy(MODELS / name, tmp_path / name)
    record = json.loads((tmp_path / STATISTICS).read_text())
    record["classifier"] = "0" * 16
    (tmp_path / STATISTICS).write_text(json.dumps(record))
    with pytest.raises(AdaptError, match="another classifier"):
        statistics(tmp_path)
    (tmp_path / STATISTICS).unlink()
    with pytest.raises(AdaptError, match=r"vision\.quantize"):
        statistics(tmp_path)


def test_the_calibration_keeps_it_and_the_reader_uses_it_only_with_its_networks(
    dim_rig, tmp_path, caplog
) -> None:
    cal = Calibration()
    adapt_calibration(cal, _photos(dim_rig))
    path = tmp_path / "rig.json"
    cal.save(path)
    assert (tmp_path / "rig-faces.onnx").exists()
    loaded = Calibration.load(path)
    shipped = fingerprint((MODELS / FACES).read_bytes())
    assert loaded.faces_from == shipped and loaded.faces == "rig-faces.onnx"
    reader = DiceReader(loaded)
    assert reader.faces == (tmp_path / "rig-faces.onnx").read_bytes()
    # It is less sure that a phantom is not a die, so finds are dropped from less.
    assert _net(MODELS, VIEWS, reader.faces).not_a_die_from == NOT_A_DIE_FROM_ADAPTED
    assert _net(MODELS, VIEWS).not_a_die_from == NOT_A_DIE_FROM > NOT_A_DIE_FROM_ADAPTED
    # New networks (here: a classifier of other bytes) never run an old adaptation.
    data = json.loads(path.read_text())
    data["faces_from"] = "f" * 16
    path.write_text(json.dumps(data))
    with caplog.at_level(logging.WARNING):
        reader = DiceReader(Calibration.load(path))
    assert reader.faces is None
    assert "adapted from other networks" in caplog.text
    # A calibration whose adapted classifier is gone says what to do.
    (tmp_path / "rig-faces.onnx").unlink()
    with pytest.raises(CalibrationError, match="python -m vision adapt"):
        Calibration.load(path)


def test_adapt_command_keeps_the_rig_calibration_and_read_uses_it(dim_rig, tmp_path, capsys):
    path = tmp_path / "rig.json"
    Calibration(die_px=40.0).save(path)
    shots = [str(p) for p in sorted(dim_rig.glob("*.jpg"))]
    assert main(["adapt", *shots, "--calibration", str(path)]) == 0
    said = capsys.readouterr().out
    assert "Adapted the face classifier" in said and str(path) in said
    cal = Calibration.load(path)
    assert cal.die_px == 40.0 and cal.faces == "rig-faces.onnx"
    assert main(["read", shots[0], "--json", "--calibration", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)[shots[0]]
    assert cal.min_heat is None  # how many dice each photo holds was not said
    assert main(["adapt", *shots, "--dice", "10", "--calibration", str(path)]) == 0
    said = capsys.readouterr().out
    assert "the detector's threshold for it" in said and "dropped from 0." in said
    assert Calibration.load(path).min_heat in HEATS
    assert Calibration.load(path).not_a_die_from in CUTS
    # Too few dice: a clear error, and the calibration as it was.
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 80, np.uint8))
    before = path.read_text()
    assert main(["adapt", str(blank), "--calibration", str(path)]) == 2
    assert f"at least {MIN_DICE}" in capsys.readouterr().err
    assert path.read_text() == before
