"""Random legal games: for ``companion simulate``, the property tests and the benchmarks.

The engine never rolls dice; this module plays the dice and every player from a
``random.Random`` it is given, choosing only among ``legal_actions`` so every game it writes
is legal by construction (and the property tests check that the engine agrees).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from companion.boards import board_for_players
from companion.engine import (
    Action,
    Claim,
    GodfatherRoll,
    MuscleOut,
    Pass,
    Roll,
    Seat,
    Setup,
    State,
    UseFavor,
    VegasRoll,
    apply,
    game_end_reason,
    legal_actions,
    new_game,
    waiting_for,
)
from companion.engine.rules import HouseRules

NAMES = ("Maria", "Johnny", "Claire", "Vincent", "Sonny", "Kay")
COLOURS = ("red", "blue", "green", "yellow", "black", "white")
MAX_ACTIONS = 20_000  # a safety net: random games end in a few hundred actions


def random_setup(players: int, rules: HouseRules | None = None) -> Setup:
    seats = tuple(Seat(NAMES[i], COLOURS[i]) for i in range(players))
    return Setup(seats, "3-4" if players <= 4 else "5-6", rules or HouseRules())


def choose(state: State, rng: random.Random) -> Action:
    """One random next action: a dice result where dice are awaited, else a legal choice."""
    w = rng.choice(waiting_for(state))
    if w.does == "godfather_roll":
        return GodfatherRoll(w.player, rng.randint(1, 6))
    if w.does == "vegas_roll":
        return VegasRoll(w.player, tuple(rng.randint(1, 6) for _ in range(w.dice)))
    if w.does == "roll":
        return Roll(w.player, tuple(rng.randint(1, 6) for _ in range(w.dice)))
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


def play(
    rng: random.Random, players: int, rules: HouseRules | None = None
) -> Iterator[tuple[State, Action, State]]:
    """Play one random game, yielding (before, action, after) for every action."""
    setup = random_setup(players, rules)
    state = new_game(setup, board_for_players(players))
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return
        action = choose(state, rng)
        after = apply(state, action)
        yield state, action, after
        state = after
    raise RuntimeError(f"a random game did not end within {MAX_ACTIONS} actions")


def simulate(players: int, seed: int, rules: HouseRules | None = None) -> list[dict]:
    """A whole random legal game as a record: the setup line, then one dict per action."""
    rng = random.Random(seed)
    record = [random_setup(players, rules).to_dict()]
    record += [action.to_dict() for _, action, _ in play(rng, players, rules)]
    return record


def simulate_text(players: int, seed: int, rules: HouseRules | None = None) -> tuple[str, int]:
    """A random game as record text, with ``#`` comments marking each round and phase so a
    person can find their way in it; also the number of actions."""
    setup = random_setup(players, rules)
    lines = [
        f"# A random legal {players}-player game: companion simulate --players {players} "
        f"--seed {seed}",
        json.dumps(setup.to_dict(), separators=(", ", ": ")),
        "# Setup: roll for the first Godfather",
    ]
    count = 0
    for before, action, after in play(random.Random(seed), players, rules):
        lines.append(json.dumps(action.to_dict(), separators=(", ", ": ")))
        count += 1
        if after.is_over:
            lines.append(f"# Game over: {game_end_reason(after)}")
        elif after.round != before.round or after.phase is not before.phase:
            lines.append(f"# Round {after.round}: {after.phase.value} "
                         f"(Godfather: {after.name(after.godfather)})")
    return "\n".join(lines) + "\n", count
