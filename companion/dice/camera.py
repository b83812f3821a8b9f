"""The camera as a dice source (kind ``camera``), from a vision layer the companion never imports.

The vision layer provides two parts through entry points in the group :data:`CAMERA_GROUP`
(pyproject.toml declares them for ``vision``):

- ``open_camera``: ``open_camera(spec, name=...)`` opens a camera from a command-line spec
  (``picam``, a device number, a folder of images) and raises with a sentence when it cannot;
- ``read_dice``: ``read_dice(camera, owner, lacking).readings()`` iterates the camera's
  readings, the owner (a family's colour, a player's name, ``table`` for the shared tray) in
  their source name (``camera:<cam>:<owner>``), which is how the hub knows whose dice they
  are; ``lacking`` is the hub's :meth:`~companion.dice.hub.DiceHub.lacking`, how many dice
  the roll a source's dice count for still lacks, which the reader is told.

This module only puts them together as a :class:`~companion.dice.source.DiceSource`. Without a
vision layer installed, asking for a camera is a :class:`SourceError` that says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from typing import Any, Protocol

from companion.dice.assignment import TABLE
from companion.dice.reading import DieReading
from companion.dice.source import Need, PumpedSource
from companion.dice.sources import SourceContext, SourceError

CAMERA_GROUP = "godfather_companion.camera"  # entry points: open_camera, read_dice


class Frames(Protocol):
    """What the vision layer's cameras are to this module: a name, frames, close."""

    name: str

    def read(self) -> Any: ...

    def close(self) -> None: ...


class Readings(Protocol):
    def readings(self) -> Iterable[DieReading]: ...


OpenCamera = Callable[..., Frames]
Lacking = Callable[[str], int | None]
ReadDice = Callable[[Frames, str, Lacking], Readings]


def camera_parts() -> tuple[OpenCamera, ReadDice]:
    """The vision layer's two parts, loaded through their entry points."""
    parts = {ep.name: ep for ep in entry_points(group=CAMERA_GROUP)}
    missing = {"open_camera", "read_dice"} - set(parts)
    if missing:
        raise SourceError(
            "no camera reader is installed (the vision layer registers "
            f"{', '.join(sorted(missing))} in {CAMERA_GROUP})"
        )
    try:
        return parts["open_camera"].load(), parts["read_dice"].load()
    except ImportError as exc:
        raise SourceError(f"the camera reader cannot be loaded: {exc}") from exc


def camera_dice(
    context: SourceContext, spec: str, owner: str = TABLE, name: str = "cam0"
) -> CameraDice:
    """The registry's factory: the camera ``spec`` watching ``owner``'s dice, named ``name``
    in its readings. Opens the camera now, so a camera that is not there is an error at once
    (``companion serve`` prints it and stops) rather than a silent table."""
    open_camera, read_dice = camera_parts()
    try:
        camera = open_camera(spec, name=name)
    except (RuntimeError, OSError, ValueError) as exc:  # the vision layer's CameraError
        raise SourceError(str(exc)) from exc
    return CameraDice(camera, owner or TABLE, read_dice, context.hub.lacking)


class CameraDice(PumpedSource):
    """One camera's readings pumped into the hub. ``stop`` ends the frames at the next one, and
    the camera is closed on the pump's own thread (never under a read in progress)."""

    def __init__(self, camera: Frames, owner: str, read_dice: ReadDice, lacking: Lacking) -> None:
        self.camera = _Stoppable(camera)
        self.owner = owner
        try:  # made now, so a reader that cannot start (a broken calibration) stops serve
            reader = read_dice(self.camera, owner, lacking)
        except (RuntimeError, OSError, ValueError) as exc:
            self.camera.close()
            raise SourceError(str(exc)) from exc
        super().__init__(
            f"camera {camera.name} ({owner})",
            reader.readings,
            needs=Need.CAMERA,
            close=self.camera.stopping.set,
        )

    def stop(self) -> None:
        pump = self._thread
        super().stop()
        if pump is None or not pump.is_alive():  # opened but never read, or read to the end
            self.camera.close()


class _Stoppable:
    """The camera as the reader sees it: no more frames once ``stopping`` is set."""

    def __init__(self, camera: Frames) -> None:
        self.inner = camera
        self.name = camera.name
        self.stopping = threading.Event()
        self._closed = False

    def read(self) -> Any:
        if self.stopping.is_set():
            self.close()
            return None
        return self.inner.read()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.inner.close()
