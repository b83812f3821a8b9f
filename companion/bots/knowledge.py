"""What a bot knows of one game besides its rules: how to play fast, and what a position is worth.

The search (:mod:`companion.bots.search`) plays any game through the protocol alone; a game's
:class:`Knowledge` makes it strong. :class:`Generic` is the knowledge every game has for free:
its own ``random_action`` as the policy, and the score as it stands as the value, which is
enough to play legally and better than at random. A New Don's is in
:mod:`companion.bots.new_don`. Knowledge sees worlds only through the protocol (views, legal
actions, scores), never a game's internals, so it cannot lean on an engine's secrets.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from companion.bots.observation import World
from companion.games import AnyGame
from companion.protocol import Action


class Horizon(Protocol):
    """Where one search iteration stops playing and asks for a value."""

    def done(self, world: World, steps: int, last: Action, leaf: bool) -> bool:
        """Whether to stop in ``world``, reached in ``steps`` actions, the last ``last``;
        ``leaf``: the search has left its tree (the policy plays from here)."""
        ...


class Knowledge(Protocol):
    """A game's playing knowledge, all of it through the protocol."""

    def consistent(self, world: World, view: dict[str, Any], player: str) -> bool:
        """Whether ``world`` fits everything ``view`` tells ``player``."""
        ...

    def candidates(self, world: World, player: str, legal: Sequence[Action]) -> list[Action]:
        """The moves worth searching, best first (a subset of ``legal``, never empty)."""
        ...

    def policy(self, world: World, player: str, rng: random.Random) -> Action:
        """A quick, reasonable move for ``player`` from their own view of ``world``."""
        ...

    def horizon(self, game: AnyGame, view: dict[str, Any], player: str) -> Horizon:
        """How far an iteration plays, from the decision ``player`` sees in ``view``, before
        the world it reached is valued (a new one for each iteration)."""
        ...

    def effort(self, view: dict[str, Any], player: str) -> float:
        """The share of a level's iterations this decision is worth (its iterations may
        cost more than most, or matter less)."""
        ...

    def reward(self, world: World, player: str) -> float:
        """How good ``world`` is for ``player``, in [0, 1] (a share of the chance to win)."""
        ...

    def reason(
        self,
        board: dict[str, Any],
        before: dict[str, Any],
        action: dict[str, Any],
        after: dict[str, Any],
    ) -> str | None:
        """A short public reason for a move, from the printed board (``table_data``), the
        table's views before and after it and the table's view of the move only (so it can
        name no hidden die), or None."""
        ...


def _key(action: Action) -> Hashable:
    """One key per distinct move (its record line): actions need not be hashable."""
    return json.dumps(action.to_dict(), sort_keys=True, separators=(",", ":"))


def random_choice(
    game: AnyGame, world: World, player: str, rng: random.Random, tries: int = 30
) -> Action:
    """The game's own ``random_action`` for ``player`` (it picks whoever the game waits
    for: asked again until it is ``player``'s choice), else a uniform legal choice."""
    for _ in range(tries):
        action: Action = game.random_action(world, rng)
        if action.player == player and not game.is_roll(action) and not game.is_chance(action):
            return action
    chosen: Action = rng.choice(game.legal_actions(world, player))
    return chosen


def share(values: dict[str, float], player: str, temperature: float) -> float:
    """``player``'s share of a softmax over everyone's values: a smooth chance to win."""
    top = max(values.values())
    weights = {p: math.exp((v - top) / temperature) for p, v in values.items()}
    return weights[player] / sum(weights.values())


PROPOSALS = 32  # random_action's proposals that make the generic bot's candidate moves


class StepsHorizon:
    """Play a fixed number of actions (or to the game's end)."""

    def __init__(self, steps: int) -> None:
        self.steps = steps

    def done(self, world: World, steps: int, last: Action, leaf: bool) -> bool:
        return steps >= self.steps


class Generic:
    """Knowledge any game has through the protocol: play by ``random_action``, value by the
    score as it stands (whom it beats, and by how much), search the moves ``random_action``
    proposes."""

    def __init__(self, game: AnyGame, steps: int = 40) -> None:
        self.game = game
        self.steps = steps

    def consistent(self, world: World, view: dict[str, Any], player: str) -> bool:
        return True

    def candidates(self, world: World, player: str, legal: Sequence[Action]) -> list[Action]:
        """The moves the game's own ``random_action`` proposes here, most often first (else
        every legal move). A random playout always ends a game, while a legal move may lead
        nowhere: Ca$h 'n Guns lets a gun be re-aimed as often as one likes, and a search that
        sees no gain in either move could re-aim for ever."""
        counts: dict[Hashable, int] = {}
        moves: dict[Hashable, Action] = {}
        allowed = {_key(a) for a in legal}
        rng = random.Random(len(legal))  # the same moves from the same world: no rng is fair
        for _ in range(PROPOSALS):
            action: Action = self.game.random_action(world, rng)
            key = _key(action)
            if action.player == player and key in allowed:
                counts[key] = counts.get(key, 0) + 1
                moves[key] = action
        if not moves:
            return list(legal)
        return [moves[k] for k in sorted(moves, key=lambda k: -counts[k])]

    def policy(self, world: World, player: str, rng: random.Random) -> Action:
        return random_choice(self.game, world, player, rng)

    def horizon(self, game: AnyGame, view: dict[str, Any], player: str) -> Horizon:
        return StepsHorizon(self.steps)

    def effort(self, view: dict[str, Any], player: str) -> float:
        return 1.0

    def reward(self, world: World, player: str) -> float:
        """Mostly the share of rivals outscored (scores may be points or dollars: a rank is
        the same either way), a little the score itself against the best."""
        totals = self.game.score(world).get("totals", {})
        values = {str(p): float(v) for p, v in totals.items()}
        if player not in values or len(values) < 2:
            return 0.5
        mine = values[player]
        others = [v for p, v in values.items() if p != player]
        beaten = sum(1.0 if mine > v else 0.5 if mine == v else 0.0 for v in others)
        scale = max(abs(v) for v in values.values()) or 1.0
        return 0.8 * beaten / len(others) + 0.2 * (0.5 + 0.5 * (mine - max(others)) / scale)

    def reason(
        self,
        board: dict[str, Any],
        before: dict[str, Any],
        action: dict[str, Any],
        after: dict[str, Any],
    ) -> str | None:
        return None
