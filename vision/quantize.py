"""The die networks in 8 bits: what the reader runs, made from the trained float networks.

    python -m vision.quantize RIG... [--models vision/]

Reading a picture is mostly running the two networks (:mod:`vision.net`), and 8-bit integer
convolutions run two to three times faster than float ones on a CPU with 8-bit dot products
(x86 with VNNI; ARMv8.2's dot product, as on a Raspberry Pi 5's Cortex-A76). Held out, the
8-bit networks read as many dice right as the float ones (see docs/vision.md, *Int8
networks*); on one core here they take a third less time per 640×640 photo.

The quantization is ONNX Runtime's static one (weights per output channel, activations per
tensor, as quantize and dequantize nodes the runtime fuses into integer convolutions): every
activation's range is fixed beforehand, from what the float networks see while reading
:data:`CALIBRATION_PHOTOS` photos of each rig they were trained on. Those are the networks'
real inputs (every pyramid level, every crop, look and second look), so no range is guessed;
and they come from the training rigs alone, so a benchmark fold's networks learn nothing of
the rig they are measured on. Three layers stay in float (:data:`FLOAT_LAYERS`): the
detector's first convolution, three colour channels in, where 8-bit arithmetic is slower
than float here; and both networks' last layer, whose outputs (heat, face logits, where the
die lies) the reader thresholds and compares, so they keep their full resolution.

The trained float networks are kept beside the 8-bit ones, in ``float/`` (not shipped in
the package): quantizing again, or retraining one network, starts from them. Beside the
8-bit classifier goes what a rig's adaptation needs of it (:mod:`vision.adapt`): its layers'
statistics on its training crops.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.net import MIN_HEAT, DieNet, NetDie
from vision.pyramid import Pyramid
from vision.rigs import Rig, rig_sizes

NETWORKS = ("dice_net.onnx", "dice_faces.onnx")
FLOAT = "float"  # the subfolder of a models folder that keeps the trained float networks
# Photos read per training rig to measure the activations' ranges. Held out, with 30 the
# 8-bit networks read 58.1% of the five rigs' dice right (float 58.3%), 10.0% phantoms (float
# 10.1%); with 10, 58.1% and 10.4%. Which photos moves a rig by 25 dice, with 30 or with 100
# (thirty-fifth session, two seeds each: pxl-tray's fold 2,078 and 2,103 right, and 2,081
# and 2,105): a rule is judged on the float networks too (benchmarks/vision.py --float).
CALIBRATION_PHOTOS = 30
# Layers kept in float, by their ONNX node names (vision.train exports them so). The
# detector's first convolution in 8 bits took twice the float one's time (3 channels in);
# with the last layers in 8 bits too (10 photos), 10.6% phantoms held out against 10.4%.
FLOAT_LAYERS = {
    "dice_net.onnx": ("/body/body.0/body.0.0/Conv", "/head/Conv"),
    "dice_faces.onnx": ("/head/Conv",),
}


def settings() -> dict[str, Any]:
    """The quantization as ``dice_net.json`` records it (part of :func:`vision.augment.recipe`):
    networks quantized otherwise were made by another recipe."""
    return {
        "calibration_photos": CALIBRATION_PHOTOS,
        "float_layers": {k: list(v) for k, v in FLOAT_LAYERS.items()},
    }


def float_networks(models: Path) -> Path:
    """The folder of ``models``'s trained float networks (``models/float``). A folder from
    before quantization holds its float networks at the top: they are moved there first."""
    floats = Path(models) / FLOAT
    if not floats.exists():
        floats.mkdir(parents=True)
        for name in NETWORKS:
            if (Path(models) / name).exists():
                shutil.move(Path(models) / name, floats / name)
    return floats


class Recording:
    """An ONNX Runtime session that keeps every input it is run on."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.inputs: list[np.ndarray] = []

    def run(self, outputs: Any, feed: dict[str, np.ndarray]) -> Any:
        self.inputs.append(feed["bgr"])
        return self.session.run(outputs, feed)


def calibration_inputs(
    floats: Path, rigs: list[Rig], photos: int = CALIBRATION_PHOTOS, seed: int = 0
) -> dict[str, list[np.ndarray]]:
    """Each network's inputs while the float networks in ``floats`` read ``photos`` photos
    of each rig (chosen by ``seed``; all of a rig's photos when it has fewer)."""
    net = DieNet(floats, min_heat=MIN_HEAT)  # the finds the classifier learnt from
    detector, faces = Recording(net.detector.session), Recording(net.faces)
    net.detector.session, net.faces = detector, faces
    rng = np.random.default_rng(seed)
    read = []
    for rig in rigs:
        labels = rig.labels()
        names = sorted(labels)
        for i in sorted(rng.choice(len(names), min(photos, len(names)), replace=False)):
            image = cv2.imread(str(rig.folder / names[i]))
            if image is None:
                raise ValueError(f"{rig.folder / names[i]} is not a picture OpenCV can read")
            net.find(image)
            read.append((image, labels[names[i]]))
    if not faces.inputs:
        # A detector that found nothing (barely trained): the classifier is shown the
        # labelled dice instead, cut as it would be shown them found.
        for image, dice in read:
            boxes = [d["box"] for d in dice]
            net.score(
                Pyramid(image),
                [
                    NetDie(((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0), 1.0, np.zeros(8))
                    for x0, y0, x1, y1 in boxes
                ],
            )
    return {"dice_net.onnx": detector.inputs, "dice_faces.onnx": faces.inputs}


def quantize(
    models: Path, rigs: list[Rig], photos: int = CALIBRATION_PHOTOS, seed: int = 0
) -> None:
    """Write 8-bit networks into ``models`` from its float networks (:func:`float_networks`),
    their activations' ranges measured on ``rigs``, and record how in its ``dice_net.json``."""
    # Needs the onnx package (the train extra), like training: the runtime never imports this.
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import (  # type: ignore[import-untyped]
        quant_pre_process,
    )

    class Inputs(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self, inputs: list[np.ndarray]) -> None:
            self.inputs = iter(inputs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            x = next(self.inputs, None)
            return None if x is None else {"bgr": np.ascontiguousarray(x)}

    models = Path(models)
    floats = float_networks(models)
    inputs = calibration_inputs(floats, rigs, photos, seed)
    with tempfile.TemporaryDirectory() as tmp:
        for name in NETWORKS:
            shaped = Path(tmp) / name
            quant_pre_process(str(floats / name), str(shaped))
            quantize_static(
                str(shaped),
                str(models / name),
                Inputs(inputs[name]),
                quant_format=QuantFormat.QDQ,
                per_channel=True,
                activation_type=QuantType.QUInt8,
                weight_type=QuantType.QInt8,
                calibrate_method=CalibrationMethod.MinMax,
                nodes_to_exclude=list(FLOAT_LAYERS[name]),
            )
    record_path = models / "dice_net.json"
    record = json.loads(record_path.read_text()) if record_path.exists() else {}
    record["int8"] = settings()
    record_path.write_text(json.dumps(record, indent=1) + "\n")
    # What adapting the 8-bit classifier to a rig matches it back to (vision.adapt).
    from vision.adapt import training_crops, write_statistics

    write_statistics(models, training_crops(models, rigs, seed=seed))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "rigs",
        type=Path,
        nargs="+",
        help="the folders of photos the networks were trained on (labels.json in each)",
    )
    p.add_argument(
        "--models",
        type=Path,
        default=Path(__file__).parent,
        help="folder of the networks (float ones in float/ or, before quantization, at the top)",
    )
    p.add_argument("--seed", type=int, default=0, help="which photos of each rig are read")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    rigs = [Rig(r) for r in args.rigs]
    record_path = args.models / "dice_net.json"
    record = json.loads(record_path.read_text()) if record_path.exists() else {}
    trained_on = record.get("trained_on")
    if trained_on is not None and set(trained_on) != set(rig_sizes(rigs)):
        # A fold's networks must learn nothing of the rig they are measured on, its
        # activations' ranges included.
        p.error(
            f"{args.models} was trained on {', '.join(sorted(trained_on))}: "
            "give those rigs, and only those"
        )
    if not (args.models / FLOAT).exists() and not all((args.models / n).exists() for n in NETWORKS):
        p.error(f"no networks in {args.models}: train them first (python -m vision.train)")
    quantize(args.models, rigs, seed=args.seed)
    print(
        f"wrote 8-bit {' and '.join(NETWORKS)} into {args.models} (float ones in "
        f"{args.models / FLOAT}), ranges from {CALIBRATION_PHOTOS} photos of each of "
        + ", ".join(r.name for r in rigs),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
