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
import threading

from companion.dice.service import DiceService
from companion.engine import Action
from companion.table.service import Event, Refused, TableService

log = logging.getLogger(__name__)


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
        dice.expect(self.service.game(self.game_id).state)
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

    def _on_event(self, event: Event) -> None:
        # Undo and corrections change the state without an action: the hub re-reads it.
        assert self.dice is not None
        self.dice.expect(event.state, applied=event.action)

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
                    assert self.dice is not None
                    self.dice.expect(self.service.game(self.game_id).state)
                    break
