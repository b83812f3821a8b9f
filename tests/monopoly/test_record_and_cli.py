"""The record (one JSON line per action, chance included) and the command line: simulate,
replay, demo, score and rules work for Monopoly through the game protocol."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from monopoly_scenario import FILES

from companion.cli import main
from companion.games.monopoly import MONOPOLY, action_from_dict
from companion.protocol import MalformedAction
from companion.records import RecordError, parse_record, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAME = ["--game", "monopoly-godfather"]


@pytest.mark.parametrize(
    "name", ["monopoly-godfather-six-players.jsonl", "monopoly-godfather-speed-play.jsonl"]
)
def test_the_example_games_replay_to_their_end(name, capsys):
    assert main(["replay", str(EXAMPLES / name), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["over"] and out["game"] == "monopoly-godfather"
    assert out["winners"] and out["scores"]["winners"] == out["winners"]
    speed = "speed" in name
    assert out["state"]["options"] == ({"speed_play": True} if speed else {})
    assert len(out["scores"]["bankrupt"]) == (1 if speed else 5)


def test_simulate_writes_a_six_player_classic_game_that_replays_to_its_end(tmp_path, capsys):
    path = tmp_path / "six.jsonl"
    assert main(["simulate", *GAME, "--players", "6", "--seed", "3", "--out", str(path)]) == 0
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert out["over"] and len(out["winners"]) == 1
    assert sorted(out["scores"]["places"].values()) == [1, 2, 3, 4, 5, 6]
    assert main(["simulate", *GAME, "--players", "7", "--out", str(path)]) == 1


def test_demo_narrates_a_game(capsys):
    assert main(["demo", *GAME, "--players", "3", "--seed", "2", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "rolls" in out and "passes the dice to" in out and "Winner:" in out
    assert "don-" not in out.split("-- round 1")[0]  # Don cards dealt: never named


def test_replay_stops_at_the_first_illegal_line_naming_the_rule(tmp_path, capsys):
    lines = [
        {
            "type": "setup",
            "game": "monopoly-godfather",
            "players": ["Maria", "Johnny"],
            "options": {"first_player": "first_seat", "don_cards": False},
        },
        {"type": "roll", "player": "Maria", "dice": [1, 2]},
        {"type": "roll", "player": "Maria", "dice": [1, 2]},
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["replay", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["line"] == 3 and out["rule"] == "On Your Turn"
    assert "decide whether to buy" in out["reason"]


def test_malformed_lines_say_what_is_wrong():
    cases = {
        '{"type": "roll", "player": "Maria", "dice": [1, 7]}': "must be the two dice",
        '{"type": "roll", "player": "Maria"}': "roll needs 'dice'",
        '{"type": "buy", "player": "Maria", "space": "Boardwalk"}': "space must be a whole",
        '{"type": "fly", "player": "Maria"}': "unknown action type 'fly'",
        '{"type": "bid", "player": "Maria", "amount": 5, "extra": 1}': "does not take extra",
        '{"type": "propose", "player": "Maria", "to": "Johnny", "give": {"cash": -5}}': (
            "give.cash must be a whole number"
        ),
    }
    for line, words in cases.items():
        with pytest.raises(MalformedAction, match=words):
            action_from_dict(json.loads(line))
    with pytest.raises(RecordError, match="setup has unknown keys: colour"):
        parse_record(
            '{"type": "setup", "game": "monopoly-godfather", "players": ["A", "B"], '
            '"colour": "red"}\n'
        )


def test_every_action_writes_the_line_it_is_read_from():
    text = (EXAMPLES / "monopoly-godfather-speed-play.jsonl").read_text()
    record = parse_record(text)
    seen = set()
    for _, action in record.actions:
        assert action_from_dict(action.to_dict()) == action
        seen.add(action.TYPE)
    assert {
        "roll",
        "take_deed",
        "don_card",
        "decline",
        "bid",
        "propose",
        "accept",
        "mortgage",
        "bankrupt",
        "draw",
        "build",
    } <= seen
    assert MONOPOLY.is_over(replay(record, FILES))


POSITION = """\
speed_play = true
bankrupt = ["Vincent"]

[players.Maria]
cash = 1320
deeds = ["Dark Blue 1", "Dark Blue 2", "Fishing Boat", 21]
mortgaged = ["Brown 1"]
hideouts = { "Dark Blue 1" = 3 }
compounds = ["Dark Blue 2"]

[players.Johnny]
cash = 845
deeds = ["Red 2", "red 3"]
"""


def test_score_reads_a_hand_typed_speed_play_position(tmp_path, capsys):
    path = tmp_path / "end.toml"
    path.write_text(POSITION)
    assert main(["score", *GAME, str(path), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    maria = scores["fortunes"]["Maria"]
    assert maria == {
        "cash": 1320,
        "properties": 350 + 400 + 200 + 220,
        "mortgaged": 30,
        "buildings": 3 * 200 + 4 * 200,
        "total": 1320 + 1170 + 30 + 1400,
    }
    assert scores["totals"]["Johnny"] == 845 + 220 + 240
    assert scores["winners"] == ["Maria"] and scores["places"]["Vincent"] == 3
    assert main(["score", *GAME, str(path)]) == 0
    assert "Winner: Maria" in capsys.readouterr().out


@pytest.mark.parametrize(
    "change, words",
    [
        (('deeds = ["Red 2"', 'deeds = ["Dark Blue 1"'), "listed for Maria and Johnny"),
        (("= 3 }", "= 4 }"), "a location has 1 to 3 Hideouts"),
        (('"Fishing Boat"', '"Fishing Bot"'), "no space is called 'Fishing Bot'"),
        (('compounds = ["Dark Blue 2"]', 'compounds = ["Red 1"]'), "holds all of Red"),
        (("cash = 845", "cash = -5"), "Johnny's cash = -5"),
    ],
)
def test_a_position_that_cannot_be_is_refused_saying_why(tmp_path, change, words, capsys):
    path = tmp_path / "end.toml"
    path.write_text(POSITION.replace(*change, 1))
    assert main(["score", *GAME, str(path)]) == 1
    assert words in capsys.readouterr().err


def test_rules_lists_the_house_rules(capsys):
    assert main(["rules", *GAME]) == 0
    out = capsys.readouterr().out
    for name in ("speed_play", "rent", "don_cards", "first_player", "mortgaged_count"):
        assert name in out
