"""On Your Turn, How to Play 5 and Where Did You Land? 4-7: the dice move the tokens, GO pays,
doubles roll again, three doubles and Go to Jail send a player to Jail, taxes go to the Bank."""

from monopoly_scenario import (
    BRIBERY,
    FREE_PARKING,
    GO,
    GO_TO_JAIL,
    JAIL,
    LEGIT_TAX,
    act,
    arrange,
    cash,
    doing,
    refused,
    roll,
    table,
)

from companion.games.monopoly import Step


def test_the_dice_move_the_token_clockwise_and_the_dice_pass_to_the_left():
    state = roll(table("Maria", "Johnny", "Claire"), "Maria", 3, 4)
    maria = state.players[0]
    assert maria.position == 7 and state.step is Step.DRAW  # 7 is an Enemies space
    state = arrange(state, at={"Maria": FREE_PARKING}, turn="Maria")
    state = roll(state, "Maria", 1, 2)  # Free Parking + 3 = 23, a red location: buy it?
    assert doing(state) == [("Maria", "buy")]


def test_passing_go_collects_200_and_landing_on_it_too():
    state = arrange(table(), at={"Maria": 36}, cash={"Maria": 1000})
    state = roll(state, "Maria", 2, 3)  # 36 + 5 = 41: past GO to space 1
    assert state.players[0].position == 1 and cash(state, "Maria") == 1200
    state = arrange(table(), at={"Maria": 35}, cash={"Maria": 1000})
    state = roll(state, "Maria", 2, 3)  # exactly on GO
    assert state.players[0].position == GO and cash(state, "Maria") == 1200
    assert "lands on GO and collects $200" in state.events[-1].text


def test_doubles_roll_again_and_three_doubles_go_to_jail_without_moving():
    state = arrange(table(), at={"Maria": 8}, cash={"Maria": 5000})
    state = roll(state, "Maria", 1, 1)  # 8 + 2: Just Visiting
    assert state.step is Step.ROLL and doing(state) == [("Maria", "roll")]  # doubles: again
    state = roll(state, "Maria", 5, 5)  # 10 + 10: Free Parking
    assert state.players[0].position == FREE_PARKING and state.step is Step.ROLL
    state = roll(state, "Maria", 6, 6)  # the third doubles in one turn: no move to 32
    maria = state.players[0]
    assert maria.in_jail and maria.position == JAIL
    assert state.step is Step.END and cash(state, "Maria") == 5000  # no salary, turn over


def test_go_to_jail_sends_the_player_to_jail_with_no_salary_and_ends_the_turn():
    state = arrange(table(), at={"Maria": 25}, cash={"Maria": 100})
    state = roll(state, "Maria", 2, 3)  # 25 + 5 = Go to Jail
    maria = state.players[0]
    assert maria.in_jail and maria.position == JAIL and state.step is Step.END
    assert cash(state, "Maria") == 100
    state = arrange(table(), at={"Maria": 26}, cash={"Maria": 100})
    state = roll(state, "Maria", 2, 2)  # doubles onto Go to Jail: no second roll
    assert state.players[0].in_jail and state.step is Step.END
    assert GO_TO_JAIL == 30


def test_just_visiting_and_free_parking_do_nothing():
    for start, dice in ((4, (3, 3)), (14, (3, 3))):  # onto Jail (10), onto Free Parking (20)
        state = arrange(table(), at={"Maria": start}, cash={"Maria": 300})
        state = roll(state, "Maria", *dice)
        assert cash(state, "Maria") == 300 and not state.players[0].in_jail
        assert state.step is Step.ROLL  # doubles: roll again, nothing else


def test_taxes_are_paid_to_the_bank():
    state = roll(arrange(table(), cash={"Maria": 1500}), "Maria", 1, 3)  # Legitimate Business
    assert state.players[0].position == LEGIT_TAX and cash(state, "Maria") == 1300
    state = roll(arrange(table(), at={"Maria": 34}, cash={"Maria": 1500}), "Maria", 1, 3)
    assert state.players[0].position == BRIBERY and cash(state, "Maria") == 1400


def test_only_the_player_with_the_dice_rolls_and_only_when_the_dice_are_due():
    state = table("Maria", "Johnny")
    exc = refused(state, "roll", player="Johnny", dice=[1, 2])
    assert exc.rule == "On Your Turn" and "Maria's turn" in exc.reason
    state = roll(state, "Maria", 1, 2)  # onto Brown 2: the buy decision is due, not dice
    exc = refused(state, "roll", player="Maria", dice=[1, 2])
    assert "decide whether to buy" in exc.reason


def test_the_turn_ends_when_the_player_passes_the_dice():
    state = roll(table("Maria", "Johnny"), "Maria", 1, 3)  # tax paid: nothing to decide
    assert doing(state) == [("Maria", "end_turn")]
    exc = refused(state, "end_turn", player="Johnny")
    assert "Maria's turn" in exc.reason
    state = act(state, "end_turn", player="Maria")
    assert (
        doing(state)[0] == ("Johnny", "roll")
        and state.events[-1].text == "Maria passes the dice to Johnny."
    )
