"""The dice on the table, wired to a game: readings in, durable engine actions out.

The dice layer (``companion.dice``) knows when a roll is complete; the table service knows what
the game waits for. The bridge tells the dice layer after every durable event what the game now
awaits (passing the action just applied, as the dice layer asks), and submits every completed
roll as the ``dice`` actor. Completed rolls go through a queue to one worker thread: the dice
layer may hand one over from any thread, even from inside the service's own publishing.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from companion.dice.assignment import DieRef
from companion.dice.hub import DiceEvent
from companion.dice.reading import DieReading, DieState
from companion.dice.service import DiceService
from companion.table.service import Event, Refused, TableService

Action = Any  # a game's dice action (its roll_action)

log = logging.getLogger(__name__)

# Simulated mode's stand-ins for smart dice nobody has paired yet: the pairing page rolls them
# so "roll your five dice now" can be tried (and tested) with no hardware. Not "sim": the
# pairing ignores the game's own simulated dice, which are assigned afresh at every start.
VIRTUAL_SOURCE = "virtual"


class DiceBridge:
    """Connects one game of a :class:`TableService` to a :class:`DiceService`.

    Build the dice service with ``on_action=bridge.offer``, then ``bridge.start(dice)``.
    """

    def __init__(self, service: TableService, game_id: str) -> None:
        self.service = service
        self.game_id = game_id
        self.dice: DiceService | None = None
        self.refused: list[tuple[Action, Refused]] = []
        self._actions: queue.Queue[Action | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._unsubscribe = None

    def offer(self, action: Action) -> None:
        """A completed roll from the dice layer (any thread)."""
        self._actions.put(action)

    def start(self, dice: DiceService) -> DiceBridge:
        self.dice = dice
        self._unsubscribe = self.service.subscribe(self._on_event, self.game_id)
        dice.start()
        self._expect(self.service.game(self.game_id).state)
        self._worker = threading.Thread(target=self._run, name=f"dice-{self.game_id}",
                                        daemon=True)
        self._worker.start()
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._actions.put(None)
        if self._worker is not None:
            self._worker.join(5)
        if self.dice is not None:
            self.dice.stop()

    def _expect(self, state: Any, applied: Action | None = None) -> None:
        assert self.dice is not None
        game = self.service.game(self.game_id)
        self.dice.expect(game.rules, game.setup.seats, state, applied)

    def _on_event(self, event: Event) -> None:
        # Undo and corrections change the state without an action: the hub re-reads it.
        self._expect(event.state, applied=event.action)

    def _run(self) -> None:
        while (action := self._actions.get()) is not None:
            for _ in range(3):  # a phone may have acted between reading the seq and submitting
                game = self.service.game(self.game_id)
                try:
                    self.service.submit(self.game_id, action, actor="dice",
                                        expected_seq=game.seq)
                    break
                except Refused as exc:
                    if exc.code == "stale":
                        continue
                    log.warning("the dice said %s, which the game refused: %s",
                                action.to_dict(), exc)
                    self.refused.append((action, exc))
                    self._expect(self.service.game(self.game_id).state)
                    break


class TableDice:
    """The table's dice, following the game being played: one physical table has one set.

    ``mode`` is ``simulated`` (virtual dice roll for every family after ``roll_time``: the
    default with no hardware), ``phone`` (players tap their faces), or ``bluetooth`` (Pixels and
    GoDice on the Pi's radio). Phone entry works in every mode. ``follow(game_id)`` hands the
    dice to a game (the web app calls it when a game is created or resumed); ``stop()`` with
    the server.
    """

    MODES = ("simulated", "phone", "bluetooth")

    def __init__(self, service: TableService, data_dir, mode: str = "simulated",
                 roll_time: float = 1.5, table: str = "default", **dice_options) -> None:
        if mode not in self.MODES:
            raise ValueError(f"dice mode {mode!r}: choose one of {', '.join(self.MODES)}")
        self.service = service
        self.data_dir = data_dir
        self.mode = mode
        self.roll_time = roll_time
        self.table = table
        self.dice_options = dice_options
        self.game_id: str | None = None
        self.bridge: DiceBridge | None = None
        self._lock = threading.Lock()
        self._listeners: list[Callable[[str, DiceEvent], None]] = []
        self._virtual_rolls: dict[str, int] = {}
        self._feeds: list[threading.Thread] = []
        self._stopping = threading.Event()

    def add_event_listener(self, listener: Callable[[str, DiceEvent], None]) -> None:
        """Hand every dice event of every followed game to ``listener(game_id, event)``.

        The web app shows RollWanted/DieCounted/DiceProblem on the roller's phone. The listener
        runs on the dice thread, sometimes inside the table service's publishing: keep it quick.
        """
        self._listeners.append(listener)

    def _emit(self, game_id: str, event: DiceEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, event)
            except Exception:  # a screen's bug must not stop the dice
                log.exception("dice event listener failed")

    def roll_virtual(self, owner: str, count: int) -> list[DieRef]:
        """Simulated mode only: roll ``count`` virtual smart dice that are free or already
        ``owner``'s, as if the family picked up their dice for a pairing. They land after
        ``roll_time`` like the game's simulated dice."""
        bridge = self.bridge
        if self.mode != "simulated" or bridge is None or bridge.dice is None:
            return []
        hub = bridge.dice.hub
        chosen: list[DieRef] = []
        n = 0
        while len(chosen) < count:
            n += 1
            ref = DieRef(VIRTUAL_SOURCE, f"die-{n:02d}")
            if hub.assignment.owner(ref) in (None, owner):
                chosen.append(ref)
        for ref in chosen:
            hub.feed(DieReading(VIRTUAL_SOURCE, ref.die_id, DieState.ROLLING,
                                roll=self._virtual_rolls.get(ref.die_id, 0)))

        def land() -> None:
            for ref in chosen:
                self._virtual_rolls[ref.die_id] = self._virtual_rolls.get(ref.die_id, 0) + 1
                hub.feed(DieReading(VIRTUAL_SOURCE, ref.die_id, DieState.SETTLED,
                                    face=random.randint(1, 6),
                                    roll=self._virtual_rolls[ref.die_id], battery=1.0))

        timer = threading.Timer(self.roll_time, land)
        timer.daemon = True
        timer.start()
        return chosen

    def add_feed(self, name: str, readings: Iterable[DieReading]) -> threading.Thread:
        """Pump a source's readings (a camera, a DIY die's serial port) into the dice of
        whichever game is being played, from a thread of its own. The source says whose dice
        they are: a camera by its owner in its name, a DIY die by the pairing."""

        def pump() -> None:
            try:
                for reading in readings:
                    if self._stopping.is_set():
                        return
                    bridge = self.bridge
                    if bridge is not None and bridge.dice is not None:
                        bridge.dice.hub.feed(reading)
            except Exception:  # a broken camera or cable is logged, and the table plays on
                log.exception("dice source %s stopped", name)

        thread = threading.Thread(target=pump, name=f"dice-feed-{name}", daemon=True)
        thread.start()
        self._feeds.append(thread)
        return thread

    def follow(self, game_id: str) -> DiceBridge:
        """Give the dice to ``game_id`` (a no-op if they already follow it)."""
        with self._lock:
            if self.bridge is not None and self.game_id == game_id:
                return self.bridge
            if self.bridge is not None:
                self.bridge.stop()
            game = self.service.game(game_id)
            bridge = DiceBridge(self.service, game_id)
            dice = DiceService(
                self.data_dir, table=self.table, on_action=bridge.offer,
                bluetooth=self.mode == "bluetooth",
                simulate=game.rules.dice_sets(game.state) if self.mode == "simulated" else (),
                roll_time=self.roll_time, **self.dice_options,
            )
            # Before start: the first RollWanted comes from start's own expect().
            dice.hub.add_event_listener(partial(self._emit, game_id))
            self.bridge, self.game_id = bridge.start(dice), game_id
            return bridge

    def enter(self, game_id: str, player: str, faces: list[int]) -> None:
        """A player's tapped faces (raises ``PhoneEntryError`` with a sentence for the phone)."""
        bridge = self.follow(game_id)
        assert bridge.dice is not None
        bridge.dice.enter(player, faces)

    def stop(self) -> None:
        self._stopping.set()
        with self._lock:
            if self.bridge is not None:
                self.bridge.stop()
            self.bridge = self.game_id = None
