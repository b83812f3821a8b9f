"""Where Did You Land? 1 and Don't Wait for Your Turn 2: an unowned property is bought at its
listed price, or auctioned by the Banker: any player bids from $1, in cash, in turn; the last
bid buys."""

from scenario import BROWN_2, DARK_BLUE_2, act, arrange, cash, doing, owner, refused, roll, table

from companion.games.monopoly import MONOPOLY, Step, legal_actions


def landed_on_boardwalk(*names, **options):
    state = arrange(table(*names or ("Maria", "Johnny", "Claire"), **options), at={"Maria": 34})
    return roll(state, "Maria", 2, 3)  # 34 + 5 = Dark Blue 2 ($400)


def test_buying_at_the_listed_price():
    state = landed_on_boardwalk()
    assert doing(state) == [("Maria", "buy")]
    state = act(state, "buy", player="Maria", space=DARK_BLUE_2)
    assert owner(state, DARK_BLUE_2) == "Maria" and cash(state, "Maria") == 1100
    assert state.step is Step.END


def test_buying_takes_the_cash_and_the_space_landed_on():
    state = arrange(landed_on_boardwalk(), cash={"Maria": 399})
    exc = refused(state, "buy", player="Maria", space=DARK_BLUE_2)
    assert exc.rule == "Where Did You Land? 1 (an unowned property)"
    assert "costs $400 and Maria has $399" in exc.reason
    exc = refused(landed_on_boardwalk(), "buy", player="Maria", space=BROWN_2)
    assert "landed on Dark Blue 2, not Brown 2" in exc.reason


def test_declined_it_goes_to_auction_bidding_in_turn_from_the_decliner():
    state = act(landed_on_boardwalk(), "decline", player="Maria", space=DARK_BLUE_2)
    assert doing(state) == [("Maria", "bid")]
    state = act(state, "bid", player="Maria", amount=1)  # the bidding starts at $1
    assert doing(state) == [("Johnny", "bid")]
    state = act(state, "bid", player="Johnny", amount=150)
    state = act(state, "pass", player="Claire")  # Claire is out
    state = act(state, "bid", player="Maria", amount=200)
    state = act(state, "pass", player="Johnny")  # back round to Maria: nobody else is in
    assert owner(state, DARK_BLUE_2) == "Maria" and cash(state, "Maria") == 1300
    assert state.auction is None and doing(state) == [("Maria", "end_turn")]
    assert "Maria buys Dark Blue 2 for $200 at auction." in state.events[-1].text


def test_the_last_bid_buys_even_if_it_is_the_only_one():
    state = act(landed_on_boardwalk(), "decline", player="Maria", space=DARK_BLUE_2)
    state = act(state, "pass", player="Maria")
    state = act(state, "bid", player="Johnny", amount=5)
    state = act(state, "pass", player="Claire")
    assert owner(state, DARK_BLUE_2) == "Johnny" and cash(state, "Johnny") == 1495


def test_nobody_bids_and_the_property_stays_with_the_bank():
    state = act(landed_on_boardwalk(), "decline", player="Maria", space=DARK_BLUE_2)
    for name in ("Maria", "Johnny", "Claire"):
        state = act(state, "pass", player=name)
    assert owner(state, DARK_BLUE_2) is None and state.auction is None


def test_bids_must_rise_be_in_cash_and_in_turn():
    state = act(landed_on_boardwalk(), "decline", player="Maria", space=DARK_BLUE_2)
    state = act(state, "bid", player="Maria", amount=100)
    exc = refused(state, "bid", player="Johnny", amount=100)
    assert exc.rule == "Don't Wait for Your Turn 2 (auction)" and "at least $101" in exc.reason
    exc = refused(state, "bid", player="Johnny", amount=1501)
    assert "has $1500: bids are made in cash" in exc.reason
    exc = refused(state, "bid", player="Claire", amount=200)
    assert "Johnny's turn to bid" in exc.reason
    exc = refused(state, "bid", player="Johnny", amount=0)
    assert "at least $101" in exc.reason


def test_the_phone_offers_bids_above_the_highest_within_the_bidders_cash():
    state = act(landed_on_boardwalk(), "decline", player="Maria", space=DARK_BLUE_2)
    state = act(state, "bid", player="Maria", amount=1450)
    state = arrange(state, cash={"Johnny": 1500})
    offered = [a.amount for a in legal_actions(state, "Johnny") if a.TYPE == "bid"]
    assert offered == [1451, 1460, 1500]
    bid = next(c for c in MONOPOLY.choices(state, "Johnny") if c.group == "bid")
    assert bid.extra == {"min": 1451, "max": 1500} and bid.label == "Bid $1451"


def test_while_the_auction_runs_the_table_waits_for_it():
    state = act(landed_on_boardwalk(), "decline", player="Maria", space=DARK_BLUE_2)
    state = arrange(state, own={"Johnny": (BROWN_2,)})
    exc = refused(state, "mortgage", player="Johnny", space=BROWN_2)
    assert "the auction is on: Maria to bid" in exc.reason
