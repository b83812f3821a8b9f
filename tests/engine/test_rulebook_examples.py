"""Every worked example of the rulebook, in its own words where possible."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario import arrange, faces, favor_spots, muscle_pos, soldiers_total, table

from companion.games.new_don import (
    NEW_DON,
    ChooseFavorSpot,
    Claim,
    HouseRules,
    KeepVegas,
    MuscleOut,
    Pass,
    Phase,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    Roll,
    RuleViolation,
    TakeFavor,
    UseFavor,
    VegasRoll,
    apply,
    player_view,
    score_position,
)
from companion.games.new_don.narrate import narrate


def play(state, *actions):
    for a in actions:
        state = apply(state, a)
    return state


def rolled_and_revealed(godfather="Vincent"):
    """Round 1 after every roll and favor; Vincent is the Godfather, so Maria is offered first."""
    s = table(godfather=godfather)
    return play(
        s,
        Roll("Maria", (5, 5, 2, 3, 1)),
        Roll("Johnny", (2, 2, 6, 4, 1)),
        Roll("Claire", (3, 3, 4, 5, 6)),
        Roll("Vincent", (6, 6, 6, 1, 2)),
        RevealFavor("Maria", 5),
        RevealFavor("Johnny", 6),
        RevealFavor("Claire", 6),
    )


class TestVegas:
    def test_maria_takes_both_fours_and_locks_them(self):
        """Maria has a Soldier token on the 4 and 6 in Vegas. The Godfather rolls two 4s and a 5.
        Maria takes the two 4s, reclaims her Soldier token, and leaves both dice as 4s."""
        s = arrange(table(godfather="Johnny"), vegas={4: "Maria", 6: "Maria"})
        s = replace(s, phase=Phase.VEGAS, round=2)
        house = s.players[0].house
        s = apply(s, VegasRoll("Johnny", (4, 4, 5)))
        maria = s.players[s.seat("Maria")]
        assert maria.vegas_taken == (4, 4)
        assert maria.house == house + 1  # the soldier on 4 went home
        assert s.vegas[s.board.vegas_spots.index(6)] == s.seat("Maria")  # the 6 stays
        assert s.vegas[s.board.vegas_spots.index(4)] is None
        s = apply(s, KeepVegas("Maria", (4, 4)))
        assert s.phase is Phase.ROLL
        assert s.players[0].to_roll == 5  # her own five; the locked 4s are not rolled
        s = apply(s, Roll("Maria", (1, 2, 3, 5, 6)))
        assert faces(s, "Maria") == [1, 2, 3, 4, 4, 5, 6]

    def test_unlocked_vegas_dice_are_rolled_with_the_pool(self):
        s = arrange(table(godfather="Johnny"), vegas={4: "Maria"})
        s = play(
            replace(s, phase=Phase.VEGAS, round=2),
            VegasRoll("Johnny", (4, 4, 5)),
            KeepVegas("Maria", (4,)),
        )
        assert s.players[0].to_roll == 6

    def test_the_godfather_claims_his_own_bets(self):
        """The Godfather can also claim/lock these dice if he had placed Soldier tokens in Vegas."""
        s = arrange(table(godfather="Johnny"), vegas={5: "Johnny"})
        s = apply(replace(s, phase=Phase.VEGAS, round=2), VegasRoll("Johnny", (4, 4, 5)))
        assert s.players[s.seat("Johnny")].vegas_taken == (5,)

    def test_nobody_else_sees_which_dice_were_locked(self):
        s = arrange(table(godfather="Johnny"), vegas={4: "Maria"})
        s = apply(replace(s, phase=Phase.VEGAS, round=2), VegasRoll("Johnny", (4, 4, 5)))
        locked = apply(s, KeepVegas("Maria", (4, 4)))
        rolled = apply(s, KeepVegas("Maria", ()))
        for viewer in ("Johnny", "Claire", "Vincent", None):
            assert player_view(locked, viewer) == player_view(rolled, viewer)
        assert player_view(locked, "Maria") != player_view(rolled, "Maria")

    def test_only_the_godfather_rolls_vegas(self):
        s = replace(arrange(table(godfather="Johnny"), vegas={4: "Maria"}), phase=Phase.VEGAS)
        with pytest.raises(RuleViolation, match=r"Johnny, rolls the Vegas dice \(Vegas\)"):
            apply(s, VegasRoll("Maria", (1, 2, 3)))

    def test_vegas_is_skipped_in_round_one(self):
        """The rulebook: "1. Vegas: The Godfather rolls Vegas dice (skip on the first turn)"."""
        s = table(godfather="Johnny")
        assert s.phase is Phase.ROLL
        with pytest.raises(RuleViolation, match=r"round 1 has no Vegas phase.*\(Vegas\)"):
            apply(s, VegasRoll("Johnny", (1, 2, 3)))

    def test_the_red_dice_a_table_rolls_with_nobody_in_vegas_are_accepted(self):
        """ "1. Vegas: The Godfather rolls Vegas dice (skip on the first turn)." A table starts
        every later round by rolling the red dice, even when nobody has a Soldier token in
        Vegas: the engine skipped the phase (nothing could happen), but the roll the table
        makes is recorded, wins nothing, and the round goes on."""
        s = replace(table(godfather="Johnny"), round=2)
        assert all(v is None for v in s.vegas) and s.phase is Phase.ROLL
        with pytest.raises(RuleViolation, match=r"Johnny, rolls the Vegas dice \(Vegas\)"):
            apply(s, VegasRoll("Maria", (1, 2, 3)))
        after = apply(s, VegasRoll("Johnny", (4, 4, 5)))
        assert after.phase is Phase.ROLL and after.vegas_faces == (4, 4, 5)
        assert [p.vegas_taken for p in after.players] == [()] * 4
        assert [p.house for p in after.players] == [p.house for p in s.players]
        assert after.players == s.players
        assert narrate(s, VegasRoll("Johnny", (4, 4, 5)), after)[-1] == (
            "  Nobody has a soldier in Vegas: the roll wins nothing (Vegas)."
        )
        with pytest.raises(RuleViolation, match=r"already rolled: 4-4-5 \(Vegas\)"):
            apply(after, VegasRoll("Johnny", (1, 2, 3)))
        # The round plays on as before: everyone rolls.
        after = apply(after, Roll("Maria", (1, 2, 3, 4, 5)))
        assert faces(after, "Maria") == [1, 2, 3, 4, 5]


class TestOffer:
    def test_take_the_favor(self):
        """Maria's favor was a 5 and the Godfather has accepted it, so Maria places one of her
        Soldier tokens on the 5 on the Favor track."""
        s = rolled_and_revealed()
        assert s.phase is Phase.OFFER and s.name(s.offer_target) == "Maria"
        s = apply(s, TakeFavor("Vincent", "Maria"))
        assert favor_spots(s, "Maria") == {5: 1, 6: 1}
        assert faces(s, "Maria") == [1, 2, 3, 5]
        assert s.players[s.seat("Vincent")].collected == (5,)
        assert faces(s, "Vincent") == [1, 2, 5, 6, 6, 6]

    def test_requested_die_must_be_handed_over_and_the_player_picks_the_spot(self):
        """If that player has a die with the requested number, they MUST give it; they then
        place a soldier on the requested number or the number they originally offered."""
        s = play(
            rolled_and_revealed(),
            TakeFavor("Vincent", "Maria"),
            Pass("Maria"),
            Request("Vincent", "Johnny", 2),
        )
        assert faces(s, "Johnny") == [1, 2, 4, 6]
        assert s.players[s.seat("Johnny")].gave == 2
        with pytest.raises(RuleViolation, match=r"spot 2 or 6, not 3 \(Offer B.a\)"):
            apply(s, ChooseFavorSpot("Johnny", 3))
        s = apply(s, ChooseFavorSpot("Johnny", 2))
        assert favor_spots(s, "Johnny") == {2: 1, 6: 1}

    def test_proof_of_absence_is_checked_not_trusted(self):
        """If the player does NOT have the number, no die is given, and the soldier goes on the
        number they revealed. The engine knows the dice, so nobody has to show them."""
        s = play(
            rolled_and_revealed(),
            TakeFavor("Vincent", "Maria"),
            Pass("Maria"),
            Request("Vincent", "Johnny", 2),
            ChooseFavorSpot("Johnny", 2),
            Pass("Johnny"),
            Request("Vincent", "Claire", 1),
        )
        claire = s.players[s.seat("Claire")]
        assert faces(s, "Claire") == [3, 3, 4, 5, 6]
        assert claire.absent == (1,)
        assert favor_spots(s, "Claire") == {6: 2}
        # What the table learns is only "Claire has no 1", never her dice.
        view = player_view(s, "Maria")["players"][2]
        assert view["absent"] == [1] and "dice" not in view

    def test_free_reroll_after_the_offer_and_none_for_the_godfather(self):
        s = play(rolled_and_revealed(), TakeFavor("Vincent", "Maria"))
        with pytest.raises(RuleViolation, match="Godfather does not receive a free reroll"):
            apply(s, Reroll("Vincent", (6,)))
        s = apply(s, Reroll("Maria", (1, 2)))
        assert s.players[0].to_roll == 2
        with pytest.raises(RuleViolation, match="roll the dice first"):
            apply(s, Pass("Maria"))
        s = apply(s, Roll("Maria", (6, 6)))
        assert faces(s, "Maria") == [3, 5, 6, 6]
        assert s.name(s.offer_target) == "Johnny"

    def test_a_player_who_holds_the_number_cannot_pass_but_picks_a_favor_spot(self):
        """Offer B.a: "If that player has a die with the requested number, then they MUST give
        that die to the Godfather—it was an offer they couldn't refuse! That player then places
        one of their Soldier tokens on one of two spots on the Favor track." A pass there is
        told what to do, not that there is "nothing to pass on"."""
        s = play(
            rolled_and_revealed(),
            TakeFavor("Vincent", "Maria"),
            Pass("Maria"),
            Request("Vincent", "Johnny", 2),
        )
        with pytest.raises(RuleViolation) as err:
            apply(s, Pass("Johnny"))
        assert str(err.value) == (
            "Johnny had a 2, so it went to the Godfather (an offer you can't refuse): now put a "
            "soldier on Favor spot 2 or 6 (Offer B.a)"
        )
        with pytest.raises(RuleViolation, match=r"it is Johnny's offer: Claire has nothing"):
            apply(s, Pass("Claire"))
        s = play(s, ChooseFavorSpot("Johnny", 6), Pass("Johnny"))
        with pytest.raises(RuleViolation, match=r"has not made Claire an offer yet: wait"):
            apply(s, Pass("Claire"))
        with pytest.raises(RuleViolation, match=r"take Claire's favor or name a number"):
            apply(s, Pass("Vincent"))

    def test_offers_go_clockwise_from_the_godfathers_left(self):
        s = rolled_and_revealed()
        with pytest.raises(RuleViolation, match="it is Maria's turn, not Claire's"):
            apply(s, TakeFavor("Vincent", "Claire"))


class TestResolution:
    def test_claire_goes_for_the_3_4_5_run_in_district_three(self):
        """Claire has a pair of 3s, a 4, and a 5 left. She elects to go for the 3-4-5 run in
        District Three."""
        s = arrange(table(godfather="Vincent"), turn="Claire", dice={"Claire": [3, 3, 4, 5]})
        s = apply(s, Claim("Claire", "3e", (3, 4, 5)))
        assert s.neighborhoods[s.board.index("3e")] == s.seat("Claire")
        assert faces(s, "Claire") == [3]
        with pytest.raises(RuleViolation, match=r"3A needs pair of 3s; 3 is not that set"):
            apply(s, Claim("Claire", "3a", (3,)))

    def test_maria_on_d_muscles_johnny_on_b_out_of_district_two(self):
        """Maria is on the letter D of the Muscle track. Johnny is on the letter B. Maria Muscles
        Johnny's token out of District Two, placing his token on the Ability Two section."""
        s = arrange(
            table(godfather="Vincent"),
            turn="Maria",
            dice={"Maria": [2, 2, 5]},
            muscle={"Maria": "D", "Johnny": "B"},
            held={"2a": "Johnny", "2b": "Claire", "2c": "Claire", "2d": "Claire"},
        )
        before = soldiers_total(s, "Johnny")
        s = apply(s, MuscleOut("Maria", "2a", (2, 2)))
        assert s.neighborhoods[s.board.index("2a")] == s.seat("Maria")
        assert favor_spots(s, "Johnny") == {2: 1, 6: 1}
        assert soldiers_total(s, "Johnny") == before

    def test_only_a_higher_player_can_muscle(self):
        s = arrange(
            table(godfather="Vincent"),
            turn="Johnny",
            dice={"Johnny": [2, 2]},
            muscle={"Maria": "D", "Johnny": "B"},
            held={"2a": "Maria", "2b": "Claire", "2c": "Claire", "2d": "Claire"},
        )
        with pytest.raises(RuleViolation) as err:
            apply(s, MuscleOut("Johnny", "2a", (2, 2)))
        assert str(err.value) == (
            "Johnny is on B and Maria on D: only a player higher on the Muscle track can muscle "
            "someone out (Resolution B.ii)"
        )

    def test_zero_zone_cannot_muscle_and_letters_beat_the_zero_zone(self):
        s = arrange(
            table(godfather="Vincent"),
            turn="Johnny",
            dice={"Johnny": [2, 2]},
            muscle={"Johnny": "Zero Zone", "Maria": "Zero Zone"},
            held={"2a": "Maria", "2b": "Claire", "2c": "Claire", "2d": "Claire"},
        )
        with pytest.raises(
            RuleViolation,
            match=r"Zero Zone: a player there cannot muscle anyone "
            r"out \(Resolution B.ii.d\)",
        ):
            apply(s, MuscleOut("Johnny", "2a", (2, 2)))
        s = arrange(s, muscle={"Johnny": "A"})
        s = apply(s, MuscleOut("Johnny", "2a", (2, 2)))
        assert s.neighborhoods[s.board.index("2a")] == s.seat("Johnny")

    def test_no_muscling_while_an_empty_neighborhood_takes_the_set(self):
        s = arrange(
            table(godfather="Vincent"),
            turn="Maria",
            dice={"Maria": [2, 2]},
            muscle={"Maria": "D", "Johnny": "B"},
            held={"2a": "Johnny"},
        )
        with pytest.raises(RuleViolation, match=r"2b, 2c, 2d are empty and take 2-2"):
            apply(s, MuscleOut("Maria", "2a", (2, 2)))

    def test_johnny_climbs_from_b_to_4(self):
        """Johnny is on the letter B and spends a die showing a 4 to climb from the letter B to
        the number 4. If Maria wants to outmuscle him, she'll have to spend 5 or more."""
        s = arrange(
            table(godfather="Vincent"),
            turn="Johnny",
            dice={"Johnny": [4], "Maria": [4]},
            muscle={"Johnny": "B", "Maria": "D", "Vincent": "3"},
        )
        s = play(s, Recruit("Johnny", (4,)), Pass("Johnny"))
        assert s.players[s.seat("Johnny")].muscle == muscle_pos(s, "4")
        # Maria spending 4 would land on Johnny's 4: she takes the next empty space to the left,
        # which is 2, since the Godfather sits on the red 3.
        maria_four = apply(replace(s, turn=s.seat("Maria")), Recruit("Maria", (4,)))
        assert maria_four.players[0].muscle == muscle_pos(s, "2")
        s5 = arrange(s, dice={"Maria": [5]})
        assert apply(replace(s5, turn=0), Recruit("Maria", (5,))).players[0].muscle == muscle_pos(
            s, "5"
        )

    def test_johnny_uses_favor_two_to_add_or_subtract_one(self):
        """Due to Maria Muscling him out, Johnny has a Soldier token on the number 2 on the Favor
        track and can now add or subtract one from the value of one of his dice."""
        s = arrange(
            table(godfather="Vincent"),
            turn="Johnny",
            dice={"Johnny": [4, 1]},
            favors={"Johnny": {2: 1, 6: 1}},
        )
        house = s.players[1].house
        with pytest.raises(RuleViolation, match=r"turns a 4 into 3 or 5"):
            apply(s, UseFavor("Johnny", 2, die=4, to=6))
        # "(1 is low, 6 is high.)": a 1 cannot become a 0, nor a 6 a 7. That is the rule's
        # refusal, named, not a malformed move.
        with pytest.raises(RuleViolation) as err:
            apply(s, UseFavor("Johnny", 2, die=1, to=0))
        assert str(err.value) == (
            "+/-1 turns a 1 into 2 (1 is low, 6 is high), not 0 (Appendix: +/-1 to a die)"
        )
        six = arrange(s, dice={"Johnny": [6, 1]})
        with pytest.raises(
            RuleViolation,
            match=r"turns a 6 into 5 \(1 is low, 6 is high\), "
            r"not 7 \(Appendix: \+/-1 to a die\)",
        ):
            apply(six, UseFavor("Johnny", 2, die=6, to=7))
        s = apply(s, UseFavor("Johnny", 2, die=4, to=3))
        assert faces(s, "Johnny") == [1, 3]
        assert favor_spots(s, "Johnny") == {6: 1}
        assert s.players[1].house == house + 1  # the soldier went back to the House

    def test_the_godfather_only_claims_and_muscles(self):
        s = arrange(
            table(godfather="Vincent"),
            turn="Vincent",
            dice={"Vincent": [4, 1]},
            favors={"Vincent": {2: 1}},
        )
        with pytest.raises(RuleViolation, match="Godfather, who can only claim"):
            apply(s, Recruit("Vincent", (4,)))
        with pytest.raises(RuleViolation, match="cannot use favors"):
            apply(s, UseFavor("Vincent", 2, die=4, to=3))


class TestCleanUp:
    def test_reorganization_example(self):
        """Vincent is in the Zero Zone, Maria on C, Johnny on 4, Claire on 5. After
        reorganization Vincent is still in the Zero Zone, Maria slides to A, Johnny to B, and
        Claire, the next Godfather, goes on the red 3."""
        s = arrange(
            table(godfather="Vincent"),
            turn="Claire",
            muscle={"Vincent": "Zero Zone", "Maria": "C", "Johnny": "4", "Claire": "5"},
        )
        s = apply(s, Pass("Claire"))
        track = s.board.muscle_track
        labels = {p.name: track.label(p.muscle) for p in s.players}
        assert labels == {"Vincent": "Zero Zone", "Maria": "A", "Johnny": "B", "Claire": "3"}
        assert s.name(s.godfather) == "Claire"
        assert s.round == 2 and s.phase is Phase.ROLL  # no bets in Vegas, so nothing to roll
        assert all(p.dice == () and p.favor is None for p in s.players)

    def test_the_game_ends_when_a_district_is_full(self):
        s = arrange(
            table(godfather="Vincent"), turn="Claire", held={f"1{x}": "Maria" for x in "abcdefgh"}
        )
        s = apply(s, Pass("Claire"))
        assert s.phase is Phase.GAME_OVER
        assert player_view(s, None)["end"] == "District One is full"

    def test_the_game_ends_when_a_house_is_empty(self):
        s = arrange(table(godfather="Vincent"), turn="Claire", house={"Johnny": 0})
        s = apply(s, Pass("Claire"))
        assert s.phase is Phase.GAME_OVER


SEVEN_FOUR_TWO = {3: {"Vincent": 3, "Maria": 2, "Claire": 2, "Johnny": 1}}
NAMES = ["Vincent", "Maria", "Claire", "Johnny"]


def district_three(counts, rules=None):
    rules = rules or HouseRules()
    board = table().board
    s = score_position(board, NAMES, counts, {}, [], rules)
    return s.districts[2].points


class TestScoring:
    def test_tied_players_score_the_next_lower_place(self):
        """Vincent is awarded seven points, while both Maria and Claire tie and score two points
        each instead of four. This leaves poor Johnny out in the cold."""
        assert district_three(SEVEN_FOUR_TWO) == {
            "Vincent": 7,
            "Maria": 2,
            "Claire": 2,
            "Johnny": 0,
        }

    def test_tie_for_first_bumps_everyone_down(self):
        """If Claire had tied with Vincent instead of Maria, Vincent and Claire would score four
        points each, and Maria would still score two. Johnny is still bumped out."""
        counts = {3: {"Vincent": 3, "Claire": 3, "Maria": 2, "Johnny": 1}}
        assert district_three(counts) == {"Vincent": 4, "Claire": 4, "Maria": 2, "Johnny": 0}

    def test_keep_your_friends_close_variant(self):
        """The variant: "When scoring for each district, all players tied for the most
        neighborhoods will get points equal to the first number in the scoring indicator for
        that district. Then all players tied for second most neighborhoods will get points
        equal to the second number ...", worded for districts."""
        rules = HouseRules(scoring="friends_close")
        assert district_three(SEVEN_FOUR_TWO, rules) == {
            "Vincent": 7,
            "Maria": 4,
            "Claire": 4,
            "Johnny": 2,
        }

    def test_the_variant_is_for_districts_and_the_house_keeps_its_tie_rule(self):
        """The variant says "When scoring for each district"; the House says "Ties work the same
        as they do when scoring districts—tied players earn a number of points equal to the next
        lower place". So by default the House keeps that rule under the variant, and the house
        rule friends_close_house scores it the variant's way too."""
        board = table().board
        house = {"Vincent": 5, "Maria": 5, "Claire": 3, "Johnny": 2}
        variant = HouseRules(scoring="friends_close")
        s = score_position(board, NAMES, SEVEN_FOUR_TWO, house, [], variant)
        assert s.districts[2].points == {"Vincent": 7, "Maria": 4, "Claire": 4, "Johnny": 2}
        assert s.house.points == {"Vincent": 2, "Maria": 2, "Claire": 1, "Johnny": 0}
        both = HouseRules(scoring="friends_close", friends_close_house=True)
        s = score_position(board, NAMES, SEVEN_FOUR_TWO, house, [], both)
        assert s.house.points == {"Vincent": 3, "Maria": 3, "Claire": 2, "Johnny": 1}

    def test_records_from_before_the_option_keep_the_variant_on_the_house(self):
        """Records written before the game protocol name no game; that engine scored the House
        the variant's way, so they replay to the scores the table was given. Lines written
        since name their game and mean what they say."""
        old = {"type": "setup", "players": NAMES, "options": {"scoring": "friends_close"}}
        setup = NEW_DON.setup_from_dict(old)
        assert setup.options.friends_close_house is True
        assert setup.to_dict()["options"] == {
            "scoring": "friends_close",
            "friends_close_house": True,
        }
        now = NEW_DON.setup_from_dict({**old, "game": "new-don"})
        assert now.options.friends_close_house is False
        assert NEW_DON.setup_from_dict(now.to_dict()) == now
        assert NEW_DON.setup_from_dict(setup.to_dict()) == setup

    def test_house_bonus_ties_work_the_same_way(self):
        board = table().board
        s = score_position(
            board, NAMES, {}, {"Vincent": 5, "Maria": 5, "Claire": 3, "Johnny": 2}, [], HouseRules()
        )
        assert s.house.points == {"Vincent": 2, "Maria": 2, "Claire": 1, "Johnny": 0}

    def test_three_way_ties_follow_the_house_rule(self):
        counts = {3: {"Vincent": 2, "Maria": 2, "Claire": 2, "Johnny": 1}}
        assert district_three(counts) == {"Vincent": 2, "Maria": 2, "Claire": 2, "Johnny": 0}
        assert district_three(counts, HouseRules(tie_block="next_place")) == {
            "Vincent": 4,
            "Maria": 4,
            "Claire": 4,
            "Johnny": 2,
        }

    def test_final_tie_goes_to_the_highest_on_the_muscle_track(self):
        board = table().board
        counts = {3: {"Vincent": 1, "Maria": 1}}
        s = score_position(board, NAMES, counts, {}, ["Maria", "Vincent"], HouseRules())
        assert s.totals["Vincent"] == s.totals["Maria"]
        assert s.winners == ("Maria",)
        assert "highest on the Muscle track" in s.tie_break
