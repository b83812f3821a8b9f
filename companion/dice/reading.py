"""The one format every dice source produces.

A source knows about physical dice; the table service knows about families and rolls. They meet
here: a stream of :class:`DieReading` values, one per change a source sees on one physical die.
The table service decides when a player's roll is complete (all the dice they must roll have
settled) and turns it into engine actions, so sources never need to know the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DieState(StrEnum):
    """What a source can say about one die."""

    ROLLING = "rolling"  # moving; any face it shows is not a result
    SETTLED = "settled"  # at rest on a face: ``face`` is the result
    COCKED = "cocked"  # at rest but leaning (on another die, against a wall): no result
    UNSURE = "unsure"  # the source saw the die but will not guess its face


@dataclass(frozen=True, slots=True)
class DieReading:
    """One observation of one physical die.

    ``die_id`` names the physical die within its source, stably across rolls (a Bluetooth
    address, a DIY die's configured id, a camera name plus the die's position). ``face`` is set
    only when ``state`` is SETTLED. ``roll`` counts rolls where the source can (smart dice and the
    DIY die do), so a re-roll landing on the same face is not mistaken for no roll at all.
    """

    source: str
    die_id: str
    state: DieState
    face: int | None = None
    roll: int | None = None
    battery: float | None = None  # 0.0 .. 1.0
    charging: bool | None = None
    signal_dbm: int | None = None
    colour: str | None = None
    confidence: float | None = None  # 0.0 .. 1.0, for sources that estimate it (camera)

    def __post_init__(self) -> None:
        if self.state is DieState.SETTLED:
            if self.face is None or not 1 <= self.face <= 6:
                raise ValueError(f"a settled die needs a face 1..6, got {self.face!r}")
        elif self.face is not None:
            raise ValueError(f"a {self.state.value} die has no face, got {self.face!r}")
        if self.battery is not None and not 0.0 <= self.battery <= 1.0:
            raise ValueError(f"battery is a fraction 0..1, got {self.battery!r}")
        if self.confidence is not None and not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence is a fraction 0..1, got {self.confidence!r}")
