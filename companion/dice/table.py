"""The dice on the table, wired to a game: readings in, durable game actions out.

The dice layer knows when a roll is complete; the table service knows what the game waits for.
This module joins them, and it lives in the dice layer because the dice depend on the table
service, never the other way round: the table service runs (and is tested) with no dice, no
Bluetooth and no web code loaded.

:class:`DiceBridge` ties one game to a :class:`DiceService`: after every durable event it tells
the dice what the game now awaits (passing the action just applied, as the hub asks), and it
submits every completed roll as the ``dice`` actor. Completed rolls go through a queue to one
worker thread: the dice may hand one over from any thread, even from inside the service's own
publishing.

:class:`TableDice` is the table's one set of dice (one physical table has one): a dice service
for the server's lifetime, with its sources (the mode's, and cameras and DIY dice added by
``companion serve``), following whichever game is being played.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.dice.hub import DiceEvent
from companion.dice.service import DiceService
from companion.dice.source import DiceSource
from companion.dice.sources import MODES, SourceKind, SourceSpec
from companion.table.service import Event, Refused, TableService

Action = Any  # a game's dice action (its roll_action)

log = logging.getLogger(__name__)


class DiceBridge:
    """Connects one game of a :class:`TableService` to a :class:`DiceService`.

    ``start(dice)`` starts the dice and attaches them (``stop`` undoes both); ``attach`` and
    ``detach`` alone leave the dice running, for a table whose dice move on to the next game.
    """

    def __init__(self, service: TableService, game_id: str) -> None:
        self.service = service
        self.game_id = game_id
        self.dice: DiceService | None = None
        self.refused: list[tuple[Action, Refused]] = []
        self._actions: queue.Queue[Action | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def offer(self, action: Action) -> None:
        """A completed roll from the dice layer (any thread)."""
        self._actions.put(action)

    def start(self, dice: DiceService) -> DiceBridge:
        dice.start()
        return self.attach(dice)

    def stop(self) -> None:
        self.detach()
        if self.dice is not None:
            self.dice.stop()

    def attach(self, dice: DiceService) -> DiceBridge:
        """The game's rolls now come off ``dice``."""
        self.dice = dice
        dice.hub.on_action = self.offer
        self._unsubscribe = self.service.subscribe(self._on_event, self.game_id)
        self._expect(self.service.game(self.game_id).state)
        self._worker = threading.Thread(target=self._run, name=f"dice-{self.game_id}", daemon=True)
        self._worker.start()
        return self

    def detach(self) -> None:
        """Stop listening to the game and submitting to it (a roll still queued is dropped)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.dice is not None and self.dice.hub.on_action == self.offer:
            self.dice.hub.on_action = None
        self._actions.put(None)
        if self._worker is not None:
            self._worker.join(5)

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
                    self.service.submit(self.game_id, action, actor="dice", expected_seq=game.seq)
                    break
                except Refused as exc:
                    if exc.code == "stale":
                        continue
                    log.warning(
                        "the dice said %s, which the game refused: %s", action.to_dict(), exc
                    )
                    self.refused.append((action, exc))
                    self._expect(self.service.game(self.game_id).state)
                    break


class TableDice:
    """The table's dice, following the game being played: one physical table has one set.

    ``mode`` is ``simulated`` (virtual dice roll for every family after ``roll_time``: the
    default with no hardware), ``phone`` (players tap their faces), or ``bluetooth`` (Pixels and
    GoDice on the Pi's radio); phone entry works in every mode, and ``sources`` (or
    :meth:`add_source` later) add cameras and DIY dice. The dice start at once and stay up
    for the server's life; ``follow(game_id)`` hands them to a game (the web app calls it when
    a game is created or resumed); ``stop()`` with the server.
    """

    MODES = tuple(MODES)

    def __init__(
        self,
        service: TableService,
        data_dir: Path | str,
        mode: str = "simulated",
        roll_time: float = 1.5,
        table: str = "default",
        sources: Iterable[SourceSpec | str] = (),
        **dice_options: Any,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"dice mode {mode!r}: choose one of {', '.join(MODES)}")
        self.service = service
        self.mode = mode
        self.table = table
        specs = [
            SourceSpec(k, {"roll_time": roll_time}) if k == SourceKind.SIMULATED else SourceSpec(k)
            for k in MODES[mode]
        ]
        self.dice = DiceService(data_dir, table=table, sources=[*specs, *sources], **dice_options)
        self.game_id: str | None = None
        self.bridge: DiceBridge | None = None
        self._lock = threading.Lock()
        self._listeners: list[Callable[[str, DiceEvent], None]] = []
        self.dice.hub.add_event_listener(self._on_dice_event)
        self.dice.start()

    def add_source(self, spec: SourceSpec | str | DiceSource) -> DiceSource:
        """Another source for the table's dice (a camera, a DIY die), started now. Raises
        :class:`~companion.dice.sources.SourceError` with a sentence if it cannot be built."""
        return self.dice.add(spec)

    def add_event_listener(self, listener: Callable[[str, DiceEvent], None]) -> None:
        """Hand every dice event of every followed game to ``listener(game_id, event)``.

        The web app shows RollWanted/DieCounted/DiceProblem on the roller's phone. The listener
        runs on the dice thread, sometimes inside the table service's publishing: keep it quick.
        """
        self._listeners.append(listener)

    def _on_dice_event(self, event: DiceEvent) -> None:
        game_id = self.game_id
        if game_id is None:
            return
        for listener in list(self._listeners):
            try:
                listener(game_id, event)
            except Exception:  # a screen's bug must not stop the dice
                log.exception("dice event listener failed")

    def follow(self, game_id: str) -> DiceBridge:
        """Give the dice to ``game_id`` (a no-op if they already follow it)."""
        with self._lock:
            if self.bridge is not None and self.game_id == game_id:
                return self.bridge
            if self.bridge is not None:
                self.bridge.detach()
            game = self.service.game(game_id)
            self.game_id = game_id  # before the new game's first RollWanted
            self.dice.new_game(game.rules.dice_sets(game.state))
            self.bridge = DiceBridge(self.service, game_id).attach(self.dice)
            return self.bridge

    def enter(self, game_id: str, player: str, faces: list[int]) -> None:
        """A player's tapped faces (raises ``PhoneEntryError`` with a sentence for the phone)."""
        self.follow(game_id)
        self.dice.enter(player, faces)

    def void(self, game_id: str, player: str) -> bool:
        """Start ``player``'s roll in ``game_id`` again, throwing away what the dice counted
        of it so far; False if they have no roll in progress (or the dice follow another
        game)."""
        if self.game_id != game_id:
            return False
        return self.dice.void(player)

    def stop(self) -> None:
        with self._lock:
            if self.bridge is not None:
                self.bridge.detach()
            self.bridge = self.game_id = None
        self.dice.stop()
