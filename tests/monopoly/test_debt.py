"""Help! I'm in Debt! and How Do I Win?: a player who owes more cash than they have raises it
by selling buildings and mortgaging; if they still cannot pay they are bankrupt, and what they
have goes to the player they owe, or back to the Bank to be auctioned. The last player
standing wins."""

from monopoly_scenario import (
    BROWN_1,
    BROWN_2,
    DARK_BLUE,
    DARK_BLUE_1,
    DARK_BLUE_2,
    GREEN,
    act,
    arrange,
    cash,
    doing,
    holding,
    owner,
    refused,
    roll,
    table,
)

from companion.games.monopoly import MONOPOLY, Phase, legal_actions


def on_johnnys_hotel(*names, **kw):
    """Maria lands on Johnny's Compound on Dark Blue 2 ($2000) with ``kw``'s position."""
    state = arrange(
        table(*names or ("Maria", "Johnny", "Claire")),
        own={"Johnny": DARK_BLUE},
        hideouts={DARK_BLUE_1: 4},
        compounds=(DARK_BLUE_2,),
        at={"Maria": 34},
    )
    return roll(arrange(state, **kw), "Maria", 2, 3)


def test_a_debt_holds_the_game_until_the_money_is_raised_then_it_is_paid():
    state = on_johnnys_hotel(
        own={"Maria": GREEN}, cash={"Maria": 1500, "Johnny": 0}, hideouts={s: 1 for s in GREEN}
    )
    assert doing(state) == [("Maria", "raise_cash")] and cash(state, "Johnny") == 0
    exc = refused(state, "end_turn", player="Maria")
    assert "Maria owes $2000 and must raise it or go bankrupt first" in exc.reason
    assert "bankrupt" not in [a.TYPE for a in legal_actions(state, "Maria")]
    exc = refused(state, "bankrupt", player="Maria")
    assert exc.rule == "Help! I'm in Debt!"
    assert "can raise $2260" in exc.reason  # $1500, three Hideouts at $100, $460 of mortgages
    for space in GREEN:  # sell the Hideouts (evenly), then mortgage
        state = act(state, "sell", player="Maria", space=space)
    state = act(state, "mortgage", player="Maria", space=GREEN[0])
    assert state.debts and cash(state, "Maria") == 1950
    state = act(state, "mortgage", player="Maria", space=GREEN[1])  # $2100: paid at once
    assert not state.debts and cash(state, "Maria") == 100 and cash(state, "Johnny") == 2000
    assert doing(state) == [("Maria", "end_turn")]


def test_bankrupt_to_a_player_who_gets_everything_and_owes_the_ten_percent():
    state = on_johnnys_hotel(
        own={"Maria": (BROWN_1, BROWN_2)},
        cash={"Maria": 100, "Johnny": 0},
        hideouts={BROWN_1: 1, BROWN_2: 1},
        cards={"Maria": ("friends-05",)},
    )
    assert "bankrupt" in [a.TYPE for a in legal_actions(state, "Maria")]  # $210 < $2000
    state = act(state, "bankrupt", player="Maria")
    maria = state.players[0]
    assert maria.bankrupt and maria.cash == 0 and state.turn == 1  # Johnny has the dice
    assert cash(state, "Johnny") == 100 + 25 + 25 + 30 + 30  # cash, Hideouts, mortgages
    assert owner(state, BROWN_1) == owner(state, BROWN_2) == "Johnny"
    assert holding(state, BROWN_1).mortgaged and holding(state, BROWN_1).hideouts == 0
    assert state.players[1].jail_cards == ("friends-05",)
    assert doing(state) == [("Johnny", "mortgage_fees")]
    assert state.hideouts_left() == 32 - 4  # Maria's two went back to the Bank


def test_bankrupt_to_the_bank_the_properties_are_auctioned_unmortgaged():
    state = arrange(
        table("Maria", "Johnny", "Claire"),
        own={"Maria": (BROWN_1, BROWN_2)},
        mortgaged=(BROWN_1,),
        cash={"Maria": 100},
        at={"Maria": 34},
        cards={"Maria": ("friends-05",)},
    )
    state = roll(state, "Maria", 1, 3)  # Bribery: $100, paid
    state = act(arrange(state, cash={"Maria": 10}), "end_turn", player="Maria")
    state = arrange(state, turn="Maria", at={"Maria": 34})
    state = roll(state, "Maria", 1, 3)  # $100 owed, $10 + $30 raisable
    state = act(state, "bankrupt", player="Maria")
    assert state.players[0].jail_cards == () and state.jail_cards_held() == set()
    assert doing(state) == [("Johnny", "bid")] and state.auction.lot == BROWN_1
    assert state.lots == (BROWN_2,)
    state = act(state, "bid", player="Johnny", amount=10)
    state = act(state, "pass", player="Claire")
    assert owner(state, BROWN_1) == "Johnny" and not holding(state, BROWN_1).mortgaged
    assert state.auction.lot == BROWN_2


def test_the_last_player_standing_wins():
    state = on_johnnys_hotel("Maria", "Johnny", cash={"Maria": 10})
    state = act(state, "bankrupt", player="Maria")
    assert state.phase is Phase.OVER and MONOPOLY.is_over(state)
    score = MONOPOLY.score(state)
    assert score["winners"] == ["Johnny"] and score["places"] == {"Johnny": 1, "Maria": 2}
    assert state.end == "Johnny is the last player standing"
    exc = refused(state, "end_turn", player="Johnny")
    assert exc.rule == "Game Over"
