"""A bot plays fair: it decides from its own seat's view, never from the table's state.

Proven the way the views are (tests/engine/test_properties.py): at decision points of random
games, every secret the bot's seat may not see is drawn anew (the game's own ``scramble``),
and the bot, with the same seed, must see exactly the same input (its view, and the world it
searches from) and choose the same move. A hint is held to the same rule for the player who
asks. ``BOT_FAIRNESS_POSITIONS`` changes how many positions are checked.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bots import Bot
from companion.bots.arena import bot_seat, play
from companion.bots.hints import suggest
from companion.games import game
from companion.protocol import option_list
from companion.simulate import random_setup

POSITIONS = int(os.environ.get("BOT_FAIRNESS_POSITIONS", "30"))
NEW_DON = game("new-don")

house_rules = st.fixed_dictionaries(
    {info.name: st.sampled_from(info.values) for info in option_list(NEW_DON)}
)


def decision(seed: int, players: int, options: dict, pick: random.Random):
    """A position of a random game where someone has a real choice: (state, player)."""
    setup = random_setup(players)
    setup["options"] = {k: v for k, v in options.items()}
    found = []
    for step in play(setup, {}, seed):
        for w in NEW_DON.waiting_for(step.after):
            if w.dice is None and len(NEW_DON.legal_actions(step.after, w.player)) > 1:
                found.append((step.after, w.player))
    return pick.choice(found)


def small_bot(level: str = "standard") -> Bot:
    return Bot(NEW_DON, level, seconds=0, iterations=12)


@settings(
    max_examples=POSITIONS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 6),
    options=house_rules,
    redraw=st.integers(0, 10**6),
)
def test_scrambling_the_others_secrets_never_changes_the_bots_input_or_choice(
    seed: int, players: int, options: dict, redraw: int
) -> None:
    state, me = decision(seed, players, options, random.Random(seed))
    other = NEW_DON.scramble(state, me, random.Random(redraw))
    for level in ("easy", "standard"):
        a = small_bot(level).observe(state, me, random.Random(seed))
        b = small_bot(level).observe(other, me, random.Random(seed))
        assert a.view == b.view
        assert a.anchor == b.anchor  # the bot's whole input: the same world to search from
        chosen = small_bot(level).choose(a, random.Random(seed)).action
        assert chosen == small_bot(level).choose(b, random.Random(seed)).action
        assert chosen in NEW_DON.legal_actions(state, me)


@settings(
    max_examples=max(5, POSITIONS // 6),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seed=st.integers(0, 10**6), redraw=st.integers(0, 10**6))
def test_a_hint_knows_what_its_player_knows_and_nothing_more(seed: int, redraw: int) -> None:
    state, me = decision(seed, 4, {}, random.Random(seed))
    other = NEW_DON.scramble(state, me, random.Random(redraw))
    a = suggest(NEW_DON, state, me, seconds=10, rng=random.Random(seed))
    b = suggest(NEW_DON, other, me, seconds=10, rng=random.Random(seed))
    assert (a.action, a.reason) == (b.action, b.reason)


def test_the_observation_holds_a_drawn_world_never_the_state() -> None:
    """Somewhere in a game the anchor differs from the state: the state is not kept."""
    setup = random_setup(4)
    differs = 0
    for step in play(setup, {}, 5):
        for w in NEW_DON.waiting_for(step.after):
            if w.dice is None and NEW_DON.legal_actions(step.after, w.player):
                obs = small_bot().observe(step.after, w.player, random.Random(1))
                differs += obs.anchor != step.after
                assert obs.view == NEW_DON.player_view(step.after, w.player)
    assert differs > 10


@pytest.mark.parametrize("seed", [1, 2])
def test_a_bots_reason_is_the_tables_to_read(seed: int) -> None:
    """A reason is built from the table's views alone: every secret drawn anew (the bot's
    own dice too) leaves it as it was, so it cannot name a hidden die."""
    bot = small_bot("easy")
    seen = 0
    for step in play(random_setup(4), {"Maria": bot_seat(bot)}, seed):
        if step.action.player != "Maria" or NEW_DON.is_roll(step.action):
            continue
        reasons = set()
        for redraw in range(3):
            rng = random.Random(redraw)
            before = NEW_DON.scramble(step.before, None, rng) if redraw else step.before
            after = NEW_DON.scramble(step.after, None, rng) if redraw else step.after
            reasons.add(
                bot.knowledge.reason(
                    NEW_DON.table_data(before),
                    NEW_DON.player_view(before, None),
                    NEW_DON.action_view(step.before, step.action, None),
                    NEW_DON.player_view(after, None),
                )
            )
        assert len(reasons) == 1
        seen += next(iter(reasons)) is not None
    assert seen > 3
