"""Where Did You Land? 3: Friends or Enemies. The player draws from the real deck, the table
enters the card, and the companion does what it says: every kind of card the decks hold."""

from monopoly_scenario import (
    COPS,
    DARK_BLUE,
    DARK_BLUE_2,
    ENEMIES_1,
    FISHING_BOAT,
    FRIENDS_1,
    GETAWAY_CAR,
    GO,
    JAIL,
    LEGIT_TAX,
    POLITICIANS,
    act,
    arrange,
    cash,
    doing,
    refused,
    roll,
    table,
)

from companion.games.monopoly import MONOPOLY, Step


def drawing(deck_space=ENEMIES_1, **kw):
    """Maria (with $1000) has just landed on a card space and draws."""
    state = arrange(
        table("Maria", "Johnny", "Claire"),
        at={"Maria": deck_space - 3},
        cash={"Maria": 1000, "Johnny": 1000, "Claire": 1000},
    )
    state = roll(arrange(state, **kw), "Maria", 1, 2)
    assert doing(state) == [("Maria", "draw")]
    return state


def draw(state, card):
    return act(state, "draw", player="Maria", card=card)


def test_the_table_enters_the_card_drawn_from_the_awaited_deck():
    state = drawing()
    labels = [c.label for c in MONOPOLY.choices(state, "Maria")]
    assert len(labels) == 16 and "Go back 3 spaces." in labels
    exc = refused(state, "draw", player="Maria", card="friends-02")
    assert exc.rule == "Where Did You Land? 3 (Friends or Enemies)"
    assert "not a card of the Enemies deck" in exc.reason


def test_collect_and_pay():
    assert cash(draw(drawing(FRIENDS_1), "friends-02"), "Maria") == 1200  # collect $200
    state = draw(drawing(FRIENDS_1), "friends-11")  # pay $100
    assert cash(state, "Maria") == 900 and state.step is Step.END


def test_pay_each_player_and_collect_from_every_player():
    state = draw(drawing(), "enemies-15")  # pay each player $50
    assert [p.cash for p in state.players] == [900, 1050, 1050]
    state = draw(drawing(FRIENDS_1), "friends-09")  # collect $10 from every player
    assert [p.cash for p in state.players] == [1020, 990, 990]


def test_move_to_a_space_collecting_200_for_passing_go():
    state = draw(drawing(), "enemies-03")  # Advance to Pink 1 (11): not past GO from 7
    assert state.players[0].position == 11 and cash(state, "Maria") == 1000
    assert doing(state) == [("Maria", "buy")]
    state = draw(drawing(36), "enemies-02")  # from 36 to Red 3 (24): past GO
    assert state.players[0].position == 24 and cash(state, "Maria") == 1200
    state = draw(drawing(), "enemies-01")  # Advance to GO
    assert state.players[0].position == GO and cash(state, "Maria") == 1200


def test_nearest_vehicle_pays_twice_the_rent():
    state = draw(drawing(own={"Johnny": (FISHING_BOAT, GETAWAY_CAR)}), "enemies-05")
    assert state.players[0].position == GETAWAY_CAR  # the next Vehicle after 7
    assert cash(state, "Johnny") == 1000 + 2 * 50


def test_nearest_cops_or_politicians_rolls_for_ten_times_the_dice():
    state = draw(drawing(own={"Johnny": (COPS,)}), "enemies-04")
    assert state.players[0].position == COPS and doing(state) == [("Maria", "roll")]
    state = roll(state, "Maria", 3, 5)
    assert cash(state, "Johnny") == 1000 + 80 and state.players[0].position == COPS
    state = draw(drawing(36, own={"Claire": (COPS, POLITICIANS)}), "enemies-04")
    assert state.players[0].position == COPS and cash(state, "Maria") == 1200  # past GO


def test_go_back_three_spaces_and_deal_with_that_space():
    state = draw(drawing(), "enemies-09")  # 7 - 3 = the Legitimate Business Tax
    assert state.players[0].position == LEGIT_TAX and cash(state, "Maria") == 800


def test_go_to_jail():
    state = draw(drawing(), "enemies-10")
    assert state.players[0].in_jail and state.players[0].position == JAIL
    assert state.step is Step.END


def test_a_get_out_of_jail_free_card_is_kept_and_leaves_the_deck():
    state = draw(drawing(), "enemies-08")
    assert state.players[0].jail_cards == ("enemies-08",)
    state = arrange(state, at={"Maria": ENEMIES_1 - 3}, turn="Maria")
    state = roll(state, "Maria", 1, 2)
    exc = refused(state, "draw", player="Maria", card="enemies-08")
    assert "Maria holds that Get Out of Jail Free card" in exc.reason
    assert "enemies-08" not in [c.action["card"] for c in MONOPOLY.choices(state, "Maria")]


def test_repairs_per_hideout_and_per_compound():
    state = drawing(own={"Maria": DARK_BLUE}, hideouts={37: 4}, compounds=(DARK_BLUE_2,))
    state = draw(state, "enemies-11")  # $25 per Hideout, $100 per Compound
    assert cash(state, "Maria") == 1000 - 4 * 25 - 100
