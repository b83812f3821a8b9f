"""CONTROL: the rulebook's illustrations, as positions, and the one-turn check itself.

"A player wins the FIGHT FOR CONTROL when his pieces occupy or control a majority (over 1/2)
of the positions in a Neighborhood, and his majority control cannot be reduced by any of his
opponents in their first move following his achievement." The illustrations use a
neighborhood of 30 positions (here 5 rows of 6); their pictures are not in the rules text,
so these positions are drawn from the words under them.
"""

from __future__ import annotations

import os
import random

import pytest
from table import diagram

from companion.games.godfather_1971.control import breach_by, check
from companion.games.godfather_1971.fight import (
    Placed,
    enclosed,
    groups,
    holds,
    place,
    surrounded_by,
)
from companion.games.godfather_1971.layout import grid_layout, popcount

# --- (+) does not yet have CONTROL -----------------------------------------------------

DIAGRAM_1 = """
    - X . . . .
    + + - . - .
    X X + + . -
    + + + . + .
    . + . + + .
"""


def test_diagram_1_eleven_pieces_and_three_enclosed_positions_are_no_majority_yet():
    # "though (+) occupies 11 positions and directly controls 3 others, his control of the
    # 15th and 16th positions (majority) is merely implicit."
    d = diagram(DIAGRAM_1)
    assert popcount(d.pieces[0]) == 11
    assert d.names(enclosed(d.layout, d.pieces, 0)) == ["D4", "E1", "E3"]
    verdict = check(d.layout, d.pieces, 0)
    assert verdict.holds == 14 and not verdict.majority and not verdict.controls


def test_diagram_1_minus_playing_the_three_marked_positions_takes_two_pieces():
    # "If (-) can play 3 pieces on the X'ed positions, (+) will lose 2 pieces."
    d = diagram(DIAGRAM_1)
    out = place(d.layout, d.pieces, 1, d.marked)
    assert isinstance(out, Placed) and d.names(out.took) == ["B1", "B2"]


def test_diagram_1_plus_playing_any_marked_position_achieves_control():
    # "If it is (+'s) turn, however, he can achieve CONTROL by playing 1 piece on any of the
    # X'ed positions." (On A2 it also takes (-)'s corner piece, which becomes enclosed.)
    d = diagram(DIAGRAM_1)
    for x in d.names(d.marked):
        out = place(d.layout, d.pieces, 0, d.at(x))
        assert isinstance(out, Placed), x
        verdict = check(d.layout, out.pieces, 0)
        assert verdict.holds >= 16 and verdict.controls, x
        assert breach_by(d.layout, out.pieces, 0, 1, exhaustive=True) is None


DIAGRAM_2 = """
    + . + . + .
    . + . + . +
    + . + . + .
    . + . + . +
    + . + . + .
"""


def test_diagram_2_fifteen_pieces_control_everything_yet_an_edge_piece_can_be_taken():
    # "though (+) occupies 15 positions and implicitly controls all the rest, an opponent
    # could play 3 to surround any of the edge pieces."
    d = diagram(DIAGRAM_2)
    assert popcount(d.pieces[0]) == 15 and holds(d.layout, d.pieces, 0, "enclosed") == 30
    verdict = check(d.layout, d.pieces, 0)
    assert verdict.majority and not verdict.controls
    edge = [n for n in d.names(d.pieces[0]) if n[0] in "AE" or n[1:] in ("1", "6")]
    for piece in edge:
        fence = d.layout.around(d.at(piece))
        assert popcount(fence) <= 3
        out = place(d.layout, d.pieces, 1, fence)
        assert isinstance(out, Placed) and d.names(out.took) == [piece], piece
    # The companion shows one such placement, and what it takes.
    b = verdict.breach
    assert b is not None and b.by == 1 and popcount(b.taken) == 1
    assert b.placed == d.layout.around(b.taken) and b.after < 30


def test_diagram_2_is_why_any_reduction_denies_control():
    # Losing one edge piece leaves (+) a majority, yet the rulebook denies CONTROL: "his
    # majority control cannot be reduced". The other reading is a house rule.
    d = diagram(DIAGRAM_2)
    assert not check(d.layout, d.pieces, 0, rule="any_reduction").controls
    assert check(d.layout, d.pieces, 0, rule="lose_majority").controls


# --- (+) does have CONTROL --------------------------------------------------------------

HAS_CONTROL = [
    # 15 pieces and one enclosed position; the group has five empty neighbours.
    """
    + + + + . .
    + . + . . .
    + + + . - .
    + + + . . .
    + + + . - .
    """,
    # 12 pieces and 4 enclosed positions; D2 alone still has four empty neighbours.
    """
    . + . + . +
    + + + + + +
    + . + . . .
    . + . . - .
    . . . - . .
    """,
]


@pytest.mark.parametrize("picture", HAS_CONTROL)
def test_sixteen_of_thirty_that_no_opponent_can_affect_in_one_turn(picture):
    # "In both Diagrams, (+) occupies or controls 16 of the Neighborhood's 30 positions, and
    # (-) cannot affect this situation in one turn (3 pieces). (+) controls."
    d = diagram(picture)
    verdict = check(d.layout, d.pieces, 0)
    assert (verdict.holds, verdict.size) == (16, 30)
    assert verdict.controls and verdict.breach is None
    # Every way (-) could play up to three pieces was tried, not only the likely ones.
    assert breach_by(d.layout, d.pieces, 0, 1, exhaustive=True) is None


def test_fifteen_of_thirty_is_no_majority():
    d = diagram(HAS_CONTROL[0].replace("+ + + + . .", "+ + + . . .", 1))
    verdict = check(d.layout, d.pieces, 0)
    assert verdict.holds == 15 and not verdict.majority and not verdict.controls


def test_every_opponent_is_asked_from_the_holders_left():
    # (-) cannot touch (+)'s corner piece on A6: (*)'s pieces touch it, and two players
    # never surround together. But (*) can take it with one piece on B6: no CONTROL.
    d = diagram(
        """
        + + + + * +
        + . + + * .
        + + + . . .
        + + + + . .
        . . . . - -
    """,
        players=3,
    )
    verdict = check(d.layout, d.pieces, 0)
    assert verdict.holds == 16 and verdict.majority
    assert breach_by(d.layout, d.pieces, 0, 1) is None
    b = verdict.breach
    assert b is not None and b.by == 2
    assert d.names(b.placed) == ["B6"] and d.names(b.taken) == ["A6"]
    assert d.names(b.fence) == ["A5", "B6"]


def test_a_taking_move_that_needs_a_first_capture_is_found():
    # (-) can first take (*)'s lone piece, and only then reach (+)'s group through the
    # position it frees: a turn of several placements.
    d = diagram(
        """
        + + + + +
        + . + . +
        + + + * +
        . . - . -
    """,
        players=3,
    )
    assert check(d.layout, d.pieces, 0).majority


# --- the search is complete --------------------------------------------------------------

POSITIONS = int(os.environ.get("GODFATHER_1971_CHECK_POSITIONS", "100"))


def random_position(rng: random.Random, heavy: int = 3):
    """A random neighborhood part-filled by 2 to 4 players, seat 0 ``heavy`` times as likely
    to own a piece as each other."""
    rows, cols = rng.choice([(4, 4), (4, 5), (5, 5), (5, 6)])
    layout = grid_layout("r", "Random", ["o" * cols] * rows)
    players = rng.randint(2, 4)
    pieces = [0] * players
    for i in rng.sample(range(layout.size), rng.randint(layout.size // 3, layout.size * 4 // 5)):
        pieces[rng.choices(range(players), [heavy] + [1] * (players - 1))[0]] |= 1 << i
    # No group may already stand surrounded (the rules would have taken it).
    for seat in range(players):
        for g in groups(layout, pieces[seat]):
            if surrounded_by(layout, tuple(pieces), g):
                pieces[seat] &= ~g
    return layout, tuple(pieces)


@pytest.mark.parametrize("mode", ["enclosed", "fenced"])
@pytest.mark.parametrize("rule", ["any_reduction", "lose_majority"])
def test_the_quick_search_finds_a_breaking_turn_whenever_the_full_search_does(mode, rule):
    """The check looks only where a breaking placement can be (control.py says why); trying
    every empty position must find a breaking turn exactly when it finds one."""
    rng = random.Random(f"{mode}{rule}")
    breaking = holding = 0
    for _ in range(POSITIONS):
        layout, pieces = random_position(rng, heavy=8)
        holder = 0 if rule == "lose_majority" else rng.randrange(len(pieces))
        holding += holds(layout, pieces, holder, mode) * 2 > layout.size
        for opponent in range(len(pieces)):
            if opponent == holder:
                continue
            quick = breach_by(layout, pieces, holder, opponent, mode, rule)
            full = breach_by(layout, pieces, holder, opponent, mode, rule, exhaustive=True)
            assert (quick is None) == (full is None), (layout.names_of(pieces[holder]), opponent)
            breaking += quick is not None
    # The positions test something: turns that break counts (and majorities, to lose).
    assert breaking > POSITIONS // 10
    assert rule != "lose_majority" or holding > POSITIONS // 4


def test_enclosed_positions_are_those_a_lone_opponent_piece_could_not_take():
    rng = random.Random(5)
    for _ in range(60):
        layout, pieces = random_position(rng)
        occupied = 0
        for m in pieces:
            occupied |= m
        for seat in range(len(pieces)):
            mine = enclosed(layout, pieces, seat)
            for i in range(layout.size):
                if occupied >> i & 1:
                    continue
                opponent = (seat + 1) % len(pieces)
                around = layout.straight[i]
                assert bool(mine >> i & 1) == (around != 0 and not around & ~pieces[seat])
                if mine >> i & 1:  # a lone piece there is taken at once, or is taking
                    alone = place(layout, pieces, opponent, 1 << i)
                    assert (alone.by == seat) if not isinstance(alone, Placed) else alone.taken


def test_under_the_fenced_rule_an_open_area_counts_and_an_opponent_may_step_into_it():
    d = diagram("""
        + + + + . .
        . . . + . .
        + + + + . .
        . . . . - -
        . . . . . .
    """)
    assert holds(d.layout, d.pieces, 0, "enclosed") == 9
    assert holds(d.layout, d.pieces, 0, "fenced") == 12  # B1-B3, fenced against the border
    big = diagram("""
        + + + + + .
        . . . . + .
        . . . . + .
        . . . . + .
        + + + + + -
    """)
    # Twelve positions behind the wall count: fewer than half the neighborhood.
    assert holds(big.layout, big.pieces, 0, "fenced") == 13 + 12
    assert holds(big.layout, big.pieces, 0, "enclosed") == 13
    b = breach_by(big.layout, big.pieces, 0, 1, mode="fenced")
    assert b is not None and b.taken == 0 and popcount(b.entered) == 1  # one piece inside
    lone = diagram("""
        . . . . . .
        . . + . . .
        . . . . . .
    """)
    assert holds(lone.layout, lone.pieces, 0, "fenced") == 1  # the rest is the larger side
