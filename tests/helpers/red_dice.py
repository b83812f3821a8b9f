"""Two players rolling red dice at once, on a test server: the table's "whose red die is this?"
(web tests import this module)."""

from __future__ import annotations

import random

from companion.dice.assignment import DieRef
from companion.dice.reading import DieReading, DieState
from companion.dice.service import DiceService
from companion.games.new_don import apply, waiting_for
from companion.games.new_don.legal import VEGAS
from companion.games.new_don.playout import random_action

SEATS = [
    {"name": "Maria", "colour": "red"},
    {"name": "Johnny", "colour": "blue"},
    {"name": "Claire", "colour": "green"},
]
SEED = 19  # seeded legal play that reaches such a roll after 95 moves


def red_rollers(state) -> set[str]:
    """The players who must roll now and may roll red dice with their own."""
    rolling = {w.player for w in waiting_for(state) if w.does == "roll"}
    return {
        p.name for p in state.players if p.name in rolling and len(p.vegas_taken) > len(p.locked)
    }


def play_to_red_rollers(server, game_id: str) -> DiceService:
    """Play ``game_id`` (seated as :data:`SEATS`) on from its start, legal moves submitted as
    the host, until Johnny and Claire must both roll with red dice; the dice service, with
    Johnny's blue dice and one red die paired."""
    rng, state = random.Random(SEED), server.service.game(game_id).state
    while not red_rollers(state) >= {"Johnny", "Claire"}:
        action = random_action(state, rng)
        state = apply(state, action)
        server.service.submit(
            game_id, action, actor="host", expected_seq=server.service.game(game_id).seq
        )
    dice = server.app.extensions["companion"].pairing.dice(game_id)
    for i in range(1, 6):
        dice.assignment.assign(DieRef("pixels", f"blue{i}"), "blue")
    dice.assignment.assign(DieRef("pixels", "vegas1"), VEGAS)
    return dice


def land(dice, die: str, face: int) -> None:
    """One Pixels die rolled and settled, as its advertisements would report it."""
    dice.hub.feed(DieReading("pixels", die, DieState.ROLLING, roll=1))
    dice.hub.feed(DieReading("pixels", die, DieState.SETTLED, face=face, roll=1))


def johnny_rolls_with_a_red_die(dice) -> None:
    """Johnny's five blue dice land on 2, then the red die on 6: it could be Claire's too."""
    for i in range(1, 6):
        land(dice, f"blue{i}", 2)
    land(dice, "vegas1", 6)
