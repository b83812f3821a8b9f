"""Every game the companion referees seats a bot: the generic one, through the protocol alone.

A New Don's bot has knowledge of its own (tests/bots/test_bots.py); every other registered game
is played by the same search with :class:`~companion.bots.knowledge.Generic` knowledge. Here
each plays a whole game with bots in some seats, every bot move checked against the game's
legal moves at that point. Gangster Dice's secret bids get a closer look: a bot bids in every
round (two cards in the 2-player variant), legally, whoever holds the cards, and without
looking at the bids already face down.
"""

from __future__ import annotations

import random

import pytest

from companion.bots import Bot
from companion.bots.arena import Step, bot_seat, play
from companion.games import game, games
from companion.simulate import random_setup

OTHERS = [g.id for g in games() if g.id != "new-don"]
GANGSTER_DICE = game("gangster-dice")


def tiny(game_id: str) -> Bot:
    """A bot that searches a little: enough to exercise the search on every kind of move."""
    return Bot(game(game_id), "standard", seconds=0, iterations=4)


def played(game_id: str, players: int, bots: list[str], seed: int, **setup: str) -> list[Step]:
    """A whole game with ``bots`` in those seats (the rest play at random); every bot move
    is checked against the legal moves of the position it was made in."""
    rules = game(game_id)
    line = {**random_setup(players, game_id=game_id), **setup}
    steps = list(play(line, {name: bot_seat(tiny(game_id)) for name in bots}, seed))
    assert rules.is_over(steps[-1].after)
    for step in steps:
        if step.seat is not None:
            assert step.action.player in bots
            assert step.action in rules.legal_actions(step.before, step.action.player)
    assert any(step.seat is not None for step in steps)
    return steps


@pytest.mark.parametrize("game_id", OTHERS)
def test_every_other_game_plays_to_its_end_with_a_generic_bot_seated(game_id: str) -> None:
    names = [p["name"] for p in random_setup(4, game_id=game_id)["players"]]
    played(game_id, 4, names[-1:], seed=3)


@pytest.mark.parametrize(
    ("players", "cards"),
    [(4, "companion"), (4, "physical"), (3, "companion"), (2, "companion"), (2, "physical")],
)
def test_gangster_dice_bots_make_legal_secret_bids_through_a_whole_game(
    players: int, cards: str
) -> None:
    names = [p["name"] for p in random_setup(players, game_id="gangster-dice")["players"]]
    bots = names[:2]
    steps = played("gangster-dice", players, bots, seed=players, cards=cards)
    bids = [s for s in steps if s.seat is not None and s.action.to_dict()["type"] == "bid"]
    rounds = sum(
        1 for s in steps if s.action.to_dict()["type"] == "bid" and s.action.player == names[-1]
    )  # the random seat bids once a round
    assert {s.action.player for s in bids} == set(bots)
    assert len(bids) >= len(bots) * max(1, rounds - 1)  # a bid from each bot every round
    twos = 0
    for step in bids:
        me = step.action.player
        view = GANGSTER_DICE.player_view(step.before, me)
        due = next(p["bids_due"] for p in view["players"] if p["name"] == me)
        assert len(step.action.to_dict()["bids"]) == due
        twos += due == 2
        # Face down: the bot's seat sees the same whatever the others bid or hold.
        other = GANGSTER_DICE.scramble(step.before, me, random.Random(len(bids)))
        assert GANGSTER_DICE.player_view(other, me) == view
    assert (twos > 0) == (players == 2)  # the 2-player variant's two bid cards, played


def bid_decisions(seed: int) -> list[tuple[object, str]]:
    """Positions of a 4-player game where someone bids after another's bid is face down."""
    found = []
    for step in play(random_setup(4, game_id="gangster-dice"), {}, seed):
        for w in GANGSTER_DICE.waiting_for(step.after):
            view = GANGSTER_DICE.player_view(step.after, w.player)
            if w.does == "bid" and any(
                p.get("chosen") for p in view["players"] if p["name"] != w.player
            ):
                found.append((step.after, w.player))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_a_gangster_dice_bot_bids_the_same_whatever_the_others_hold_or_bid(seed: int) -> None:
    """Scrambling the others' hands and face-down bids never changes the bot's bid."""
    found = bid_decisions(seed)
    assert found
    for index in range(0, len(found), max(1, len(found) // 6)):
        state, me = found[index]
        other = GANGSTER_DICE.scramble(state, me, random.Random(index))
        chosen = [
            tiny("gangster-dice")
            .choose(tiny("gangster-dice").observe(s, me, random.Random(seed)), random.Random(seed))
            .action
            for s in (state, other)
        ]
        assert chosen[0] == chosen[1]
        assert chosen[0] in GANGSTER_DICE.legal_actions(state, me)


def decisions(game_id: str, seed: int) -> list[tuple[object, str]]:
    """Positions of a random 4-player game where someone has a real choice."""
    rules = game(game_id)
    found = []
    for step in play(random_setup(4, game_id=game_id), {}, seed):
        for w in rules.waiting_for(step.after):
            if w.dice is None and len(rules.legal_actions(step.after, w.player)) > 1:
                found.append((step.after, w.player))
    return found


@pytest.mark.parametrize("game_id", OTHERS)
def test_scrambling_the_others_secrets_never_changes_a_generic_bots_input_or_choice(
    game_id: str,
) -> None:
    """The fairness test of tests/bots/test_fairness.py, for every other game."""
    rules = game(game_id)
    found = decisions(game_id, 5)
    for index in range(0, len(found), max(1, len(found) // 8)):
        state, me = found[index]
        other = rules.scramble(state, me, random.Random(index))
        a = tiny(game_id).observe(state, me, random.Random(index))
        b = tiny(game_id).observe(other, me, random.Random(index))
        assert a.view == b.view and a.anchor == b.anchor
        chosen = tiny(game_id).choose(a, random.Random(index)).action
        assert chosen == tiny(game_id).choose(b, random.Random(index)).action
