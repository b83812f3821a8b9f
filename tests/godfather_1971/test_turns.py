"""Preparation, the first turn, and the four steps of every later turn, with the cards.

Each test quotes the rule it checks; refusals are checked for their rule and their reason.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from table import FILES, arrange, game, play, started

from companion.games.godfather_1971 import GODFATHER_1971, Racket, Step
from companion.protocol.errors import MalformedAction, RuleViolation


def place(player, hood, *positions, racket=None):
    line = {"type": "place", "player": player, "neighborhood": hood, "positions": list(positions)}
    if racket:
        line["racket"] = racket
    return line


def act(kind, player, **fields):
    return {"type": kind, "player": player, **fields}


def refused(state, *lines):
    with pytest.raises(RuleViolation) as err:
        play(state, *lines)
    return err.value


def cash(state, seat=0):
    return state.players[seat].cash


# --- Preparation and To Start ----------------------------------------------------------


def test_two_to_four_players_each_with_three_thousand_dollars():
    # "The game may be played by two, three, or four Players" ... "The banker distributes
    # $3,000 to each Player."
    for n in (2, 3, 4):
        state = game(n)
        assert [p.cash for p in state.players] == [3000] * n
    for n in (1, 5):
        setup = {"type": "setup", "game": "godfather-1971", "players": [f"P{i}" for i in range(n)]}
        with pytest.raises(RuleViolation) as err:
            GODFATHER_1971.new_game(GODFATHER_1971.setup_from_dict(setup), FILES)
        assert err.value.rule == "Preparation" and str(n) in err.value.reason


def test_the_dice_decide_who_goes_first_and_ties_roll_again():
    # "Players roll the dice to see who will go first."
    setup = {"type": "setup", "game": "godfather-1971", "players": ["Ann", "Bo", "Cy"]}
    state = GODFATHER_1971.new_game(GODFATHER_1971.setup_from_dict(setup), FILES)
    assert state.step is Step.ROLL_FOR_FIRST
    [w] = GODFATHER_1971.waiting_for(state)
    assert w.player == "Ann" and w.dice.count == 2 and w.dice.pools == ("dice",)
    assert refused(state, act("roll", "Bo", faces=[6, 6])).rule == "To Start"
    state = play(
        state,
        act("roll", "Ann", faces=[6, 5]),
        act("roll", "Bo", faces=[5, 6]),
        act("roll", "Cy", faces=[1, 2]),
    )
    assert state.step is Step.ROLL_FOR_FIRST  # Ann and Bo tied on 11
    assert [s for s, _ in state.rolloff] == [0, 1]
    state = play(state, act("roll", "Ann", faces=[2, 2]), act("roll", "Bo", faces=[3, 2]))
    assert state.step is Step.PLACE and state.turn.seat == 1 and state.turn.first


def test_the_first_turn_buys_one_to_three_pieces_in_each_of_two_neighborhoods():
    # "2 BOOKIES in MIDTOWN, 3 LOAN SHARKS in HARLEM; Cost: $1050"
    state = game(2, neighborhoods=("harlem", "midtown", "the-docks"))
    state = play(
        state,
        place("Plus", "midtown", "A1", "A2", racket="bookie"),
        place("Plus", "harlem", "A1", "A2", "B1", racket="loan-shark"),
    )
    assert cash(state) == 3000 - 1050
    # "He thereby determines which racket will be played in those two territories".
    midtown = state.hoods[state.board.index("midtown")]
    assert midtown.racket is Racket.BOOKIE
    err = refused(state, place("Plus", "the-docks", "A1", racket="hijacker"))
    assert err.rule == "To Start" and "two neighborhoods" in err.reason
    err = refused(state, place("Plus", "midtown", "A3", "A4"))
    assert err.rule == "The Play C" and "three" in err.reason and "2 in Midtown" in err.reason
    # "The first Player then draws one card ... but does not play the card until his next
    # turn."
    state = play(state, act("end_turn", "Plus"), act("draw", "Plus", card="money-5"))
    assert state.players[0].hand == "money-5" and cash(state) == 1950
    assert state.turn.seat == 1 and state.turn.first and state.step is Step.PLACE


def test_a_first_turn_must_use_two_neighborhoods():
    state = play(game(), place("Plus", "midtown", "A1", racket="hijacker"))
    err = refused(state, act("end_turn", "Plus"))
    assert err.rule == "To Start" and "2 neighborhoods" in err.reason


def test_only_the_neighborhoods_racket_may_be_positioned_there():
    # "Neither he nor any other Player may position a playing piece of any other racket in
    # those territories whose rackets have been determined."
    state = play(game(), place("Plus", "midtown", "A1", racket="hijacker"))
    err = refused(state, place("Plus", "midtown", "A2", racket="bookie"))
    assert err.rule == "The Play C" and "Hijacking" in err.reason and "Bookies" in err.reason
    with pytest.raises(MalformedAction):  # an unplayed neighborhood needs its racket named
        play(state, place("Plus", "park-west", "A1"))


@pytest.mark.parametrize(
    "racket,cost",
    [
        ("bookie", 300),
        ("strongarm", 250),
        ("bootlegger", 200),
        ("loan-shark", 150),
        ("hijacker", 100),
    ],
)
def test_what_a_piece_costs(racket, cost):
    # "a BOOKIE costs $300, a STRONGMAN $250, a BOOTLEGGER $200, a LOAN SHARK $150, a
    # HIJACKER $100", in all neighborhoods.
    state = play(game(), place("Plus", "park-west", "C3", racket=racket))
    assert cash(state) == 3000 - cost


def test_pieces_go_on_unoccupied_positions_and_are_paid_for():
    state = play(game(), place("Plus", "midtown", "A1", racket="bookie"))
    err = refused(state, place("Plus", "midtown", "A1"))
    assert err.rule == "The Play C" and "occupied" in err.reason
    poor = state.with_player(0, cash=250)
    err = refused(poor, place("Plus", "midtown", "B1"))
    assert err.rule == "The Play B" and "$300" in err.reason and "$250" in err.reason


def test_only_the_player_whose_turn_it_is_acts():
    err = refused(game(), place("Minus", "midtown", "A1", racket="bookie"))
    assert err.rule == "The Play" and "Plus's turn" in err.reason


# --- The Play: the held card, buying, positioning, drawing ------------------------------


def later_turn(card: str, **changes):
    """Plus's second turn, holding ``card``, Midtown a Bookie neighborhood."""
    state = started(game())
    state = state.with_player(0, hand=card, **changes)
    state = arrange(
        state,
        "midtown",
        """
        + . . . .
        . . . . .
        . . . . -
        . . . . .
    """,
    )
    return replace(state, step=Step.PLAY_CARD)


def test_a_money_card_pays_a_hundred_times_its_number():
    # "If the card is a MONEY card, he receives its value ($100 x the number on the card)"
    state = play(later_turn("money-7"), act("play_card", "Plus"))
    assert cash(state) == 3700 and state.step is Step.PLACE
    assert state.turn.card == "money-7" and state.players[0].hand is None


def test_a_racket_figure_cards_pieces_are_free_and_go_down_at_once():
    # "the Player is required to place the playing piece(s) it denoted in any available
    # Neighborhood he chooses, free of charge."
    state = play(later_turn("bookie-2"), act("play_card", "Plus"))
    assert state.turn.free is Racket.BOOKIE and state.turn.free_count == 2
    err = refused(state, act("end_turn", "Plus"))
    assert err.rule == "The Play A" and "2 Bookies" in err.reason
    err = refused(state, place("Plus", "park-west", "A1", racket="hijacker"))
    assert err.rule == "The Play A"
    # Three Bookies at once: two from the card, one bought; the three count toward the limit.
    state = play(state, place("Plus", "midtown", "A2", "A3", "A4"))
    assert cash(state) == 2700 and state.turn.free_count == 0
    assert refused(state, place("Plus", "midtown", "B1")).rule == "The Play C"
    state = play(state, act("end_turn", "Plus"))
    assert state.step is Step.DRAW


def test_free_pieces_that_can_go_nowhere_are_void():
    # Every Bookie neighborhood closed and no unplayed one left: the card pertains to nothing.
    before = later_turn("bookie-3")
    before = arrange(before, "park-west", "+ . . . . ." + " . . . . . ." * 4, Racket.HIJACKER)
    before = before.with_hood(before.board.index("midtown"), controller=1)
    card = GODFATHER_1971.action_from_dict(act("play_card", "Plus"))
    after = GODFATHER_1971.apply(before, card)
    assert after.turn.free_count == 0 and after.turn.voided == 3
    assert "void" in " ".join(GODFATHER_1971.narrate(before, card, after, None))
    assert play(after, act("end_turn", "Plus")).step is Step.DRAW


def test_breaks_of_the_game_even_is_a_good_break():
    # "if he throws an even number, he draws a card from the GOOD BREAK deck; if odd, from
    # the BAD BREAK deck, and follows instructions."
    state = play(later_turn("breaks"), act("play_card", "Plus"))
    [w] = GODFATHER_1971.waiting_for(state)
    assert w.does == "breaks_roll" and w.dice.count == 2
    state = play(state, act("roll", "Plus", faces=[3, 5]))
    assert state.step is Step.BREAK_CARD
    err = refused(state, act("break_card", "Plus", card="pay-400"))
    assert err.rule == "The Cards" and "even" in err.reason
    state = play(state, act("break_card", "Plus", card="collect-500"))
    assert cash(state) == 3500 and state.step is Step.PLACE
    # A Good Break of pieces: free, placed at once.
    state = play(
        later_turn("breaks"),
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[2, 2]),
        act("break_card", "Plus", card="bookie-1"),
    )
    assert state.turn.free_count == 1


def test_a_bad_break_is_paid_from_cash():
    state = play(
        later_turn("breaks"),
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[2, 3]),
        act("break_card", "Plus", card="pay-400"),
    )
    assert cash(state) == 2600 and state.step is Step.PLACE


def test_a_bad_break_beyond_the_cash_converts_pieces_at_half_their_cost():
    # "he must remove certain of his racket pieces from their positions on the board. From
    # the bank he receives 1/2 their cost value, with which he may pay the penalty."
    state = later_turn("breaks", cash=0)
    state = arrange(state, "park-west", "+ + . . . ." + " . . . . . ." * 4, Racket.LOAN_SHARK)
    state = play(
        state,
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[1, 2]),
        act("break_card", "Plus", card="pay-200"),
    )
    assert state.step is Step.SELL
    err = refused(state, act("sell", "Plus", neighborhood="midtown", position="C5"))
    assert err.rule == "The Cards" and "not one of your pieces" in err.reason
    state = play(state, act("sell", "Plus", neighborhood="park-west", position="A1"))  # +$75
    assert state.step is Step.SELL and cash(state) == 75
    state = play(state, act("sell", "Plus", neighborhood="midtown", position="A1"))  # +$150
    assert cash(state) == 25 and state.step is Step.PLACE  # $225, less the $200
    assert state.hoods[state.board.index("park-west")].pieces[0] == 0b10


def test_stalemated_pieces_may_still_pay_a_bad_break():
    # Stalemated pieces "may not be redeemed for cash except as previously described": the
    # Bad Break conversion. The neighborhood stays stalemated.
    state = later_turn("breaks", cash=0)
    state = arrange(state, "park-west", "+ + . . . ." + " . . . . . ." * 4, Racket.BOOTLEGGER)
    park = state.board.index("park-west")
    state = state.with_hood(park, stalemated=True)
    state = play(
        state,
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[1, 2]),
        act("break_card", "Plus", card="pay-100"),
    )
    state = play(state, act("sell", "Plus", neighborhood="park-west", position="A2"))
    assert cash(state) == 0 and state.step is Step.PLACE  # $100 for a $200 Bootlegger
    assert state.hoods[park].stalemated and state.hoods[park].pieces[0] == 0b1
    err = refused(state, place("Plus", "park-west", "A2"))
    assert err.rule == "Control" and "stalemated" in err.reason


def test_a_bad_break_takes_pieces_of_its_racket_and_is_void_without_them():
    # "If he has no pieces on the board of the racket stipulated, that part of the penality
    # is void."
    state = play(
        later_turn("breaks"),
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[1, 2]),
        act("break_card", "Plus", card="lose-hijacker-2"),
    )
    assert state.step is Step.PLACE and cash(state) == 3000
    state = later_turn("breaks")
    state = arrange(state, "park-west", "+ + + . . ." + " . . . . . ." * 4, Racket.BOOKIE)
    state = play(
        state,
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[1, 2]),
        act("break_card", "Plus", card="pay-300+lose-bookie-1"),
    )
    assert state.step is Step.LOSE_PIECES  # four Bookies on the board: Plus chooses one
    err = refused(state, act("give_up", "Plus", neighborhood="midtown", position="C5"))
    assert err.rule == "The Cards"
    state = play(state, act("give_up", "Plus", neighborhood="park-west", position="A3"))
    assert state.step is Step.PLACE and cash(state) == 2700


def test_the_fingerman_removes_any_three_opponents_pieces():
    # "The Player who draws this card may remove any three of his opponents' pieces from
    # the board (a total of three)."
    state = later_turn("fingerman")
    state = arrange(state, "park-west", "- - - - . ." + " . . . . . ." * 4, Racket.HIJACKER)
    state = play(state, act("play_card", "Plus"))
    assert state.step is Step.FINGERMAN
    err = refused(state, act("finger", "Plus", neighborhood="midtown", position="A1"))
    assert err.rule == "The Cards" and "yours" in err.reason
    state = play(
        state,
        act("finger", "Plus", neighborhood="midtown", position="C5"),
        act("finger", "Plus", neighborhood="park-west", position="A1"),
        act("finger", "Plus", neighborhood="park-west", position="A2"),
    )
    assert state.step is Step.PLACE
    park = state.hoods[state.board.index("park-west")]
    assert park.pieces[1] == 0b1100  # A3 and A4 stay: three in all
    # It may stop early.
    state = play(later_turn("fingerman"), act("play_card", "Plus"), act("end_fingerman", "Plus"))
    assert state.step is Step.PLACE


def test_the_card_drawn_is_held_secretly_for_the_next_turn():
    # "He draws a card from the playing deck and holds it to begin his next turn, not
    # permitting the other Players to see it."
    state = play(later_turn("money-1"), act("play_card", "Plus"), act("end_turn", "Plus"))
    draw = GODFATHER_1971.action_from_dict(act("draw", "Plus", card="fingerman"))
    after = GODFATHER_1971.apply(state, draw)
    assert GODFATHER_1971.player_view(after, "Plus")["players"][0]["hand"]["code"] == "fingerman"
    for viewer in ("Minus", None):
        view = GODFATHER_1971.player_view(after, viewer)
        assert "hand" not in view["players"][0] and view["players"][0]["holds_card"]
        assert GODFATHER_1971.action_view(state, draw, viewer)["card"] == "hidden"
        assert "Fingerman" not in " ".join(GODFATHER_1971.narrate(state, draw, after, viewer))
    assert "Fingerman" in " ".join(GODFATHER_1971.narrate(state, draw, after, "Plus"))


# --- house rules -------------------------------------------------------------------------


def test_a_bad_break_nobody_can_pay_is_forgiven_or_owed():
    # The rules do not say what happens when even the pieces do not cover it.
    forgiven = play(
        later_turn("breaks", cash=100).with_hood(1, pieces=(0, 0b1)),
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[1, 2]),
        act("break_card", "Plus", card="pay-500"),
    )
    assert cash(forgiven) == 0 and forgiven.players[0].debt == 0
    owed = later_turn("breaks", cash=100).with_hood(1, pieces=(0, 0b1))
    owed = replace(owed, rules=replace(owed.rules, bad_break_shortfall="debt"))
    owed = play(
        owed,
        act("play_card", "Plus"),
        act("roll", "Plus", faces=[1, 2]),
        act("break_card", "Plus", card="pay-500"),
    )
    assert cash(owed) == 0 and owed.players[0].debt == 400
    # The next money the bank pays settles the debt first, and the score counts what is left.
    owed = replace(owed.with_player(0, hand="money-3"), step=Step.PLAY_CARD)
    owed = play(owed, act("play_card", "Plus"))
    assert cash(owed) == 0 and owed.players[0].debt == 100
    assert GODFATHER_1971.score(owed)["totals"]["Plus"] == -100
