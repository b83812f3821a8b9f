"""Phone entry: a player taps the faces they rolled, and the roll goes the same way as dice.

The web app calls :meth:`PhoneEntry.enter` with the tapped faces. The entry becomes readings
from source ``phone:<player>`` (which the assignment gives to that player by its name), so a
mixed table works: some players on smart dice, others typing, the hub does not care which.
It is a dice source like the others (kind ``phone``); the dice service always has one.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.dice.hub import DiceHub
from companion.dice.reading import DieReading, DieState
from companion.dice.source import Feed, SourceBase
from companion.dice.sources import SourceContext


class PhoneEntryError(ValueError):
    """The entry does not fit what the game waits for: say so on the phone."""


def phone_entry(context: SourceContext) -> PhoneEntry:
    """The registry's factory (kind ``phone``)."""
    return PhoneEntry(context.hub)


class PhoneEntry(SourceBase):
    """Faces typed on the phones. ``hub`` is asked what each player must roll; the readings go
    to the feed given at ``start`` (the hub's own until then)."""

    name = "phone entry"

    def __init__(self, hub: DiceHub) -> None:
        self.hub = hub
        self._feed: Feed = hub.feed
        self._entries: dict[str, int] = {}

    def start(self, feed: Feed) -> None:
        self._feed = feed

    def stop(self) -> None:
        self._feed = _nowhere

    def enter(self, player: str, faces: Sequence[int]) -> None:
        """``player`` rolled ``faces`` by hand. Raises :class:`PhoneEntryError` when the game
        is not waiting for a roll from them or the count is wrong; the engine action then
        comes out of the hub as for any dice."""
        waits = [w for w in self.hub.waiting() if w.player == player]
        if not waits:
            raise PhoneEntryError(f"{player} has no dice to roll now")
        need = waits[0].dice
        if len(faces) != need:
            word = "die" if need == 1 else "dice"
            raise PhoneEntryError(f"{player} rolls {need} {word}, not {len(faces)}")
        bad = [f for f in faces if not isinstance(f, int) or not 1 <= f <= 6]
        if bad:
            raise PhoneEntryError(f"a die shows 1 to 6, not {bad[0]!r}")
        entry = self._entries.get(player, 0) + 1
        self._entries[player] = entry
        source = f"phone:{player}"
        for i, face in enumerate(faces, 1):
            self._feed(DieReading(source, str(i), DieState.SETTLED, face=face, roll=entry))


def _nowhere(reading: DieReading) -> None:
    """Where a stopped phone entry's readings go: the dice are put away."""
