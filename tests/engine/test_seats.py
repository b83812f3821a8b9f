"""Players' names and colours: one rule for every way a game is made (the API, the home page's
form, an imported record), refusing what breaks a screen, a log line or a seat's identity."""

from __future__ import annotations

import pytest

from companion.games.new_don import MalformedAction, Setup
from companion.protocol.seats import MAX_NAME, SeatError, clean_colour, clean_name
from companion.records import RecordError, parse_record


def setup(*players):
    return Setup.from_dict({"type": "setup", "players": list(players)})


@pytest.mark.parametrize(
    "name, why",
    [
        ("\ud800", "surrogate"),
        ("Ma\x00ria", "control"),
        ("Maria\nJohnny", "control"),
        ("Ma\tria", "control"),
        ("\u202eairaM", "invisible formatting"),  # right-to-left override
        ("Ma\u200bria", "invisible formatting"),  # zero-width space
        ("Ma\u2028ria", "line break"),
        ("\ue000", "private-use"),
        ("   ", "empty"),
        ("M" * (MAX_NAME + 1), f"at most {MAX_NAME}"),
    ],
)
def test_names_that_would_break_a_screen_are_refused(name, why):
    with pytest.raises(SeatError, match=why):
        clean_name(name)
    with pytest.raises(MalformedAction, match=why):
        setup(name, "Johnny", "Claire")


def test_a_five_megabyte_name_is_refused_without_keeping_it():
    with pytest.raises(SeatError) as err:
        clean_name("x" * 5_000_000)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize(
    "raw, stored",
    [
        ("  Maria  ", "Maria"),
        ("Don   Vito", "Don Vito"),
        ("Cafe\u0301", "Café"),  # NFC: one character, as the phone's keyboard may not send it
        ("Zoë", "Zoë"),
        ("花子", "花子"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # the joiner stays: emoji families need it
        ("M" * MAX_NAME, "M" * MAX_NAME),
    ],
)
def test_real_names_are_kept_as_people_typed_them(raw, stored):
    assert clean_name(raw) == stored
    assert setup(raw, "Johnny", "Claire").seats[0].name == stored


def test_names_must_differ_beyond_case_width_and_joiners():
    for a, b in [("Maria", "maria"), ("Maria", "Ｍａｒｉａ"), ("Maria", "Mar\u200dia")]:
        with pytest.raises(MalformedAction, match="differ"):
            setup(a, b, "Claire")


def test_colours_are_a_closed_set_and_two_seats_never_share_one():
    assert clean_colour("Red ") == "red" and clean_colour(None) is None
    for bad in ("#ff0000", "crimson", "red; background:url(x)", 3):
        with pytest.raises(SeatError, match="colour must be one of"):
            clean_colour(bad)
    with pytest.raises(MalformedAction, match="colour red"):
        setup({"name": "A", "colour": "red"}, {"name": "B", "colour": "RED"}, "C")
    seats = setup({"name": "A", "colour": "red"}, {"name": "B", "colour": "blue"}, "C").seats
    assert [s.colour for s in seats] == ["red", "blue", None]


def test_a_record_with_a_bad_name_is_refused_at_its_setup_line():
    text = '# notes\n{"type": "setup", "players": ["A\\u202e", "B", "C"]}\n'
    with pytest.raises(RecordError) as err:
        parse_record(text)
    assert err.value.line == 2 and "invisible" in err.value.reason


def test_a_table_is_not_a_list_of_a_million_players():
    with pytest.raises(MalformedAction, match="at most"):
        setup(*[f"P{i}" for i in range(1000)])
