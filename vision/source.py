"""The camera as a dice source: frames in, :class:`DieReading` values out.

One :class:`CameraDiceSource` per camera. Each camera is assigned to a family (a cheap USB
camera behind that player's screen, for hidden rolls) or to the table (a shared tray for the
public rolls); the assignment goes into ``source`` so the table service knows whose dice these
are. The source knows nothing of the rules: it says when dice start moving (ROLLING) and, once
they are still and several frames agree, what each one shows (SETTLED) or that it cannot tell
(UNSURE).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

from companion.dice.reading import DieReading, DieState
from vision.calibration import Calibration
from vision.cameras import FrameSource, frames
from vision.reader import DiceReader, DieFound
from vision.still import AgreedDie, MotionGate, agree, surest_first


class CameraDiceSource:
    """Watches one camera and turns each settled roll into readings.

    ``owner`` is the family the camera belongs to, or ``"table"`` for a shared tray.
    ``read_frames`` still frames are read per roll and must agree (see :func:`agree`).
    ``lacking`` (the dice hub's :meth:`~companion.dice.hub.DiceHub.lacking`) says, given the
    source's name, how many dice the roll its dice count for still lacks: the reader, told
    how many dice to expect, looks harder when it finds fewer.
    """

    def __init__(
        self,
        camera: FrameSource,
        owner: str = "table",
        lacking: Callable[[str], int | None] | None = None,
        reader: DiceReader | None = None,
        gate: MotionGate | None = None,
        read_frames: int = 3,
        read: Callable[[np.ndarray, int | None], list[DieFound]] | None = None,
    ) -> None:
        self.camera = camera
        self.owner = owner
        self.lacking = lacking
        self.gate = gate or MotionGate()
        self.read_frames = read_frames
        # The rig's calibration (tray, die size, colours, adapted classifier) when
        # `python -m vision calibrate` wrote one: $VISION_CALIBRATION, else where the
        # companion was started; this owner's camera's own when there is one.
        self._read = read or (reader or DiceReader(Calibration.of_this_rig(owner))).read
        self.source = f"camera:{camera.name}:{owner}"
        self.roll = 0
        self._settled = False
        self._shown: list[str] = []
        self._still: list[list[DieFound]] = []

    def _die_id(self, index: int) -> str:
        # Camera dice have no identity of their own: the name plus their place in the roll's
        # order (surest first) is stable within a roll, which is what the table service needs
        # to collect one roll.
        return f"{self.camera.name}/{index}"

    def feed(self, frame: np.ndarray) -> list[DieReading]:
        """Process one frame; returns the readings it produced (often none)."""
        still = self.gate.update(frame)
        if not still:
            self._still.clear()
            if self._settled:
                self._settled = False
                return [
                    DieReading(self.source, die_id, DieState.ROLLING, roll=self.roll + 1)
                    for die_id in self._shown
                ]
            return []
        if self._settled:
            return []
        self._still.append(self._read(frame, self.lacking(self.source) if self.lacking else None))
        if len(self._still) < self.read_frames:
            return []
        agreed = surest_first(agree(self._still))
        self._still.clear()
        self._settled = True
        self.roll += 1
        readings = [self._reading(i, d) for i, d in enumerate(agreed)]
        self._shown = [r.die_id for r in readings]
        return readings

    def _reading(self, index: int, die: AgreedDie) -> DieReading:
        state = DieState.SETTLED if die.value is not None else DieState.UNSURE
        return DieReading(
            self.source,
            self._die_id(index),
            state,
            face=die.value,
            roll=self.roll,
            colour=die.colour,
            confidence=min(1.0, max(0.0, die.confidence)),
        )

    def readings(self, limit: int | None = None) -> Iterator[DieReading]:
        """Every reading from the camera until it runs out of frames (a folder) or forever."""
        for frame in frames(self.camera, limit):
            yield from self.feed(frame)


def watch(sources: Iterable[CameraDiceSource], on_reading: Callable[[DieReading], None]) -> None:
    """Poll several cameras in turn (one per family behind its screen, or one for the table)
    and hand every reading to ``on_reading`` until all cameras run out of frames."""
    active = list(sources)
    while active:
        for src in list(active):
            frame = src.camera.read()
            if frame is None:
                active.remove(src)
                continue
            for reading in src.feed(frame):
                on_reading(reading)
