"""The dice hub: readings from any source in, the game's dice actions out.

The table service tells the hub what the game waits for (:meth:`DiceHub.expect` with the
game's rules and current state: its ``waiting_for`` dice requests) and feeds it every
:class:`DieReading` from every source (:meth:`DiceHub.feed`, from any thread). When every die a
player must roll has settled, the hub hands over the game's action for those faces (its
``roll_action``) through ``on_action`` and the ``actions`` queue. It never applies anything
itself: the game stays the only law, and the hub knows no game's rules.

What counts as a roll: a die counts once per roll (sources number their rolls; for those that
do not, a die that moved and came to rest) and only if it began rolling after the engine asked,
give or take ``early_grace`` seconds, so dice pushed about during Resolution are not rolls. A
roll is complete when enough results are in and none of that player's dice is still tumbling;
a die that tumbles for longer than ``settle_timeout`` is no longer waited for.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.dice.assignment import TABLE, Assignment, DieRef
from companion.dice.reading import DieReading, DieState
from companion.protocol import OWN, Game, Seat, Waiting

Action = Any  # a game's action: the hub only passes it on


@dataclass(frozen=True, slots=True)
class Wait:
    """One player's pending roll, as the game asked for it."""

    player: str
    does: str  # the game's word for it (A New Don: godfather_roll, vegas_roll, roll)
    dice: int
    pools: tuple[str, ...]  # whose dice may be rolled: OWN, or a shared pool's name
    ask: str  # tells this request from the next one (DiceRequest.ask)
    prompt: str  # the game's words to the roller
    waiting: Waiting

    @property
    def shared(self) -> tuple[str, ...]:
        """The shared pools (not the player's own dice) this roll may use."""
        return tuple(p for p in self.pools if p != OWN)


@dataclass(frozen=True, slots=True)
class Result:
    ref: DieRef
    face: int
    began: float  # when the die was first seen moving for this roll (or settled, if never)
    at: float  # when it settled


# --- events: what the table service may show (faces are private to the roller) --------------


@dataclass(frozen=True, slots=True)
class RollWanted:
    """A roll began: prompt ``player`` to roll ``dice`` dice from ``pools``."""

    player: str
    does: str
    dice: int
    pools: tuple[str, ...] = (OWN,)
    prompt: str = ""  # the game's words to the roller ("Roll your 5 dice")


@dataclass(frozen=True, slots=True)
class DieCounted:
    """Progress of a roll. ``face`` is hidden information: show it to ``player`` only."""

    player: str
    ref: DieRef
    face: int
    have: int
    need: int


@dataclass(frozen=True, slots=True)
class RollDone:
    action: Action


@dataclass(frozen=True, slots=True)
class DiceProblem:
    """Something a person must fix: a leaning die, an unread result, too many dice."""

    ref: DieRef | None
    player: str | None
    message: str


@dataclass(frozen=True, slots=True)
class WhoseDie:
    """A die of a shared pool (A New Don's red dice) settled and more than one player may be
    rolling that pool: call ``lend`` (or ``answer``)."""

    ref: DieRef
    candidates: tuple[str, ...]
    pool: str = ""  # the shared pool the die belongs to


@dataclass(frozen=True, slots=True)
class UnknownDie:
    """A die nobody owns rolled (first time only): the pairing page may offer to assign it."""

    ref: DieRef


DiceEvent = RollWanted | DieCounted | RollDone | DiceProblem | WhoseDie | UnknownDie


@dataclass
class _Die:
    last: DieReading | None = None
    began: float | None = None  # moving since, for the current roll
    settled_roll: int | None = None  # the roll count of the last reading at rest


@dataclass
class _Collect:
    wait: Wait
    started: float
    results: dict[DieRef, Result] = field(default_factory=dict)


def first_sight_counts(source: str) -> bool:
    """Sources whose readings exist only because a roll happened (a phone entry, a camera
    seeing dice land) count the first reading of a die; a smart die first seen at rest is not
    a roll."""
    return source.startswith(("phone:", "camera:"))


class DiceHub:
    """Collects the rolls the engine waits for. Thread-safe; callbacks run outside its lock.

    ``on_action(action)`` and ``on_event(event)`` are called from whichever thread fed the
    deciding reading (often the Bluetooth thread): hand them over to your own thread, or read
    the ``actions`` / ``events`` queues instead.
    """

    def __init__(
        self,
        assignment: Assignment | None = None,
        *,
        on_action: Callable[[Action], None] | None = None,
        on_event: Callable[[DiceEvent], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        early_grace: float = 0.5,
        settle_timeout: float = 8.0,
        keep_unclaimed: float = 30.0,
    ) -> None:
        self.assignment = assignment or Assignment()
        self.on_action = on_action
        self.on_event = on_event
        self.clock = clock
        self.early_grace = early_grace
        self.settle_timeout = settle_timeout
        self.keep_unclaimed = keep_unclaimed
        self.actions: queue.Queue[Action] = queue.Queue()
        self.events: queue.Queue[DiceEvent] = queue.Queue(maxsize=10_000)
        self._lock = threading.RLock()
        self._dice: dict[DieRef, _Die] = {}
        self._open: dict[tuple[str, str], _Collect] = {}
        # Rolls handed out but maybe not applied yet: (player, does) -> (action, the ask).
        self._done: dict[tuple[str, str], tuple[Action, str]] = {}
        self._rules: Game[Any, Any, Any] | None = None
        self._unclaimed: dict[DieRef, Result] = {}
        self._parked: dict[DieRef, Result] = {}
        self._lent: dict[DieRef, str] = {}
        self._owners: dict[str, set[str]] = {}  # player -> names their dice may carry
        self._unknown_told: set[DieRef] = set()
        self._listeners: list[Callable[[DieReading], None]] = []
        self._event_listeners: list[Callable[[DiceEvent], None]] = []
        self._out: list[DiceEvent] = []

    # --- what the engine waits for --------------------------------------------------------

    def expect(
        self,
        rules: Game[Any, Any, Any],
        seats: tuple[Seat, ...],
        state: Any,
        applied: Action | None = None,
    ) -> None:
        """The game's current state: start collecting every roll it waits for now.

        Call it after every applied action (and at start), passing the action just applied
        as ``applied``. Rolls still wanted keep what they have collected. A roll the hub has
        handed out is not asked for again while the game still asks for it the same way
        (its ``ask`` is unchanged: the action is queued, not applied yet); ``applied``
        settles the one case the ask cannot tell, a roll-off that tied again on the same dice.
        """
        with self._lock:
            now = self.clock()
            self._rules = rules
            self._owners = {s.name: {s.name, *([s.colour] if s.colour else [])} for s in seats}
            wanted = {
                (w.player, w.does): Wait(
                    w.player, w.does, w.dice.count, w.dice.pools, w.dice.ask, w.dice.prompt, w
                )
                for w in rules.waiting_for(state)
                if w.dice is not None and w.dice.count > 0
            }
            self._done = {
                key: (action, ask)
                for key, (action, ask) in self._done.items()
                if key in wanted and action != applied and ask == wanted[key].ask
            }
            keep: dict[tuple[str, str], _Collect] = {}
            for key, w in wanted.items():
                old = self._open.get(key)
                if old is not None and old.wait.dice == w.dice and old.wait.pools == w.pools:
                    keep[key] = old
                elif key not in self._done:
                    keep[key] = _Collect(w, now)
                    self._out.append(RollWanted(w.player, w.does, w.dice, w.pools, w.prompt))
            for key, old in self._open.items():
                if key not in keep:
                    self._release(old)
            self._open = keep
            sharing = {c.wait.player for c in keep.values() if c.wait.shared}
            self._lent = {r: p for r, p in self._lent.items() if p in sharing}
            self._prune(now)
            for ref, result in list(self._unclaimed.items()):
                self._place(result, self.assignment.owner(ref), from_store=True)
            self._check_all(now)
        self._flush()

    def clear(self) -> None:
        """Forget every pending roll (a game ended or was abandoned)."""
        with self._lock:
            self._open.clear()
            self._done.clear()
            self._unclaimed.clear()
            self._parked.clear()
            self._lent.clear()

    def void(self, player: str) -> bool:
        """Throw away what ``player`` has rolled so far (a re-roll the dice missed, a phantom
        roll, a die off the table): the roll starts again from nothing, only dice rolled from
        now on count, and a fresh :class:`RollWanted` tells the screens (simulated dice roll
        again on it). False, and nothing changes, when ``player`` has no roll in progress."""
        with self._lock:
            now = self.clock()
            voided = [c for c in self._open.values() if c.wait.player == player]
            for c in voided:
                c.results.clear()
                c.started = now
                w = c.wait
                self._out.append(RollWanted(w.player, w.does, w.dice, w.pools, w.prompt))
        self._flush()
        return bool(voided)

    def lend(self, ref: DieRef, player: str) -> None:
        """``player`` is rolling red die ``ref`` (when two players hold red dice at once)."""
        with self._lock:
            self._lend(ref, player)
        self._flush()

    def _lend(self, ref: DieRef, player: str) -> None:
        self._lent[ref] = player
        parked = self._parked.pop(ref, None)
        if parked is not None:
            self._place(parked, self.assignment.owner(ref))
            self._check_all(self.clock())

    def undecided(self) -> dict[DieRef, tuple[str, ...]]:
        """The red dice that settled where more than one player could take them
        (:class:`WhoseDie`), each with the players it could still go to: they wait for
        :meth:`answer` (or a roll again) for :attr:`keep_unclaimed` seconds."""
        with self._lock:
            return {
                ref: tuple(
                    c.wait.player for c in self._fits(ref, result, self.assignment.owner(ref))
                )
                for ref, result in self._parked.items()
            }

    def answer(self, ref: DieRef, player: str) -> bool:
        """A person says whose undecided red die ``ref`` is (a :class:`WhoseDie`
        answered): it is lent to ``player`` and counted for them. False, and nothing
        changes, when it is not undecided (counted already, rolled again, forgotten) or
        ``player`` cannot take it."""
        with self._lock:
            if player not in self.undecided().get(ref, ()):
                return False
            self._lend(ref, player)
        self._flush()
        return True

    # --- readings in -----------------------------------------------------------------------

    def add_listener(self, listener: Callable[[DieReading], None]) -> Callable[[], None]:
        """Also hand every reading to ``listener`` (pairing, a die-status page); returns the
        function that removes it."""
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._remove_listener(listener)

    def _remove_listener(self, listener: Callable[[DieReading], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def add_event_listener(self, listener: Callable[[DiceEvent], None]) -> Callable[[], None]:
        """Also hand every event to ``listener`` (the simulated dice roll on RollWanted)."""
        with self._lock:
            self._event_listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._event_listeners:
                    self._event_listeners.remove(listener)

        return remove

    def feed(self, reading: DieReading) -> None:
        """One reading from any source, any thread."""
        with self._lock:
            now = self.clock()
            ref = DieRef.of(reading)
            die = self._dice.setdefault(ref, _Die())
            fresh = self._fresh(die, reading)
            owner = self.assignment.owner(ref)
            if reading.state is DieState.ROLLING:
                if die.began is None:
                    die.began = now
                self._rerolled(ref)
            elif reading.state is DieState.SETTLED:
                if fresh and reading.face is not None:
                    self._place(Result(ref, reading.face, die.began or now, now), owner)
                die.began = None
            elif reading.state is DieState.UNSURE:
                # Once per roll: after it moved, on its first sight (a camera's die has no
                # past before the roll it is seen in), or in a roll not reported yet.
                news = (
                    die.began is not None
                    or die.last is None
                    or (reading.roll is not None and reading.roll != die.settled_roll)
                )
                if news and self._wanted(ref, owner):
                    self._out.append(
                        DiceProblem(
                            ref,
                            self._player_of(ref, owner),
                            f"{ref.spoken()} could not be read: roll it again",
                        )
                    )
                die.began = None
            elif reading.state is DieState.COCKED and self._wanted(ref, owner):
                self._out.append(
                    DiceProblem(
                        ref,
                        self._player_of(ref, owner),
                        f"{ref.spoken()} is leaning: roll it again",
                    )
                )
            if reading.state is not DieState.ROLLING and reading.roll is not None:
                die.settled_roll = reading.roll
            die.last = reading
            listeners = list(self._listeners)
            self._check_all(now)
        for listener in listeners:
            listener(reading)
        self._flush()

    def tick(self) -> None:
        """Re-check pending rolls against the clock (a die that never settled); call it a few
        times a second. :class:`~companion.dice.service.DiceService` does."""
        with self._lock:
            self._check_all(self.clock())
        self._flush()

    # --- what the hub knows ---------------------------------------------------------------

    def waiting(self) -> list[Wait]:
        with self._lock:
            return [c.wait for c in self._open.values()]

    def progress(self, player: str) -> tuple[int, int] | None:
        """(dice counted, dice needed) for ``player``'s pending roll, or None."""
        with self._lock:
            for c in self._open.values():
                if c.wait.player == player:
                    return len(c.results), c.wait.dice
        return None

    def lacking(self, source: str) -> int | None:
        """How many dice the open rolls a die of ``source`` could count for still lack, or
        None when it could count for none: what a camera, whose dice have no identity of
        their own, is told to look for (a reading short of it looks harder)."""
        with self._lock:
            ref = DieRef(source, "")
            owner = self.assignment.owner(ref)
            short = [
                c.wait.dice - len(c.results)
                for c in self._open.values()
                if self._eligible(ref, owner, c)
            ]
        return sum(short) if short else None

    def owner_names(self, player: str) -> set[str]:
        """The owners whose dice ``player`` rolls: their name and their seat colour."""
        with self._lock:
            return set(self._owners.get(player, {player}))

    def last_readings(self) -> dict[DieRef, DieReading]:
        """The latest reading of every die seen (battery, signal): for the dice page."""
        with self._lock:
            return {r: d.last for r, d in self._dice.items() if d.last is not None}

    # --- inside ----------------------------------------------------------------------------

    def _fresh(self, die: _Die, reading: DieReading) -> bool:
        if reading.state is not DieState.SETTLED:
            return False
        if reading.roll is not None and die.settled_roll is not None:
            return reading.roll != die.settled_roll
        if die.last is None:
            return first_sight_counts(reading.source)
        return die.began is not None or die.last.state is not DieState.SETTLED

    def _rerolled(self, ref: DieRef) -> None:
        # Picked up again before the roll was complete: its earlier result no longer stands.
        for c in self._open.values():
            c.results.pop(ref, None)
        self._unclaimed.pop(ref, None)
        self._parked.pop(ref, None)

    def _player_of(self, ref: DieRef, owner: str | None) -> str | None:
        if ref in self._lent:
            return self._lent[ref]
        return next((p for p, names in self._owners.items() if owner in names), None)

    def _eligible(self, ref: DieRef, owner: str | None, c: _Collect) -> bool:
        w = c.wait
        if ref in self._lent:
            return self._lent[ref] == w.player
        if owner is None:
            return False
        if owner == TABLE:
            return len(self._open) == 1
        if ref.source.startswith("phone:"):
            return owner == w.player  # a phone entry is whatever its player is asked to roll
        if owner in w.shared:
            return True
        return OWN in w.pools and owner in self._owners.get(w.player, ())

    def _wanted(self, ref: DieRef, owner: str | None) -> bool:
        # Only a die an open roll still lacks is worth rolling again: a camera reports the
        # phantom it could not read after the roll's real dice, and a die leaning while
        # nothing is asked (dice pushed about in Resolution) is nobody's problem.
        return any(
            len(c.results) < c.wait.dice and self._eligible(ref, owner, c)
            for c in self._open.values()
        )

    def _fits(self, ref: DieRef, result: Result, owner: str | None) -> list[_Collect]:
        """The open rolls a result of die ``ref`` (owned by ``owner``) could count for."""
        return [
            c
            for c in self._open.values()
            if self._eligible(ref, owner, c) and result.began >= c.started - self.early_grace
        ]

    def _place(self, result: Result, owner: str | None, from_store: bool = False) -> None:
        ref = result.ref
        fits = self._fits(ref, result, owner)
        if from_store:
            self._unclaimed.pop(ref, None)
        if not fits:
            self._unclaimed[ref] = result
            if owner is None and ref not in self._unknown_told:
                self._unknown_told.add(ref)
                self._out.append(UnknownDie(ref))
            return
        if len(fits) > 1:
            # Only shared dice and table dice can fit two rolls: such a die goes to the one
            # player who can still take one, else a person says whose it is.
            open_fits = [c for c in fits if len(c.results) < c.wait.dice]
            if len(open_fits) != 1:
                self._parked[ref] = result
                self._out.append(WhoseDie(ref, tuple(c.wait.player for c in fits), owner or ""))
                return
            fits = open_fits
        c = fits[0]
        c.results[ref] = result
        self._out.append(DieCounted(c.wait.player, ref, result.face, len(c.results), c.wait.dice))

    def _tumbling(self, c: _Collect, now: float) -> list[DieRef]:
        return [
            ref
            for ref, die in self._dice.items()
            if die.began is not None
            and now - die.began < self.settle_timeout
            and die.began >= c.started - self.early_grace
            and ref not in c.results
            and self._eligible(ref, self.assignment.owner(ref), c)
        ]

    def _check_all(self, now: float) -> None:
        for key, c in list(self._open.items()):
            need = c.wait.dice
            if len(c.results) < need or self._tumbling(c, now):
                continue
            ordered = sorted(c.results.values(), key=lambda r: r.at)
            used, extra = ordered[:need], ordered[need:]
            for r in extra:
                self._out.append(
                    DiceProblem(
                        r.ref,
                        c.wait.player,
                        f"{c.wait.player} rolled more dice than the "
                        f"{need} asked for. {r.ref.spoken()} was not counted",
                    )
                )
            assert self._rules is not None  # an open roll came from expect()
            action = self._rules.roll_action(c.wait.waiting, tuple(r.face for r in used))
            del self._open[key]
            self._done[key] = (action, c.wait.ask)
            self._out.append(RollDone(action))

    def _release(self, c: _Collect) -> None:
        # A wait the engine dropped (its roll was entered another way): keep the results
        # around briefly in case they belong to what comes next.
        for ref, r in c.results.items():
            self._unclaimed[ref] = r

    def _prune(self, now: float) -> None:
        for store in (self._unclaimed, self._parked):
            for ref in [r for r, res in store.items() if now - res.at > self.keep_unclaimed]:
                del store[ref]

    def _flush(self) -> None:
        with self._lock:
            out, self._out = self._out, []
            listeners = list(self._event_listeners)
        for item in out:
            if isinstance(item, RollDone):
                self.actions.put(item.action)
                if self.on_action:
                    self.on_action(item.action)
            with contextlib.suppress(queue.Full):  # nobody reads it: the callbacks suffice
                self.events.put_nowait(item)
            if self.on_event:
                self.on_event(item)
            for listener in listeners:
                listener(item)
