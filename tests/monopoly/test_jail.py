"""Q: How do I get out of Jail? (i) pay $50, then roll and move; (ii) use a Get Out of Jail
Free card; (iii) roll for doubles on each of three turns, moving out with a double; after the
third failed roll, pay $50 and move the number rolled. Speed Play 3: leave on the next turn,
and a failed roll for doubles pays the $50 on the same turn."""

from monopoly_scenario import JAIL, act, arrange, cash, doing, refused, roll, table

from companion.games.monopoly import Step, legal_actions


def jailed(**options):
    return arrange(
        table("Maria", "Johnny", **options),
        jail=("Maria",),
        cash={"Maria": 500, "Johnny": 500},
        turn="Maria",
    )


def test_a_jailed_player_chooses_how_to_get_out_before_any_dice_are_asked_for():
    state = jailed()
    assert doing(state) == [("Maria", "jail")]
    kinds = [a.TYPE for a in legal_actions(state, "Maria")]
    assert kinds[:2] == ["pay_fine", "try_doubles"]  # no card held: no card to use


def test_paying_50_then_rolling_and_moving_as_normal_doubles_included():
    state = act(jailed(), "pay_fine", player="Maria")
    assert cash(state, "Maria") == 450 and not state.players[0].in_jail
    state = roll(state, "Maria", 3, 3)  # a normal roll: doubles roll again
    assert state.players[0].position == JAIL + 6 and state.again  # after buying: roll again


def test_a_get_out_of_jail_free_card_goes_back_to_its_deck():
    state = arrange(jailed(), cards={"Maria": ("friends-05",)}, turn="Maria")
    state = act(state, "use_card", player="Maria")
    maria = state.players[0]
    assert not maria.in_jail and maria.jail_cards == () and cash(state, "Maria") == 500
    state = roll(state, "Maria", 1, 2)
    assert state.players[0].position == JAIL + 3


def test_no_card_no_card_to_use_and_not_enough_cash_no_fine():
    exc = refused(jailed(), "use_card", player="Maria")
    assert exc.rule == "Q: How do I get out of Jail?" and "no Get Out of Jail Free" in exc.reason
    exc = refused(arrange(jailed(), cash={"Maria": 30}), "pay_fine", player="Maria")
    assert "has $30 and the fine is $50" in exc.reason


def test_doubles_get_the_player_out_moving_by_that_roll_but_not_rolling_again():
    state = act(jailed(), "try_doubles", player="Maria")
    assert doing(state) == [("Maria", "roll")]
    state = roll(state, "Maria", 4, 4)
    maria = state.players[0]
    assert not maria.in_jail and maria.position == JAIL + 8 and cash(state, "Maria") == 500
    assert state.step is not Step.ROLL  # no second roll for those doubles


def test_no_doubles_stays_in_jail_and_the_third_failure_pays_50_and_moves():
    state = jailed()
    for attempt, johnny in ((1, (1, 3)), (2, (2, 4))):  # Johnny: to the tax, to Jail visiting
        state = roll(act(state, "try_doubles", player="Maria"), "Maria", 1, 2)
        assert state.players[0].in_jail and state.players[0].jail_rolls == attempt
        assert state.step is Step.END
        state = act(state, "end_turn", player="Maria")
        state = roll(state, "Johnny", *johnny)
        state = act(state, "end_turn", player="Johnny")
    state = roll(act(state, "try_doubles", player="Maria"), "Maria", 2, 4)
    maria = state.players[0]
    assert not maria.in_jail and maria.position == JAIL + 6
    assert cash(state, "Maria") == 450


def test_the_third_failure_without_the_fine_waits_for_the_money_then_moves():
    state = arrange(jailed(), cash={"Maria": 20}, own={"Maria": (1,)})
    state = state.with_player(0, jail_rolls=2)
    state = roll(act(state, "try_doubles", player="Maria"), "Maria", 2, 4)
    assert doing(state) == [("Maria", "raise_cash")] and state.players[0].position == JAIL
    state = act(state, "mortgage", player="Maria", space=1)  # +$30: $50 now, the fine paid
    maria = state.players[0]
    assert cash(state, "Maria") == 0 and maria.position == JAIL + 6 and not maria.in_jail


def test_speed_play_a_failed_roll_for_doubles_pays_50_and_leaves_jail_at_once():
    state = roll(act(jailed(speed_play=True), "try_doubles", player="Maria"), "Maria", 1, 2)
    maria = state.players[0]
    assert not maria.in_jail and maria.position == JAIL + 3 and cash(state, "Maria") == 450
