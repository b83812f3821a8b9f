"""Board files: the shipped boards are valid, and each tracing mistake gets its line and fix."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from new_don_boards import FILES, SHIPPED, shipped_board

from companion.games.new_don import Ability, SetKind, check_board, parse_board
from companion.games.new_don.board_file import BoardError

THREE_FOUR = FILES.shipped("boards/three-four.toml")


def problems(text: str) -> list:
    board, found = check_board(text)
    assert board is None, "expected the board to be refused"
    return [p for p in found if not p.warning]


def line_of(text: str, needle: str, nth: int = 0) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return lines[nth]


@pytest.mark.parametrize("board_id", list(SHIPPED))
def test_shipped_boards_follow_the_rulebook(board_id):
    board = shipped_board(board_id)
    assert sorted(d.face for d in board.districts) == [1, 2, 3, 4, 5, 6]
    for n in board.neighborhoods:
        req = n.requirement
        assert req.face == n.district  # each set uses its district's face
        if req.kind is SetKind.STRAIGHT and req.straight:
            assert n.district in req.straight
    assert [d.points[0] for d in board.districts] == sorted(d.points[0] for d in board.districts)
    assert any(d.points == (7, 4, 2) for d in board.districts)  # the scoring example's district
    assert dict(board.favor_track) == {
        1: Ability.FREE_REROLL,
        2: Ability.PLUS_MINUS_ONE,
        3: Ability.MOVE,
        4: Ability.TURN_DIE,
        5: Ability.EXTRA_DIE,
        6: Ability.ANY,
    }
    assert board.muscle_track.godfather_space == 3
    assert (board.soldiers_per_player, board.dice_per_player, board.vegas_dice) == (15, 5, 3)
    # What nobody has traced yet is labelled so wherever it is shown.
    assert "placeholder" in board.name
    assert board.placeholders()
    assert dict(board.districts[0].sources)["face"] == "rulebook"
    assert dict(board.districts[0].sources)["points"] == "placeholder"


def test_unknown_neighbour_names_the_line_and_the_fix():
    text = THREE_FOUR.replace('adjacent = ["1b", "1e"]', 'adjacent = ["1z", "1e"]', 1)
    [p] = problems(text)
    assert p.line == line_of(text, '"1z"')
    assert "neighborhood 1a lists neighbour '1z', which is not a neighborhood" in p.message
    assert "use an id defined with [[neighborhoods]]" in p.fix


def test_straight_without_the_districts_face():
    text = THREE_FOUR.replace(
        'set = "straight"\nstraight = "any"', 'set = "straight"\nstraight = [4, 5, 6]', 1
    )
    [p] = problems(text)
    assert p.line == line_of(text, "straight = [4, 5, 6]")
    assert "straight [4, 5, 6] does not contain its district's face 1" in p.message
    assert "[1, 2, 3]" in p.fix


def test_not_a_straight():
    text = THREE_FOUR.replace('straight = "any"', "straight = [1, 2, 4]", 1)
    [p] = problems(text)
    assert "is not a straight of three faces in a row" in p.message


def test_duplicate_id():
    text = THREE_FOUR.replace('id = "1b"', 'id = "1a"', 1)
    found = problems(text)
    assert any(
        "neighborhood id '1a' is used twice (first on line" in p.message
        and p.line == line_of(text, 'id = "1a"', 1)
        for p in found
    )


def test_missing_district():
    start = THREE_FOUR.index("[[districts]]\nface = 6")
    end = THREE_FOUR.index("[[neighborhoods]]")
    text = THREE_FOUR[:start] + THREE_FOUR[end:]
    found = problems(text)
    assert any(
        "district 6 is missing: the board has one district per die face" in p.message for p in found
    )
    assert any("district 6 is not one of the board's districts" in p.message for p in found)


def test_typo_in_a_key_and_bad_toml():
    text = THREE_FOUR.replace("points = [7, 4, 2]", "pionts = [7, 4, 2]")
    found = problems(text)
    assert any(
        p.message == "unknown key 'pionts' in district #3" and p.line == line_of(text, "pionts")
        for p in found
    )
    [p] = problems(THREE_FOUR.replace('name = "1A"', 'name = "1A', 1))
    assert p.line == line_of(THREE_FOUR, 'name = "1A"') and "not valid TOML" in p.message


def test_too_few_letters_for_the_players():
    text = THREE_FOUR.replace('letters = ["A", "B", "C", "D", "E", "F"]', 'letters = ["A", "B"]')
    [p] = problems(text)
    assert "2 lettered spaces cannot hold 4 players' muscle" in p.message


def test_every_problem_is_reported_not_just_the_first():
    text = THREE_FOUR.replace('adjacent = ["1b", "1e"]', 'adjacent = ["1z", "1e"]', 1).replace(
        'id = "2b"', 'id = "2a"', 1
    )
    messages = [p.message for p in problems(text)]
    assert len(messages) == 3  # the renamed 2b also leaves 2a pointing at nothing
    assert any("'1z'" in m for m in messages) and any("'2b'" in m for m in messages)
    assert any("used twice" in m for m in messages)
    with pytest.raises(BoardError) as err:
        parse_board(text, "mine.toml")
    assert str(err.value).count("mine.toml:") == 3


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60
    )


def test_board_check_command(tmp_path):
    good = tmp_path / "mine.toml"
    good.write_text(THREE_FOUR.replace('source = "placeholder"', 'source = "traced"'))
    done = run_cli("board", "check", str(good))
    assert done.returncode == 0, done.stderr
    assert "OK: board '3-4' for 3-4 players, 49 neighborhoods" in done.stdout

    bad = tmp_path / "bad.toml"
    bad.write_text(THREE_FOUR.replace('adjacent = ["1b", "1e"]', 'adjacent = ["1z", "1e"]', 1))
    done = run_cli("board", "check", str(bad))
    assert done.returncode == 1
    assert f"{bad}:{line_of(bad.read_text(), '1z')}: error: neighborhood 1a lists" in done.stdout
    assert "fix: use an id defined" in done.stdout


@pytest.mark.parametrize("part", ["districts", "neighborhoods"])
@pytest.mark.parametrize("value", ["[1]", '["a"]', "[[1]]", "[true]"])
def test_a_list_of_things_that_are_not_tables_is_a_problem_not_a_crash(part, value):
    text = re.sub(rf"^\[\[{part}\]\]", f"[[{part}_old]]", THREE_FOUR, flags=re.M)
    board, problems = check_board(f"{part} = {value}\n" + text)
    assert board is None
    assert any(f"{part} #1 is" in p.message and "not a table" in p.message for p in problems)
