"""Don't Wait for Your Turn 3 and 4: Hideouts and Compounds. A whole colour group, no mortgage
in it, built evenly; at most four Hideouts, then a Compound (the Hideouts go back); the Bank's
32 Hideouts and 12 Compounds, auctioned when short; sold back at half, evenly, a Compound for
four Hideouts."""

from monopoly_scenario import (
    DARK_BLUE,
    DARK_BLUE_1,
    DARK_BLUE_2,
    FISHING_BOAT,
    GREEN,
    ORANGE,
    PINK,
    RED,
    YELLOW,
    act,
    arrange,
    cash,
    doing,
    holding,
    refused,
    table,
)

from companion.games.monopoly import MONOPOLY

SPEED_DEEDS = {"Maria": (*DARK_BLUE, 1), "Johnny": (3, 5, 6), "Claire": (8, 9, 11)}


def dark_blue(**kw):
    deeds = SPEED_DEEDS if kw.get("speed_play") else None
    return arrange(
        table("Maria", "Johnny", "Claire", deeds=deeds, **kw),
        own={"Maria": DARK_BLUE},
        cash={"Maria": 5000},
    )


def build(state, space, player="Maria"):
    return act(state, "build", player=player, space=space)


def test_building_a_hideout_costs_the_title_deeds_price():
    state = build(dark_blue(), DARK_BLUE_2)
    assert holding(state, DARK_BLUE_2).hideouts == 1 and cash(state, "Maria") == 4800
    assert state.hideouts_left() == 31


def test_only_with_the_whole_colour_group_and_no_mortgage_in_it():
    state = arrange(table(), own={"Maria": (DARK_BLUE_2,)})
    exc = refused(state, "build", player="Maria", space=DARK_BLUE_2)
    assert exc.rule == "Don't Wait for Your Turn 3 (build)"
    assert "does not own all of the Dark Blue group" in exc.reason
    exc = refused(
        arrange(dark_blue(), mortgaged=(DARK_BLUE_1,)), "build", player="Maria", space=DARK_BLUE_2
    )
    assert "Dark Blue 1 in its group is mortgaged" in exc.reason
    exc = refused(
        arrange(dark_blue(), own={"Maria": (FISHING_BOAT,)}),
        "build",
        player="Maria",
        space=FISHING_BOAT,
    )
    assert "not a location" in exc.reason


def test_building_evenly():
    state = build(dark_blue(), DARK_BLUE_2)
    exc = refused(state, "build", player="Maria", space=DARK_BLUE_2)
    assert "build evenly: Dark Blue 1 has 0 and Dark Blue 2 1" in exc.reason
    state = build(build(state, DARK_BLUE_1), DARK_BLUE_2)
    assert holding(state, DARK_BLUE_2).hideouts == 2


def test_four_hideouts_then_a_compound_and_the_hideouts_go_back_to_the_bank():
    state = arrange(dark_blue(), hideouts={DARK_BLUE_1: 4, DARK_BLUE_2: 4})
    assert state.hideouts_left() == 24
    state = build(state, DARK_BLUE_2)
    h = holding(state, DARK_BLUE_2)
    assert h.compound and h.hideouts == 0 and cash(state, "Maria") == 4800
    assert state.hideouts_left() == 28 and state.compounds_left() == 11
    exc = refused(state, "build", player="Maria", space=DARK_BLUE_2)
    assert "has a Compound: nothing more can be built" in exc.reason


def test_speed_play_three_hideouts_before_a_compound():
    state = arrange(dark_blue(speed_play=True), hideouts={DARK_BLUE_1: 3, DARK_BLUE_2: 3})
    state = build(state, DARK_BLUE_2)
    assert holding(state, DARK_BLUE_2).compound and state.hideouts_left() == 32 - 3


def test_no_hideouts_left_in_the_bank_nobody_builds():
    all_out = {s: 4 for s in (*PINK, *ORANGE, *RED, *YELLOW)}  # 12 locations, 48 > 32
    state = arrange(
        dark_blue(),
        own={"Johnny": PINK + ORANGE + RED + YELLOW},
        hideouts=dict(list(all_out.items())[:8]),
    )  # 32 Hideouts on the board
    assert state.hideouts_left() == 0
    exc = refused(state, "build", player="Maria", space=DARK_BLUE_2)
    assert "the Bank has no Hideouts left" in exc.reason


def crowded(**kw):
    """31 Hideouts on the board, 1 in the Bank: Claire's groups are full (Compounds next),
    Johnny has one Hideout on each Green, Maria none on Dark Blue: two players can build."""
    state = arrange(
        dark_blue(),
        own={"Johnny": GREEN, "Claire": PINK + ORANGE + RED + YELLOW},
        cash={"Johnny": 3000},
        hideouts={**{s: 4 for s in PINK + RED}, ORANGE[2]: 4, **{s: 1 for s in GREEN}},
        compounds=(*ORANGE[:2], *YELLOW),
        **kw,
    )
    assert state.hideouts_left() == 1
    return state


def test_a_shortage_is_auctioned_from_the_listed_price():
    state = build(crowded(), DARK_BLUE_2)  # Maria asks: she bids the listed $200
    assert state.auction is not None and state.auction.high_bid == 200
    assert doing(state) == [("Johnny", "bid")]  # Claire cannot put a Hideout anywhere
    state = act(state, "bid", player="Johnny", amount=250)
    state = act(state, "pass", player="Maria")
    assert doing(state) == [("Johnny", "place_building")]
    assert cash(state, "Johnny") == 2750
    choices = [c.label for c in MONOPOLY.choices(state, "Johnny")]
    assert choices == [f"Place the won Hideout on Green {n}" for n in (1, 2, 3)]
    state = build(state, GREEN[2], player="Johnny")
    assert holding(state, GREEN[2]).hideouts == 2 and cash(state, "Johnny") == 2750
    assert state.hideouts_left() == 0


def test_a_shortage_nobody_else_wants_is_built_at_the_listed_price():
    state = build(crowded(), DARK_BLUE_2)
    state = act(state, "pass", player="Johnny")
    assert holding(state, DARK_BLUE_2).hideouts == 1 and cash(state, "Maria") == 4800


def test_selling_back_at_half_evenly():
    state = arrange(dark_blue(), hideouts={DARK_BLUE_1: 2, DARK_BLUE_2: 3})
    exc = refused(state, "sell", player="Maria", space=DARK_BLUE_1)
    assert exc.rule == "Don't Wait for Your Turn 4 (sell Hideouts/Compounds)"
    assert "sell evenly: Dark Blue 2 has more buildings" in exc.reason
    state = act(state, "sell", player="Maria", space=DARK_BLUE_2)
    assert holding(state, DARK_BLUE_2).hideouts == 2 and cash(state, "Maria") == 5100


def test_a_compound_is_sold_for_half_and_exchanged_for_four_hideouts():
    state = arrange(dark_blue(), hideouts={DARK_BLUE_1: 4}, compounds=(DARK_BLUE_2,))
    state = act(state, "sell", player="Maria", space=DARK_BLUE_2)
    h = holding(state, DARK_BLUE_2)
    assert not h.compound and h.hideouts == 4 and cash(state, "Maria") == 5100
    assert state.compounds_left() == 12


def test_a_compound_sold_when_the_bank_lacks_hideouts_sells_the_missing_ones_too():
    state = arrange(
        crowded(),
        hideouts={DARK_BLUE_1: 4, **{s: 0 for s in GREEN}, RED[0]: 3},
        compounds=(DARK_BLUE_2,),
    )  # 31 on the board again: 1 left
    assert state.hideouts_left() == 1
    state = act(state, "sell", player="Maria", space=DARK_BLUE_2)
    assert holding(state, DARK_BLUE_2).hideouts == 1
    assert cash(state, "Maria") == 5000 + 100 + 3 * 100  # the Compound and three Hideouts
