"""Don't Wait for Your Turn 5 and 6: mortgage an unimproved property for the value on its
deed, repay it with 10% more; a mortgaged property received must be repaid at once or kept for
10% (and repaying it later costs the 10% again); nothing is built in a group with a mortgage."""

from monopoly_scenario import (
    COPS,
    DARK_BLUE,
    DARK_BLUE_1,
    DARK_BLUE_2,
    act,
    arrange,
    cash,
    doing,
    holding,
    refused,
    table,
)

from companion.games.monopoly import Offer, Propose, apply, legal_actions


def test_mortgage_for_the_value_on_the_deed_and_repay_it_with_ten_percent():
    state = arrange(table(), own={"Maria": (DARK_BLUE_2,)}, cash={"Maria": 100})
    state = act(state, "mortgage", player="Maria", space=DARK_BLUE_2)
    assert holding(state, DARK_BLUE_2).mortgaged and cash(state, "Maria") == 300
    state = act(state, "unmortgage", player="Maria", space=DARK_BLUE_2)
    assert not holding(state, DARK_BLUE_2).mortgaged and cash(state, "Maria") == 80


def test_the_interest_is_rounded_up_to_a_whole_dollar():
    state = arrange(table(), own={"Maria": (COPS,)}, mortgaged=(COPS,), cash={"Maria": 100})
    state = act(state, "unmortgage", player="Maria", space=COPS)  # $75 + $7.50 -> $83
    assert cash(state, "Maria") == 17


def test_sell_the_groups_buildings_before_mortgaging():
    state = arrange(table(), own={"Maria": DARK_BLUE}, hideouts={DARK_BLUE_2: 1})
    exc = refused(state, "mortgage", player="Maria", space=DARK_BLUE_1)
    assert exc.rule == "Don't Wait for Your Turn 5 (mortgage properties)"
    assert "sell the buildings of its group to the Bank first" in exc.reason


def test_only_ones_own_and_only_what_can_be_paid():
    state = arrange(table(), own={"Johnny": (DARK_BLUE_2,)})
    exc = refused(state, "mortgage", player="Maria", space=DARK_BLUE_2)
    assert "Dark Blue 2 is Johnny's, not Maria's" in exc.reason
    state = arrange(
        table(), own={"Maria": (DARK_BLUE_2,)}, mortgaged=(DARK_BLUE_2,), cash={"Maria": 219}
    )
    exc = refused(state, "unmortgage", player="Maria", space=DARK_BLUE_2)
    assert "costs $220 (the mortgage plus 10%) and Maria has $219" in exc.reason


def received_mortgaged(**cash_of):
    state = arrange(
        table(), own={"Maria": (DARK_BLUE_2,)}, mortgaged=(DARK_BLUE_2,), cash=cash_of or None
    )
    state = apply(state, Propose("Maria", "Johnny", Offer(spaces=(DARK_BLUE_2,)), Offer(cash=100)))
    return act(state, "accept", player="Johnny")


def test_a_mortgaged_property_received_is_repaid_or_kept_for_ten_percent():
    state = received_mortgaged()
    assert doing(state) == [("Johnny", "mortgage_fees")]
    kinds = [a.TYPE for a in legal_actions(state, "Johnny")][:2]
    assert kinds == ["unmortgage", "keep_mortgaged"]
    kept = act(state, "keep_mortgaged", player="Johnny", space=DARK_BLUE_2)
    assert holding(kept, DARK_BLUE_2).mortgaged and cash(kept, "Johnny") == 1500 - 100 - 20
    # repaying later costs the 10% again
    later = act(kept, "unmortgage", player="Johnny", space=DARK_BLUE_2)
    assert cash(later, "Johnny") == 1380 - 220
    repaid = act(state, "unmortgage", player="Johnny", space=DARK_BLUE_2)
    assert cash(repaid, "Johnny") == 1500 - 100 - 220 and repaid.fees == ()


def test_the_table_waits_for_the_receivers_choice():
    state = received_mortgaged()
    exc = refused(state, "end_turn", player="Maria")
    assert "Johnny must first repay the mortgage on Dark Blue 2 or pay its interest" in exc.reason
