"""What a rig's calibration knows, saved as a small JSON file beside the companion's data.

Everything is optional: the reader works from a single picture and each item only makes it
better. ``die_px`` fixes the die size (the reader then looks at the one scale where such dice
are, instead of every scale), ``tray`` is the region where dice count (a polygon in fractions
of the picture, :mod:`vision.tray`: nothing outside it is read), ``empty_tray`` is a picture
of the tray with no dice (the background, instead of an estimate), ``palette`` names each
family's dice colour, ``camera`` keeps the locked exposure and white balance so the
colours stay what the palette learnt, and ``faces`` is the face classifier adapted to the
rig from photos of rolls (:mod:`vision.adapt`, an ONNX file beside the calibration), made
from the classifier ``faces_from`` names (its fingerprint): the reader uses it only with
that classifier, so new networks are never paired with an old adaptation; ``min_heat`` is
the detector's threshold chosen for the rig from the same rolls (its dice may peak lower
than those of the rigs it learnt), and ``not_a_die_from`` how sure the adapted classifier
must be that a find is no die to drop it, chosen with the threshold (used only with the
adapted classifier).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.tray import TrayError, check


def fingerprint(model: bytes) -> str:
    """A short name for one classifier's exact bytes: what an adaptation was made from."""
    return hashlib.sha256(model).hexdigest()[:16]


# Where `python -m vision calibrate` writes a rig's calibration, and where the companion's
# camera source looks for it: $VISION_CALIBRATION (the Pi's service sets it to its state
# folder, which updates leave alone), else this file in the folder it is started from.
DEFAULT = Path("vision-calibration.json")
ENVIRONMENT = "VISION_CALIBRATION"


def default_path(owner: str | None = None) -> Path:
    """The rig's calibration file: :data:`ENVIRONMENT` if set, else :data:`DEFAULT`; with an
    ``owner`` (whose dice a camera sees: a family's colour, a player, ``table``), that file
    with the owner in its name (``vision-calibration-red.json``), since each camera behind a
    screen is a rig of its own, when there is one."""
    path = Path(os.environ.get(ENVIRONMENT) or DEFAULT)
    if owner:
        own = path.with_name(f"{path.stem}-{re.sub(r'[^A-Za-z0-9_-]+', '_', owner)}{path.suffix}")
        if own.exists():
            return own
    return path


class CalibrationError(ValueError):
    """A calibration file or step that cannot be used, with what to do about it."""


@dataclass(slots=True)
class Calibration:
    """One rig's calibration. Paths inside are relative to the calibration file."""

    die_px: float | None = None
    tray: list[list[float]] | None = None
    empty_tray: str | None = None
    palette: dict[str, list[float]] = field(default_factory=dict)
    camera: dict[str, Any] = field(default_factory=dict)
    faces: str | None = None
    faces_from: str | None = None
    min_heat: float | None = None
    not_a_die_from: float | None = None
    _empty_lab: np.ndarray | None = field(default=None, repr=False, compare=False)
    _faces: bytes | None = field(default=None, repr=False, compare=False)

    def empty_lab(self, shape: tuple[int, ...]) -> np.ndarray | None:
        """The empty tray in Lab at the picture's size, or None without one."""
        if self._empty_lab is None:
            return None
        if self._empty_lab.shape[:2] != tuple(shape[:2]):
            return cv2.resize(self._empty_lab, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
        return self._empty_lab

    def set_empty_tray(self, bgr: np.ndarray) -> None:
        """Use this picture (no dice in it) as the tray's background."""
        self._empty_lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (5, 5), 0), cv2.COLOR_BGR2LAB)

    def set_faces(self, model: bytes, made_from: str) -> None:
        """Use this face classifier (ONNX bytes), adapted from the one ``made_from`` names."""
        self._faces, self.faces_from = model, made_from

    def adapted_faces(self, classifier: str) -> bytes | None:
        """The adapted classifier when it was made from ``classifier`` (a fingerprint), or
        None (no adaptation, or one made for other networks)."""
        return self._faces if self.faces_from == classifier else None

    def save(self, path: Path) -> None:
        """Write the JSON file, and the empty tray (PNG) and adapted classifier beside it."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {k: v for k, v in asdict(self).items() if not k.startswith("_")}
        if self._empty_lab is not None:
            image = path.with_name(path.stem + "-empty-tray.png")
            cv2.imwrite(str(image), cv2.cvtColor(self._empty_lab, cv2.COLOR_LAB2BGR))
            self.empty_tray = data["empty_tray"] = image.name
        if self._faces is not None:
            model = path.with_name(path.stem + "-faces.onnx")
            model.write_bytes(self._faces)
            self.faces = data["faces"] = model.name
        path.write_text(json.dumps(data, indent=2) + "\n")

    @classmethod
    def of_this_rig(cls, owner: str | None = None) -> Calibration:
        """The calibration at :func:`default_path` (``owner``'s camera's, else the one for
        all cameras) when there is one, else an empty one."""
        path = default_path(owner)
        return cls.load(path) if path.exists() else cls()

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """Read a calibration file written by :meth:`save` (or by hand)."""
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            raise CalibrationError(
                f"no calibration at {path}: run `python -m vision calibrate` first"
            ) from None
        except json.JSONDecodeError as e:
            raise CalibrationError(f"{path} is not valid JSON: {e}") from None
        unknown = set(data) - {
            "die_px",
            "tray",
            "empty_tray",
            "palette",
            "camera",
            "faces",
            "faces_from",
            "min_heat",
            "not_a_die_from",
        }
        if unknown:
            raise CalibrationError(f"{path}: unknown keys {sorted(unknown)}")
        die_px = data.get("die_px")
        if die_px is not None and not (isinstance(die_px, int | float) and 5 <= die_px <= 1000):
            raise CalibrationError(f"{path}: die_px must be a size in pixels, got {die_px!r}")
        min_heat = data.get("min_heat")
        if min_heat is not None and not (isinstance(min_heat, int | float) and 0 < min_heat < 1):
            raise CalibrationError(
                f"{path}: min_heat must be a detector threshold between 0 and 1, got {min_heat!r}"
            )
        cut = data.get("not_a_die_from")
        if cut is not None and not (isinstance(cut, int | float) and 0 < cut <= 1):
            raise CalibrationError(
                f"{path}: not_a_die_from must be a probability between 0 and 1, got {cut!r}"
            )
        try:
            tray = check(data["tray"]) if data.get("tray") is not None else None
        except (TrayError, TypeError, ValueError) as e:
            raise CalibrationError(f"{path}: bad tray: {e}") from None
        cal = cls(
            die_px=die_px,
            tray=tray,
            empty_tray=data.get("empty_tray"),
            palette=dict(data.get("palette", {})),
            camera=dict(data.get("camera", {})),
            faces=data.get("faces"),
            faces_from=data.get("faces_from"),
            min_heat=min_heat,
            not_a_die_from=cut,
        )
        if cal.empty_tray:
            image = cv2.imread(str(path.parent / cal.empty_tray))
            if image is None:
                raise CalibrationError(f"{path}: cannot read the empty tray {cal.empty_tray}")
            cal._empty_lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        if cal.faces:
            try:
                cal._faces = (path.parent / cal.faces).read_bytes()
            except OSError as e:
                raise CalibrationError(
                    f"{path}: cannot read the adapted classifier {cal.faces} ({e.strerror}): "
                    "run `python -m vision adapt` again, or remove the faces key"
                ) from None
        return cal
