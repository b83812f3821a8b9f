"""The bots at the table: a worker that plays the bot seats' turns through the table service.

:class:`BotDriver` listens to every durable event of the :class:`TableService`; when a game
with bot seats waits for one of them it decides from that seat's view (an
:class:`~companion.bots.observation.Observation`: the state goes no further) and submits the
move as ``player:<bot>``, like a phone would, so the service checks it like anyone's. A roll
the game waits for from a bot whose dice the companion rolls is rolled here and submitted as
``dice:bot`` (unless the table's simulated dice roll for every seat anyway); a bot whose dice
someone rolls at the table waits for the table's dice (or the host page) like a person.

Each move's reason ("claims 4C: the last open neighborhood for a pair of 4s") is built from
the table's views only and handed to ``on_reason``: the web app shows it on every screen.
The driver runs on one thread: the service calls subscribers inside its lock, so the
listener only queues the game.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.bots.bot import Bot
from companion.bots.seating import BotDice, BotSeat, Seating
from companion.table.service import Event, Refused, TableService

log = logging.getLogger(__name__)
BOT_ACTOR = "dice:bot"  # who rolls a bot's virtual dice, as the log names it
RECENT = 20  # reasons kept per game for the host page
RETRIES = 3  # a move refused as stale (a phone acted first) is decided again


class BotDriver:
    """Plays every bot seat of ``service``'s games (the seats are kept in ``Seating``).

    ``table_rolls(game_id)`` says whether the table's own simulated dice roll for every seat
    of that game (then a bot's roll comes from them); ``on_reason(game_id, text)`` hears each
    bot move's public reason; ``pace`` is the least time between two bot moves of one game, so
    people can follow them on the table screen.
    """

    def __init__(
        self,
        service: TableService,
        data_dir: Path | str,
        *,
        table_rolls: Callable[[str], bool] | None = None,
        on_reason: Callable[[str, str], None] | None = None,
        pace: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        self.service = service
        self.seating = Seating(data_dir)
        self.table_rolls = table_rolls or (lambda game_id: False)
        self.on_reason = on_reason
        self.pace = pace
        self.rng = rng or random.Random()
        self.recent: dict[str, deque[dict[str, Any]]] = {}
        self._bots: dict[tuple[str, str], Bot] = {}
        self._last_move: dict[str, float] = {}
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._idle = threading.Event()
        self._idle.set()

    # --- running -------------------------------------------------------------------------

    def start(self) -> BotDriver:
        self._unsubscribe = self.service.subscribe(self._on_event)
        self._worker = threading.Thread(target=self._run, name="bots", daemon=True)
        self._worker.start()
        for game_id in self.seating.games():  # after a restart the bots sit down again
            self.poke(game_id)
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._queue.put(None)
        if self._worker is not None:
            self._worker.join(15)

    def poke(self, game_id: str) -> None:
        """Look at ``game_id`` again: a bot there may have something to do."""
        self._idle.clear()
        self._queue.put(game_id)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until no bot has anything left to do (for tests and the command line)."""
        return self._idle.wait(timeout)

    def _on_event(self, event: Event) -> None:
        # Inside the service's lock: only queue the game.
        if event.game_id in self.seating.games():
            self.poke(event.game_id)

    def _run(self) -> None:
        while (game_id := self._queue.get()) is not None:
            try:
                self._play(game_id)
            except Exception:  # one game's trouble must not stop the bots of the others
                log.exception("the bots of game %s could not move", game_id)
            if self._queue.empty():
                self._idle.set()

    # --- seats ---------------------------------------------------------------------------

    def seat(self, game_id: str, seat: BotSeat) -> None:
        self.seating.seat(game_id, seat)
        self.poke(game_id)

    def unseat(self, game_id: str, player: str) -> bool:
        return self.seating.unseat(game_id, player)

    def bots(self, game_id: str) -> dict[str, BotSeat]:
        return self.seating.bots(game_id)

    def reasons(self, game_id: str) -> list[dict[str, Any]]:
        return list(self.recent.get(game_id, ()))

    def _bot(self, game_id: str, seat: BotSeat) -> Bot:
        """One bot per seat and setting (its knowledge remembers what it has worked out)."""
        key = (game_id, f"{seat.player}/{seat.level}/{seat.budget}")
        bot = self._bots.get(key)
        if bot is None:
            game = self.service.game(game_id)
            bot = self._bots[key] = Bot(game.rules, seat.level, seconds=seat.budget)
        return bot

    # --- moving --------------------------------------------------------------------------

    def _play(self, game_id: str) -> None:
        """Make one bot move of ``game_id`` if one is due (the event it makes brings the
        game back here for the next)."""
        try:
            game = self.service.game(game_id)
        except Refused:
            return
        if not game.can_go_on:
            return
        seats = self.seating.bots(game_id)
        for wait in game.rules.waiting_for(game.state):
            seat = seats.get(wait.player)
            if seat is None:
                continue
            if wait.dice is not None:
                if seat.dice is BotDice.COMPANION and not self.table_rolls(game_id):
                    self._roll(
                        game_id, wait.player, wait.dice.count, wait.dice.faces, wait.dice.ask
                    )
                    return
                continue  # someone rolls for it at the table
            if game.rules.legal_actions(game.state, wait.player):
                self._move(game_id, seat)
                return

    def _roll(
        self, game_id: str, player: str, count: int, faces: tuple[int, ...], ask: str
    ) -> None:
        rolled = tuple(self.rng.choice(faces) for _ in range(count))
        try:
            self.service.submit_roll(game_id, player, rolled, actor=BOT_ACTOR, ask=ask)
        except Refused as exc:
            if exc.code != "stale":
                log.warning("the roll for bot %s in game %s was refused: %s", player, game_id, exc)

    def _move(self, game_id: str, seat: BotSeat) -> None:
        wait = self._last_move.get(game_id, 0.0) + self.pace - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        for _ in range(RETRIES):
            game = self.service.game(game_id)
            rules, state = game.rules, game.state
            if not game.can_go_on or not rules.legal_actions(state, seat.player):
                return
            bot = self._bot(game_id, seat)
            decision = bot.choose(bot.observe(state, seat.player, self.rng), self.rng)
            try:
                ack = self.service.submit(
                    game_id, decision.action, actor=f"player:{seat.player}", expected_seq=game.seq
                )
            except Refused as exc:
                if exc.code == "stale":
                    continue  # someone acted meanwhile: look again
                log.warning(
                    "bot %s's move %s in game %s was refused: %s",
                    seat.player,
                    decision.action.to_dict(),
                    game_id,
                    exc,
                )
                return
            self._last_move[game_id] = time.monotonic()
            self._tell(
                game_id, seat.player, rules, state, decision.action, ack.state, decision.seconds
            )
            return

    def _tell(
        self,
        game_id: str,
        player: str,
        rules: Any,
        before: Any,
        action: Any,
        after: Any,
        seconds: float,
    ) -> None:
        """The move's reason, from the table's views only, to the host page and the screens."""
        bot = next((b for (g, _), b in self._bots.items() if g == game_id), None)
        reason = None
        if bot is not None:
            reason = bot.knowledge.reason(
                rules.table_data(before),
                rules.player_view(before, None),
                rules.action_view(before, action, None),
                rules.player_view(after, None),
            )
        line = {
            "player": player,
            "type": action.TYPE,
            "reason": reason,
            "ms": round(seconds * 1000, 1),
        }
        self.recent.setdefault(game_id, deque(maxlen=RECENT)).append(line)
        if reason and self.on_reason is not None:
            self.on_reason(game_id, f"{player} (bot) {reason}.")
