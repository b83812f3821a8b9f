"""The favor cards: held by the companion on the phones (the default), or kept as real cards by
players who enter only what they reveal ("physical" cards)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gd_table import arrange, bid, bid_action, hand, play_round, roll, table

from companion.games.gangster_dice import (
    GANGSTER_DICE,
    CardsMode,
    HouseRules,
    Phase,
    RuleViolation,
    Token,
    apply,
    player_view,
)

THREE = ("Maria", "Johnny", "Claire")
GUNS = ("gun", "gun", "gun", "finger", "finger", "gavel")
FINGERS = ("finger",) * 6


class TestTheCompanionHoldsTheCards:
    def test_each_hand_is_on_its_players_phone_alone(self):
        s = table(THREE, {"Maria": [3, 1, 0]})
        assert player_view(s, "Maria")["you"]["hand"] == [0, 1, 3]
        for viewer in (None, "Johnny"):
            view = player_view(s, viewer)
            assert view.get("you", {}).get("name") != "Maria"
            assert view["players"][0]["hand"] == 3  # the size is on the table, not the cards
        assert "you" not in player_view(s, None)

    def test_a_player_is_told_the_cards_they_draw_and_nobody_else_is(self):
        s = table(THREE, {"Maria": [3, 1, 0]})
        top = s.deck[0]
        before = bid(
            roll(roll(roll(s, "Maria", *GUNS), "Johnny", *GUNS), "Claire", *FINGERS),
            "Maria",
            ("streets", 3),
        )
        before = bid(before, "Johnny", ("streets", 0))
        after = apply(before, bid_action("Claire", ("investigator", 0)))
        mine = GANGSTER_DICE.narrate(
            before, bid_action("Claire", ("investigator", 0)), after, "Maria"
        )
        table_says = GANGSTER_DICE.narrate(
            before, bid_action("Claire", ("investigator", 0)), after, None
        )
        assert f"Everyone draws 1 favor card. You draw a {top}." in mine
        assert "Everyone draws 1 favor card." in table_says
        assert not any("You draw" in line for line in table_says)


class TestPhysicalCards:
    def test_no_shuffle_and_no_hands_are_kept(self):
        s = table(THREE, cards=CardsMode.PHYSICAL)
        assert s.phase is Phase.BIDS and not s.shuffle_due and s.deck == ()
        assert [(p.hand, p.unknown) for p in s.players] == [((), 3)] * 3
        view = player_view(s, "Maria")
        assert view["favor"]["deck"] is None and view["you"]["unknown"] == 3

    def test_players_enter_the_favor_they_reveal(self):
        s = table(THREE, cards=CardsMode.PHYSICAL)
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 3)]),
            Johnny=(GUNS, [("streets", 2)]),
            Claire=(FINGERS, [("investigator", 1)]),
        )
        assert [b.score for b in s.reveal.bids] == [6, 5, 7]
        assert s.controller(Token.STREETS) == 0
        assert [p.hand_size for p in s.players] == [3, 3, 3]  # each drew a real card

    def test_a_plus_four_is_played_only_by_a_player_who_took_one(self):
        s = roll(table(THREE, cards=CardsMode.PHYSICAL), "Maria", *GUNS)
        with pytest.raises(RuleViolation) as err:
            apply(s, bid_action("Maria", ("streets", 4)))
        assert err.value.rule == "Influence Tokens: The Lawyer"
        assert "one is taken by winning the Lawyer again" in err.value.reason

    def test_the_lawyer_won_again_puts_a_known_plus_four_in_the_hand(self):
        s = arrange(table(THREE, cards=CardsMode.PHYSICAL), control={Token.LAWYER: "Maria"})
        s = play_round(
            s,
            Maria=(("gavel",) * 6, [("lawyer", 2)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(FINGERS, [("investigator", 0)]),
        )
        maria = s.players[0]
        assert (maria.hand, maria.unknown, s.special) == ((4,), 2, 5)
        assert player_view(s, None)["players"][0]["fours"] == 1
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 4)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(GUNS, [("streets", 0)]),
        )
        assert s.reveal.bids[0].score == 7
        assert (s.players[0].hand, s.players[0].unknown, s.special) == ((), 3, 6)

    def test_a_plus_four_on_the_discard_pile_may_come_back_from_the_real_deck(self):
        rules = HouseRules(spent_fours="discard")
        s = arrange(
            table(THREE, cards=CardsMode.PHYSICAL, rules=rules), control={Token.LAWYER: "Maria"}
        )
        s = replace(
            s,
            players=tuple(
                replace(p, hand=(4,), unknown=2) if i == 0 else p for i, p in enumerate(s.players)
            ),
            special=5,
        )
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 4)]),
            Johnny=(GUNS, [("streets", 0)]),
            Claire=(FINGERS, [("investigator", 0)]),
        )
        assert s.loose_fours == 1 and s.special == 5
        # Anyone may have drawn it: Johnny plays a +4 the companion never saw him take.
        s = play_round(
            s,
            Maria=(GUNS, [("streets", 0)]),
            Johnny=(GUNS, [("streets", 4)]),
            Claire=(FINGERS, [("investigator", 0)]),
        )
        assert s.reveal.bids[1].favor == 4
        assert s.loose_fours == 1 and s.special == 5  # ... and it is back on the discard pile


class TestTheShuffleIsInTheRecord:
    def test_a_game_replays_to_the_same_hands(self):
        import random

        from gd_table import FILES

        from companion.records import dump_record, parse_record, replay
        from companion.simulate import random_setup

        rng = random.Random(9)
        setup = GANGSTER_DICE.setup_from_dict(random_setup(3, None, GANGSTER_DICE.id))
        state = GANGSTER_DICE.new_game(setup, FILES)
        actions = []
        for _ in range(40):
            action = GANGSTER_DICE.random_action(state, rng)
            actions.append(action)
            state = apply(state, action)
        text = dump_record(setup, actions)
        assert '{"type": "shuffle", "order": [' in text.splitlines()[1]
        again = replay(parse_record(text), FILES)
        assert again == state and [hand(again, n) for n in ("Maria", "Johnny", "Claire")] == [
            hand(state, n) for n in ("Maria", "Johnny", "Claire")
        ]
