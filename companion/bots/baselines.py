"""The players bots are measured against: random, and greedy (the best immediate claim).

Both decide from an :class:`~companion.bots.observation.Observation`, as the bots do. Random
plays the game's own ``random_action`` (for A New Don it leans towards sets, the way
``companion simulate`` plays); greedy plays the move that raises its own score as it stands the
most, and otherwise plays as random does.
"""

from __future__ import annotations

import random

from companion.bots.knowledge import random_choice
from companion.bots.observation import Observation
from companion.protocol import Action, MalformedAction, RuleViolation


def random_player(obs: Observation, rng: random.Random) -> Action:
    return random_choice(obs.game, obs.anchor, obs.player, rng)


def greedy_player(obs: Observation, rng: random.Random) -> Action:
    """The move that scores most now; among equals, random's move if it is one of them."""
    game, world, me = obs.game, obs.anchor, obs.player
    legal: list[Action] = game.legal_actions(world, me)
    if len(legal) == 1:
        return legal[0]
    now = float(game.score(world)["totals"].get(me, 0))
    best: list[Action] = []
    top = 0.0
    for action in legal:
        try:
            after = game.apply(world, action)
        except (RuleViolation, MalformedAction, AssertionError):
            continue  # a move whose outcome hangs on a secret its world drew otherwise
        gain = float(game.score(after)["totals"].get(me, 0)) - now
        if gain > top:
            best, top = [action], gain
        elif gain == top and top > 0:
            best.append(action)
    if best:
        return rng.choice(best)
    return random_choice(game, world, me, rng)
