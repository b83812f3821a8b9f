"""Don't Wait for Your Turn 6 and Play It Right!: a deal of properties, cash and Get Out of
Jail Free cards, proposed on one phone and accepted or rejected on the other; unimproved
property only; never a loan."""

from monopoly_scenario import (
    BROWN_1,
    BROWN_2,
    DARK_BLUE,
    DARK_BLUE_2,
    act,
    arrange,
    cash,
    doing,
    owner,
    refused,
    table,
)

from companion.games.monopoly import MONOPOLY, Offer, Propose, apply
from companion.protocol import RuleViolation

NOTHING = Offer()


def propose(state, player, to, give=NOTHING, take=NOTHING):
    return apply(state, Propose(player, to, give, take))


def refused_deal(state, player, to, give=NOTHING, take=NOTHING):
    try:
        propose(state, player, to, give, take)
    except RuleViolation as exc:
        return exc
    raise AssertionError("the deal was accepted")


def test_a_deal_proposed_on_one_phone_and_accepted_on_the_other():
    state = arrange(table("Maria", "Johnny", "Claire"), own={"Johnny": (DARK_BLUE_2,)})
    state = propose(state, "Maria", "Johnny", Offer(cash=500), Offer(spaces=(DARK_BLUE_2,)))
    assert doing(state) == [("Johnny", "answer_deal")]
    assert MONOPOLY.player_view(state, "Claire")["deal"] == {
        "proposer": "Maria",
        "partner": "Johnny",
        "give": {"cash": 500, "spaces": [], "cards": []},
        "take": {"cash": 0, "spaces": [DARK_BLUE_2], "cards": []},
    }
    labels = [c.label for c in MONOPOLY.choices(state, "Johnny")]
    assert labels[:2] == ["Accept the deal", "Reject the deal"]
    done = act(state, "accept", player="Johnny")
    assert owner(done, DARK_BLUE_2) == "Maria"
    assert cash(done, "Maria") == 1000 and cash(done, "Johnny") == 2000


def test_rejected_or_withdrawn_nothing_changes_hands():
    state = arrange(table(), own={"Johnny": (DARK_BLUE_2,)})
    state = propose(state, "Maria", "Johnny", Offer(cash=500), Offer(spaces=(DARK_BLUE_2,)))
    for answer in (act(state, "reject", player="Johnny"), act(state, "withdraw", player="Maria")):
        assert answer.deal is None and owner(answer, DARK_BLUE_2) == "Johnny"
        assert cash(answer, "Maria") == 1500
    exc = refused(state, "accept", player="Maria")
    assert "the deal is Johnny's to accept" in exc.reason


def test_get_out_of_jail_free_cards_can_be_traded():
    state = arrange(table(), cards={"Johnny": ("enemies-08",)})
    state = propose(state, "Maria", "Johnny", Offer(cash=50), Offer(cards=("enemies-08",)))
    state = act(state, "accept", player="Johnny")
    assert state.players[0].jail_cards == ("enemies-08",) and state.players[1].jail_cards == ()


def test_only_unimproved_property_the_groups_buildings_are_sold_first():
    state = arrange(table(), own={"Maria": DARK_BLUE}, hideouts={37: 1})
    exc = refused_deal(state, "Maria", "Johnny", Offer(spaces=(DARK_BLUE_2,)), Offer(cash=1))
    assert exc.rule == "Don't Wait for Your Turn 6 (do a deal)"
    assert "sell the buildings of its group to the Bank first" in exc.reason


def test_never_a_loan_and_only_what_each_side_has():
    exc = refused_deal(table(), "Maria", "Johnny", Offer(cash=300), Offer())
    assert exc.rule == "Play It Right!" and "never loan each other money" in exc.reason
    state = arrange(table(), own={"Johnny": (BROWN_1,)})
    exc = refused_deal(state, "Maria", "Johnny", Offer(cash=1501), Offer(spaces=(BROWN_1,)))
    assert "Maria has $1500, not $1501" in exc.reason
    exc = refused_deal(state, "Maria", "Johnny", Offer(), Offer(spaces=(BROWN_2,)))
    assert "Brown 2 is not Johnny's" in exc.reason
    exc = refused_deal(state, "Maria", "Maria", Offer(), Offer(spaces=(BROWN_1,)))
    assert "with another player" in exc.reason
