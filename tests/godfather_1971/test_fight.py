"""Fighting for Control: the rulebook's surrounding examples, as positions.

"A Player eliminates an opponent's positioned pieces by surrounding them with his own men ...
If one Player's pieces can surround an opponent's piece or pieces, or enclose them against the
border of a Neighborhood, the surrounded pieces are lost and are removed from the board."
The rulebook's pictures are not in its text; these positions are drawn from its words.
"""

from __future__ import annotations

import pytest
from table import arrange, diagram, game, play

from companion.games.godfather_1971 import GODFATHER_1971
from companion.games.godfather_1971.fight import Forbidden, Placed, enclosed, place
from companion.protocol.errors import RuleViolation


def taken(d, mover, *positions):
    out = place(d.layout, d.pieces, mover, d.at(*positions))
    assert isinstance(out, Placed), out
    return out


def test_a_straight_fence_takes_the_pieces_it_surrounds():
    d = diagram("""
        . + + . .
        + - - . .
        . + + . .
    """)
    out = taken(d, 0, "B4")
    [t] = out.taken
    assert d.names(t.group) == ["B2", "B3"] and t.owner == 1
    assert d.names(t.fence) == ["A2", "A3", "B1", "B4", "C2", "C3"]
    assert out.pieces[1] == 0


def test_a_diagonal_fence_surrounds_too():
    # Four pieces in a diamond: "The fence may be of straight or diagonal lines, or both."
    d = diagram("""
        . + .
        + - .
        . + .
    """)
    out = taken(d, 0, "B3")
    assert d.names(out.took) == ["B2"]


def test_pieces_are_enclosed_against_the_border():
    corner = diagram("""
        - + .
        . . .
    """)
    assert corner.names(taken(corner, 0, "B1").took) == ["A1"]
    edge = diagram("""
        + - - . .
        . + . . .
    """)
    assert edge.names(taken(edge, 0, "B3", "A4").took) == ["A2", "A3"]


def test_the_fence_must_touch_the_pieces_it_surrounds():
    # "contiguous: the line formed by the surrounding pieces must be immediately adjacent":
    # a ring with an empty position inside it does not take the piece beside that position.
    d = diagram("""
        . + + + .
        + - . . +
        . + + + .
    """)
    out = taken(d, 0, "A1")
    assert out.taken == ()
    assert d.names(out.pieces[1]) == ["B2"]


def test_two_opponents_may_not_surround_together():
    # "2 opponents may not together surround a Player's pieces. Surrounding pieces must be
    # of the same color."
    d = diagram(
        """
        . + .
        + - *
        . . .
    """,
        players=3,
    )
    out = taken(d, 0, "C2")
    assert out.taken == ()
    out = taken(d, 2, "C2")
    assert out.taken == ()


def test_one_player_surrounds_two_opponents_pieces_at_once():
    # "One Player may surround 2 (or 3) separate opponents' pieces with his own."
    d = diagram(
        """
        . + . + .
        + - . * +
        . + . + .
    """,
        players=3,
    )
    out = taken(d, 0, "B3")
    assert sorted((t.owner, d.names(t.group)[0]) for t in out.taken) == [(1, "B2"), (2, "B4")]


def test_no_piece_may_go_where_it_is_taken_at_once():
    # "(-) cannot move into (+'s) center except as part of a taking move."
    d = diagram("""
        . + . .
        + . + .
        . + . .
    """)
    out = place(d.layout, d.pieces, 1, d.at("B2"))
    assert isinstance(out, Forbidden)
    assert out.by == 0 and d.names(out.fence) == ["A2", "B1", "B3", "C2"]
    assert d.names(enclosed(d.layout, d.pieces, 0)) == ["A1", "B2", "C1"]


def test_unless_it_is_part_of_a_taking_move():
    # MINUS fences PLUS's B1 against the border on A1 and C1; going into PLUS's center on B2
    # closes that fence: B1 is taken first, and the piece on B2 then stands.
    d = diagram("""
        - + . .
        + . + .
        - + . .
    """)
    out = taken(d, 1, "B2")
    assert d.names(out.took) == ["B1"]
    assert d.names(out.pieces[1]) == ["A1", "B2", "C1"]


def test_pieces_put_down_together_are_judged_together():
    # A1, A3 and B2 are each enclosed by PLUS: any one of them alone would be taken at once.
    # Put down together they surround A2 (a taking move), so they stand.
    d = diagram("""
        . + . + .
        + . + . .
        . + . . .
    """)
    for alone in ("A1", "A3", "B2"):
        assert isinstance(place(d.layout, d.pieces, 1, d.at(alone)), Forbidden), alone
    out = taken(d, 1, "A1", "A3", "B2")
    assert d.names(out.took) == ["A2"]


def test_a_piece_between_two_opponents_is_not_taken():
    # Its fence would be two colours: it stands, so it may be put there.
    d = diagram(
        """
        . + .
        + . *
        . * .
    """,
        players=3,
    )
    out = place(d.layout, d.pieces, 1, d.at("B2"))
    assert isinstance(out, Placed) and out.taken == ()


def test_the_rulebooks_exchange_three_for_one_then_three_for_three():
    # 1a: MINUS plays three pieces to surround a PLUS piece against the border; 1b: it is
    # removed. "The move is legal, but unwise, since (+) can retaliate devastatingly": 2a:
    # PLUS plays three pieces to surround the three MINUS pieces; 2b: they are removed.
    d = diagram("""
        + . + . + .
        . . . . . .
        . . + . . .
    """)
    one = taken(d, 1, "A2", "A4", "B3")
    assert d.names(one.took) == ["A3"]
    two = place(d.layout, one.pieces, 0, d.at("A3", "B2", "B4"))
    assert isinstance(two, Placed)
    assert d.names(two.took) == ["A2", "A4", "B3"]
    assert len(two.taken) == 3  # three separate pieces, each fenced on its own


def test_the_referee_names_the_rule_and_the_fence():
    state = arrange(
        game(),
        "midtown",
        """
        . + . . .
        + . + . .
        . + . . .
        . . . . .
    """,
    )
    state = play(
        state,
        {
            "type": "place",
            "player": "Plus",
            "neighborhood": "park-west",
            "positions": ["A1"],
            "racket": "hijacker",
        },
        {"type": "place", "player": "Plus", "neighborhood": "midtown", "positions": ["D5"]},
        {"type": "end_turn", "player": "Plus"},
        {"type": "draw", "player": "Plus", "card": "money-5"},
    )
    with pytest.raises(RuleViolation) as err:
        play(
            state,
            {"type": "place", "player": "Minus", "neighborhood": "midtown", "positions": ["B2"]},
        )
    assert err.value.rule == "Fighting for Control"
    assert "B2" in err.value.reason and "A2, B1, B3, C2" in err.value.reason
    assert "taking move" in err.value.reason


def test_a_capture_ruling_carries_the_fence_and_the_board_it_left_for_the_pages():
    state = arrange(
        game(),
        "midtown",
        """
        - + . . .
        . . . . .
        . . . . .
        . . . . .
    """,
    )
    state = play(
        state, {"type": "place", "player": "Plus", "neighborhood": "midtown", "positions": ["B1"]}
    )
    [ruling] = GODFATHER_1971.player_view(state, None)["rulings"]
    assert ruling["kind"] == "capture" and ruling["placed"] == ["B1"]
    assert ruling["taken"] == [{"owner": "Minus", "positions": ["A1"], "fence": ["A2", "B1"]}]
    assert ruling["board"] == {"A2": "Plus", "B1": "Plus"}  # as the capture left it
