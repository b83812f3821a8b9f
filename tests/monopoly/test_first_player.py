"""Who Goes First? Each player rolls the two dice; the highest roller takes the first turn
(players tied for the highest roll again)."""

from scenario import doing, refused, roll, table

from companion.games.monopoly import Phase


def test_the_highest_roller_goes_first_and_ties_roll_again():
    state = table("Maria", "Johnny", "Claire", first_player="roll")
    assert state.phase is Phase.ORDER and doing(state) == [("Maria", "roll")]
    exc = refused(state, "roll", player="Claire", dice=[6, 6])
    assert exc.rule == "Who Goes First?" and "Maria rolls for first player" in exc.reason
    state = roll(state, "Maria", 6, 5)
    state = roll(state, "Johnny", 2, 1)
    state = roll(state, "Claire", 5, 6)  # 11 and 11: Maria and Claire again
    assert state.phase is Phase.ORDER and doing(state) == [("Maria", "roll")]
    state = roll(state, "Maria", 1, 1)
    state = roll(state, "Claire", 3, 1)
    assert state.phase is Phase.PLAY and doing(state) == [("Claire", "roll")]
    assert state.players[2].position == 0  # the roll for first player moves nobody
    state = roll(state, "Claire", 1, 2)
    assert state.round == 1 and state.players[2].position == 3
