"""The cards when the companion keeps the decks: the shuffle is chance, entered once by the
table (or a simulated shuffle); cards are dealt from the top and go back to the bottom; and no
one sees a card before it is played but the player who holds it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from table import arrange, game, play

from companion.games.godfather_1971 import GODFATHER_1971, Step
from companion.protocol.errors import MalformedAction, RuleViolation


def shuffle_line(state, rng=None):
    decks = state.board.decks
    rng = rng or random.Random(1)
    return {
        "type": "shuffle",
        "player": "Plus",
        "playing": rng.sample(decks.playing, len(decks.playing)),
        "good": rng.sample(decks.good, len(decks.good)),
        "bad": rng.sample(decks.bad, len(decks.bad)),
    }


def test_the_game_waits_for_the_shuffle_which_must_be_the_whole_deck():
    state = game(cards="companion")
    assert state.step is Step.SHUFFLE
    assert GODFATHER_1971.waiting_for(state) == []  # chance: no player is waited for
    assert GODFATHER_1971.legal_actions(state, "Plus") == []  # chance, not a choice
    line = shuffle_line(state)
    short = {**line, "playing": line["playing"][1:]}
    with pytest.raises(RuleViolation) as err:
        play(state, short)
    assert err.value.rule == "Preparation" and "51 listed" in err.value.reason
    with pytest.raises(RuleViolation):
        play(state, {**line, "player": "Minus"})
    state = play(state, line)
    assert state.step is Step.PLACE and state.deck == tuple(line["playing"])


def test_the_companion_draws_the_shuffle_and_nobody_may_enter_it():
    state = game(cards="companion")
    shuffle = GODFATHER_1971.chance_action(state, random.Random(5))
    assert shuffle is not None and GODFATHER_1971.is_chance(shuffle)
    assert shuffle == GODFATHER_1971.chance_action(state, random.Random(5))  # from the rng
    assert GODFATHER_1971.random_action(state, random.Random(5)) == shuffle  # chance first
    assert not GODFATHER_1971.table_may_enter(shuffle)
    decks = state.board.decks
    assert sorted(shuffle.playing) == sorted(decks.playing) and shuffle.player == "Plus"
    state = GODFATHER_1971.apply(state, shuffle)
    assert state.step is Step.PLACE
    assert GODFATHER_1971.chance_action(state, random.Random(5)) is None  # once only
    assert GODFATHER_1971.chance_action(game(), random.Random(5)) is None  # physical cards


def test_the_host_may_enter_what_the_table_saw_but_not_a_card_drawn():
    rules = GODFATHER_1971
    seen = [
        {"type": "roll", "player": "Plus", "faces": [3, 4]},
        {"type": "play_card", "player": "Plus"},
        {"type": "break_card", "player": "Plus", "card": "collect-500"},
        {"type": "place", "player": "Plus", "neighborhood": "midtown", "positions": ["A1"]},
        {"type": "finger", "player": "Plus", "neighborhood": "midtown", "position": "A1"},
        {"type": "end_fingerman", "player": "Plus"},
        {"type": "give_up", "player": "Plus", "neighborhood": "midtown", "position": "A1"},
        {"type": "sell", "player": "Plus", "neighborhood": "midtown", "position": "A1"},
        {"type": "declare", "player": "Plus", "neighborhood": "midtown"},
        {"type": "end_turn", "player": "Plus"},
    ]
    assert all(rules.table_may_enter(rules.action_from_dict(line)) for line in seen)
    drawn = rules.action_from_dict({"type": "draw", "player": "Plus", "card": "money-5"})
    assert not rules.table_may_enter(drawn)  # the card drawn is the player's secret


def test_cards_are_dealt_from_the_top_and_played_cards_go_to_the_bottom():
    state = game(cards="companion")
    line = shuffle_line(state)
    state = play(
        state,
        line,
        {
            "type": "place",
            "player": "Plus",
            "neighborhood": "midtown",
            "positions": ["A1"],
            "racket": "hijacker",
        },
        {
            "type": "place",
            "player": "Plus",
            "neighborhood": "park-west",
            "positions": ["A1"],
            "racket": "bookie",
        },
        {"type": "end_turn", "player": "Plus"},
    )
    top = line["playing"][0]
    assert state.players[0].hand == top and state.deck == tuple(line["playing"][1:])
    assert state.turn.seat == 1 and state.step is Step.PLACE  # Minus's first turn
    state = play(
        state,
        {"type": "place", "player": "Minus", "neighborhood": "midtown", "positions": ["D5"]},
        {"type": "place", "player": "Minus", "neighborhood": "park-west", "positions": ["E6"]},
        {"type": "end_turn", "player": "Minus"},
    )
    assert state.step is Step.PLAY_CARD
    state = play(state, {"type": "play_card", "player": "Plus"})
    assert state.deck[-1] == top and len(state.deck) == 51


def test_a_break_card_comes_off_the_top_of_its_deck_and_goes_to_the_bottom():
    state = game(cards="companion")
    line = shuffle_line(state)
    state = play(state, line)
    state = state.with_player(0, started=True, hand="breaks")
    state = arrange(state, "midtown", ". . . . ." * 4)
    state = replace(state, step=Step.PLAY_CARD, turn=replace(state.turn, first=False))
    state = play(
        state,
        {"type": "play_card", "player": "Plus"},
        {"type": "roll", "player": "Plus", "faces": [4, 2]},
    )
    assert state.turn.break_card == line["good"][0]
    assert state.good == (*line["good"][1:], line["good"][0])


def test_the_shuffle_is_hidden_from_everyone_and_the_held_card_from_the_others():
    state = game(cards="companion")
    line = GODFATHER_1971.action_from_dict(shuffle_line(state))
    for viewer in ("Plus", "Minus", None):
        seen = GODFATHER_1971.action_view(state, line, viewer)
        assert seen["playing"] == seen["good"] == seen["bad"] == "hidden"
    state = GODFATHER_1971.apply(state, line)
    view = GODFATHER_1971.player_view(state, None)
    assert view["decks"] == {"playing": 52, "good": 12, "bad": 12}
    assert "deck" not in str(view["players"])


def test_a_scrambled_game_looks_the_same_to_whoever_may_not_see_the_secrets():
    rng = random.Random(3)
    state = game(3, cards="companion")
    for _ in range(120):
        state = GODFATHER_1971.apply(state, GODFATHER_1971.random_action(state, rng))
    for viewer in ("Plus", "Minus", "Star", None):
        scrambled = GODFATHER_1971.scramble(state, viewer, rng)
        assert GODFATHER_1971.player_view(scrambled, viewer) == GODFATHER_1971.player_view(
            state, viewer
        )
        if viewer is not None:
            assert (
                scrambled.players[state.seat(viewer)].hand == state.players[state.seat(viewer)].hand
            )
    assert any(GODFATHER_1971.scramble(state, None, rng).deck != state.deck for _ in range(3))


def test_a_physical_card_is_checked_for_what_it_can_be():
    state = play(
        game(),
        {
            "type": "place",
            "player": "Plus",
            "neighborhood": "midtown",
            "positions": ["A1"],
            "racket": "hijacker",
        },
        {
            "type": "place",
            "player": "Plus",
            "neighborhood": "park-west",
            "positions": ["A1"],
            "racket": "bookie",
        },
        {"type": "end_turn", "player": "Plus"},
    )
    with pytest.raises(MalformedAction) as err:
        play(state, {"type": "draw", "player": "Plus", "card": "money-10"})
    assert "1 to 9" in str(err.value)
    labels = [c.label for c in GODFATHER_1971.choices(state, "Plus")]
    assert "I drew Money $500" in labels and "I drew Fingerman" in labels
    assert "I drew Racket figure: 2 Bookies" in labels
