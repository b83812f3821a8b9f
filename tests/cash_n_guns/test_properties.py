"""Invariants over random legal games (OpenSpiel's random-playout test, for Ca$h 'n Guns).

Each game is played by :mod:`companion.simulate` from a seed, for 4 to 8 players and random
house rules. At every step: every bullet card is used once, the loot is conserved, every
legal action applies, and no view shows a secret its viewer may not see.
``CASH_N_GUNS_PROPERTY_GAMES`` raises the number of games (CI keeps it modest).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import replace

import pytest
from cash_n_guns_table import BOX, FILES

from companion.games.cash_n_guns import (
    CASH_N_GUNS,
    Bullet,
    HouseRules,
    Load,
    Phase,
    State,
    action_from_dict,
    action_view,
    apply,
    legal_actions,
    player_view,
    scramble,
    waiting_for,
)
from companion.games.cash_n_guns.narrate import narrate
from companion.protocol import option_list
from companion.records import parse_record, replay
from companion.simulate import play, random_setup

GAMES = int(os.environ.get("CASH_N_GUNS_PROPERTY_GAMES", "24"))
LOW, HIGH = CASH_N_GUNS.players


def random_rules(rng: random.Random) -> HouseRules:
    return HouseRules(**{o.name: rng.choice(o.values) for o in option_list(CASH_N_GUNS)})


def games(count: int):
    """(seed, players, rules, steps) for ``count`` random games; every fourth starts with
    everyone on two wounds, so games that end with the last player alive (or none) are
    played too."""
    for seed in range(count):
        rng = random.Random(seed)
        players = LOW + seed % (HIGH - LOW + 1)
        rules = random_rules(rng)
        if seed % 4 == 3:
            yield seed, players, rules, bloody(random.Random(seed), players, rules)
        else:
            yield (
                seed,
                players,
                rules,
                list(play(random.Random(seed), players, rules, CASH_N_GUNS.id)),
            )


def bloody(rng: random.Random, players: int, rules: HouseRules) -> list:
    setup = CASH_N_GUNS.setup_from_dict(random_setup(players, rules, CASH_N_GUNS.id))
    state = CASH_N_GUNS.new_game(setup, FILES)
    state = replace(state, players=tuple(replace(p, wounds=2) for p in state.players))
    steps = []
    while not state.is_over:
        action = CASH_N_GUNS.random_action(state, rng)
        after = apply(state, action)
        steps.append((state, action, after))
        state = after
    return steps


ALL = list(games(GAMES))


def bullets(state: State) -> Counter:
    """Every Bullet card at the table: in hands, face-down in front of players, discarded."""
    count: Counter = Counter()
    for p in state.players:
        count[Bullet.BANG] += p.bangs
        count[Bullet.CLICK] += p.clicks
        if p.loaded is not None:
            count[p.loaded] += 1
    count.update(d.card for d in state.discard)
    return count


def loot(state: State) -> Counter:
    """Every Loot card: in the deck, on offer, kept, or spent."""
    count: Counter = Counter()
    for (card, _), left in zip(state.box.loot, state.deck, strict=True):
        count[card.id] += left
    count.update(state.table)
    count.update(state.spent)
    for p in state.players:
        count.update(p.loot)
    return count


@pytest.mark.parametrize(
    ("seed", "players", "rules", "steps"), ALL, ids=[f"seed{g[0]}-{g[1]}p" for g in ALL]
)
def test_a_random_game_keeps_every_rule(seed, players, rules, steps):
    first = steps[0][0]
    n = len(first.players)
    assert bullets(first) == {Bullet.BANG: n * BOX.bangs, Bullet.CLICK: n * BOX.clicks}
    deck = loot(first)
    assert sum(deck.values()) == BOX.deck_size
    loads: Counter = Counter()
    for before, action, after in steps:
        # Each Bullet card is used once: a load takes one card the player held out of their
        # hand; no card appears or vanishes; each living player loads once a turn.
        assert bullets(after) == bullets(first)
        if isinstance(action, Load):
            b, a = (
                before.players[before.seat(action.player)],
                after.players[after.seat(action.player)],
            )
            assert b.holds(action.card) >= 1 and a.hand == b.hand - 1
            loads[(before.turn, action.player)] += 1
        # The loot is conserved: every card is somewhere, once.
        assert loot(after) == deck
        # Whom the game waits on can act, and every legal action applies.
        if not after.is_over:
            for w in waiting_for(after):
                assert legal_actions(after, w.player), (w, after.phase)
        for p in after.players:
            for legal in legal_actions(after, p.name)[:6]:
                apply(after, legal)
        # The record line round-trips.
        assert action_from_dict(action.to_dict()) == action
    last = steps[-1][2]
    assert last.is_over
    assert set(loads.values()) == {1}
    if not last.last_alive:
        assert last.turn == BOX.turns and sum(last.deck) == 0


@pytest.mark.parametrize(
    ("seed", "players", "rules", "steps"),
    ALL[: max(8, GAMES // 3)],
    ids=[f"seed{g[0]}-{g[1]}p" for g in ALL[: max(8, GAMES // 3)]],
)
def test_no_view_shows_a_secret_its_viewer_may_not_see(seed, players, rules, steps):
    """Every secret a viewer may not see is drawn anew (``scramble``): their view, the
    actions and the narration must not change."""
    rng = random.Random(seed)
    for before, action, after in steps:
        for viewer in [None, *(p.name for p in after.players)]:
            if viewer == action.player:
                continue
            s_before, s_after = scramble(before, viewer, rng), scramble(after, viewer, rng)
            assert player_view(after, viewer) == player_view(s_after, viewer), (viewer, after.phase)
            assert action_view(before, action, viewer) == action_view(s_before, action, viewer)
            assert narrate(before, action, after, viewer) == narrate(
                s_before, action, s_after, viewer
            )


def test_scramble_really_changes_the_secrets():
    """The scramble test proves something only if scramble redraws what is secret."""
    rng = random.Random(1)
    changed = Counter()
    for _, _, _, steps in ALL[:10]:
        for _, _, after in steps:
            other = scramble(after, None, rng)
            for p, q in zip(after.players, other.players, strict=True):
                changed["hand"] += p.bangs != q.bangs
                changed["card"] += p.loaded != q.loaded
                changed["courage"] += p.courage != q.courage
                changed["loot"] += p.loot != q.loot
            changed["discard"] += after.discard != other.discard
    assert all(changed[k] > 0 for k in ("hand", "card", "courage", "loot", "discard")), changed


def test_the_mover_sees_their_secret_and_the_table_does_not():
    for _, _, _, steps in ALL[:5]:
        for before, action, after in steps:
            if isinstance(action, Load):
                assert action_view(before, action, action.player)["card"] == action.card.value
                assert action_view(before, action, None)["card"] == "hidden"
                mine = player_view(after, action.player)["players"][after.seat(action.player)]
                assert mine["card"] == action.card.value
                assert "card" not in player_view(after, None)["players"][after.seat(action.player)]


def test_a_simulated_record_replays_to_the_same_game():
    for _, players, rules, steps in [g for g in ALL if g[0] % 4 != 3][:6]:
        setup = CASH_N_GUNS.setup_from_dict(random_setup(players, rules, CASH_N_GUNS.id))
        text = "\n".join(
            json.dumps(x) for x in [setup.to_dict(), *(a.to_dict() for _, a, _ in steps)]
        )
        assert replay(parse_record(text), FILES) == steps[-1][2]


def test_games_reach_every_phase_and_both_endings():
    phases = {after.phase for *_, steps in ALL for _, _, after in steps}
    assert phases == set(Phase)
    finals = [steps[-1][2] for *_, steps in ALL[:4]]
    finals += [bloody(random.Random(seed), 4, HouseRules())[-1][2] for seed in range(6)]
    ends = Counter(
        ("last alive" if len(s.alive) == 1 else "nobody alive") if s.last_alive else "8 turns"
        for s in finals
    )
    assert set(ends) >= {"last alive", "8 turns"}, ends
