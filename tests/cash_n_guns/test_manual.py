"""The manual's game turn, step by step, and its end, in its own words where possible.

Maria, Johnny, Claire and Vincent sit clockwise; Maria holds the desk unless a test says
otherwise. Each refusal is checked for the section it cites and the facts it gives.
"""

from __future__ import annotations

import pytest
from cash_n_guns_table import (
    BANG,
    BANZAI,
    BOX,
    CLICK,
    DOWN,
    aim_all,
    arrange,
    flip,
    load_all,
    play,
    seated,
    start,
    table,
    take,
    turn,
)

from companion.games.cash_n_guns import (
    Aim,
    AimedBy,
    ConfirmAim,
    CourageChoice,
    Discard,
    Flip,
    Load,
    Outcome,
    Phase,
    Privilege,
    Take,
    TakeToken,
    apply,
    legal_actions,
    player_view,
    score,
    waiting_for,
)
from companion.protocol import RuleViolation

EVERYONE_AT_MARIA = {"Maria": "Johnny", "Johnny": "Maria", "Claire": "Maria", "Vincent": "Maria"}
A_RING = {"Maria": "Johnny", "Johnny": "Claire", "Claire": "Vincent", "Vincent": "Maria"}


def refused(state, action, rule: str, *words: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        apply(state, action)
    assert err.value.rule == rule, err.value
    for w in words:
        assert w in err.value.reason, err.value.reason
    return err.value


class TestLoot:
    """1. Loot: "At the beginning of each turn, flip 8 Loot cards face-up, and make sure that
    the New Godfather token is showing its desk available side." """

    def test_the_godfather_flips_eight_cards_and_then_the_bullets_are_chosen(self):
        s = start()
        assert s.phase is Phase.LOOT and waiting_for(s)[0].player == "Maria"
        s = play(s, Flip("Maria", ("bill-5000", "painting")))
        assert s.phase is Phase.LOOT and len(s.table) == 2
        s = flip(s, ["bill-10000"] * 6)
        assert s.phase is Phase.BULLETS and len(s.table) == 8
        assert player_view(s, None)["loot"]["token"] == "available"
        assert sum(s.deck) == 64 - 8

    def test_only_the_godfather_flips_and_never_more_than_eight(self):
        s = start()
        refused(s, Flip("Johnny", ("bill-5000",)), "Game turn, 1. Loot", "Godfather (Maria)")
        s = play(s, Flip("Maria", ("bill-5000",) * 5))
        refused(s, Flip("Maria", ("bill-5000",) * 4), "Game turn, 1. Loot", "3 more", "not 4")

    def test_a_card_the_deck_no_longer_holds_cannot_be_flipped(self):
        s = start()  # the box's deck holds 3 First aid kits
        refused(
            s,
            Flip("Maria", ("first-aid-kit",) * 4),
            "Game turn, 1. Loot",
            "no First aid kit is left",
            "all 3",
        )
        assert s.deck == start().deck  # the refused flip changed nothing

    def test_the_token_shows_its_available_side_each_turn(self):
        s = take(turn(table(), A_RING), "token", *["bill-5000", "bill-10000"])
        assert s.token == s.seat("Maria")
        s = take(s, *s.table)
        assert s.turn == 2 and s.token is None and s.godfather == s.seat("Maria")


class TestBulletCards:
    """2. "Each player secretly chooses a Bullet card ... Be careful, each card can only be
    used once! You have 8 cards, one for each turn." """

    def test_each_player_holds_eight_cards_three_bang_and_five_click(self):
        s = start()
        assert {(p.bangs, p.clicks) for p in s.players} == {(3, 5)}

    def test_a_card_put_down_leaves_the_hand_for_good(self):
        s = arrange(table(), hand={"Maria": (1, 5)})
        s = play(s, Load("Maria", BANG))
        assert (seated(s, "Maria").bangs, seated(s, "Maria").hand) == (0, 5)
        refused(
            s,
            Load("Maria", CLICK),
            "Game turn, 2. Choice of the Bullet card",
            "already put a Bullet card",
        )

    def test_a_card_used_up_cannot_be_chosen_and_the_refusal_is_private(self):
        s = arrange(table(), hand={"Maria": (0, 6)})
        err = refused(
            s,
            Load("Maria", BANG),
            "Game turn, 2. Choice of the Bullet card",
            "no Bang!",
            "only be used once",
            "0 Bang!",
        )
        assert err.public is None  # others may not learn what is left in Maria's hand
        assert Load("Maria", BANG) not in legal_actions(s, "Maria")

    def test_the_guns_come_out_only_once_every_card_is_down(self):
        s = play(table(), Load("Maria", BANG), Load("Johnny", CLICK))
        refused(s, Aim("Maria", "Johnny"), "Game turn, 3. Hold-Up", "choosing a Bullet card")
        assert {w.player for w in waiting_for(s)} == {"Claire", "Vincent"}
        s = play(s, Load("Claire", CLICK), Load("Vincent", CLICK))
        assert s.phase is Phase.HOLD_UP


class TestHoldUp:
    """3. "each player must hold at gunpoint another player ... a player who is too slow will
    not hold anyone up that turn." The companion is told where the foam guns point."""

    def test_a_player_holds_up_another_player_not_themselves(self):
        s = load_all(table())
        refused(s, Aim("Maria", "Maria"), "Game turn, 3. Hold-Up", "another player")

    def test_a_player_too_slow_holds_nobody_up_and_their_card_is_discarded_face_down(self):
        s = turn(table(), {**A_RING, "Vincent": None}, cards={"Vincent": BANG})
        shot = next(x for x in s.shots if x.shooter == s.seat("Vincent"))
        assert shot.outcome is Outcome.NO_TARGET and shot.card is None
        assert seated(s, "Maria").wounds == 0
        assert [d.face_up for d in s.discard if d.owner == s.seat("Vincent")] == [False]

    def test_the_table_records_a_gun_and_the_player_confirms_or_corrects_it(self):
        s = aim_all(load_all(table()), A_RING, by=AimedBy.TABLE)
        gun = seated(s, "Johnny").gun
        assert gun.target == s.seat("Claire") and gun.by is AimedBy.TABLE and not gun.confirmed
        assert ConfirmAim("Johnny") in legal_actions(s, "Johnny")
        s = play(s, ConfirmAim("Johnny"))
        assert seated(s, "Johnny").gun.confirmed
        refused(s, ConfirmAim("Johnny"), "Game turn, 3. Hold-Up", "already confirmed")
        s = play(s, Aim("Claire", "Johnny"))  # Claire's phone corrects the table
        gun = seated(s, "Claire").gun
        assert gun.target == s.seat("Johnny") and gun.by is AimedBy.SELF and gun.confirmed
        view = player_view(s, None)["players"][s.seat("Claire")]["gun"]
        assert view == {"target": "Johnny", "by": "self", "confirmed": True}

    def test_by_default_the_tables_record_stands_without_confirmation(self):
        s = aim_all(load_all(table()), A_RING, by=AimedBy.TABLE)
        assert [w.does for w in waiting_for(s)] == ["privilege"]
        s = play(s, Privilege("Maria", None))
        assert s.phase is Phase.COURAGE

    def test_with_confirmation_required_the_privilege_waits_for_every_phone(self):
        s = aim_all(load_all(table(aim_confirmation="required")), A_RING, by=AimedBy.TABLE)
        assert {(w.player, w.does) for w in waiting_for(s)} == {
            (n, "confirm_aim") for n in ("Maria", "Johnny", "Claire", "Vincent")
        }
        refused(
            s,
            Privilege("Maria", None),
            "Game turn, 3. Hold-Up",
            "aim_confirmation",
            "Johnny",
            "Vincent",
        )
        s = play(s, *(ConfirmAim(n) for n in ("Maria", "Johnny", "Claire", "Vincent")))
        assert [w.does for w in waiting_for(s)] == ["privilege"]

    def test_nothing_to_confirm_before_a_gun_is_recorded(self):
        s = load_all(table())
        refused(s, ConfirmAim("Claire"), "Game turn, 3. Hold-Up", "no aim is recorded")

    def test_a_dead_player_cannot_be_held_up(self):
        s = load_all(arrange(table(), dead={"Claire": True}, wounds={"Claire": 3}))
        refused(s, Aim("Maria", "Claire"), "Game turn, 3. Hold-Up", "Claire has 3 wounds")


class TestPrivilege:
    """4. "Once each player has chosen a target, the Godfather can order another player to
    change target. The chosen player must choose a different target." """

    def aimed(self, aims=None, **kw):
        return aim_all(load_all(table(**kw)), aims or EVERYONE_AT_MARIA)

    def test_the_ordered_player_must_choose_a_different_target(self):
        s = play(self.aimed(), Privilege("Maria", "Claire"))
        assert s.phase is Phase.CHANGE_TARGET
        assert waiting_for(s)[0].player == "Claire"
        rule = "Game turn, 4. Godfather's Privilege"
        refused(s, Aim("Claire", "Maria"), rule, "different target than Maria")
        refused(s, Aim("Claire", None), rule, "not to hold nobody up")
        refused(s, Aim("Johnny", "Claire"), rule, "only Claire")
        assert {a.target for a in legal_actions(s, "Claire") if isinstance(a, Aim)} == {
            "Johnny",
            "Vincent",
        }
        s = play(s, Aim("Claire", "Vincent"))
        assert s.phase is Phase.COURAGE and seated(s, "Claire").gun.target == s.seat("Vincent")

    def test_the_table_may_record_the_new_target_and_the_phone_confirm_it(self):
        s = play(
            self.aimed(aim_confirmation="required"),
            Privilege("Maria", "Claire"),
            Aim("Claire", "Johnny", AimedBy.TABLE),
        )
        assert s.phase is Phase.CHANGE_TARGET and waiting_for(s)[0].does == "confirm_aim"
        assert play(s, ConfirmAim("Claire")).phase is Phase.COURAGE

    def test_only_the_godfather_and_only_once_every_gun_is_aimed(self):
        rule = "Game turn, 4. Godfather's Privilege"
        s = aim_all(load_all(table()), {"Maria": "Johnny", "Johnny": "Maria"})
        refused(s, Privilege("Maria", None), rule, "Claire, Vincent")
        s = aim_all(s, {"Claire": "Maria", "Vincent": "Maria"})
        refused(s, Privilege("Johnny", None), rule, "the Godfather's (Maria)")

    def test_the_godfather_orders_another_player_who_holds_someone_up(self):
        rule = "Game turn, 4. Godfather's Privilege"
        s = self.aimed({**EVERYONE_AT_MARIA, "Vincent": None})
        refused(s, Privilege("Maria", "Maria"), rule, "another player")
        refused(s, Privilege("Maria", "Vincent"), rule, "holds nobody up")

    def test_a_player_with_nobody_else_to_aim_at_cannot_be_ordered(self):
        s = arrange(table(), dead={"Claire": True, "Vincent": True})
        s = aim_all(load_all(s), {"Maria": "Johnny", "Johnny": "Maria"})
        refused(
            s,
            Privilege("Maria", "Johnny"),
            "Game turn, 4. Godfather's Privilege",
            "nobody else to aim at",
        )
        assert legal_actions(s, "Maria")[-1] == Privilege("Maria", None)


class TestCourageAndEffects:
    """5. and 6.: lie down or Banzai, then every card at once."""

    def test_choices_are_secret_until_everyone_has_chosen_then_shown_at_once(self):
        s = play(
            aim_all(load_all(table()), A_RING),
            Privilege("Maria", None),
            CourageChoice("Maria", DOWN),
            CourageChoice("Johnny", BANZAI),
        )
        for viewer in (None, "Claire", "Johnny"):
            maria = player_view(s, viewer)["players"][0]
            assert maria["courage_chosen"] and maria["courage"] is None
        assert player_view(s, "Maria")["players"][0]["courage"] == "lie_down"
        s = play(s, CourageChoice("Claire", BANZAI), CourageChoice("Vincent", BANZAI))
        assert player_view(s, None)["players"][0]["courage"] == "lie_down"

    def test_lying_down_is_safe_but_takes_no_share(self):
        """ "that player is guaranteed not to be wounded" and "will not take part in the
        sharing of the loot"; their card is discarded face-down."""
        s = turn(
            table(),
            EVERYONE_AT_MARIA,
            cards={"Johnny": BANG, "Claire": BANG},
            courage={"Maria": DOWN},
        )
        maria = seated(s, "Maria")
        assert maria.wounds == 0 and maria.down and s.seat("Maria") not in s.standing
        assert s.sharer == s.seat("Johnny")  # the Godfather lay down: the next one clockwise
        assert all(x.outcome is not Outcome.FIRED for x in s.shots)

    def test_you_dont_shoot_cowards(self):
        """ "If your target has decided to lie down, you must discard your Bullet card
        face-down." """
        s = turn(table(), A_RING, cards={"Maria": BANG}, courage={"Johnny": DOWN})
        shot = s.shots[s.seat("Maria")]
        assert shot.outcome is Outcome.TARGET_DOWN and shot.card is None
        assert seated(s, "Johnny").wounds == 0
        assert player_view(s, None)["discard"] == {
            "face_up": {"bang": 0, "click": 2},
            "face_down": 2,
        }

    def test_a_click_does_nothing_and_a_bang_wounds_and_lays_down(self):
        s = turn(table(), A_RING, cards={"Maria": BANG, "Johnny": CLICK})
        assert seated(s, "Johnny").wounds == 1 and seated(s, "Johnny").down
        assert seated(s, "Claire").wounds == 0 and not seated(s, "Claire").down
        assert s.shots[0].outcome is Outcome.FIRED and s.shots[0].card is BANG
        assert s.seat("Johnny") not in s.standing

    def test_two_players_pointing_at_each_other_can_wound_each_other(self):
        s = turn(
            table(),
            {"Maria": "Johnny", "Johnny": "Maria", "Claire": "Vincent", "Vincent": "Claire"},
            cards={"Maria": BANG, "Johnny": BANG},
        )
        assert seated(s, "Maria").wounds == seated(s, "Johnny").wounds == 1
        assert s.sharer == s.seat("Claire")

    def test_more_than_one_wound_in_a_single_turn(self):
        s = turn(table(), EVERYONE_AT_MARIA, cards={n: BANG for n in ("Johnny", "Claire")})
        assert seated(s, "Maria").wounds == 2

    def test_three_wounds_kill_and_the_dead_are_out_of_the_game(self):
        s = arrange(table(), wounds={"Maria": 1})
        s = turn(s, EVERYONE_AT_MARIA, cards={n: BANG for n in ("Johnny", "Claire")})
        maria = seated(s, "Maria")
        assert maria.dead and maria.wounds == 3
        assert legal_actions(s, "Maria") == []
        s = take(s, *s.table)
        assert s.turn == 2 and s.godfather == s.seat("Johnny")  # the desk goes clockwise
        s = flip(s)
        assert {w.player for w in waiting_for(s)} == {"Johnny", "Claire", "Vincent"}
        refused(s, Load("Maria", CLICK), "Game turn, 6. Card effects", "dead")

    def test_the_last_player_alive_wins_at_once(self):
        s = arrange(
            table(),
            wounds={"Johnny": 2, "Claire": 2, "Vincent": 2},
            loot={"Johnny": ("bill-20000",) * 5},
        )
        s = turn(
            s, A_RING | {"Claire": "Johnny"}, cards={"Maria": BANG, "Johnny": BANG, "Claire": BANG}
        )
        assert seated(s, "Vincent").wounds == 2  # Claire's gun moved to Johnny: Vincent lives
        s = arrange(
            table(),
            wounds={"Johnny": 2, "Claire": 2, "Vincent": 2},
            loot={"Johnny": ("bill-20000",) * 5},
        )
        s = turn(
            s,
            {"Maria": "Johnny", "Johnny": "Claire", "Claire": "Vincent", "Vincent": "Claire"},
            cards={"Maria": BANG, "Johnny": BANG, "Claire": BANG, "Vincent": BANG},
        )
        assert s.is_over and s.turn == 1
        result = score(s)
        assert result.winners == ("Maria",) and result.totals["Maria"] == 0
        assert "last player alive" in result.end

    def test_nobody_alive_nobody_wins(self):
        s = arrange(table(), wounds=dict.fromkeys(A_RING, 2))
        s = turn(s, A_RING, cards=dict.fromkeys(A_RING, BANG))
        assert s.is_over and s.alive == [] and score(s).winners == ()


class TestLootSharing:
    """7. "Starting with the Godfather and going clockwise, each player whose Character is
    still standing ... takes a share of the loot (card or New Godfather token)." """

    def test_shares_go_clockwise_from_the_godfather_round_and_round(self):
        s = turn(table(godfather="Claire"), A_RING, cards={"Maria": BANG})  # Johnny hit
        order = []
        while s.phase is Phase.SHARING:
            order.append(s.name(s.sharer))
            s = take(s, s.table[0])
        assert order == ["Claire", "Vincent", "Maria"] * 2 + ["Claire", "Vincent"]
        assert s.turn == 2

    def test_a_single_standing_player_takes_everything(self):
        s = turn(
            table(), EVERYONE_AT_MARIA, courage={"Johnny": DOWN, "Claire": DOWN, "Vincent": DOWN}
        )
        s = take(s, *table().table)
        assert sorted(seated(s, "Maria").loot) == sorted(table().table)

    def test_a_wounded_godfather_leaves_the_first_share_to_the_next_standing_player(self):
        s = turn(table(), EVERYONE_AT_MARIA, cards={"Vincent": BANG}, courage={"Johnny": DOWN})
        assert s.sharer == s.seat("Claire")

    def test_the_new_godfather_token_instead_of_a_card(self):
        """ "Instead of taking a card, it's possible to flip the New Godfather token ... and
        become the Godfather on the next turn. This doesn't change the current sharing." """
        s = turn(table(), A_RING)
        s = take(s, "bill-5000", "token")
        assert s.token == s.seat("Johnny") and s.sharer == s.seat("Claire")
        assert seated(s, "Johnny").loot == ()
        refused(s, TakeToken("Claire"), "Game turn, 7. Loot sharing", "Johnny has already")
        s = take(s, *s.table)
        assert s.turn == 2 and s.godfather == s.seat("Johnny")

    def test_only_the_sharer_takes_and_only_what_is_on_offer(self):
        s = turn(table(), A_RING)
        refused(s, Take("Johnny", "bill-5000"), "Game turn, 7. Loot sharing", "Maria's share")
        refused(s, Take("Maria", "clip"), "Game turn, 7. Loot sharing", "no Clip is on offer")

    def test_the_split_ends_with_the_last_card_unless_the_token_must_go_too(self):
        s = take(turn(table(), A_RING), *table().table)
        assert s.turn == 2 and s.godfather == 0
        s = take(turn(table(split_ends="everything"), A_RING), *table().table)
        assert s.phase is Phase.SHARING and legal_actions(s, s.name(s.sharer)) == [
            TakeToken(s.name(s.sharer))
        ]
        s = take(s, "token")
        assert s.turn == 2 and s.godfather == s.seat("Maria")  # 8 cards, 4 players: Maria

    def test_first_aid_kit_heals_every_wound(self):
        """ "When a player takes the First aid kit, he immediately heals all of his wounds.
        If the player has no wounds, the First aid kit is discarded without effect." """
        loot = ("first-aid-kit", "first-aid-kit", *table().table[2:])
        s = arrange(table(loot=loot), wounds={"Maria": 2})
        s = take(turn(s, A_RING), "first-aid-kit")
        assert seated(s, "Maria").wounds == 0 and s.spent == ("first-aid-kit",)
        s = take(s, "first-aid-kit")
        assert seated(s, "Johnny").wounds == 0 and seated(s, "Johnny").loot == ()
        assert s.spent == ("first-aid-kit",) * 2

    def test_a_clip_trades_a_card_for_a_bang_from_the_discard_pile(self):
        """ "they will also take a Bang! card from the discard pile (face-up or face-down) and
        immediately adds it to their hand of cards. That player must discard another card." """
        loot = ("clip", *table().table[1:])
        s = turn(table(loot=loot), A_RING, cards={"Claire": BANG}, courage={"Vincent": DOWN})
        assert s.shots[s.seat("Claire")].outcome is Outcome.TARGET_DOWN  # face-down Bang!
        maria = seated(s, "Maria")
        s = take(s, "clip")
        assert s.clip == s.seat("Maria") and seated(s, "Maria").bangs == maria.bangs + 1
        assert [w.does for w in waiting_for(s)] == ["discard"]
        refused(s, Take("Maria", "painting"), "Values of the Loot cards: Clips", "must discard")
        s = play(s, Discard("Maria", CLICK))
        after = seated(s, "Maria")
        assert (after.bangs, after.clicks, after.hand) == (
            maria.bangs + 1,
            maria.clicks - 1,
            maria.hand,
        )
        assert s.clip is None and s.sharer == s.seat("Johnny") and "clip" in s.spent

    def test_the_clips_discard_is_another_card_than_the_bang_taken(self):
        loot = ("clip", *table().table[1:])
        s = arrange(table(loot=loot), hand={"Maria": (0, 8)})
        s = turn(s, A_RING, cards={"Johnny": BANG})
        s = take(s, "clip")
        refused(s, Discard("Maria", BANG), "Values of the Loot cards: Clips", "another card")
        assert legal_actions(s, "Maria") == [Discard("Maria", CLICK)]

    def test_a_clip_with_no_bang_in_the_discard_pile_is_lost(self):
        loot = ("clip", *table().table[1:])
        s = take(turn(table(loot=loot), A_RING), "clip")
        assert all(d.card is CLICK for d in s.discard)  # four Clicks, no Bang!
        assert s.clip is None and s.sharer == s.seat("Johnny")
        assert seated(s, "Maria").bangs == 3 and "clip" in s.spent

    def test_a_clip_with_no_other_card_in_hand_discards_nothing(self):
        """In the last turn's sharing the hand is empty: the Bang! is taken, nothing else is
        discarded (the game ends before it could be fired)."""
        loot = ("clip", *table().table[1:])
        s = arrange(table(loot=loot), hand=dict.fromkeys(A_RING, (1, 0)))
        s = take(
            turn(s, A_RING, cards=dict.fromkeys(A_RING, BANG), courage={"Johnny": DOWN}), "clip"
        )
        assert s.standing == [s.seat("Claire")]  # Vincent and Maria were hit
        assert s.clip is None and seated(s, "Claire").bangs == 1
        assert [w.does for w in waiting_for(s)] == ["take"]

    def test_nobody_standing_the_loot_stays_or_is_discarded(self):
        everyone_down = dict.fromkeys(("Maria", "Johnny", "Claire", "Vincent"), DOWN)
        s = turn(table(), A_RING, courage=everyone_down)
        assert s.turn == 2 and len(s.table) == 8
        s = flip(s)
        assert len(s.table) == 16
        s = turn(table(unshared_loot="discarded"), A_RING, courage=everyone_down)
        assert s.turn == 2 and s.table == () and len(s.spent) == 8


class TestEndOfTheGame:
    """ "The game ends once the 8th turn is over ... Only the players who are still alive can
    claim victory!" """

    def test_the_game_ends_after_the_eighth_turn(self):
        s = start()
        deck = [c.id for c, n in BOX.loot for _ in range(n)]
        for t in range(8):
            card = CLICK if t < 5 else BANG  # five Clicks, then three Bang!s
            s = turn(
                flip(s, deck[8 * t : 8 * t + 8]),
                dict.fromkeys(A_RING),
                cards=dict.fromkeys(A_RING, card),
            )
            while s.phase is Phase.SHARING:
                s = take(s, s.table[0])
        assert s.is_over and s.turn == 8 and sum(s.deck) == 0
        # Every card was used once; the last turn's Clips took their Bang!s into empty hands.
        assert len(s.discard) + sum(p.hand for p in s.players) == 4 * 8
        assert legal_actions(s, "Maria") == [] and waiting_for(s) == []
        refused(s, Load("Maria", CLICK), "End of the Game", "over")

    def test_the_most_diamond_cards_take_the_bonus_whatever_their_value(self):
        s = arrange(
            start(), loot={"Maria": ("diamond-1000",) * 3, "Johnny": ("diamond-10000",) * 2}
        )
        result = score(s)
        assert result.bonus_to == "Maria"
        assert result.totals == {"Maria": 63000, "Johnny": 20000, "Claire": 0, "Vincent": 0}

    def test_a_tie_for_the_most_diamonds_gives_no_one_the_bonus(self):
        s = arrange(
            start(),
            loot={"Maria": ("diamond-1000",) * 2, "Johnny": ("diamond-1000", "diamond-5000")},
        )
        assert score(s).bonus_to is None

    def test_the_dead_do_not_count_for_the_bonus(self):
        s = arrange(
            start(),
            loot={"Maria": ("diamond-1000",) * 3, "Johnny": ("diamond-1000",)},
            dead={"Maria": True},
            wounds={"Maria": 3},
        )
        assert score(s).bonus_to == "Johnny"

    @pytest.mark.parametrize(
        ("paintings", "value"),
        [(1, 4000), (2, 12000), (3, 30000), (4, 60000), (5, 100000), (9, 400000)],
    )
    def test_paintings_are_worth_their_collection(self, paintings, value):
        s = arrange(start(), loot={"Claire": ("painting",) * paintings})
        assert score(s).lines["Claire"].paintings_value == value

    def test_the_richest_alive_wins_even_if_a_dead_player_is_richer(self):
        s = arrange(
            start(),
            loot={"Maria": ("bill-20000",) * 5, "Johnny": ("bill-10000",)},
            dead={"Maria": True},
            wounds={"Maria": 3},
        )
        assert score(s).winners == ("Johnny",)

    def test_a_tie_goes_to_the_most_wounds_then_is_shared(self):
        s = arrange(
            start(),
            loot={
                "Maria": ("bill-10000",),
                "Johnny": ("bill-5000",) * 2,
                "Claire": ("bill-10000",),
            },
            wounds={"Johnny": 2},
        )
        result = score(s)
        assert result.winners == ("Johnny",) and result.tie_break == "most wounds"
        s = arrange(s, wounds={"Maria": 2})
        result = score(s)
        assert result.winners == ("Maria", "Johnny") and result.tie_break == "shared"
