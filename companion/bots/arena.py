"""Whole games with some seats played by bots (or baselines): for ``companion simulate --bots``
and ``demo --bots``, the tests and the benchmarks.

The arena rolls every die and draws every shuffle from its own ``random.Random`` (chance is
the table's, not a player's) and asks each seat's player for its choices through an
:class:`~companion.bots.observation.Observation` of the game as it stands, so a seated bot
never sees more than its seat would. A seat with no player is played by the game's own
``random_action``, as ``companion simulate`` plays.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.bots.bot import Bot
from companion.bots.knowledge import Knowledge, random_choice
from companion.bots.observation import Observation
from companion.gamefiles import GameFiles
from companion.games import AnyGame, game_of_setup
from companion.protocol import Action

Chooser = Callable[[Observation, random.Random], Action]
MAX_ACTIONS = 20_000


@dataclass
class Seat:
    """Who plays one seat: a bot, or a baseline's chooser (with the knowledge that checks
    its worlds, if any)."""

    choose: Chooser
    knowledge: Knowledge | None = None
    label: str = ""
    seconds: list[float] = field(default_factory=list)  # CPU time per decision


def bot_seat(bot: Bot) -> Seat:
    return Seat(lambda obs, rng: bot.choose(obs, rng).action, bot.knowledge, bot.level.name)


@dataclass(frozen=True, slots=True)
class Step:
    before: Any
    action: Action
    after: Any
    seat: str | None = None  # the label of whoever chose it (None: dice or random_action)


def start(setup: dict[str, Any]) -> tuple[AnyGame, Any]:
    game = game_of_setup(setup)
    return game, game.new_game(game.setup_from_dict(setup), GameFiles(game))


def play(setup: dict[str, Any], seats: Mapping[str, Seat], seed: int) -> Iterator[Step]:
    """Play one game from ``setup``: ``seats`` maps player names to their players."""
    game, state = start(setup)
    dice = random.Random(seed)
    rngs = {name: random.Random(f"{seed}:{name}") for name in seats}
    for _ in range(MAX_ACTIONS):
        if game.is_over(state):
            return
        action, label = _next(game, state, seats, rngs, dice)
        after = game.apply(state, action)
        yield Step(state, action, after, label)
        state = after
    raise RuntimeError(f"a game did not end within {MAX_ACTIONS} actions")


def _next(
    game: AnyGame,
    state: Any,
    seats: Mapping[str, Seat],
    rngs: dict[str, random.Random],
    dice: random.Random,
) -> tuple[Action, str | None]:
    chance = game.chance_action(state, dice)  # a shuffle: the table draws it
    if chance is not None:
        return chance, None
    waits = game.waiting_for(state)
    roll = next((w for w in waits if w.dice is not None), None)
    if roll is not None:
        assert roll.dice is not None
        faces = tuple(dice.choice(roll.dice.faces) for _ in range(roll.dice.count))
        return game.roll_action(roll, faces), None
    player = waits[0].player
    seat = seats.get(player)
    if seat is None:
        return random_choice(game, state, player, dice), None
    rng = rngs[player]
    began = time.thread_time()  # the CPU time of this thread: the figure a busy machine keeps
    consistent = seat.knowledge.consistent if seat.knowledge is not None else None
    obs = Observation.of(game, state, player, rng, consistent)
    action = seat.choose(obs, rng)
    if len(game.legal_actions(state, player)) > 1:  # a move with a choice to think about
        seat.seconds.append(time.thread_time() - began)
    return action, seat.label
