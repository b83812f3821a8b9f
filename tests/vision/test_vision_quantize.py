"""The 8-bit networks (:mod:`vision.quantize`): what the reader runs, made from the float ones.

The float networks ship in the repository beside the 8-bit ones (``vision/float``), so the two
are compared here on real photos of every rig with no training.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import onnx
import pytest

from vision.evaluation import match
from vision.net import MIN_VALUE, MODELS, DieNet
from vision.quantize import FLOAT, FLOAT_LAYERS, NETWORKS, float_networks, main, settings


def _reads(net: DieNet, folder: Path) -> tuple[list[tuple[int, int]], int]:
    """For each labelled die of ``folder``, in order, the value ``net`` reads it as (0 for
    unsure or missed) and its label's; and how many phantoms it found."""
    reads, phantoms = [], 0
    for name, dice in json.loads((folder / "labels.json").read_text()).items():
        found = net.find(cv2.imread(str(folder / name)))
        taken, extra = match([d.centre for d in found], [d["box"] for d in dice])
        for i, die in enumerate(dice):
            d = found[taken[i]] if i in taken else None
            sure = d is not None and d.best_probability >= MIN_VALUE
            reads.append((d.best if sure and d is not None else 0, die["value"]))
        phantoms += len(extra)
    return reads, phantoms


def test_the_8bit_networks_read_real_photos_of_every_rig_as_the_float_ones_do(photos) -> None:
    int8, floats = DieNet(MODELS), DieNet(MODELS / FLOAT)
    a, b, phantoms8, phantoms = [], [], 0, 0
    for rig in sorted(p for p in photos.iterdir() if (p / "labels.json").exists()):
        (reads8, p8), (reads, p) = _reads(int8, rig), _reads(floats, rig)
        a, b, phantoms8, phantoms = a + reads8, b + reads, phantoms8 + p8, phantoms + p
    assert len(b) > 100 and {v for _, v in b} == set(range(1, 7))
    right8 = sum(read == value for read, value in a)
    right = sum(read == value for read, value in b)
    # Measured: 139 of 151 right in 8 bits, 140 in float; 9 phantoms against 8 (a CPU with
    # VNNI). On a Zen 3 (no VNNI; ONNX Runtime 1.32, OpenCV 5.0): 140 and 138, 5 phantoms
    # against 4; with the fast 8-bit kernel there, 9 phantoms (test below).
    assert right8 >= right - 2 and right >= 130
    assert phantoms8 <= phantoms + 2
    assert sum(x == y for (x, _), (y, _) in zip(a, b, strict=True)) >= 0.95 * len(b)


def test_the_8bit_networks_run_exactly_on_a_cpu_without_vnni() -> None:
    """ONNX Runtime's fast 8-bit kernel saturates on x86 without VNNI (AMD Zen 1-3, Intel
    before Ice Lake) and reads dice otherwise there; the reader asks for the exact one. The
    test above catches what it reads on such a CPU; this one, on any CPU, that it asks."""
    net = DieNet(MODELS)
    for session in (net.detector.session, net.faces):
        options = session.get_session_options()
        assert options.get_session_config_entry("session.x64quantprecision") == "1"


def test_the_shipped_networks_are_8bit_with_their_float_ones_kept() -> None:
    for name in NETWORKS:
        graph = onnx.load(str(MODELS / name)).graph
        ops = {n.op_type for n in graph.node}
        assert {"QuantizeLinear", "DequantizeLinear"} <= ops, name
        # The layers kept in float take float weights (no DequantizeLinear feeds them).
        weights = {n.output[0] for n in graph.node if n.op_type == "DequantizeLinear"}
        for node in graph.node:
            if node.op_type == "Conv" and node.name in FLOAT_LAYERS[name]:
                assert node.input[1] not in weights, node.name
        floats = onnx.load(str(MODELS / FLOAT / name)).graph
        assert "QuantizeLinear" not in {n.op_type for n in floats.node}
    record = json.loads((MODELS / "dice_net.json").read_text())
    assert record["int8"] == settings()


def test_an_older_folder_has_its_float_networks_moved_aside(tmp_path) -> None:
    for name in NETWORKS:
        shutil.copy(MODELS / FLOAT / name, tmp_path / name)
    floats = float_networks(tmp_path)
    assert floats == tmp_path / FLOAT
    assert all((floats / n).exists() and not (tmp_path / n).exists() for n in NETWORKS)
    assert float_networks(tmp_path) == floats  # and a second call leaves them there


def test_quantize_takes_only_the_rigs_the_networks_were_trained_on(
    photos, tmp_path, capsys
) -> None:
    # A benchmark fold's ranges must come from its training rigs: the rig it is measured on
    # would otherwise leak into its networks.
    (tmp_path / "dice_net.json").write_text(json.dumps({"trained_on": {"box-gray": 3}}))
    with pytest.raises(SystemExit) as stop:
        main([str(photos / "dice-photos"), "--models", str(tmp_path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "was trained on box-gray" in err and "give those rigs" in err
    with pytest.raises(SystemExit):
        main([str(photos / "box-gray"), "--models", str(tmp_path)])
    assert "no networks in" in capsys.readouterr().err
