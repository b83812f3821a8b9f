"""Chance and random play, the way a table might play: for ``companion simulate`` and ``demo``,
the property tests and the benchmarks. The randomness comes in as a parameter; the engine stays
pure."""

from __future__ import annotations

import random

from companion.games.gangster_dice.actions import Action, Roll, Shuffle
from companion.games.gangster_dice.legal import chance_due, legal_actions, waiting_for
from companion.games.gangster_dice.state import State


def chance_action(state: State, rng: random.Random) -> Shuffle | None:
    """The chance the game waits for that no player makes (a shuffle of the cards waiting for
    one), drawn from ``rng``; None when it waits for none."""
    if chance_due(state) != "shuffle":
        return None
    order = list(state.to_shuffle)
    rng.shuffle(order)
    return Shuffle(tuple(order))


def random_roll(state: State, player: str, rng: random.Random) -> Roll:
    """Every die of ``player``'s stash rolled: a face number 1-6 each."""
    stash = state.players[state.seat(player)].stash
    return Roll(player, tuple((c, rng.randint(1, 6)) for c in stash.listed()))


def random_action(state: State, rng: random.Random) -> Action:
    """One random next action: chance where chance is awaited, dice where dice are, else one
    of a waiting player's legal choices."""
    chance = chance_action(state, rng)
    if chance is not None:
        return chance
    w = rng.choice(waiting_for(state))
    if w.dice is not None:
        return random_roll(state, w.player, rng)
    return rng.choice(legal_actions(state, w.player))
