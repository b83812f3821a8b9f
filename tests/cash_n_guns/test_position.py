"""A final position typed in by hand: ``companion score --game cash-n-guns FILE``."""

from __future__ import annotations

import pytest
from cash_n_guns_table import FILES

from companion.games.cash_n_guns import CASH_N_GUNS
from companion.protocol import MalformedAction

NIGHT = """\
# Friday night: nobody tracked the game on the companion.
[Maria]
bills = [20000, 10000, 10000, 5000]
diamonds = [1000, 1000, 5000]
paintings = 3
wounds = 1

[Johnny]
bills = 95000
diamonds = [10000]
wounds = 2

[Claire]
bills = [20000, 20000, 20000, 20000, 20000, 20000]
wounds = 3

[Vincent]
paintings = 5
"""


def scored(text: str) -> dict:
    return CASH_N_GUNS.score_position(text, FILES)


def test_a_typed_position_is_scored_with_its_breakdown():
    s = scored(NIGHT)
    maria = s["players"]["Maria"]
    # $45,000 in bills, $7,000 in diamonds, three paintings $30,000, and the bonus for the
    # most diamond cards (3).
    assert maria == {
        "bills": 45000,
        "diamonds": 7000,
        "diamond_cards": 3,
        "diamond_bonus": 60000,
        "paintings": 3,
        "paintings_value": 30000,
        "total": 142000,
        "wounds": 1,
        "alive": True,
    }
    assert s["totals"] == {"Maria": 142000, "Johnny": 105000, "Claire": 120000, "Vincent": 100000}
    assert s["winners"] == ["Maria"] and s["diamond_bonus"] == "Maria"


def test_the_dead_cannot_win_and_the_richest_alive_does():
    s = scored(NIGHT.replace("paintings = 5", "paintings = 6"))  # Vincent: $150,000
    assert s["totals"]["Claire"] == 120000 and not s["players"]["Claire"]["alive"]
    assert s["winners"] == ["Vincent"]


def test_one_player_alive_wins_whatever_the_money():
    text = NIGHT.replace("wounds = 1", "wounds = 3").replace("wounds = 2", "wounds = 4")
    s = scored(text)
    assert s["winners"] == ["Vincent"] and "last player alive" in s["end"]
    assert s["diamond_bonus"] is None  # the dead do not count their diamonds


def test_the_terminal_table():
    table = CASH_N_GUNS.score_table(scored(NIGHT))
    assert "Diamond bonus" in table and "$142,000" in table and "Winner: Maria" in table
    assert "dead" in table


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[Maria]\nbills = [7000]\n", "no bill is worth $7,000"),
        ("[Maria]\ndiamonds = 3\n", "diamonds is a list of card values"),
        ("[Maria]\npaintings = 11\n", "0 to 10"),
        ("[Maria]\nwounds = -1\n", "count of wounds"),
        ("[Maria]\nrubies = 2\n", "unknown rubies"),
        ("Maria = 3\n", "one [Name] table per player"),
        ("", "no players"),
        ("[A]\n[B]\n[C]\n", "3 player(s) listed"),
        ("[Maria\n", "not valid TOML"),
    ],
)
def test_a_position_that_cannot_be_scored_says_what_to_fix(text, words):
    if text.startswith("[Maria]"):
        text += "[Johnny]\n[Claire]\n[Vincent]\n"
    with pytest.raises(MalformedAction) as err:
        scored(text)
    assert words in str(err.value)
