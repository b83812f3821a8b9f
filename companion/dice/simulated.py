"""Simulated dice: the default with no hardware, through the same reading path as real dice.

:class:`SimulatedDice` owns a set of virtual dice (as many per dice set as the game says: five
per family, three red) and rolls the ones the hub asks for: on every :class:`RollWanted` it sends
ROLLING readings for those dice, waits ``roll_time`` seconds (so the demo feels like a table),
then sends SETTLED readings with faces from its ``random.Random``. Nothing downstream knows the
dice are not real.

It is a dice source like any other (:mod:`companion.dice.source`): its pairing help rolls
*virtual smart dice* (``virtual/die-01``...) that nobody has paired yet, so "roll your five dice
now" can be tried, and tested, with no hardware.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

from companion.dice.assignment import Assignment, DieRef
from companion.dice.hub import DiceEvent, DiceHub, RollWanted
from companion.dice.reading import DieReading, DieState
from companion.dice.source import Feed, SourceBase
from companion.dice.sources import SourceContext
from companion.protocol import OWN, DiceSet

SIM_SOURCE = "sim"
# The stand-ins for smart dice nobody has paired yet. Not "sim": a pairing ignores the game's own
# simulated dice, which are dealt afresh for every game.
VIRTUAL_SOURCE = "virtual"


def simulated_dice(
    context: SourceContext,
    sets: Sequence[DiceSet] = (),
    *,
    roll_time: float = 1.5,
    rng: random.Random | None = None,
) -> SimulatedDice:
    """The registry's factory (kind ``simulated``); ``new_game`` deals the dice to a game."""
    return SimulatedDice(context.hub, sets, roll_time=roll_time, rng=rng)


class SimulatedDice(SourceBase):
    """Virtual dice for each of the game's dice sets (a family's, by seat colour or name, or
    a shared pool such as the red dice).

    ``start`` subscribes to the hub; ``roll_time`` is how long each roll tumbles (0 for tests).
    """

    name = "simulated dice"

    def __init__(
        self,
        hub: DiceHub,
        sets: Sequence[DiceSet] = (),
        *,
        roll_time: float = 1.5,
        rng: random.Random | None = None,
    ) -> None:
        self.hub = hub
        self.roll_time = roll_time
        self.rng = rng or random.Random()
        self.rolls: dict[DieRef, int] = {}
        self._feed: Feed = hub.feed
        self._unsubscribe: object = None
        self._timers: set[threading.Timer] = set()
        self._lock = threading.Lock()
        self.new_game(sets)

    def new_game(self, sets: Sequence[DiceSet]) -> None:
        """Deal virtual dice to the game's dice sets (the last game's are taken back)."""
        assignment = self.hub.assignment
        for ref in [r for r in assignment.dice if r.source == SIM_SOURCE]:
            assignment.unassign(ref)
        for dice_set in sets:
            for i in range(1, dice_set.count + 1):
                assignment.assign(DieRef(SIM_SOURCE, f"{dice_set.owner}-{i}"), dice_set.owner)

    @staticmethod
    def dice_of(assignment: Assignment, owner: str) -> list[DieRef]:
        return [r for r in assignment.owned_by(owner) if r.source == SIM_SOURCE]

    def start(self, feed: Feed | None = None) -> SimulatedDice:
        """Roll whenever the hub asks; readings go to ``feed`` (the hub's own by default)."""
        self._feed = feed or self.hub.feed
        if self._unsubscribe is None:
            self._unsubscribe = self.hub.add_event_listener(self._on_event)
        return self

    def stop(self) -> None:
        if callable(self._unsubscribe):
            self._unsubscribe()
        self._unsubscribe = None
        with self._lock:
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()

    def _on_event(self, event: DiceEvent) -> None:
        if isinstance(event, RollWanted):
            self.roll(event.player, event.dice, event.pools)

    def roll(self, player: str, count: int, pools: tuple[str, ...] = (OWN,)) -> list[DieRef]:
        """Roll ``count`` of the virtual dice ``player`` may roll: their own first (when
        ``pools`` has :data:`OWN`), then dice of the shared pools, lent to them (A New Don's
        red dice, when their pool holds more dice than a family has)."""
        assignment = self.hub.assignment
        chosen: list[DieRef] = []
        if OWN in pools:
            owner = self._owner(player)
            chosen = (self.dice_of(assignment, owner) if owner else [])[:count]
        for pool in pools:
            if pool == OWN:
                continue
            for ref in self.dice_of(assignment, pool)[: count - len(chosen)]:
                if OWN in pools:
                    self.hub.lend(ref, player)
                chosen.append(ref)
        self._throw(chosen)
        return chosen

    def pairing(self, owner: str | None, count: int = 0) -> None:
        """Pairing help: roll ``count`` virtual smart dice that are free or already
        ``owner``'s, as if the family picked up their dice; they land after ``roll_time``."""
        if owner is None:
            return
        assignment = self.hub.assignment
        chosen: list[DieRef] = []
        n = 0
        while len(chosen) < count:
            n += 1
            ref = DieRef(VIRTUAL_SOURCE, f"die-{n:02d}")
            if assignment.owner(ref) in (None, owner):
                chosen.append(ref)
        self._throw(chosen)

    def _throw(self, chosen: list[DieRef]) -> None:
        for ref in chosen:
            self._feed(
                DieReading(ref.source, ref.die_id, DieState.ROLLING, roll=self.rolls.get(ref, 0))
            )
        timer = threading.Timer(self.roll_time, self._land, (chosen,))
        timer.daemon = True
        with self._lock:
            self._timers.add(timer)
        timer.start()

    def _owner(self, player: str) -> str | None:
        names = self.hub.owner_names(player)
        owners = set(self.hub.assignment.dice.values())
        return next((n for n in names if n in owners), None)

    def _land(self, chosen: list[DieRef]) -> None:
        with self._lock:
            self._timers = {t for t in self._timers if t.is_alive()}
        for ref in chosen:
            self.rolls[ref] = self.rolls.get(ref, 0) + 1
            self._feed(
                DieReading(
                    ref.source,
                    ref.die_id,
                    DieState.SETTLED,
                    face=self.rng.randint(1, 6),
                    roll=self.rolls[ref],
                    battery=1.0,
                )
            )
