"""The edition's data files: every fact with its source, checked with clear problems; the
shipped files are classic values and placeholders, and an owner's renamed board is used by
naming it in the setup line."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.gamefiles import GameFiles
from companion.games.monopoly import MONOPOLY, Setup, check
from companion.games.monopoly.board import Board, Effect, Kind
from companion.games.monopoly.data_file import placeholders, report
from companion.protocol import RuleViolation
from companion.records import parse_record, replay

DATA = Path(__file__).resolve().parents[2] / "companion/games/monopoly/data"


def text(name: str) -> str:
    return (DATA / name).read_text("utf-8")


def test_the_shipped_files_pass_the_check():
    for name in ("board.toml", "cards.toml", "dons.toml"):
        kind, result, problems = check(text(name))
        assert kind == name.removesuffix(".toml") and result is not None, name
        assert problems == [], name


def test_the_board_is_the_classic_board_in_numbers():
    _, board, _ = check(text("board.toml"))
    assert isinstance(board, Board)
    kinds = [s.kind for s in board.spaces]
    assert len(kinds) == 40 and kinds.count(Kind.LOCATION) == 22
    assert kinds.count(Kind.VEHICLE) == 4 and kinds.count(Kind.UTILITY) == 2
    assert [len(g.spaces) for g in board.groups] == [2, 3, 3, 3, 3, 3, 3, 2]
    boardwalk = board.spaces[39]
    assert (boardwalk.price, boardwalk.rents, boardwalk.building_cost, boardwalk.mortgage) == (
        400,
        (50, 200, 600, 1400, 1700, 2000),
        200,
        200,
    )
    assert board.bank.start_cash == 1500 and board.bank.vehicle_rents == (25, 50, 100, 200)
    names = {s.name for s in board.spaces}
    assert {
        "Fishing Boat",
        "Getaway Car",
        "Delivery Truck",
        "Passenger Train",
        "Cops",
        "Politicians",
        "Bribery",
        "Legitimate Business Tax",
    } <= names


def test_every_fact_has_a_source_and_the_location_names_are_placeholders():
    _, board, _ = check(text("board.toml"))
    sources = dict(board.sources)
    assert sources["space 39 (Dark Blue 2): price"] == "classic: Boardwalk"
    assert sources["space 39 (Dark Blue 2): name"].startswith("placeholder")
    assert sources["[bank]: salary"] == "rulebook: On Your Turn 4"
    ph = placeholders(text("board.toml"))
    assert "space 39 (Dark Blue 2): name" in ph and not any("price" in f for f in ph)
    cards = placeholders(text("cards.toml"))
    assert len(cards) == 2 * 32  # each card's text and effect
    _, deck, _ = check(text("cards.toml"))
    assert {c.effect for c in deck} == set(Effect)


def broken(old: str, new: str, name: str = "board.toml") -> list[str]:
    source = text(name)
    assert old in source
    _, result, problems = check(source.replace(old, new, 1))
    assert result is None
    return [p.format(name) for p in problems if not p.warning]


def test_problems_name_the_line_and_the_fix():
    problems = broken(
        "rents = [50, 200, 600, 1400, 1700, 2000]", "rents = [50, 200, 600, 1400, 1700]"
    )
    lines = text("board.toml").splitlines()
    boardwalk = max(i for i, line in enumerate(lines, 1) if line == "[[spaces]]")
    assert len(problems) == 1 and problems[0].startswith(f"board.toml:{boardwalk}: error: ")
    assert "Dark Blue 2: rents are six amounts" in problems[0]
    assert "fix: rents = [" in problems[0]
    assert "no source" in broken('source = "rulebook: On Your Turn 4"\n', "\n")[0]
    assert (
        "a rulebook source says which section"
        in broken('"rulebook: On Your Turn 4"', '"rulebook"')[0]
    )
    assert "source 'guess' is not known" in broken('"rulebook: On Your Turn 4"', '"guess"')[0]
    assert "unknown key 'colur'" in broken('colour = "#955436"', 'colur = "#955436"')[0]
    assert "more than its price" in broken("mortgage = 200", "mortgage = 500")[0]
    assert "kind 'wormhole' is not known" in broken('kind = "free_parking"', 'kind = "wormhole"')[0]
    assert "space must be a space number" in broken("space = 39", "space = 40", "cards.toml")[0]


def test_a_deck_of_the_wrong_size_is_a_warning_not_an_error():
    source = text("dons.toml")
    cut = source[: source.rindex("[[dons]]")]
    _, dons, problems = check(cut)
    assert dons is not None and len(dons) == 5
    assert [p.warning for p in problems] == [True] and "the game has 6" in problems[0].message


def test_an_owners_renamed_board_is_named_in_the_setup_line(tmp_path):
    (tmp_path / "our-board.toml").write_text(
        text("board.toml")
        .replace('name = "Dark Blue 2"', 'name = "Corleone Compound"')
        .replace(
            'name = "placeholder: this edition\'s name is not in the rules" }',
            'name = "owner: read from our board" }',
            1,
        ),
        "utf-8",
    )
    setup = {
        "type": "setup",
        "game": "monopoly-godfather",
        "players": ["Maria", "Johnny"],
        "board": "our-board.toml",
        "options": {"first_player": "first_seat", "don_cards": False},
    }
    record = "\n".join(
        json.dumps(x) for x in (setup, {"type": "roll", "player": "Maria", "dice": [1, 3]})
    )
    state = replay(parse_record(record), GameFiles(MONOPOLY, tmp_path))
    assert state.board.spaces[39].name == "Corleone Compound"
    assert MONOPOLY.table_data(state)["spaces"][39]["name"] == "Corleone Compound"


def test_a_bad_board_file_refuses_the_setup_with_its_problems(tmp_path):
    (tmp_path / "bad.toml").write_text(text("board.toml").replace("price = 400", "price = 0"))
    setup = Setup.from_dict(
        {"type": "setup", "game": "monopoly-godfather", "players": ["A", "B"], "board": "bad.toml"}
    )
    with pytest.raises(RuleViolation) as exc:
        MONOPOLY.new_game(setup, GameFiles(MONOPOLY, tmp_path))
    assert "bad.toml has errors" in exc.value.reason and "price must be" in exc.value.reason


def test_the_check_command_reports_problems_and_placeholders():
    ok, lines = report(text("board.toml"), "board.toml")
    assert ok and lines[0] == (
        "board.toml: OK: board 'godfather': 40 spaces, 28 Title Deeds in 8 colour groups."
    )
    # 28 names of properties, 2 of taxes, the 6 card spaces' names and decks
    assert lines[1].startswith("42 facts are placeholders")
    ok, lines = report(text("dons.toml").replace('id = "don-2"', 'id = "don-1"'), "dons.toml")
    assert not ok and "two Don cards have the id 'don-1'" in lines[0]
    assert lines[-1] == "dons.toml: 1 error(s). See docs/monopoly-godfather.md for the format."


def test_companion_board_check_with_the_game_checks_each_kind_of_file(tmp_path, capsys):
    """``companion board check --game monopoly-godfather FILE``: the report above, printed;
    exit 0 for a usable file, 1 for one with errors."""
    for name in ("board.toml", "cards.toml", "dons.toml"):
        path = tmp_path / name
        path.write_text(text(name), "utf-8")
        assert main(["board", "check", "--game", "monopoly-godfather", str(path)]) == 0
        assert f"{path}: OK: " in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(text("board.toml").replace("mortgage = 200", "mortgage = 500"), "utf-8")
    assert main(["board", "check", "--game", "monopoly-godfather", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "more than its price" in out and out.rstrip().endswith(
        f"{bad}: 1 error(s). See docs/monopoly-godfather.md for the format."
    )
    assert main(["board", "check", "--game", "gangster-dice", str(bad)]) == 1
    assert "Gangster Dice has no data files of its own" in capsys.readouterr().err
