"""From what a smart die says to :class:`DieReading`: when is it a new roll?

Neither family numbers its rolls, so each tracker keeps its own count (``DieReading.roll``)
and raises it only for what the rules may count as a roll. Everything else (a die picked up and
put down, the same state re-sent after a reconnect, a battery report) comes out with the count
unchanged, which the dice hub reads as "at rest, nothing new". A tracker lives as long as the
die is known, across reconnects, which is what keeps a roll from being lost or counted twice
when the link drops. Pure: no radio, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.dice import godice, pixels
from companion.dice.reading import DieReading, DieState

PIXELS_SOURCE = "pixels"
GODICE_SOURCE = "godice"


@dataclass
class PixelsTracker:
    """One Pixels die, fed from adverts and connected messages alike.

    A result counts on ``rolled``; on ``onFace`` only after a real ``rolling`` was seen (the
    firmware's "did not move enough" after a gentle roll), never after mere handling, which is
    how picking dice up to move them about stops producing phantom rolls. A die first seen
    already at rest is a baseline, not a roll. A face that changes while the die stays
    ``rolled`` means the rolling adverts were lost: that is a new roll too.
    """

    die_id: str
    source: str = PIXELS_SOURCE
    firmware: int | None = None
    die_type: pixels.DieType = pixels.DieType.D6
    led_count: int = 6
    roll: int = 0
    battery: float | None = None
    charging: bool | None = None
    signal_dbm: int | None = None
    colour: str | None = None
    armed: bool = False  # moved since the last result
    rolled_hard: bool = False  # a real ``rolling`` since the last result
    last: DieReading | None = None
    result_face: int | None = None
    usable: bool = True

    def identify(
        self,
        firmware: int | None,
        die_type: pixels.DieType,
        led_count: int,
        colour: str | None = None,
    ) -> None:
        self.firmware, self.die_type, self.led_count = firmware, die_type, led_count
        self.colour = colour or self.colour
        # The game needs d6s: a d20 at the table is reported by pairing, never read.
        self.usable = die_type in pixels.D6_TYPES

    def power(self, pct: int, charging: bool | None) -> DieReading | None:
        self.battery, self.charging = min(pct, 100) / 100, charging
        return self._emit(
            replace(self.last, battery=self.battery, charging=charging) if self.last else None
        )

    def observe(self, state: pixels.RollState, face_index: int) -> DieReading | None:
        """A roll state (from an advert, a RollState or an IAmADie); the reading if it changed."""
        if not self.usable:
            return None
        RS = pixels.RollState
        if (
            state is RS.CROOKED
            and self.led_count == 6
            and self.firmware is not None
            and self.firmware < pixels.FW_2024_05_22
        ):
            state = RS.ROLLED  # firmware before 380f496 calls a slightly tilted d6 crooked
        if state in (RS.ROLLING, RS.HANDLING):
            self.armed = True
            self.rolled_hard |= state is RS.ROLLING
            return self._emit(self._reading(DieState.ROLLING))
        if state is RS.CROOKED:
            self.armed = True
            return self._emit(self._reading(DieState.COCKED))
        if state is RS.UNKNOWN:
            return self._emit(self._reading(DieState.UNSURE))
        face = pixels.face_value(self.die_type, face_index, self.firmware, self.led_count)
        first = self.last is None
        if state is RS.ROLLED:
            new = not first and (self.armed or face != self.result_face)
        else:  # ON_FACE
            new = not first and self.rolled_hard
        if new:
            self.roll += 1
        if new or first:
            self.result_face = face
        self.armed = self.rolled_hard = False
        return self._emit(self._reading(DieState.SETTLED, face))

    def _reading(self, state: DieState, face: int | None = None) -> DieReading:
        return DieReading(
            self.source,
            self.die_id,
            state,
            face=face,
            roll=self.roll,
            battery=self.battery,
            charging=self.charging,
            signal_dbm=self.signal_dbm,
            colour=self.colour,
        )

    def _emit(self, reading: DieReading | None) -> DieReading | None:
        if reading is None or reading == self.last:
            return None
        self.last = reading
        return reading


@dataclass
class GoDiceTracker:
    """One GoDice, fed from its notifications.

    ``R`` starts a roll and a plain ``S`` ends it; ``FS`` (a pause mid-roll) changes nothing;
    ``TS`` (at rest, leaning) asks for a re-roll unless ``count_tilt``; ``MS`` (moved, not
    rolled) reports the face without counting a roll unless ``count_move``. When the link drops
    mid-roll the tracker says so (UNSURE), because GoDice cannot be asked for their face later:
    the table asks for that die again instead of silently losing the roll.
    """

    die_id: str
    shell: godice.Shell = godice.Shell.D6
    source: str = GODICE_SOURCE
    count_tilt: bool = False
    count_move: bool = False
    roll: int = 0
    in_roll: bool = False
    battery: float | None = None
    charging: bool | None = None
    colour: str | None = None
    signal_dbm: int | None = None
    last: DieReading | None = None

    def observe(self, msg: godice.Notification) -> DieReading | None:
        if isinstance(msg, godice.RollStarted):
            self.in_roll = True
            return self._emit(self._reading(DieState.ROLLING))
        if isinstance(msg, godice.Settled):
            return self._settled(msg)
        if isinstance(msg, godice.Battery):
            self.battery = msg.pct / 100
        elif isinstance(msg, godice.Colour):
            self.colour = msg.name
        elif isinstance(msg, godice.Charging):
            self.charging = msg.on
        else:
            return None  # taps: not used by this game
        base = self.last or self._reading(DieState.UNSURE)
        return self._emit(
            replace(base, battery=self.battery, charging=self.charging, colour=self.colour)
        )

    def _settled(self, msg: godice.Settled) -> DieReading | None:
        kind = msg.kind
        if kind is godice.Stable.FAKE:
            return None
        face = godice.face_from_vector(msg.vector, self.shell)
        if kind is godice.Stable.TILT and not self.count_tilt:
            return self._emit(self._reading(DieState.COCKED))
        counts = kind in (godice.Stable.STABLE, godice.Stable.TILT) or (
            kind is godice.Stable.MOVE and self.count_move
        )
        if counts:
            self.roll += 1
        self.in_roll = False
        if not 1 <= face <= 6:
            return self._emit(self._reading(DieState.UNSURE))
        return self._emit(self._reading(DieState.SETTLED, face))

    def connected(self) -> DieReading | None:
        """First connection: an at-rest baseline (face unknown), so that the first ``S`` is
        read as the new roll it is rather than as the die's first sighting."""
        return self._emit(self._reading(DieState.UNSURE)) if self.last is None else None

    def link_lost(self) -> DieReading | None:
        """The connection dropped. Mid-roll, the result is gone: say so."""
        if not self.in_roll:
            return None
        self.in_roll = False
        return self._emit(self._reading(DieState.UNSURE))

    def _reading(self, state: DieState, face: int | None = None) -> DieReading:
        return DieReading(
            self.source,
            self.die_id,
            state,
            face=face,
            roll=self.roll,
            battery=self.battery,
            charging=self.charging,
            signal_dbm=self.signal_dbm,
            colour=self.colour,
        )

    def _emit(self, reading: DieReading) -> DieReading | None:
        if reading == self.last:
            return None
        self.last = reading
        return reading
