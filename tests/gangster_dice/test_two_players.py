"""The rulebook's 2-Player Variant.

"If you are playing Gangster Dice "heads up" with just two players, the following rules apply.
Instead of playing one bid card and one favor each round, you will play 2 bid cards and 2 favor
cards (one for each bid card). Reveal them all simultaneously as normal; you may influence one
token with each bid if you win it. At the end of the round you will draw 2 bid cards instead of
1, back up to the number of favors on your character card." ("2 bid cards" are favor cards: bid
cards go back to their owners' hands every round.)
"""

from __future__ import annotations

import pytest
from gd_table import arrange, bid, bid_action, hand, play_round, roll, table

from companion.games.gangster_dice import (
    GANGSTER_DICE,
    Dice,
    Phase,
    RuleViolation,
    Token,
    apply,
    legal_actions,
    player_view,
)

TWO = ("Maria", "Johnny")
MIXED = ("gun", "gun", "gavel", "gavel", "finger", "cocktail")


def two(hands=None, **kw):
    return table(TWO, hands, **kw)


def test_each_player_plays_two_bid_cards_with_a_favor_card_each():
    s = roll(two({"Maria": [1, 2, 0]}), "Maria", *MIXED)
    with pytest.raises(RuleViolation) as err:
        apply(s, bid_action("Maria", ("streets", 1)))
    assert err.value.rule == "2-Player Variant"
    assert err.value.reason == "play 2 bid cards and 2 favor cards (one for each bid card)"
    assert all(len(b.bids) == 2 for b in legal_actions(s, "Maria"))
    assert player_view(s, "Maria")["players"][0]["bids_due"] == 2


def test_the_two_bid_cards_are_for_different_tokens():
    s = roll(two({"Maria": [1, 2, 0]}), "Maria", *MIXED)
    with pytest.raises(RuleViolation) as err:
        apply(s, bid_action("Maria", ("streets", 1), ("streets", 2)))
    assert err.value.rule == "2-Player Variant"
    assert "each player has one bid card per token" in err.value.reason


def test_the_two_favor_cards_both_come_from_the_hand():
    s = roll(two({"Maria": [1, 2, 0]}), "Maria", *MIXED)
    with pytest.raises(RuleViolation, match="no other favor card worth 2"):
        apply(s, bid_action("Maria", ("streets", 2), ("lawyer", 2)))


def test_dice_showing_one_symbol_only_play_one_bid_card():
    """Each bid card must match a symbol on the dice rolled: one symbol, one bid card."""
    s = roll(two(), "Maria", *("finger",) * 6)
    assert player_view(s, None)["players"][0]["bids_due"] == 1
    with pytest.raises(RuleViolation) as err:
        apply(s, bid_action("Maria", ("investigator", 0), ("lawyer", 0)))
    assert "their dice show one symbol only" in err.value.reason
    assert apply(s, bid_action("Maria", ("investigator", 0))).players[0].bid is not None


def test_one_token_is_influenced_with_each_bid_won_and_all_four_are_revealed_at_once():
    s = two({"Maria": [2, 3, 0], "Johnny": [0, 0, 1]})
    s = roll(roll(s, "Maria", *MIXED), "Johnny", *("cocktail",) * 3 + ("finger",) * 3)
    s = bid(s, "Maria", ("streets", 2), ("lawyer", 3))
    assert player_view(s, "Johnny")["reveal"] is None
    s = bid(s, "Johnny", ("speakeasy", 0), ("investigator", 1))
    assert len(s.reveal.bids) == 4
    assert [(t, s.reveal.outcome(t).winner) for t in Token] == [
        (Token.LAWYER, 0),
        (Token.SPEAKEASY, 1),
        (Token.STREETS, 0),
        (Token.INVESTIGATOR, 1),
    ]
    assert s.controller(Token.LAWYER) == 0 and s.controller(Token.STREETS) == 0
    assert s.controller(Token.SPEAKEASY) == 1
    assert s.controller(Token.INVESTIGATOR) == 0  # the first winner passes it to their left


def test_two_favor_cards_are_drawn_back_up_to_three():
    s = two({"Maria": [2, 3, 0]})
    deck = s.deck
    s = play_round(
        s,
        Maria=(MIXED, [("streets", 2), ("lawyer", 3)]),
        Johnny=(("finger",) * 6, [("investigator", 0)]),
    )
    assert hand(s, "Maria") == sorted([0, *deck[:2]]) and len(hand(s, "Johnny")) == 3
    assert s.deck == deck[3:]


def test_the_lawyer_won_again_gives_a_plus_four_and_one_card_from_the_deck():
    s = arrange(two({"Maria": [2, 3, 0]}), control={Token.LAWYER: "Maria"})
    top = s.deck[0]
    s = play_round(
        s,
        Maria=(MIXED, [("streets", 2), ("lawyer", 3)]),
        Johnny=(("finger",) * 6, [("investigator", 0)]),
    )
    assert hand(s, "Maria") == sorted([0, 4, top]) and s.special == 5


def test_the_investigator_passes_to_the_other_player():
    s = arrange(
        two(),
        investigator=Dice(red=1),
        stash={"Maria": Dice(2, 1, 2)},
        control={Token.INVESTIGATOR: "Maria"},
    )
    s = play_round(
        s,
        Maria=(("finger",) * 4 + ("gun",), [("investigator", 0), ("streets", 0)]),
        Johnny=(("cocktail",) * 6, [("speakeasy", 0)]),
    )
    assert s.controller(Token.INVESTIGATOR) == 1
    assert s.investigator == Dice() and s.players[1].stash == Dice(2, 3, 2)  # took it off
    assert s.phase is Phase.BIDS


def test_a_simulated_two_player_game_follows_the_variant():
    """Every round of a random 2-player game plays two bids a player when the dice allow."""
    import random

    from gd_table import FILES

    from companion.simulate import random_setup

    rng = random.Random(4)
    state = GANGSTER_DICE.new_game(
        GANGSTER_DICE.setup_from_dict(random_setup(2, None, GANGSTER_DICE.id)), FILES
    )
    reveals = 0
    while not state.is_over:
        state = apply(state, GANGSTER_DICE.random_action(state, rng))
        if state.reveal is not None and state.reveal.round == reveals + 1:
            reveals += 1
            per_player = [sum(1 for b in state.reveal.bids if b.seat == i) for i in (0, 1)]
            assert all(n in (1, 2) for n in per_player) and 2 in per_player
    assert reveals >= 3
