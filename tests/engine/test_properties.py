"""Invariants over thousands of random legal games (OpenSpiel's random_sim_test, for New Don).

Each game is played by :mod:`companion.simulate` from a seed hypothesis picks, under random
house rules. At every step the checks below run; a few are sampled per step to keep CI fast.
"""

from __future__ import annotations

import os
import pickle
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from new_don_boards import FILES

from companion.games.new_don import (
    NEW_DON,
    Action,
    Bet,
    ChooseFavorSpot,
    Claim,
    HouseRules,
    KeepVegas,
    MalformedAction,
    MuscleOut,
    Pass,
    Phase,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    Roll,
    RuleViolation,
    State,
    TakeFavor,
    UseFavor,
    action_view,
    apply,
    legal_actions,
    player_view,
    waiting_for,
)
from companion.games.new_don.board import Ability
from companion.games.new_don.view import HIDDEN, dice_public
from companion.protocol import option_list
from companion.records import dump_record, parse_record, replay
from companion.simulate import play, random_setup

GAMES = int(os.environ.get("ENGINE_PROPERTY_GAMES", "1000"))
# The games are played in parts, so that ./test's workers share them (one part alone was most of
# a worker's time); GAMES in all.
PARTS = 4

house_rules = st.builds(
    HouseRules,
    **{info.name: st.sampled_from(info.values) for info in option_list(NEW_DON)},
)


def check_soldiers(state: State) -> None:
    for seat in range(len(state.players)):
        where = state.soldiers(seat)
        assert min(where.values()) >= 0, where
        assert sum(where.values()) == state.board.soldiers_per_player, where
    on_track = [p.muscle for p in state.players if p.muscle]
    assert len(on_track) == len(set(on_track)), "two muscle tokens share a space"
    assert all(0 <= m <= state.board.muscle_track.highest for m in on_track)


def normalise(state: State, a: Action) -> Action:
    if isinstance(a, Claim | MuscleOut | Recruit | Reroll):
        return replace(a, dice=tuple(sorted(a.dice)))
    if isinstance(a, KeepVegas):
        return replace(a, lock=tuple(sorted(a.lock)))
    if isinstance(a, UseFavor):
        a = replace(a, dice=tuple(sorted(a.dice)))
        if state.board.ability(a.spot) is not Ability.ANY:
            a = replace(a, ability=None)
    return a


def fuzz(state: State, rng: random.Random) -> Action:
    """A random decision: half the time aimed at the player whose move it is, with their own
    dice and favor spots, so legal ones come up often enough to test completeness."""
    other = rng.choice(state.players).name
    ids = [n.id for n in state.board.neighborhoods] + ["nowhere"]
    waiting = waiting_for(state)
    if waiting and rng.random() < 0.5:
        name = rng.choice(waiting).player
        pool = [d.face for d in state.players[state.seat(name)].dice] or [1]
        dice = tuple(rng.sample(pool, rng.randint(1, min(4, len(pool)))))
        face = rng.choice(pool)
        held = [s for s in state.board.favor_spots if state.favor_count(state.seat(name), s)]
        spot = rng.choice(held) if held else rng.randint(1, 6)
    else:
        name = rng.choice(state.players).name
        dice = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 4)))
        face = rng.randint(0, 7)
        spot = rng.randint(1, 6)
    kind = rng.randrange(11)
    if kind == 0:
        return Claim(name, rng.choice(ids), dice)
    if kind == 1:
        return MuscleOut(name, rng.choice(ids), dice)
    if kind == 2:
        return Recruit(name, dice)
    if kind == 3:
        return Bet(name, rng.randint(0, 7), face)
    if kind == 4:
        ability = rng.choice([None, *[a.value for a in Ability]])
        return UseFavor(
            name,
            spot,
            ability,
            dice=dice if rng.random() < 0.3 else (),
            die=face if rng.random() < 0.6 else None,
            to=rng.choice([face, face + 1, face - 1, rng.choice(ids), None]),
            from_=rng.choice([None, rng.choice(ids)]),
        )
    if kind == 5:
        return Request(name, other, face)
    if kind == 6:
        return TakeFavor(name, other)
    if kind == 7:
        return ChooseFavorSpot(name, face)
    if kind == 8:
        return Reroll(name, dice)
    if kind == 9:
        return RevealFavor(name, face)
    return rng.choice([Pass(name), KeepVegas(name, dice[:2])])


@pytest.mark.parametrize("part", range(PARTS))
@settings(
    max_examples=max(1, GAMES // PARTS),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6), rules=house_rules)
def test_random_games_keep_every_invariant(
    part: int, seed: int, players: int, rules: HouseRules
) -> None:
    rng = random.Random(seed ^ 0x5EED)
    actions = []
    state = None
    for before, action, after in play(random.Random(seed), players, rules):
        actions.append(action)
        state = after
        check_soldiers(after)

        # Every choice legal_actions offers is accepted (a sample per step).
        for w in waiting_for(before):
            options = legal_actions(before, w.player)
            for choice in rng.sample(options, min(3, len(options))):
                check_soldiers(apply(before, choice))

        # A random decision is refused with one of the two typed errors, leaving the state as
        # it was; if it is accepted, legal_actions must have offered it.
        snapshot = pickle.dumps(replace(before, board=None))  # the board is never replaced
        attempt = fuzz(before, rng)
        try:
            apply(before, attempt)
        except (RuleViolation, MalformedAction):
            assert pickle.dumps(replace(before, board=None)) == snapshot
        else:
            offered = {normalise(before, a) for a in legal_actions(before, attempt.player)}
            assert normalise(before, attempt) in offered, attempt

        # Views do not leak: scrambling what a viewer may not know leaves their view as is.
        viewer = rng.randrange(players)
        name = after.name(viewer)
        assert player_view(after, name) == player_view(NEW_DON.scramble(after, name, rng), name)
        table = player_view(after, None)
        for p in table["players"]:
            assert "locked" not in p and "to_roll" not in p
            assert "dice" not in p or after.phase is Phase.RESOLUTION
        if isinstance(action, Roll | Reroll | KeepVegas | RevealFavor):
            seen = action_view(before, action, name if name != action.player else None)
            secret = not (
                isinstance(action, Roll) and dice_public(before, before.seat(action.player))
            )
            assert (HIDDEN in seen.values()) == secret, seen

    # Replaying the record gives the live state.
    assert state is not None and state.is_over
    text = dump_record(NEW_DON.setup_from_dict(random_setup(players, rules)), actions)
    assert replay(parse_record(text), FILES) == state
