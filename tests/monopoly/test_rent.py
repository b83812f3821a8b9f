"""Where Did You Land? 2: rent. A location's printed rent, doubled for a whole colour group
with no mortgage; with Hideouts or a Compound, the Title Deed's rent; Vehicles by how many the
owner has; Cops & Politicians the dice times 4, times 10 with both; no rent on a mortgaged
property. And the rulebook's "the owner must ask before the next roll", as a house rule."""

import pytest
from monopoly_scenario import (
    BROWN_1,
    BROWN_2,
    COPS,
    DARK_BLUE,
    DARK_BLUE_2,
    DELIVERY_TRUCK,
    FISHING_BOAT,
    GETAWAY_CAR,
    PASSENGER_TRAIN,
    POLITICIANS,
    act,
    arrange,
    cash,
    refused,
    roll,
    table,
)


def land(state, space, dice=(2, 3)):
    """Maria lands on ``space`` with ``dice`` (she starts that far behind it)."""
    state = arrange(state, at={"Maria": (space - sum(dice)) % 40})
    return roll(state, "Maria", *dice)


def paid(state, space, dice=(2, 3), **kw):
    """What Maria pays Johnny for landing on ``space``."""
    after = land(arrange(state, cash={"Maria": 5000, "Johnny": 0}, **kw), space, dice)
    return cash(after, "Johnny")


def test_a_location_pays_its_printed_rent_doubled_for_a_whole_unmortgaged_group():
    state = table()
    assert paid(state, DARK_BLUE_2, own={"Johnny": (DARK_BLUE_2,)}) == 50
    assert paid(state, DARK_BLUE_2, own={"Johnny": DARK_BLUE}) == 100
    # a mortgage anywhere in the group: the rent is not doubled
    assert paid(state, DARK_BLUE_2, own={"Johnny": DARK_BLUE}, mortgaged=(37,)) == 50


def test_with_hideouts_or_a_compound_the_title_deed_says():
    state = table()
    rents = {1: 200, 2: 600, 3: 1400, 4: 1700}
    for n, rent in rents.items():
        assert (
            paid(state, DARK_BLUE_2, own={"Johnny": DARK_BLUE}, hideouts={37: n, DARK_BLUE_2: n})
            == rent
        )
    assert (
        paid(
            state,
            DARK_BLUE_2,
            own={"Johnny": DARK_BLUE},
            hideouts={37: 4},
            compounds=(DARK_BLUE_2,),
        )
        == 2000
    )


@pytest.mark.parametrize("owned, rent", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_vehicles_by_how_many_the_owner_has(owned, rent):
    vehicles = (FISHING_BOAT, GETAWAY_CAR, DELIVERY_TRUCK, PASSENGER_TRAIN)
    assert paid(table(), FISHING_BOAT, own={"Johnny": vehicles[:owned]}) == rent


def test_cops_and_politicians_the_dice_times_4_or_10_with_both():
    state = table()
    assert paid(state, COPS, dice=(3, 4), own={"Johnny": (COPS,)}) == 28
    assert paid(state, COPS, dice=(3, 4), own={"Johnny": (COPS, POLITICIANS)}) == 70


def test_no_rent_on_a_mortgaged_property():
    state = table()
    after = land(
        arrange(state, own={"Johnny": (DARK_BLUE_2,)}, mortgaged=(DARK_BLUE_2,)), DARK_BLUE_2
    )
    assert cash(after, "Maria") == 1500 and "mortgaged: no rent" in after.events[-1].text


def test_mortgaged_vehicles_count_unless_the_house_rule_says_not():
    own = {"Johnny": (FISHING_BOAT, GETAWAY_CAR)}
    assert paid(table(), FISHING_BOAT, own=own, mortgaged=(GETAWAY_CAR,)) == 50
    assert paid(table(mortgaged_count=False), FISHING_BOAT, own=own, mortgaged=(GETAWAY_CAR,)) == 25


def test_rent_is_collected_automatically_by_default():
    state = land(arrange(table(), own={"Johnny": (BROWN_1, BROWN_2)}), BROWN_2, (1, 2))
    assert cash(state, "Maria") == 1492 and cash(state, "Johnny") == 1508
    assert "rent for Brown 2, doubled: the whole colour group" in state.events[-1].text


def test_house_rule_ask_the_owner_must_ask_before_the_next_player_rolls():
    state = arrange(table(rent="ask"), own={"Johnny": (BROWN_2,)})
    state = land(state, BROWN_2, (1, 2))
    assert cash(state, "Maria") == 1500  # not yet
    asked = act(state, "ask_rent", player="Johnny", space=BROWN_2)
    assert cash(asked, "Maria") == 1496 and cash(asked, "Johnny") == 1504
    # forgotten: once the next player rolls, it is too late
    state = roll(act(state, "end_turn", player="Maria"), "Johnny", 1, 3)
    assert state.claims == ()
    exc = refused(state, "ask_rent", player="Johnny", space=BROWN_2)
    assert exc.rule == "Don't Wait for Your Turn 1 (collect rent)"
    assert "before the next player rolls" in exc.reason
