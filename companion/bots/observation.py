"""What one seat knows when it must decide: the fairness boundary of every bot.

A bot never holds the game's state. :meth:`Observation.of` is the one place that touches it:
it keeps the seat's own :meth:`~companion.protocol.Game.player_view` and, instead of the state,
one *world* drawn from the seat's information set (the game's ``scramble`` redraws every
secret the seat may not see: the other players' dice, locks and favors). Every world the bot
searches is drawn again from that one (:meth:`Observation.world`), so what the bot decides is
a function of its view and its random numbers only. ``tests/bots/test_fairness.py`` checks it
the way the views are checked: scramble every other player's secrets, and the bot's choice
(with the same seed) does not change.

A game's own knowledge may reject worlds the view rules out (A New Don: a player who proved
"I have no 5" holds no 5; a revealed favor is among its owner's dice): :class:`Knowledge`'s
``consistent`` looks at a world only through the game's views.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games import AnyGame

World = Any  # a state of the game, drawn from a seat's information set (never the true one)
TRIES = 40  # worlds drawn before taking one that only nearly fits the view


@dataclass(frozen=True)
class Observation:
    """A seat's knowledge at one decision: its name, its view, and a world consistent with it.

    ``anchor`` is already a redrawn world, never the table's state; ``consistent`` is the
    game knowledge's test of a drawn world against ``view``.
    """

    game: AnyGame
    player: str
    view: dict[str, Any]
    anchor: World
    consistent: Callable[[World, dict[str, Any], str], bool]

    @classmethod
    def of(
        cls,
        game: AnyGame,
        state: Any,
        player: str,
        rng: random.Random,
        consistent: Callable[[World, dict[str, Any], str], bool] | None = None,
    ) -> Observation:
        """The observation of ``player`` in ``state``: the state itself is dropped here."""
        check = consistent or _always
        view = game.player_view(state, player)
        anchor = _draw(game, state, player, view, rng, check)
        return cls(game, player, view, anchor, check)

    def world(self, rng: random.Random) -> World:
        """A fresh world from the information set: every secret of the others drawn anew."""
        return _draw(self.game, self.anchor, self.player, self.view, rng, self.consistent)


def _always(world: World, view: dict[str, Any], player: str) -> bool:
    return True


def _draw(
    game: AnyGame,
    state: Any,
    player: str,
    view: dict[str, Any],
    rng: random.Random,
    consistent: Callable[[World, dict[str, Any], str], bool],
) -> World:
    world = game.scramble(state, player, rng)
    for _ in range(TRIES - 1):
        if consistent(world, view, player):
            return world
        world = game.scramble(state, player, rng)
    return world  # rare: the search discards any move such a world makes impossible
