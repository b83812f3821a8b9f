"""A random next move, the way a table might play it: for ``companion simulate``, the property
tests, the benchmarks and the bots' opponents. The randomness comes in as a parameter."""

from __future__ import annotations

import random

from companion.games.new_don.actions import (
    Action,
    Claim,
    GodfatherRoll,
    MuscleOut,
    Pass,
    Roll,
    UseFavor,
    VegasRoll,
)
from companion.games.new_don.legal import legal_actions, waiting_for
from companion.games.new_don.state import State


def random_action(state: State, rng: random.Random) -> Action:
    """One random next action: a dice result where dice are awaited, else a legal choice."""
    w = rng.choice(waiting_for(state))
    if w.does == "godfather_roll":
        return GodfatherRoll(w.player, rng.randint(1, 6))
    if w.does == "vegas_roll":
        assert w.dice is not None
        return VegasRoll(w.player, tuple(rng.randint(1, 6) for _ in range(w.dice.count)))
    if w.does == "roll":
        assert w.dice is not None
        return Roll(w.player, tuple(rng.randint(1, 6) for _ in range(w.dice.count)))
    options = legal_actions(state, w.player)
    if w.does == "resolve":
        # Lean towards sets, the way people play, so games end in a sensible number of rounds.
        sets = [a for a in options if isinstance(a, Claim | MuscleOut)]
        if sets and rng.random() < 0.8:
            return rng.choice(sets)
        others = [a for a in options if not isinstance(a, Pass)]
        favors = [a for a in others if isinstance(a, UseFavor)]
        if favors and rng.random() < 0.3:
            return rng.choice(favors)
        if others and rng.random() < 0.5:
            return rng.choice(others)
        return Pass(w.player)
    if w.does == "reroll" and rng.random() < 0.4:
        return Pass(w.player)
    return rng.choice(options)
