"""Every rule of the Gangster Dice rulebook, each test quoting the sentence it checks.

The rulebook has no numbered worked examples; its own examples are the sentences that say what
happens in a case ("if you control the Streets and tie for a bid with one or more players, you
win that bid", "if the Streets moves to a different player, all dice on it will remain"), and
each of those is a test here. Positions are set up with ``gd_table`` and played through
``apply``; refusals are checked for their rule and their words.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from gd_table import (
    FILES,
    arrange,
    bid,
    bid_action,
    hand,
    play_round,
    roll,
    roll_action,
    stash,
    table,
)

from companion.games.gangster_dice import (
    GANGSTER_DICE,
    Dice,
    HouseRules,
    Load,
    Phase,
    PlaceOnStreets,
    Roll,
    RuleViolation,
    Shuffle,
    Swap,
    Symbol,
    TakeOff,
    Task,
    Token,
    apply,
    legal_actions,
    player_view,
    waiting_for,
)
from companion.games.gangster_dice.state import What

THREE = ("Maria", "Johnny", "Claire")
GUNS = ("gun", "gun", "gun", "finger", "finger", "gavel")  # six dice: three guns
SIX_FINGERS = ("finger",) * 6


def three(hands=None, **kw):
    return table(THREE, hands, **kw)


def two(hands=None, **kw):
    return table(("Maria", "Johnny"), hands, **kw)


def refused(state, action, rule: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        apply(state, action)
    assert err.value.rule == rule, (err.value.rule, err.value.reason)
    return err.value


def happened(state, what):
    return [h for h in state.happened if h.what is what]


class TestSetup:
    def test_each_player_has_two_dice_of_each_colour_and_three_favor_cards(self):
        """ "Give each player 2 dice of each color (6 dice total) ... For an easy tutorial game
        ... draw 3 favor cards each. Put the 6 special +4 favor cards in a face-up stack ...
        Place one die of each color (3 dice total) on top of the Speakeasy token.\""""
        s = table()
        assert [p.stash for p in s.players] == [Dice(2, 2, 2)] * 4
        assert s.speakeasy == Dice(1, 1, 1) and s.box == Dice()  # 4 × 6 + 3 = all 27 dice
        assert [len(p.hand) for p in s.players] == [3, 3, 3, 3]
        assert s.special == 6 and len(s.deck) == 36 - 12
        assert s.control == (None, None, None, None)  # "in the middle of the play area"
        assert s.phase is Phase.BIDS and s.round == 1

    def test_with_fewer_players_the_other_dice_stay_in_the_box(self):
        s = table(("Maria", "Johnny"))
        assert s.box == Dice(4, 4, 4) and s.speakeasy == Dice(1, 1, 1)

    @pytest.mark.parametrize("names", [("Maria",), ("A", "B", "C", "D", "E")])
    def test_two_to_four_players_one_set_of_bid_cards_each(self, names):
        """ "16 bid cards: 4 yellow, 4 red, 4 blue, 4 green": four players at most."""
        setup = GANGSTER_DICE.setup_from_dict(
            {"type": "setup", "game": "gangster-dice", "players": list(names)}
        )
        with pytest.raises(RuleViolation) as err:
            GANGSTER_DICE.new_game(setup, FILES)
        assert err.value.rule == "Setup"
        assert f"2 to 4 players (one set of bid cards each), not {len(names)}" in str(err.value)

    def test_each_player_plays_a_colour_of_bid_cards(self):
        setup = GANGSTER_DICE.setup_from_dict(
            {
                "type": "setup",
                "game": "gangster-dice",
                "players": ["Maria", {"name": "Johnny", "colour": "yellow"}, "Claire"],
            }
        )
        s = GANGSTER_DICE.new_game(setup, FILES)
        assert [p.colour for p in s.players] == ["red", "yellow", "blue"]
        setup = GANGSTER_DICE.setup_from_dict(
            {
                "type": "setup",
                "game": "gangster-dice",
                "players": ["Maria", {"name": "Johnny", "colour": "black"}],
            }
        )
        with pytest.raises(RuleViolation, match="bid cards come in yellow, red, blue, green"):
            GANGSTER_DICE.new_game(setup, FILES)

    def test_the_favor_deck_is_dealt_from_the_shuffle_in_the_record(self):
        """ "Shuffle the favor deck": the shuffle is an action, and hands come off its top."""
        setup = GANGSTER_DICE.setup_from_dict(
            {"type": "setup", "game": "gangster-dice", "players": list(THREE)}
        )
        s = GANGSTER_DICE.new_game(setup, FILES)
        assert s.phase is Phase.SETUP and s.shuffle_due and waiting_for(s) == []
        assert GANGSTER_DICE.chance_action(s, random.Random(1)) is not None
        order = (3, 2, 1, 0, 0, 1, 2, 2, 3, *sorted([0] * 4 + [1] * 10 + [2] * 9 + [3] * 4))
        s = apply(s, Shuffle(order))
        assert [hand(s, n) for n in THREE] == [[1, 2, 3], [0, 0, 1], [2, 2, 3]]
        assert s.deck == order[9:] and s.phase is Phase.BIDS

    def test_a_shuffle_holds_exactly_the_cards_being_shuffled(self):
        setup = GANGSTER_DICE.setup_from_dict(
            {"type": "setup", "game": "gangster-dice", "players": list(THREE)}
        )
        s = GANGSTER_DICE.new_game(setup, FILES)
        err = refused(s, Shuffle((3,) * 36), "Setup")
        assert "the 36 cards being shuffled (6×0, 12×1, 12×2, 6×3), not 36×3" in err.reason
        assert err.public == "a shuffle holds exactly the cards being shuffled"
        s = apply(s, Shuffle(tuple(s.to_shuffle)))
        refused(s, Shuffle(tuple(s.deck)), "Sequence of play")  # nothing waits for one


class TestTheDiceAndSymbols:
    def test_each_die_has_two_fingers_two_of_its_colours_symbol_and_one_each_of_the_others(self):
        """ "Each die has 2 pointing fingers, 2 of one other symbol and 1 each of the remaining
        2 symbols. Red dice have 2 guns, blue dice have 2 cocktails, and white dice have 2"
        (cut off: the gavel, the one symbol left, is marked inferred in the data file)."""
        c = table().components
        doubles = {d.colour.value: d.double.value for d in c.dice}
        assert doubles == {"white": "gavel", "red": "gun", "blue": "cocktail"}
        for d in c.dice:
            assert d.faces.count(d.double) == 2 and d.faces.count(Symbol.FINGER) == 2
            assert len(set(d.faces)) == 4  # "each color of dice has all 4 symbols on it"
        assert any("dice.white.symbols" in f for f in c.facts("inferred"))

    def test_faces_one_to_four_are_the_same_symbol_on_every_die(self):
        c = table().components
        for n, symbol in enumerate(["gavel", "cocktail", "gun", "finger"], 1):
            assert {d.face(n).value for d in c.dice} == {symbol}

    def test_each_token_is_influenced_by_its_symbol(self):
        """ "The gavel symbol is used to influence the Lawyer token, the cocktail ... the
        Speakeasy, the gun ... the Streets, and the pointing finger ... the Investigator.\""""
        assert {t.value: t.symbol.value for t in Token} == {
            "lawyer": "gavel",
            "speakeasy": "cocktail",
            "streets": "gun",
            "investigator": "finger",
        }


class TestTheRoll:
    def test_each_player_rolls_all_the_dice_in_their_stash(self):
        """ "At the beginning of each round, each player rolls all the dice in their stash.\""""
        s = three()
        w = next(w for w in waiting_for(s) if w.player == "Maria")
        assert w.does == "roll" and w.dice is not None and w.dice.count == 6
        assert "2 white, 2 red, 2 blue" in w.dice.prompt
        short = Roll.of("Maria", {"white": [1, 1], "red": [3, 3]})
        err = refused(s, short, "Sequence of play")
        assert err.reason == (
            "each player rolls all the dice in their stash: Maria's holds "
            "2 white, 2 red, 2 blue, this roll 2 white, 2 red"
        )
        assert err.public == err.reason  # dice are rolled in the open
        s = roll(s, "Maria", *GUNS)
        refused(s, roll_action(s, "Maria", *GUNS), "Sequence of play")  # once a round

    def test_a_roll_from_the_dice_reads_face_numbers_in_white_red_blue_order(self):
        """Simulated dice and phone taps send face numbers; the data file says the symbol."""
        s = three()
        w = next(w for w in waiting_for(s) if w.player == "Maria")
        action = GANGSTER_DICE.roll_action(w, (1, 5, 3, 5, 2, 5))
        assert action.to_dict()["dice"] == {"white": [1, 5], "red": [3, 5], "blue": [2, 5]}
        s = apply(s, action)
        shown = player_view(s, None)["players"][0]["symbols"]
        assert shown == {"gavel": 2, "cocktail": 2, "gun": 2, "finger": 0}

    def test_a_phone_offers_one_face_per_symbol(self):
        """The phone's buttons are the request's faces: each symbol once (faces 1-4, the same
        symbol on every die), so a tap means the same whatever the die's colour."""
        s = three()
        w = next(w for w in waiting_for(s) if w.player == "Maria")
        assert w.dice is not None and w.dice.faces == (1, 2, 3, 4)
        for d in s.components.dice:
            assert {d.face(n) for n in w.dice.faces} == set(Symbol)


class TestTheBids:
    def test_the_bid_card_must_match_a_symbol_on_the_dice_you_rolled(self):
        """ "This bid card must match a symbol on the dice you rolled.\""""
        s = roll(three(), "Maria", *SIX_FINGERS)
        err = refused(s, bid_action("Maria", ("streets", 0)), "Sequence of play")
        assert err.reason == (
            "the bid card must match a symbol on the dice you rolled: "
            "Maria's dice show no gun for the Streets"
        )
        assert {b.bids[0].token.value for b in legal_actions(s, "Maria")} == {"investigator"}

    def test_nobody_bids_before_rolling(self):
        err = refused(three(), bid_action("Maria", ("lawyer", 0)), "Sequence of play")
        assert "Maria rolls first" in err.reason

    def test_the_favor_card_comes_from_your_hand_and_others_do_not_hear_what_it_holds(self):
        s = roll(three({"Maria": [0, 1, 1]}), "Maria", *GUNS)
        err = refused(s, bid_action("Maria", ("streets", 3)), "Sequence of play")
        assert err.reason == "Maria has no favor card worth 3: their hand holds 0, 1, 1"
        assert err.public is None  # the hand is Maria's secret: others hear only the rule
        err = refused(s, bid_action("Maria", ("streets", 9)), "Sequence of play")
        assert "there is no favor card worth 9" in err.reason
        assert {b.bids[0].favor for b in legal_actions(s, "Maria")} == {0, 1}

    def test_one_bid_card_and_one_favor_card_each(self):
        s = roll(three(), "Maria", *GUNS)
        err = refused(
            s, bid_action("Maria", ("streets", 0), ("investigator", 0)), "Sequence of play"
        )
        assert err.reason == "each player plays one bid card and one favor card"

    def test_bids_stay_face_down_until_everyone_has_chosen_then_all_are_revealed_at_once(self):
        """ "place both cards face down in front of you. When all players have chosen their
        cards, reveal them simultaneously.\""""
        s = three({"Maria": [2, 1, 0], "Johnny": [3, 1, 0]})
        s = roll(roll(roll(s, "Maria", *GUNS), "Johnny", *GUNS), "Claire", *SIX_FINGERS)
        other = bid(bid(s, "Maria", ("investigator", 1)), "Johnny", ("streets", 3))
        s = bid(bid(s, "Maria", ("streets", 2)), "Johnny", ("streets", 3))
        for viewer in (None, "Johnny", "Claire"):  # Maria's choice changes nothing they see
            assert player_view(s, viewer) == player_view(other, viewer)
            view = player_view(s, viewer)
            assert view["players"][0]["chosen"] and view["reveal"] is None
            assert view["players"][0]["hand"] == 2  # one card lies face down
        assert player_view(s, "Maria")["you"]["bid"] == [{"token": "streets", "favor": 2}]
        assert player_view(s, "Maria")["you"]["hand"] == [0, 1]
        assert (
            GANGSTER_DICE.action_view(s, bid_action("Maria", ("streets", 2)), "Johnny")["bids"]
            == "hidden"
        )
        s = bid(s, "Claire", ("investigator", 0))
        bids = player_view(s, None)["reveal"]["bids"]
        assert [(b["player"], b["token"], b["favor"], b["score"]) for b in bids] == [
            ("Maria", "streets", 2, 5),
            ("Johnny", "streets", 3, 6),
            ("Claire", "investigator", 0, 6),
        ]

    def test_a_player_may_change_their_cards_until_the_last_player_has_chosen(self):
        s = roll(roll(three({"Maria": [2, 1, 0]}), "Maria", *GUNS), "Johnny", *GUNS)
        s = bid(s, "Maria", ("streets", 2))
        s = bid(s, "Maria", ("investigator", 1))
        assert s.players[0].bid[0].token is Token.INVESTIGATOR and hand(s, "Maria") == [0, 1, 2]
        assert bid_action("Maria", ("investigator", 1)) in legal_actions(s, "Maria")


class TestScores:
    def test_a_score_is_the_symbols_for_the_token_plus_the_favor_card(self):
        """ "Your score is the number of symbols showing on your dice for the token you bid
        on, plus the number on your favor card. ... The player with the highest score for each
        symbol will get to influence that token this round.\""""
        s = play_round(
            three({"Maria": [2, 0, 0], "Johnny": [3, 0, 0]}),
            Maria=(GUNS, [("streets", 2)]),
            Johnny=(("gun",) * 2 + ("finger",) * 4, [("streets", 3)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        outcome = s.reveal.outcome(Token.STREETS)
        assert [b.score for b in s.reveal.bids] == [3 + 2, 2 + 3, 6 + 0]
        assert outcome.winner is None and outcome.tied == (0, 1)  # 5 and 5: a tie

    def test_the_highest_score_influences_the_token(self):
        s = play_round(
            three({"Maria": [3, 0, 0], "Johnny": [1, 0, 0]}),
            Maria=(GUNS, [("streets", 3)]),
            Johnny=(GUNS, [("streets", 1)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.reveal.outcome(Token.STREETS).winner == 0
        assert s.controller(Token.STREETS) == 0
        assert happened(s, What.CONTROL)[0].token is Token.STREETS

    def test_a_tie_for_the_highest_score_influences_nobody(self):
        """ "If there is a tie for the highest score to influence a token then no one gets to
        influence it this round.\""""
        s = arrange(
            three({"Maria": [2, 0, 0], "Johnny": [2, 0, 0]}), control={Token.LAWYER: "Claire"}
        )
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 2)]),
            Johnny=(GUNS, [("streets", 2)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.reveal.outcome(Token.STREETS).winner is None
        assert s.controller(Token.STREETS) is None

    def test_a_token_nobody_bids_on_is_not_influenced(self):
        """ "If a token is not bid on, it is not influenced.\""""
        s = arrange(three(), control={Token.SPEAKEASY: "Johnny"})
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        o = s.reveal.outcome(Token.SPEAKEASY)
        assert o.top is None and o.winner is None and s.controller(Token.SPEAKEASY) == 1


class TestTheStreets:
    def test_its_controller_adds_the_dice_on_it_to_every_bid_score(self):
        """ "For as long as you control the Streets, add the number of dice on it to your score
        when calculating bid scores.\""""
        s = arrange(
            three({"Maria": [1, 0, 0]}),
            streets=Dice(red=2),
            stash={"Maria": Dice(2, 1, 1)},
            control={Token.STREETS: "Maria"},
        )
        s = play_round(
            s,
            Maria=(("gavel",) * 4, [("lawyer", 1)]),
            Johnny=(GUNS, [("lawyer", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        maria = s.reveal.bids[0]
        assert (maria.symbols, maria.favor, maria.streets, maria.score) == (4, 1, 2, 7)
        assert s.reveal.bids[1].streets == 0

    def test_it_breaks_ties_in_its_controllers_favor(self):
        """ "the Streets breaks ties in your favor. That is, if you control the Streets and tie
        for a bid with one or more players, you win that bid.\""""
        s = arrange(
            three({"Maria": [0, 2, 2], "Johnny": [1, 0, 2], "Claire": [1, 0, 2]}),
            control={Token.STREETS: "Maria"},
        )
        s = play_round(
            s,
            Maria=(("finger",) * 6, [("investigator", 0)]),
            Johnny=(("finger",) * 5 + ("gun",), [("investigator", 1)]),
            Claire=(("finger",) * 5 + ("gun",), [("investigator", 1)]),
        )
        o = s.reveal.outcome(Token.INVESTIGATOR)
        assert o.tied == (0, 1, 2) and o.winner == 0 and o.by_streets
        assert "Maria ties Johnny and Claire at 6 and wins" in "\n".join(
            GANGSTER_DICE.summary(s).splitlines()
        )

    def test_a_tie_the_controller_is_not_in_still_influences_nobody(self):
        s = arrange(
            three({"Maria": [0, 2, 2], "Johnny": [1, 0, 2], "Claire": [1, 0, 2]}),
            control={Token.STREETS: "Maria"},
        )
        s = play_round(
            s,
            Maria=(("finger",) * 6, [("investigator", 0)]),
            Johnny=(GUNS, [("streets", 1)]),
            Claire=(GUNS, [("streets", 1)]),
        )
        assert s.reveal.outcome(Token.STREETS).winner is None

    def test_won_again_its_controller_may_put_one_die_from_their_stash_on_it(self):
        """ "When you win this token and it was already under your control, you may place any
        one die from your stash on top of it.\""""
        s = arrange(three({"Maria": [3, 0, 0]}), control={Token.STREETS: "Maria"})
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 3)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.phase is Phase.TOKENS and waiting_for(s)[0].does == "streets"
        assert [a.colour for a in legal_actions(s, "Maria")] == [None, "white", "red", "blue"]
        refused(s, PlaceOnStreets("Johnny", "red"), "Influence Tokens: The Streets")
        after = apply(s, PlaceOnStreets("Maria", "red"))
        assert after.streets == Dice(red=1) and stash(after, "Maria") == Dice(2, 1, 2)
        assert apply(s, PlaceOnStreets("Maria", None)).streets == Dice()  # "may"

    def test_when_it_changes_hands_its_dice_stay_and_count_for_the_new_controller(self):
        """ "Note that if the Streets moves to a different player, all dice on it will remain
        and will count toward that player's bid score on future rounds.\""""
        s = arrange(
            three({"Maria": [3, 2, 0]}),
            streets=Dice(blue=2),
            stash={"Johnny": Dice(2, 2, 0)},
            control={Token.STREETS: "Johnny"},
        )
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 3)]),
            Johnny=(("gun",) + ("finger",) * 3, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.controller(Token.STREETS) == 0 and s.streets == Dice(blue=2)
        s = play_round(
            s,
            Maria=(("gavel",) * 6, [("lawyer", 2)]),
            Johnny=(("gavel",) * 4, [("lawyer", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.reveal.bids[0].streets == 2 and s.reveal.bids[0].score == 6 + 2 + 2


class TestTheLawyer:
    def test_won_again_it_gives_a_special_plus_four_instead_of_a_favor_card(self):
        """ "When you win this token and it was already under your control, then instead of
        drawing a new favor card from the deck, take one of the special +4 favors from the
        stack and add it to your hand.\""""
        s = arrange(three({"Maria": [3, 0, 0]}), control={Token.LAWYER: "Maria"})
        deck = len(s.deck)
        s = play_round(
            s,
            Maria=(("gavel",) * 6, [("lawyer", 3)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert hand(s, "Maria") == [0, 0, 4] and s.special == 5
        assert len(s.deck) == deck - 2  # Johnny and Claire drew from the deck; Maria did not
        assert happened(s, What.FOUR)[0].seat == 0

    def test_with_the_stack_empty_its_controller_draws_as_usual(self):
        s = replace(
            arrange(three({"Maria": [3, 0, 0]}), control={Token.LAWYER: "Maria"}), special=0
        )
        top = s.deck[0]
        s = play_round(
            s,
            Maria=(("gavel",) * 6, [("lawyer", 3)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert sorted(hand(s, "Maria")) == sorted([0, 0, top]) and s.special == 0

    def test_a_played_plus_four_goes_back_to_the_stack_or_the_discard_pile(self):
        for rule, special, discarded in (("stack", 6, []), ("discard", 5, [4])):
            s = arrange(
                three({"Maria": [0, 0, 0]}, rules=HouseRules(spent_fours=rule)),
                hands={"Maria": [0, 0, 4]},
            )
            s = replace(s, special=5)
            s = play_round(
                s,
                Maria=(GUNS, [("streets", 4)]),
                Johnny=(GUNS, [("streets", 0)]),
                Claire=(SIX_FINGERS, [("investigator", 0)]),
            )
            assert s.special == special and [v for v in s.discard if v == 4] == discarded

    def test_its_controller_may_leave_the_dice_on_the_investigator(self):
        """ "as long as you control the Lawyer, you do not have to take dice from the
        Investigator if you do not want to.\""""
        s = arrange(
            three(),
            investigator=Dice(red=1),
            stash={"Johnny": Dice(2, 1, 2)},
            control={Token.LAWYER: "Maria", Token.INVESTIGATOR: "Maria"},
        )
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 0)]),
            Johnny=(GUNS[:5], [("streets", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert s.phase is Phase.INVESTIGATOR and waiting_for(s)[0].player == "Maria"
        assert TakeOff("Maria", None) in legal_actions(s, "Maria")
        left = apply(s, TakeOff("Maria", None))
        assert left.investigator == Dice(red=1) and stash(left, "Maria") == Dice(2, 2, 2)
        took = apply(s, TakeOff("Maria", "red"))
        assert took.investigator == Dice() and stash(took, "Maria") == Dice(2, 3, 2)


class TestTheSpeakeasy:
    def test_won_it_moves_in_front_of_the_winner(self):
        """ "When you win the Lawyer, the Speakeasy, or the Streets, move that token in front
        of your player card to indicate that you now control it.\""""
        s = play_round(
            three({"Maria": [1, 0, 0]}),
            Maria=(("cocktail",) * 6, [("speakeasy", 1)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.controller(Token.SPEAKEASY) == 0 and s.phase is Phase.BIDS and s.round == 2
        assert player_view(s, None)["tokens"][1]["controller"] == "Maria"

    def test_won_again_up_to_three_dice_are_exchanged_for_as_many_of_its_own(self):
        """ "you may exchange up to three dice from your stash with an equal number of dice
        from this" token."""
        s = arrange(three({"Maria": [1, 0, 0]}), control={Token.SPEAKEASY: "Maria"})
        s = play_round(
            s,
            Maria=(("cocktail",) * 6, [("speakeasy", 1)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert waiting_for(s)[0].does == "swap"
        rule = "Influence Tokens: The Speakeasy"
        err = refused(s, Swap("Maria", ("red", "red"), ("white",)), rule)
        assert err.reason == "an exchange takes as many dice as it gives: 2 given, 1 taken"
        err = refused(
            s, Swap("Maria", ("red",) * 2 + ("blue",) * 2, ("white", "red", "blue", "blue")), rule
        )
        assert "up to three dice" in err.reason
        err = refused(s, Swap("Maria", ("red", "red"), ("white", "white")), rule)
        assert err.reason == "the Speakeasy holds 1 white, 1 red, 1 blue, not 2 white"
        after = apply(s, Swap("Maria", ("red", "red", "blue"), ("white", "red", "blue")))
        assert stash(after, "Maria") == Dice(3, 1, 2)
        assert after.speakeasy == Dice(0, 2, 1)
        kept = apply(s, Swap("Maria", (), ()))  # "may": keeping one's dice is a choice
        assert kept.speakeasy == Dice(1, 1, 1) and kept.phase is Phase.BIDS
        assert len(legal_actions(s, "Maria")) == 1 + 3 * 3 + 6 * 3 + 7 * 1  # by size 0-3


class TestTheInvestigator:
    def test_its_first_winner_moves_it_to_their_left_without_placing_dice(self):
        """ "At the start of the game, no player will control the Investigator and the first
        player who wins the bid for this token will move it to the player to their left, but
        will not place any dice on it this time.\""""
        s = play_round(
            three({"Claire": [2, 0, 0]}),
            Maria=(GUNS, [("streets", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 2)]),
        )
        assert s.controller(Token.INVESTIGATOR) == 0  # Maria sits on Claire's left
        assert s.investigator == Dice() and stash(s, "Claire") == Dice(2, 2, 2)

    def test_won_by_its_holder_it_moves_to_their_left_with_its_dice(self):
        """ "if you control it and win it, move it to the player to your left.\""""
        s = arrange(
            three(),
            investigator=Dice(blue=2),
            stash={"Johnny": Dice(2, 2, 0)},
            control={Token.INVESTIGATOR: "Johnny"},
        )
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 0)]),
            Johnny=(("finger",) * 4, [("investigator", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert s.controller(Token.INVESTIGATOR) == 2
        # ... and at the round's end its new holder took one of its dice.
        assert s.investigator == Dice(blue=1) and stash(s, "Claire") == Dice(2, 2, 3)

    def test_won_from_another_player_all_dice_of_a_colour_go_on_it(self):
        """ "If another player has the Investigator and you win it, choose a color and place all
        dice of that color from your stash on top of it.\""""
        s = arrange(three(), control={Token.INVESTIGATOR: "Johnny"})
        s = play_round(
            s,
            Maria=(SIX_FINGERS, [("investigator", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert waiting_for(s)[0].does == "load"
        assert [a.colour for a in legal_actions(s, "Maria")] == ["white", "red", "blue"]
        err = refused(s, Load("Maria", None), "Influence Tokens: The Investigator")
        assert "choose a color and place all dice of that color" in err.reason
        s = apply(s, Load("Maria", "red"))
        assert stash(s, "Maria") == Dice(2, 0, 2) and s.controller(Token.INVESTIGATOR) == 1
        # At the round's end Johnny, who has it, takes one of the two red dice off it.
        assert s.investigator == Dice(red=1) and stash(s, "Johnny") == Dice(2, 3, 2)

    def test_with_one_colour_left_the_dice_go_on_it_without_asking(self):
        s = arrange(three(), stash={"Maria": Dice(red=3)}, control={Token.INVESTIGATOR: "Johnny"})
        s = play_round(
            s,
            Maria=(("finger",) * 3, [("investigator", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert happened(s, What.LOADED)[0].count == 3 and stash(s, "Maria") == Dice()

    def test_a_house_rule_lets_the_winner_decline_to_place_dice(self):
        s = arrange(
            three(rules=HouseRules(investigator_load="optional")),
            stash={"Maria": Dice(red=3)},
            control={Token.INVESTIGATOR: "Johnny"},
        )
        s = play_round(
            s,
            Maria=(("finger",) * 3, [("investigator", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert Load("Maria", None) in legal_actions(s, "Maria")
        assert stash(apply(s, Load("Maria", None)), "Maria") == Dice(red=3)

    def test_its_holder_takes_a_die_off_every_round_whether_it_was_influenced_or_not(self):
        """ "At the end of each round, if there are any dice on the Investigator, the player who
        has this token must take one die off of it ... whether it was influenced or not.\""""
        s = arrange(
            three(),
            investigator=Dice(white=1, blue=2),
            stash={"Claire": Dice(1, 2, 0)},
            control={Token.INVESTIGATOR: "Claire"},
        )
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(("gun",) * 3, [("streets", 0)]),
        )
        assert s.phase is Phase.INVESTIGATOR  # two colours on it: Claire chooses
        assert [a.colour for a in legal_actions(s, "Claire")] == ["white", "blue"]
        err = refused(s, TakeOff("Claire", None), "Influence Tokens: The Lawyer")
        assert "only the Lawyer's controller may leave the dice" in err.public
        refused(s, TakeOff("Maria", "white"), "Influence Tokens: The Investigator")
        err = refused(s, TakeOff("Claire", "red"), "Influence Tokens: The Investigator")
        assert err.reason == "there is no red die on the Investigator (it holds 1 white, 2 blue)"
        s = apply(s, TakeOff("Claire", "blue"))
        assert s.investigator == Dice(white=1, blue=1) and stash(s, "Claire") == Dice(1, 2, 1)
        assert s.round == 2


class TestGainingAndLosingDice:
    """A player wins one token a round with one bid; with two (the 2-player game) they may win
    the Speakeasy and then give dice to the Streets or the Investigator in the same round."""

    def test_dice_on_the_tokens_are_not_in_anyones_stash(self):
        """ "even if these tokens are under your control, the dice on them do not count as
        being in your stash.\""""
        s = arrange(
            three(),
            streets=Dice(red=2),
            stash={"Maria": Dice(2, 0, 2)},
            control={Token.STREETS: "Maria"},
        )
        assert player_view(s, None)["players"][0]["dice"] == 4

    def test_a_die_received_at_the_speakeasy_cannot_go_on_the_streets_that_round(self):
        """ "Since the exchange of dice happens simultaneously, you may never give away dice
        you received on the same round you received them.\""""
        s = arrange(
            two({"Maria": [2, 2, 0]}),
            stash={"Maria": Dice(0, 2, 2)},
            control={Token.SPEAKEASY: "Maria", Token.STREETS: "Maria"},
        )
        s = play_round(
            s,
            Maria=(("cocktail", "cocktail", "gun", "gun"), [("speakeasy", 2), ("streets", 2)]),
            Johnny=(("gavel",) * 3 + ("finger",) * 3, [("lawyer", 0), ("investigator", 0)]),
        )
        assert [t.task for t in s.tasks] == [Task.SWAP, Task.STREETS]
        s = apply(s, Swap("Maria", ("red",), ("white",)))
        assert s.players[0].received == Dice(white=1) and s.givable(0) == Dice(0, 1, 2)
        err = refused(s, PlaceOnStreets("Maria", "white"), "Gaining and Losing Dice")
        assert err.reason == (
            "Maria received 1 white this round: you may never give away "
            "dice you received on the same round"
        )
        assert [a.colour for a in legal_actions(s, "Maria")] == [None, "red", "blue"]
        s = apply(s, PlaceOnStreets("Maria", "red"))
        assert stash(s, "Maria") == Dice(1, 0, 2) and s.streets == Dice(red=1)

    def test_all_dice_of_a_colour_on_the_investigator_leaves_the_ones_just_received(self):
        s = arrange(
            two({"Maria": [2, 2, 0]}),
            stash={"Maria": Dice(1, 2, 2)},
            control={Token.SPEAKEASY: "Maria", Token.INVESTIGATOR: "Johnny"},
        )
        s = play_round(
            s,
            Maria=(("cocktail",) * 3 + ("finger",) * 2, [("speakeasy", 2), ("investigator", 2)]),
            Johnny=(("gavel",) * 3 + ("gun",) * 3, [("lawyer", 0), ("streets", 0)]),
        )
        assert [t.task for t in s.tasks] == [Task.SWAP, Task.LOAD]
        s = apply(s, Swap("Maria", ("red",), ("white",)))
        s = apply(s, Load("Maria", "white"))
        # One white die (hers since the round began) went on; the one received stayed.
        assert stash(s, "Maria") == Dice(1, 1, 2)
        # Johnny, who has it and now controls the Lawyer, may take that die off or leave it.
        assert s.phase is Phase.INVESTIGATOR and s.investigator == Dice(white=1)
        s = apply(s, TakeOff("Johnny", "white"))
        assert stash(s, "Johnny") == Dice(3, 2, 2) and s.round == 2


class TestDrawing:
    def test_each_player_discards_the_card_they_played_and_draws_a_new_one(self):
        """ "Each player discards the favor card they played and draws a new one.\""""
        s = three({"Maria": [3, 0, 0]})
        top = s.deck[:3]
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 3)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.discard == (0, 0, 3) and s.deck == table(THREE, {"Maria": [3, 0, 0]}).deck[3:]
        assert hand(s, "Maria") == sorted([0, 0, top[0]])
        assert [p.hand_size for p in s.players] == [3, 3, 3]

    def test_when_the_deck_runs_out_the_discard_pile_is_shuffled_into_a_new_one(self):
        s = three({"Maria": [3, 0, 0]})
        s = replace(s, deck=(2,), discard=(1,) * 5)  # one card left in the deck
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 3)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(SIX_FINGERS, [("investigator", 0)]),
        )
        assert s.phase is Phase.DRAW and s.to_shuffle == (0, 0, 1, 1, 1, 1, 1, 3)
        assert hand(s, "Maria") == [0, 0, 2] and s.draws == (0, 1, 1)
        assert "the discard pile (8 cards) is shuffled" in " ".join(
            GANGSTER_DICE.narrate(s, Shuffle(()), s, None)[1:]
        )
        s = apply(s, Shuffle((3, 1, 1, 0, 1, 0, 1, 1)))
        assert hand(s, "Johnny") == [0, 1, 3] and hand(s, "Claire") == [0, 1, 1]
        assert s.deck == (1, 0, 1, 0, 1, 1) and s.phase is Phase.BIDS and s.round == 2


class TestEndOfGame:
    def test_an_empty_stash_at_the_end_of_a_round_wins(self):
        """ "If at the end of any round you have no dice left in your stash, the game ends and
        you are the winner.\""""
        s = arrange(three(), stash={"Maria": Dice(red=2)}, control={Token.INVESTIGATOR: "Johnny"})
        s = play_round(
            s,
            Maria=(("finger",) * 2, [("investigator", 0)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert s.is_over and s.winners == (0,) and GANGSTER_DICE.score(s)["winners"] == ["Maria"]
        assert player_view(s, None)["end"] == "Maria has no dice left"
        err = refused(s, Roll.of("Johnny", {"white": [1]}), "End of Game")
        assert err.reason == "the game is over: nothing more is played"

    def test_several_players_may_win_at_once(self):
        """ "Multiple players may win simultaneously if they run out of dice on the same
        round.\""""
        s = arrange(
            two({"Maria": [1, 1, 0]}),
            stash={"Maria": Dice(red=1), "Johnny": Dice(blue=1)},
            investigator=Dice(white=1),
            control={Token.LAWYER: "Maria", Token.STREETS: "Maria", Token.INVESTIGATOR: "Maria"},
        )
        s = play_round(
            s, Maria=(("gun",), [("streets", 1)]), Johnny=(("finger",), [("investigator", 0)])
        )
        s = apply(s, PlaceOnStreets("Maria", "red"))  # her last die; Johnny's goes on the
        assert stash(s, "Johnny") == Dice() and s.phase is Phase.INVESTIGATOR  # Investigator
        s = apply(s, TakeOff("Maria", None))  # the Lawyer lets Maria leave them there
        assert s.is_over and s.winners == (0, 1)
        assert GANGSTER_DICE.score(s)["winners"] == ["Maria", "Johnny"]
        assert player_view(s, None)["end"] == "Maria and Johnny have no dice left"

    def test_the_investigators_holder_takes_a_die_before_the_winners_are_called(self):
        s = arrange(
            three(),
            stash={"Claire": Dice(red=1)},
            investigator=Dice(blue=1),
            control={Token.INVESTIGATOR: "Claire", Token.STREETS: "Claire"},
        )
        s = play_round(
            s,
            Maria=(GUNS, [("lawyer", 0)]),
            Johnny=(GUNS, [("lawyer", 0)]),
            Claire=(("gun",), [("streets", 0)]),
        )
        s = apply(s, PlaceOnStreets("Claire", "red"))
        assert stash(s, "Claire") == Dice(blue=1) and not s.is_over
