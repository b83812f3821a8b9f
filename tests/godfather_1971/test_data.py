"""The data files: the Racket Control Value card, the neighborhoods' positions, the decks,
every fact with its source, and the check an owner runs on a tracing of their own board."""

from __future__ import annotations

import pytest
from table import FILES

from companion.gamefiles import GameFiles
from companion.games.godfather_1971 import GODFATHER_1971, Racket, check_shipped, check_tracing
from companion.games.godfather_1971.board import load_board
from companion.games.godfather_1971.data import check_cards, check_values
from companion.protocol.errors import RuleViolation

# The card as the rulebook prints it, row by row (see the notes in the data file for the two
# rows the scan splits).
CARD = {
    "harlem": (10000, 8000, 6400, 5000, 3200),
    "wall-street": (9000, 7200, 5800, 4500, 2800),
    "lower-east-side": (8500, 6800, 5400, 4300, 2700),
    "park-west": (5500, 4400, 3500, 2700, 1800),
    "upper-west-side": (5500, 4400, 3500, 2700, 1700),
    "little-italy": (4500, 3600, 3000, 2300, 1500),
    "the-docks": (4000, 3600, 2500, 2000, 1300),
    "midtown": (3000, 2400, 1900, 1500, 1000),
}


def test_the_shipped_files_check_clean():
    problems = check_shipped(FILES)
    assert len(problems) == 10  # the card, the decks, eight neighborhoods
    assert {
        name: [p.format(name) for p in found] for name, found in problems.items() if found
    } == {}


def test_the_racket_control_value_card():
    board = load_board(FILES)
    assert board.card.order == tuple(CARD)  # the card's rows are the board's neighborhoods
    for hood, row in CARD.items():
        assert tuple(board.card.value(hood, r) for r in Racket) == row, hood
    # "CONTROL of EXTORTION on the LOWER EAST SIDE ... a credit of $6,800".
    assert board.card.value("lower-east-side", Racket.STRONGARM) == 6800


def test_every_value_says_where_it_comes_from():
    board = load_board(FILES)
    kinds = {f.what: f.kind for f in board.card.facts}
    assert len(kinds) == 40 and set(kinds.values()) == {"rulebook", "inferred"}
    inferred = sorted(k for k, v in kinds.items() if v == "inferred")
    assert all(k.startswith(("little-italy", "the-docks")) for k in inferred)
    assert len(inferred) == 8  # their bookmaking values are read plainly off the scan
    docks = next(f for f in board.card.facts if f.what.startswith("the-docks Extortion"))
    assert "3,200" in docks.source  # the doubt is written down where the value is


def test_the_board_and_the_decks_are_placeholders_and_say_so():
    board = load_board(FILES)
    sizes = {layout.id: layout.size for layout in board.layouts}
    assert sizes["park-west"] == 30  # as the rulebook's CONTROL illustrations
    assert len(set(sizes.values())) == 8  # "Each Neighborhood comprises a different number"
    assert all(layout.placeholder for layout in board.layouts)
    placeholder = {f.what for f in board.placeholders()}
    assert "Park West: its 30 positions and their neighbours" in placeholder
    assert "Park West: its name" not in placeholder
    assert "playing card money-5: 3 in the deck" in placeholder
    assert (len(board.decks.playing), len(board.decks.good), len(board.decks.bad)) == (52, 12, 12)
    assert {f.kind for f in board.decks.facts if f.what.endswith("money-5")} == {"rulebook"}


TRACING = '''\
format = 1
id = "park-west"
name = "Park West"
map = """
o o o .
o o o o
. o o o
"""
cut = [["A1", "A2"]]
join = []

[source]
name = "rulebook (Racket Control Value card)"
map = "traced: our copy, 2024"
'''


def test_an_owner_checks_a_tracing_and_sees_what_was_read():
    described, problems = check_tracing(TRACING)
    assert problems == []
    assert described is not None
    lines = described.splitlines()
    assert lines[0] == "Park West (park-west): 10 positions"
    assert "   A1: B1; B2" in lines  # the cut parts A1 from A2
    assert any(line.strip().startswith("B2:") and "A2 B1 B3 C2;" in line for line in lines)


@pytest.mark.parametrize(
    "change,line,words",
    [
        (("o o o .\n", "o x o .\n"), 5, "only o (a position) and . (none)"),
        (('cut = [["A1", "A2"]]', 'cut = [["A1", "B2"]]'), 9, "not straight neighbours"),
        (('cut = [["A1", "A2"]]', 'cut = [["A1", "Z9"]]'), 9, "Z9 is not a position"),
        (("join = []", "joins = []"), 10, "unknown key 'joins'"),
        (('map = "traced: our copy, 2024"', 'map = "inferred"'), 14, "needs its reasoning"),
        (('map = "traced: our copy, 2024"', 'map = "from memory"'), 14, "does not say where"),
        (('id = "park-west"', 'id = "Park West"'), 2, "needs an id"),
        (("format = 1", "format = 2"), 1, "format must be 1"),
        (('name = "Park West"\n', 'name = "Park West\n'), 3, "not valid TOML"),
    ],
)
def test_each_problem_of_a_tracing_is_reported_on_its_line_with_a_fix(change, line, words):
    described, problems = check_tracing(TRACING.replace(*change))
    assert described is None
    errors = [p for p in problems if not p.warning]
    assert any(words in p.message and p.line == line for p in errors), [
        p.format("t.toml") for p in errors
    ]
    assert all(p.fix for p in errors)


def test_a_tracing_with_isolated_positions_is_warned_about():
    lonely = TRACING.replace("o o o .\no o o o\n", "o . o .\no . . o\n").replace(
        'cut = [["A1", "A2"]]', "cut = []"
    )
    described, problems = check_tracing(lonely)
    assert described is not None  # warnings only
    assert any(p.warning and "touch no other position" in p.message for p in problems)


def test_a_game_is_played_on_a_tracing(tmp_path):
    (tmp_path / "our-park-west.toml").write_text(TRACING, "utf-8")
    files = GameFiles(GODFATHER_1971, tmp_path)
    setup = GODFATHER_1971.setup_from_dict(
        {
            "type": "setup",
            "game": "godfather-1971",
            "players": ["A", "B"],
            "traced": {"park-west": "our-park-west.toml"},
            "neighborhoods": ["park-west"],
        }
    )
    state = GODFATHER_1971.new_game(setup, files)
    [layout] = state.board.layouts
    assert layout.size == 10 and not layout.placeholder
    assert "Park West: its 10 positions and their neighbours" not in {
        f.what for f in state.board.placeholders()
    }
    with pytest.raises(RuleViolation) as err:  # a tracing that does not check is refused
        (tmp_path / "our-park-west.toml").write_text(TRACING.replace("o o o .", "o x o ."), "utf-8")
        GODFATHER_1971.new_game(setup, files)
    assert err.value.rule == "The Board" and "only o" in err.value.reason


def test_the_value_card_and_decks_are_checked_too():
    card, problems = check_values('format = 1\n[[row]]\nneighborhood = "x"\nbookmaking = 150\n')
    assert card is None
    messages = " ".join(p.message for p in problems)
    assert "multiple of $100" in messages and "extortion" in messages and "no source" in messages
    decks, problems = check_cards(
        'format = 1\n[[playing]]\ncard = "money-12"\nsource = "placeholder: x"\n'
    )
    assert decks is None
    assert any("numbered 1 to 9" in p.message for p in problems)
    assert any("Good Break deck has no cards" in p.message for p in problems)
