"""Invariants over random legal games (OpenSpiel's random_sim_test, for Monopoly): played by
``companion.simulate`` under random house rules, with checks at every step. CI plays a few
games; set MONOPOLY_GAMES to play more (MONOPOLY_GAMES=500 for a long run)."""

from __future__ import annotations

import json
import os
import random

import pytest
from monopoly_scenario import FILES

from companion.games.monopoly import MONOPOLY, HouseRules, Phase, legal_actions, waiting_for
from companion.games.monopoly.board import Kind
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import State
from companion.protocol import RuleViolation, option_list
from companion.records import dump_record, parse_record, replay
from companion.simulate import MAX_ACTIONS, play, random_setup, simulate

GAMES = int(os.environ.get("MONOPOLY_GAMES", "8"))
ACTIONS_CHECKED = 3  # legal actions tried per step (all of them would be slow)


def random_rules(rng: random.Random) -> HouseRules:
    return HouseRules(**{o.name: rng.choice(o.values) for o in option_list(MONOPOLY)})


def check_invariants(state: State) -> None:
    board = state.board
    assert all(p.cash >= 0 for p in state.players)
    assert 0 <= state.hideouts_left() <= board.bank.hideouts
    assert 0 <= state.compounds_left() <= board.bank.compounds
    for i, h in enumerate(state.holdings):
        if h is None:
            continue
        if h.owner is not None:
            assert not state.players[h.owner].bankrupt, "a bankrupt player owns nothing"
        if h.buildings:
            assert board.spaces[i].kind is Kind.LOCATION and h.owner is not None
            assert state.owns_set(h.owner, i), "buildings only on a whole colour group"
            assert not any(state.holding(j).mortgaged for j in board.set_of(i))
            assert not (h.compound and h.hideouts)
            assert h.hideouts <= state.hideouts_per_compound
    for d in state.debts:
        assert not state.players[d.debtor].bankrupt and d.amount > 0
    if state.auction is not None:
        assert state.auction.turn not in state.auction.out
    if state.phase is Phase.OVER:
        assert state.end and not waiting_for(state)
        standing = [p for p in state.players if not p.bankrupt]
        assert len(standing) == 1 or state.rules.speed_play
    else:
        assert waiting_for(state), "a game that is not over waits for someone"


def test_random_games_keep_every_rule_and_replay_to_the_same_table():
    for seed in range(GAMES):
        rng = random.Random(seed)
        rules = random_rules(rng)
        players = rng.randint(*MONOPOLY.players)
        actions = []
        last: State | None = None
        for before, action, after in play(random.Random(seed), players, rules, MONOPOLY.id):
            actions.append(action)
            check_invariants(after)
            for w in waiting_for(before):  # what the game offers is accepted
                options = legal_actions(before, w.player)
                for a in rng.sample(options, min(ACTIONS_CHECKED, len(options))):
                    MONOPOLY.apply(before, a)
            last = after
        assert last is not None and last.is_over, f"seed {seed} did not end"
        setup = MONOPOLY.setup_from_dict(random_setup(players, rules, MONOPOLY.id))
        text = dump_record(setup, actions)
        assert replay(parse_record(text), FILES) == last


def test_every_refusal_names_its_rulebook_section():
    """Moves made at the wrong moment (another player's, an old one) are refused with a
    section of the rulebook and the facts, never a crash."""
    rng = random.Random(5)
    moves: list = []
    refusals = 0
    for before, action, _ in play(random.Random(5), 4, HouseRules(don_cards=True), MONOPOLY.id):
        moves.append(action)
        for attempt in rng.sample(moves, min(3, len(moves))):
            try:
                MONOPOLY.apply(before, attempt)
            except RuleViolation as exc:
                refusals += 1
                assert exc.rule in set(Rule) and exc.reason
    assert refusals > 100


def test_a_six_player_classic_game_runs_in_simulate_to_its_end():
    for seed in range(max(2, GAMES // 4)):
        record = simulate(6, seed, None, MONOPOLY.id)
        assert len(record) < MAX_ACTIONS
        state = replay(parse_record("\n".join(json.dumps(r) for r in record)), FILES)
        assert state.is_over and len([p for p in state.players if not p.bankrupt]) == 1


@pytest.mark.parametrize("viewer", ["Maria", "Johnny", None])
def test_no_view_changes_when_the_secrets_a_viewer_may_not_see_change(viewer):
    rng = random.Random(11)
    rules = HouseRules(don_cards=True)
    redrawn = 0
    for before, action, after in play(random.Random(11), 3, rules, MONOPOLY.id):
        scrambled = MONOPOLY.scramble(after, viewer, rng)
        redrawn += scrambled != after
        s_before = MONOPOLY.scramble(before, viewer, rng)
        assert MONOPOLY.player_view(after, viewer) == MONOPOLY.player_view(scrambled, viewer)
        assert MONOPOLY.narrate(before, action, after, viewer) == MONOPOLY.narrate(
            s_before, action, scrambled, viewer
        )
        if viewer is not None:
            assert [c.to_dict() for c in MONOPOLY.choices(after, viewer)] == [
                c.to_dict() for c in MONOPOLY.choices(scrambled, viewer)
            ]
    assert redrawn > 50  # the secrets were really drawn anew
