"""Random legal games: for ``companion simulate`` and ``demo``, the property tests and the
benchmarks.

A game never rolls dice; this module plays the dice and every player with the game's own
``random_action`` from a ``random.Random`` it is given, so every game it writes is legal by
construction (and the property tests check that the game agrees).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from typing import Any

from companion.bots import DEFAULT_LEVEL, Bot, arena
from companion.bots.arena import Seat, bot_seat
from companion.gamefiles import GameFiles
from companion.games import DEFAULT, AnyGame, game
from companion.protocol import options_to_dict

NAMES = ("Maria", "Johnny", "Claire", "Vincent", "Sonny", "Kay", "Tom", "Fredo")
COLOURS = ("red", "blue", "green", "yellow", "black", "white", "purple", "orange")
MAX_ACTIONS = 20_000  # a safety net: random games end in a few hundred actions


def random_setup(players: int, rules: Any = None, game_id: str = DEFAULT) -> dict[str, Any]:
    """A setup line for ``players`` players (named and coloured in seat order)."""
    setup: dict[str, Any] = {
        "type": "setup",
        "game": game_id,
        "players": [{"name": NAMES[i], "colour": COLOURS[i]} for i in range(players)],
    }
    if rules is not None and options_to_dict(rules):
        setup["options"] = options_to_dict(rules)
    return setup


def play(
    rng: random.Random, players: int, rules: Any = None, game_id: str = DEFAULT
) -> Iterator[tuple[Any, Any, Any]]:
    """Play one random game, yielding (before, action, after) for every action."""
    rules_of = game(game_id)
    state = _start(rules_of, random_setup(players, rules, game_id))
    for _ in range(MAX_ACTIONS):
        if rules_of.is_over(state):
            return
        action = rules_of.random_action(state, rng)
        after = rules_of.apply(state, action)
        yield state, action, after
        state = after
    raise RuntimeError(f"a random game did not end within {MAX_ACTIONS} actions")


def _start(rules_of: AnyGame, setup: dict[str, Any]) -> Any:
    return rules_of.new_game(rules_of.setup_from_dict(setup), GameFiles(rules_of))


def simulate(
    players: int, seed: int, rules: Any = None, game_id: str = DEFAULT
) -> list[dict[str, Any]]:
    """A whole random legal game as a record: the setup line, then one dict per action."""
    rng = random.Random(seed)
    record = [game(game_id).setup_from_dict(random_setup(players, rules, game_id)).to_dict()]
    record += [action.to_dict() for _, action, _ in play(rng, players, rules, game_id)]
    return record


def bot_seats(
    players: int, bots: int, level: str | None = None, game_id: str = DEFAULT
) -> dict[str, Seat]:
    """Bots in the last ``bots`` of ``players`` seats, thinking a fixed number of iterations
    per move (no time cap), so the same seed plays the same game on any machine."""
    rules_of = game(game_id)
    return {
        NAMES[i]: bot_seat(Bot(rules_of, level or DEFAULT_LEVEL, seconds=0))
        for i in range(players - bots, players)
    }


def play_with_bots(
    seed: int, players: int, bots: int, level: str | None = None, game_id: str = DEFAULT
) -> Iterator[tuple[Any, Any, Any]]:
    """A game with bots in the last ``bots`` seats and random players in the others,
    yielding (before, action, after) as :func:`play` does."""
    seats = bot_seats(players, bots, level, game_id)
    for step in arena.play(random_setup(players, None, game_id), seats, seed):
        yield step.before, step.action, step.after


def simulate_text(
    players: int, seed: int, game_id: str = DEFAULT, bots: int = 0, level: str | None = None
) -> tuple[str, int]:
    """A random game as record text, with ``#`` notes at its start and end so a person can
    find their way in it; also the number of actions. ``bots`` seats bots (at ``level``) in
    the last seats: the record is the same kind of record, their moves like anyone's."""
    rules_of = game(game_id)
    setup = rules_of.setup_from_dict(random_setup(players, None, game_id))
    command = f"companion simulate --game {game_id} --players {players} --seed {seed}"
    lines = [f"# A random legal {players}-player game of {rules_of.name}: {command}"]
    steps: Iterable[tuple[Any, Any, Any]] = play(random.Random(seed), players, None, game_id)
    if bots:
        names = " and ".join(NAMES[players - bots : players])
        lines[0] += f" --bots {bots}" + (f" --level {level}" if level else "")
        lines.append(f"# Bots ({level or DEFAULT_LEVEL}) play {names}; the others play at random.")
        steps = play_with_bots(seed, players, bots, level, game_id)
    lines.append(json.dumps(setup.to_dict(), separators=(", ", ": ")))
    count = 0
    state = None
    for _, action, after in steps:
        lines.append(json.dumps(action.to_dict(), separators=(", ", ": ")))
        count += 1
        state = after
    if state is not None and rules_of.is_over(state):
        winners = " and ".join(rules_of.score(state)["winners"])
        lines.append(f"# Game over: {winners} won.")
    return "\n".join(lines) + "\n", count
