"""The face classifier adapted to one rig from a few of its photos, with no labels.

A rig the networks never saw shows its dice in another light, colour and grain, and the
classifier's layers answer it with activations shifted and spread unlike those of the
photos it learnt from. Matching each layer's outputs back, channel by channel, to their
mean and spread on the training crops (AdaBN: Li et al., "Revisiting batch normalization
for practical domain adaptation", 2016) needs only the crops the reader cuts from the rig's
own photos, whatever their faces. Held out, adapted on ten photos of each rig (fifty dice or
more) and read on the rest, the five rigs' dice were read 60.2% right against 58.3%, with
fewer wrong and fewer phantoms; with the detector's threshold chosen from the same photos
too (:func:`pick_thresholds`, when how many dice each holds is known), 62.0% (docs/vision.md,
*The face classifier adapted at calibration*). An adapted classifier is less sure that a
phantom is not a die, and the reader drops its finds from less
(:data:`vision.net.NOT_A_DIE_FROM_ADAPTED`); how much less is chosen with the threshold from
the same rolls (:data:`CUTS`). With that, and only sure reads kept under the detector's
trained threshold (:data:`vision.net.SURE_ONLY_BELOW`), 63.4% with 7.1% phantoms.

It is done in place on the 8-bit classifier the reader runs: a convolution's output is
``scale_w · (W_q * x) + b`` per output channel, so multiplying its weight scale by
``a = sd_train / sd_rig`` and setting its bias to ``(b - mean_rig) · a + mean_train`` (kept
in 32-bit integers at the new scale) maps the rig's outputs onto the training ones with the
weights' 8 bits untouched; the rig's statistics are taken a fifth of the way back to the
training ones (:data:`BLEND`), which reads a little fewer dice right and fewer wrong. The
layers are adapted in order, each measured on the rig after the ones before it were
adapted. The last layer (the logits) is left as trained.

The training side is measured once, when the networks are made (:func:`write_statistics`,
called by :mod:`vision.quantize`), on the classifier's own training crops, and kept beside
the networks in :data:`STATISTICS`; the rig side is measured by ``python -m vision
calibrate`` on its roll photos. Editing the network needs the ``onnx`` package.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]

from vision.calibration import Calibration, fingerprint
from vision.net import MIN_HEAT, MODELS, NOT_A_DIE_FROM_ADAPTED, DieNet
from vision.quantize import Recording, float_networks
from vision.rigs import Rig

FACES = "dice_faces.onnx"
STATISTICS = "dice_faces.stats.json"  # beside the networks: the training crops' statistics
TRAINING_CROPS = 3000  # training crops the statistics are measured on (seed 0)
ROLLS = 10  # photos of rolls calibrate asks for: held out, 10 adapted pxl-tray as well as 40
# Dice found on the rolls below which adapting is refused: held out, roboflow-public adapted
# (all the way, dropped from 0.5) on 12 photos (21 labelled dice) read 0.7 points more dice
# wrong, on 17 (119) 0.1 fewer.
MIN_DICE = 30
_ADAPTED = "/body/"  # the convolutions adapted (by ONNX node name): all but the head
# How far each layer is moved from the rig's statistics to the training ones: the rig's are
# taken as this share of what was measured on it and the rest of the training's. Held out
# (10+ photos, 50+ dice): 1 read 60.7 / 2.9 wrong / 8.3 phantoms pooled, 0.8 60.2 / 2.5 /
# 8.1, 0.6 60.0 / 2.4 / 7.9, against 58.3 / 2.8 / 8.8 unadapted; 0.8 is the most read right
# with fewer wrong than unadapted (chosen on these five rigs: rigs never seen will tell).
BLEND = 0.8
# The detector thresholds a calibration chooses from (vision.net.MIN_HEAT the highest): held
# out, with the adapted classifier, box-gray read 86.5% of its dice right from 0.2 against
# 79.7% from 0.3, pxl-tray 57.8% against 51.5% but with 34.7% phantoms against 8.4%, and
# dice-photos fewer: only the rig's own rolls can say (pick_thresholds).
HEATS = (0.15, 0.2, 0.25, MIN_HEAT)
# The "not a die" probabilities from which the adapted classifier's finds may be dropped
# (vision.net.NOT_A_DIE_FROM_ADAPTED the default). Held out (twentieth session), chosen with
# the threshold from the rolls' dice counts: 62.0 / 2.5 / 13.8 / 21.6 / 7.5 pooled against
# 62.0 / 2.6 / 14.5 / 20.9 / 8.9 from 0.4 alone; pxl-tray alone took 0.3, its rolls' counts
# matched better. From 0.3 on every rig: 61.5% right, 6.6% phantoms. (With
# vision.net.SURE_ONLY_BELOW since: 63.4 / 2.8 / 13.1 / 20.8 / 7.1.)
CUTS = (0.3, NOT_A_DIE_FROM_ADAPTED)


class AdaptError(ValueError):
    """Adapting cannot be done (no statistics for these networks, too few dice), and why."""


def _layers(model: Any) -> list[Any]:
    return [n for n in model.graph.node if n.op_type == "Conv" and n.name.startswith(_ADAPTED)]


def _layer_statistics(
    model: Any, layer: Any, inputs: Iterable[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Each output channel's mean and standard deviation of ``layer`` (before its ReLU,
    which the 8-bit graph folds into the next quantization) over every pixel of ``inputs``."""
    import onnx  # only here: the companion's reader never needs it

    tapped = onnx.ModelProto()
    tapped.CopyFrom(model)
    name = layer.output[0]
    tapped.graph.output.append(
        onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None)
    )
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(
        tapped.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    total: Any = 0.0
    squares: Any = 0.0
    n = 0
    for x in inputs:
        y = session.run([name], {"bgr": x})[0].astype(np.float64)
        total = total + y.sum(axis=(0, 2, 3))
        squares = squares + (y * y).sum(axis=(0, 2, 3))
        n += y.shape[0] * y.shape[2] * y.shape[3]
    if n == 0:
        raise AdaptError("no crops to measure the classifier on")
    mean = total / n
    return mean, np.sqrt(np.maximum(squares / n - mean * mean, 1e-8))


def _batches(crops: np.ndarray, size: int = 100) -> list[np.ndarray]:
    """BGR crops (N, side, side, 3) as the classifier's input, in batches."""
    blob = crops.transpose(0, 3, 1, 2).astype(np.float32) * np.float32(1 / 255)
    return [np.ascontiguousarray(blob[i : i + size]) for i in range(0, len(blob), size)]


def training_crops(
    models: Path, rigs: Sequence[Rig], crops: int = TRAINING_CROPS, seed: int = 0
) -> np.ndarray:
    """``crops`` crops as the classifier in ``models`` was trained on them (photos of
    ``rigs``, drawn dice and tables, the float detector's phantoms), with their augmentation."""
    from vision.train import Photos, face_sample, mine_phantoms

    photos = Photos(list(rigs))
    phantoms = mine_phantoms(photos, float_networks(models) / "dice_net.onnx")
    rng = np.random.default_rng(seed)
    return np.stack([face_sample(photos, rng, phantoms, None)[0] for _ in range(crops)])


def write_statistics(models: Path, crops: np.ndarray) -> None:
    """Measure the 8-bit classifier in ``models`` on its training ``crops`` and keep each
    adapted layer's statistics in ``models``/:data:`STATISTICS`."""
    import onnx

    raw = (Path(models) / FACES).read_bytes()
    model = onnx.load_from_string(raw)
    inputs = _batches(crops)
    layers = {}
    for layer in _layers(model):
        mean, sd = _layer_statistics(model, layer, inputs)
        layers[layer.name] = {"mean": mean.round(6).tolist(), "sd": sd.round(6).tolist()}
    record = {"classifier": fingerprint(raw), "crops": len(crops), "layers": layers}
    (Path(models) / STATISTICS).write_text(json.dumps(record) + "\n")


def statistics(models: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The training statistics kept beside the classifier in ``models``, by layer."""
    path = Path(models) / STATISTICS
    if not path.exists():
        raise AdaptError(
            f"no {STATISTICS} beside the networks in {models}: run python -m vision.quantize"
        )
    record = json.loads(path.read_text())
    if record.get("classifier") != fingerprint((Path(models) / FACES).read_bytes()):
        raise AdaptError(
            f"{path} was measured on another classifier: run python -m vision.quantize again"
        )
    return {
        name: (np.asarray(s["mean"], np.float64), np.asarray(s["sd"], np.float64))
        for name, s in record["layers"].items()
    }


def rig_crops(
    photos: Iterable[np.ndarray], calibration: Calibration | None = None, models: Path = MODELS
) -> tuple[list[np.ndarray], int]:
    """The classifier's inputs while the reader reads ``photos`` (with the calibration's die
    size and tray, as it will read the rig), and how many dice it found on them."""
    cal = calibration or Calibration()
    # From the trained threshold: the crops the adaptation was measured on (BLEND).
    net = DieNet(models, min_heat=MIN_HEAT)
    recording = Recording(net.faces)
    net.faces = recording
    dice = 0
    for bgr in photos:
        dice += len(net.read(bgr, cal.die_px, cal.tray).dice)
    return recording.inputs, dice


def adapt(models: Path, inputs: Sequence[np.ndarray]) -> bytes:
    """The 8-bit classifier in ``models`` adapted to the rig whose crops ``inputs`` are
    (batches as the classifier takes them: :func:`rig_crops`), as ONNX bytes."""
    import onnx
    from onnx import numpy_helper

    source = statistics(models)
    model = onnx.load(str(Path(models) / FACES))
    initializers = {i.name: i for i in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}

    def array(name: str) -> np.ndarray:
        return numpy_helper.to_array(initializers[name]).astype(np.float64)

    def store(name: str, value: np.ndarray) -> None:
        initializers[name].CopyFrom(numpy_helper.from_array(value, name))

    for layer in _layers(model):
        if layer.name not in source:
            raise AdaptError(f"no training statistics for {layer.name}")
        train_mean, train_sd = source[layer.name]
        rig_mean, rig_sd = _layer_statistics(model, layer, inputs)
        rig_mean = BLEND * rig_mean + (1 - BLEND) * train_mean
        rig_sd = BLEND * rig_sd + (1 - BLEND) * train_sd
        a = train_sd / rig_sd
        weights, bias = producer[layer.input[1]], producer[layer.input[2]]  # DequantizeLinear
        weight_scale = array(weights.input[1])
        bias_q, bias_scale = array(bias.input[0]), array(bias.input[1])
        new_bias = (bias_q * bias_scale - rig_mean) * a + train_mean
        store(weights.input[1], (weight_scale * a).astype(np.float32))
        store(bias.input[1], (bias_scale * a).astype(np.float32))
        store(bias.input[0], np.rint(new_bias / (bias_scale * a)).astype(np.int32))
    out: bytes = model.SerializeToString()
    return out


def pick_thresholds(
    calibration: Calibration,
    photos: Sequence[np.ndarray],
    dice: Sequence[int],
    models: Path = MODELS,
) -> tuple[float, float]:
    """The detector threshold of :data:`HEATS` and the "not a die" cut of :data:`CUTS` at
    which the reader (with ``calibration``, its adapted classifier included) finds on
    ``photos`` most nearly the ``dice`` each holds, the higher of each on a tie: a rig whose
    dice the detector is less sure of is read from lower, one whose phantoms the adapted
    classifier doubts less is cut from lower."""
    from vision.reader import DiceReader  # the reader runs what this module makes

    off = {}
    for heat in HEATS:
        for cut in CUTS:
            reader = DiceReader(
                replace(calibration, min_heat=heat, not_a_die_from=cut), models=models
            )
            off[heat, cut] = sum(
                abs(len(reader.read(p)) - n) for p, n in zip(photos, dice, strict=True)
            )
    return min(off, key=lambda pair: (off[pair], -pair[0], -pair[1]))


def adapt_calibration(
    calibration: Calibration,
    photos: Sequence[np.ndarray],
    models: Path = MODELS,
    dice: Sequence[int] | None = None,
) -> int:
    """Adapt the classifier in ``models`` to the rig of ``photos`` (read with the
    calibration's die size and tray) and keep it in ``calibration``, with the detector's
    threshold and the "not a die" cut for the rig when how many ``dice`` each photo holds is
    known (:func:`pick_thresholds`); the dice found on them. Refused when they are too few to
    measure the rig by."""
    inputs, found = rig_crops(photos, calibration, models)
    if found < MIN_DICE:
        raise AdaptError(
            f"only {found} dice found on the photos; at least {MIN_DICE} are needed to adapt "
            "the classifier to the rig: take more photos of rolls, all the dice in view"
        )
    model = adapt(models, inputs)
    calibration.set_faces(model, fingerprint((Path(models) / FACES).read_bytes()))
    calibration.min_heat = calibration.not_a_die_from = None
    if dice is not None:
        picked = pick_thresholds(calibration, photos, dice, models)
        calibration.min_heat, calibration.not_a_die_from = picked
    return found
