"""A bot player: a level (how hard it thinks), the game's knowledge, and the search.

:meth:`Bot.choose` takes an :class:`~companion.bots.observation.Observation`, what one seat
knows, never a game's state: a bot plays from its own view only. The platform makes the
observation (``Observation.of``) and submits the move as the bot's seat.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from enum import StrEnum

from companion.bots.knowledge import Generic, Knowledge
from companion.bots.new_don import NewDonKnowledge
from companion.bots.observation import Observation
from companion.bots.search import Budget, Node, Result, search
from companion.games import AnyGame
from companion.protocol import Action


class LevelName(StrEnum):
    EASY = "easy"
    STANDARD = "standard"


@dataclass(frozen=True, slots=True)
class Level:
    """How hard a bot thinks: search iterations per move and a time cap (0: no search, the
    knowledge's quick policy alone)."""

    name: LevelName
    iterations: int
    seconds: float
    text: str


LEVELS: dict[str, Level] = {
    LevelName.EASY: Level(
        LevelName.EASY, 0, 0.0, "plays by rules of thumb, at once: a gentle opponent"
    ),
    LevelName.STANDARD: Level(
        LevelName.STANDARD, 60, 0.2, "searches 60 worlds a move, for at most 0.2 s: the strongest"
    ),
}
# Levels an older companion offered, and the level that plays their seats now. "strong"
# searched 180 worlds a move and was measured no stronger than "standard" (docs/bots.md).
RETIRED_LEVELS: dict[str, LevelName] = {"strong": LevelName.STANDARD}
DEFAULT_LEVEL = LevelName.STANDARD
MAX_SECONDS = 10.0  # the most a host may let a bot think about one move


def knowledge_for(game: AnyGame) -> Knowledge:
    """The game's own playing knowledge, or what every game has through the protocol."""
    if game.id == "new-don":
        return NewDonKnowledge(game)
    return Generic(game)


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's move, with how long it thought and what its search saw."""

    action: Action
    seconds: float
    result: Result | None = None


class Bot:
    """One bot player of one game at one level; ``seconds`` overrides the level's time cap
    (the host's time budget per move), ``iterations`` its iteration cap (the benchmarks fix
    it so a game plays the same on any machine)."""

    def __init__(
        self,
        game: AnyGame,
        level: str = DEFAULT_LEVEL,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        knowledge: Knowledge | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level {level!r}: choose one of {', '.join(LEVELS)}")
        self.game = game
        self.level = LEVELS[level]
        self.knowledge = knowledge or knowledge_for(game)
        self.iterations = self.level.iterations if iterations is None else iterations
        cap = self.level.seconds if seconds is None else seconds
        self.seconds: float | None = min(cap, MAX_SECONDS) if cap > 0 else None
        # The tree under the last move, for the same player's very next move.
        self._carry: tuple[tuple[str, int], Node] | None = None

    def observe(self, state: object, player: str, rng: random.Random) -> Observation:
        """What ``player`` knows in ``state`` (the state is dropped there)."""
        return Observation.of(self.game, state, player, rng, self.knowledge.consistent)

    def choose(self, obs: Observation, rng: random.Random) -> Decision:
        """The move for ``obs.player``, from what it knows and ``rng`` alone."""
        start = time.perf_counter()
        if self.iterations <= 0:
            action = self.knowledge.policy(obs.anchor, obs.player, rng)
            return Decision(action, time.perf_counter() - start)
        moves = obs.view.get("moves")
        here = (obs.player, moves) if isinstance(moves, int) else None
        root = self._carry[1] if self._carry is not None and self._carry[0] == here else None
        result = search(obs, self.knowledge, Budget(self.iterations, self.seconds), rng, root=root)
        self._carry = None
        if here is not None and result.next_root is not None:
            self._carry = ((obs.player, here[1] + 1), result.next_root)
        return Decision(result.action, time.perf_counter() - start, result)
