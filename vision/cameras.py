"""Where frames come from: one small interface, three backends chosen at the edge.

``Picamera2`` on a Raspberry Pi (exposure and white balance locked after they settle, as the
research notes describe), any OpenCV ``VideoCapture`` device elsewhere (a cheap USB camera
behind a family's screen), or a folder of images (tests, recorded sessions, replays).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")


class CameraError(RuntimeError):
    """A camera that cannot be opened or stopped giving frames, with what to check."""


class FrameSource(Protocol):
    """Anything that gives BGR frames; ``None`` means there are no more."""

    name: str

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class FolderSource:
    """The images of a folder in name order, as if a camera had taken them."""

    def __init__(self, folder: Path, name: str | None = None, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"{self.folder} is not a folder of images")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"{self.folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.name = name or self.folder.name
        self.loop = loop
        self._next = 0

    def read(self) -> np.ndarray | None:
        if self._next >= len(self.files):
            if not self.loop:
                return None
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        frame = cv2.imread(str(path))
        if frame is None:
            raise CameraError(f"cannot read {path} as an image")
        return frame

    def close(self) -> None:
        self._next = len(self.files)


class VideoCaptureSource:
    """An OpenCV ``VideoCapture`` device (by index, e.g. 0) or a video file or stream URL."""

    def __init__(
        self, device: int | str, name: str | None = None, size: tuple[int, int] | None = None
    ) -> None:
        self.capture = cv2.VideoCapture(device)
        if not self.capture.isOpened():
            raise CameraError(
                f"cannot open video device {device!r}: is the camera plugged in, "
                "and is no other program using it?"
            )
        if size:
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.name = name or f"video{device}"

    def read(self) -> np.ndarray | None:
        ok, frame = self.capture.read()
        return frame if ok else None

    def close(self) -> None:
        self.capture.release()


class Picamera2Source:
    """The Raspberry Pi camera through Picamera2, with exposure and white balance locked.

    Auto exposure and white balance run for ``settle_s`` seconds, then their values are read
    from the metadata and set explicitly: setting them disables the automatic loops, so the
    colours the palette learnt stay put (picamera2 issues #7 and #933). ``controls`` from a
    calibration are applied instead when given, before the first frame.
    """

    def __init__(
        self,
        name: str = "picam",
        size: tuple[int, int] = (1280, 720),
        controls: dict[str, Any] | None = None,
        settle_s: float = 1.5,
    ) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as e:
            raise CameraError(
                "Picamera2 is not installed (on Raspberry Pi OS: "
                "sudo apt install python3-picamera2)"
            ) from e
        self.name = name
        self.camera = Picamera2()
        config = self.camera.create_video_configuration(
            main={"size": size, "format": "RGB888"}, controls=dict(controls or {})
        )
        self.camera.configure(config)
        self.camera.start()
        if not controls:
            time.sleep(settle_s)
            meta = self.camera.capture_metadata()
            self.controls = {
                k: meta[k] for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k in meta
            }
            self.camera.set_controls(self.controls)
        else:
            self.controls = dict(controls)

    def read(self) -> np.ndarray | None:
        # Picamera2's "RGB888" is B, G, R in memory: already what OpenCV expects.
        frame: np.ndarray = self.camera.capture_array("main")
        return frame

    def close(self) -> None:
        self.camera.stop()
        self.camera.close()


def open_camera(spec: str, name: str | None = None) -> FrameSource:
    """Open a camera from a command-line spec.

    ``picam`` is the Pi camera; a number is a ``VideoCapture`` device index; an existing folder
    is a folder of images; anything else is given to ``VideoCapture`` (a video file or URL).
    """
    if spec == "picam":
        return Picamera2Source(name=name or "picam")
    if spec.isdigit():
        return VideoCaptureSource(int(spec), name=name)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, name=name)
    if path.exists():
        return VideoCaptureSource(str(path), name=name)
    raise CameraError(f"{spec!r} is not 'picam', a device number, a folder or a video file")


def frames(source: FrameSource, limit: int | None = None) -> Iterator[np.ndarray]:
    """Iterate over a source's frames until it ends (or ``limit`` frames)."""
    count = 0
    while limit is None or count < limit:
        frame = source.read()
        if frame is None:
            return
        count += 1
        yield frame
