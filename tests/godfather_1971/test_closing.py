"""CONTROL at the table: established and credited, the bonus, the closed neighborhood, the
declared version, stalemates, the short game, and the end."""

from __future__ import annotations

import pytest
from table import FILES, arrange, game, play, started

from companion.games.godfather_1971 import GODFATHER_1971, Racket, Step
from companion.games.godfather_1971.closing import bonus_of
from companion.protocol.errors import RuleViolation

LES_MAJORITY = """
    + + + + . .
    + . + . . .
    + + + . . .
    + + + . - .
    + . + . . .
    + + + . . .
"""
FULL_MIDTOWN = """
    - - * + -
    + * + - -
    + - * * +
    + * * - +
"""


def act(kind, player, **fields):
    return {"type": kind, "player": player, **fields}


def next_turn(state, player, card="money-1"):
    """``player`` plays the held card if there is one, ends the turn and draws ``card``."""
    if state.step is Step.PLAY_CARD:
        state = play(state, act("play_card", player))
    return play(state, act("end_turn", player), act("draw", player, card=card))


def test_the_rulebooks_example_extortion_on_the_lower_east_side():
    # "A Player achieves CONTROL of EXTORTION on the LOWER EAST SIDE. He thereby receives a
    # credit of $6,800 and a cash BONUS of $680 (rounded off to $700) on his next three turns."
    state = started(game(2, neighborhoods=("lower-east-side", "midtown")))
    state = arrange(state, "lower-east-side", LES_MAJORITY, Racket.STRONGARM)
    state = play(state, act("end_turn", "Plus"))
    les = state.board.index("lower-east-side")
    [ruling] = state.rulings
    assert ruling.kind.value == "control" and ruling.verdict.holds == 19
    assert state.hoods[les].controller == 0
    assert state.players[0].credits == (("lower-east-side", 6800),)
    assert bonus_of(6800) == 700
    # "Once CONTROL is established in a Neighborhood it is closed ... All pieces except one
    # of the controlling Player's are removed from the board. No more play can occur on it."
    assert [bin(m).count("1") for m in state.hoods[les].pieces] == [1, 0]
    state = play(state, act("draw", "Plus", card="money-1"))
    with pytest.raises(RuleViolation) as err:
        play(state, act("place", "Minus", neighborhood="lower-east-side", positions=["F6"]))
    assert err.value.rule == "Control" and "closed" in err.value.reason
    cash = state.players[0].cash
    for turn in range(4):
        state = next_turn(state, "Minus")  # Plus's turn begins: the bonus is paid
        paid = state.players[0].cash - cash
        assert paid == (700 if turn < 3 else 0), turn
        state = play(state, act("play_card", "Plus"))  # money-1: $100
        cash = state.players[0].cash
        state = next_turn(state, "Plus")
    view = GODFATHER_1971.player_view(state, None)
    assert view["players"][0]["bonuses"] == []


@pytest.mark.parametrize(
    "value,bonus", [(6800, 700), (3500, 400), (1000, 100), (4300, 400), (10000, 1000)]
)
def test_the_bonus_is_ten_percent_rounded_to_the_nearest_hundred(value, bonus):
    assert bonus_of(value) == bonus


def test_a_majority_an_opponent_could_reduce_is_not_control_and_the_table_sees_why():
    state = started(game())
    state = arrange(
        state,
        "midtown",
        """
        + + + + -
        + . + . .
        + + + + .
        . . + . +
    """,
    )
    state = play(state, act("end_turn", "Plus"))
    i = state.board.index("midtown")
    assert state.hoods[i].open
    view = GODFATHER_1971.player_view(state, None)
    [ruling] = view["rulings"]
    assert ruling["kind"] == "not_yet" and ruling["neighborhood"] == "midtown"
    check = ruling["check"]
    # 12 pieces and the enclosed B2 and D4; but MINUS can take D5 on C5 and D4 at once
    # (D4 is PLUS's enclosure: entering it is legal as part of the taking move).
    assert check["holds"] == 14 and check["needs"] == 11 and not check["controls"]
    breach = check["breach"]
    assert breach["by"] == "Minus" and [sorted(m) for m in breach["placements"]] == [["C5", "D4"]]
    assert breach["takes"] == ["D5"] and breach["fence"] == ["C5", "D4"]
    assert breach["enters"] == ["D4"] and breach["leaves"] == 12
    assert view["neighborhoods"][i]["check"] == check
    assert ruling["board"]["A1"] == "Plus"


def test_a_neighborhood_nobody_can_play_in_any_more_is_stalemated():
    # "If CONTROL is achieved by no Player in a Neighborhood, RACKET CONTROL VALUE is not
    # assigned. All pieces remain positioned on the board as stalemated."
    full = arrange(started(game(3)), "midtown", FULL_MIDTOWN)
    state = play(full, act("end_turn", "Plus"))
    i = state.board.index("midtown")
    assert state.hoods[i].stalemated and state.hoods[i].controller is None
    assert state.hoods[i].pieces == full.hoods[i].pieces
    assert [r.kind.value for r in state.rulings] == ["stalemate"]


def test_the_game_ends_when_every_neighborhood_is_closed_and_the_richest_wins():
    # "Each Player then adds the values of the rackets he controls to his cash holdings.
    # The Player with the highest total wins the game, and becomes ... THE GODFATHER."
    state = started(game(3, neighborhoods=("lower-east-side", "midtown")))
    state = arrange(state, "midtown", FULL_MIDTOWN)
    state = arrange(state, "lower-east-side", LES_MAJORITY, Racket.STRONGARM)
    state = state.with_player(1, cash=9000)
    before = state
    state = play(state, act("end_turn", "Plus"))
    assert state.step is Step.OVER and GODFATHER_1971.is_over(state)
    score = GODFATHER_1971.score(state)
    assert score["totals"] == {"Plus": 3000 + 6800, "Minus": 9000, "Star": 3000}
    assert score["winners"] == ["Plus"]
    lines = GODFATHER_1971.narrate(
        before, GODFATHER_1971.action_from_dict(act("end_turn", "Plus")), state, None
    )
    assert any("THE GODFATHER: Plus" in line for line in lines)
    tied = GODFATHER_1971.score(state.with_player(1, cash=9800))
    assert tied["winners"] == ["Plus", "Minus"]


# --- the short game ----------------------------------------------------------------------


def test_the_short_game_plays_on_fewer_neighborhoods():
    # "A shorter version of THE GODFATHER can be played by eliminating the desired number of
    # Neighborhoods from competition, playing only on the remainder."
    setup = {
        "type": "setup",
        "game": "godfather-1971",
        "players": ["A", "B", "C"],
        "neighborhoods": 2,
    }
    state = GODFATHER_1971.new_game(GODFATHER_1971.setup_from_dict(setup), FILES)
    assert [layout.id for layout in state.board.layouts] == ["the-docks", "midtown"]
    with pytest.raises(RuleViolation) as err:
        GODFATHER_1971.new_game(
            GODFATHER_1971.setup_from_dict({**setup, "neighborhoods": ["midtown", "brooklyn"]}),
            FILES,
        )
    assert err.value.rule == "The Board" and "brooklyn" in err.value.reason


# --- declared CONTROL (the other version) -----------------------------------------------

IMPLICIT = """
    + + + + .
    . . . + .
    + + + + .
    . . . . -
"""


def declared_game():
    state = started(game(2, control="declared"))
    return arrange(state, "midtown", IMPLICIT)


def test_a_player_with_an_implicit_majority_may_declare_control():
    # "As soon as a Player achieves implicit control of a majority of the positions in a
    # Neighborhood, he may declare CONTROL."
    state = declared_game()
    labels = [c.label for c in GODFATHER_1971.choices(state, "Plus")]
    assert "Declare CONTROL of Midtown" in labels
    state = play(state, act("declare", "Plus", neighborhood="midtown"))
    i = state.board.index("midtown")
    assert state.hoods[i].declared.seat == 0
    checked = arrange(started(game()), "midtown", IMPLICIT)
    with pytest.raises(RuleViolation) as err:
        play(checked, act("declare", "Plus", neighborhood="midtown"))
    assert err.value.rule == "Control" and "checked" in err.value.reason


def test_declared_control_unchallenged_for_a_round_is_conceded():
    # "Unless his declaration of CONTROL is challenged by the play of one of his opponents
    # on their next move, CONTROL is conceded to him."
    state = play(declared_game(), act("declare", "Plus", neighborhood="midtown"))
    state = next_turn(state, "Plus")
    state = play(
        state, act("place", "Minus", neighborhood="park-west", positions=["A1"], racket="hijacker")
    )
    state = next_turn(state, "Minus")
    i = state.board.index("midtown")
    assert state.hoods[i].controller == 0
    assert state.players[0].credits == (("midtown", 3000),)
    assert [r.kind.value for r in state.rulings] == ["conceded"]


def test_a_piece_played_into_the_declared_territory_withholds_control_and_costs_a_piece():
    # "If an opponent positions a piece or pieces within the territory declared controlled,
    # then CONTROL is withheld and the declaring Player is penalized 1 racket piece in that
    # Neighborhood."
    state = play(declared_game(), act("declare", "Plus", neighborhood="midtown"))
    state = next_turn(state, "Plus")
    state = play(state, act("place", "Minus", neighborhood="midtown", positions=["B2"]))
    i = state.board.index("midtown")
    assert state.hoods[i].declared is None
    assert [r.kind.value for r in state.rulings] == ["withheld"]
    state = next_turn(state, "Minus")
    assert state.step is Step.PENALTY
    with pytest.raises(RuleViolation) as err:
        play(state, act("give_up", "Plus", neighborhood="park-west", position="A1"))
    assert err.value.rule == "Control"
    pieces = bin(state.hoods[i].pieces[0]).count("1")
    state = play(state, act("give_up", "Plus", neighborhood="midtown", position="A1"))
    assert bin(state.hoods[i].pieces[0]).count("1") == pieces - 1
    assert state.step is Step.PLAY_CARD and state.hoods[i].controller is None
