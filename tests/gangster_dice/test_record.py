"""The record of a game of Gangster Dice (docs/gangster-dice.md), and the command line as a user
runs it: simulate, replay, demo, score and rules for ``--game gangster-dice``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gd_table import FILES

from companion.games.gangster_dice import (
    GANGSTER_DICE,
    Bid,
    BidCard,
    ChooseCharacter,
    Load,
    MalformedAction,
    PlaceOnStreets,
    Roll,
    Shuffle,
    Swap,
    TakeOff,
    Token,
    action_from_dict,
)
from companion.records import RecordError, parse_record, replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("gangster-dice-*.jsonl"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    "action",
    [
        Shuffle((3, 0, 1)),
        ChooseCharacter("Maria", "Nancy Hughs"),
        Roll.of("Maria", {"white": [1, 5], "red": [3, 3], "blue": [6, 2]}),
        Bid("Maria", (BidCard(Token.STREETS, 2),)),
        Bid("Maria", (BidCard(Token.INVESTIGATOR, 0), BidCard(Token.LAWYER, 4))),
        Swap("Maria", ("red", "red"), ("white", "blue")),
        Swap("Maria"),
        PlaceOnStreets("Maria", "red"),
        PlaceOnStreets("Maria", None),
        Load("Maria", "blue"),
        TakeOff("Johnny", "white"),
        TakeOff("Johnny", None),
    ],
)
def test_every_action_is_one_line_of_the_record_and_back(action):
    line = json.loads(json.dumps(action.to_dict()))
    assert action_from_dict(line) == action


def test_the_lines_read_as_the_documentation_shows_them():
    assert Bid("Maria", (BidCard(Token.LAWYER, 4), BidCard(Token.INVESTIGATOR, 0))).to_dict() == {
        "type": "bid",
        "player": "Maria",
        "bids": [{"token": "lawyer", "favor": 4}, {"token": "investigator", "favor": 0}],
    }
    assert Shuffle((2, 0)).to_dict() == {"type": "shuffle", "order": [2, 0]}  # no player


@pytest.mark.parametrize(
    "line, says",
    [
        ({"type": "deal", "player": "Maria"}, "unknown action type 'deal'; known: bid, character"),
        ({"type": "roll", "player": "Maria", "dice": {"red": [7]}}, "face numbers 1-6"),
        ({"type": "roll", "player": "Maria", "dice": {"green": [1]}}, "a die colour (white, red"),
        (
            {"type": "bid", "player": "Maria", "bids": [{"token": "bank", "favor": 1}]},
            "token must be lawyer, speakeasy, streets or investigator",
        ),
        (
            {"type": "bid", "player": "Maria", "bids": [{"token": "lawyer"}]},
            'each bid is {"token": "streets", "favor": 2}',
        ),
        ({"type": "shuffle", "player": "Maria", "order": [1]}, "shuffle does not take player"),
        ({"type": "swap", "player": "Maria", "give": "red"}, "give must be a list of die colours"),
        ({"type": "streets", "player": "Maria"}, "streets needs colour"),
        ({"type": "take", "colour": "red"}, "take needs the player who acts"),
        ({"type": "load", "player": "Maria", "colour": "green"}, "load: colour must be a die"),
    ],
)
def test_a_malformed_line_says_what_is_wrong(line, says):
    with pytest.raises(MalformedAction) as err:
        action_from_dict(line)
    assert says in str(err.value)


def test_the_setup_line_names_the_cards_and_the_characters_only_when_not_the_default():
    setup = GANGSTER_DICE.setup_from_dict(
        {"type": "setup", "game": "gangster-dice", "players": ["Maria", "Johnny"]}
    )
    assert setup.to_dict() == {
        "type": "setup",
        "game": "gangster-dice",
        "players": ["Maria", "Johnny"],
    }
    line = {
        "type": "setup",
        "game": "gangster-dice",
        "players": ["Maria", "Johnny"],
        "cards": "physical",
        "characters": "on",
        "options": {"spent_fours": "discard", "investigator_load": "optional"},
    }
    assert GANGSTER_DICE.setup_from_dict(line).to_dict() == line
    for bad, says in (
        ({"cards": "paper"}, 'cards must be "companion" or "physical"'),
        ({"characters": True}, 'characters must be "off" or "on"'),
        ({"board": "3-4"}, "setup does not take board"),
        ({"options": {"tie_block": "x"}}, "unknown house rule 'tie_block'"),
    ):
        with pytest.raises(MalformedAction, match=says):
            GANGSTER_DICE.setup_from_dict({"type": "setup", "players": ["A", "B"], **bad})


def test_the_web_may_choose_the_cards_and_the_characters():
    assert {o.name: o.values for o in GANGSTER_DICE.setup_choices} == {
        "cards": ("companion", "physical"),
        "characters": ("off", "on"),
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_example_games_replay_to_their_winners(path):
    assert len(EXAMPLES) == 3
    state = replay(parse_record(path.read_text("utf-8")), FILES)
    assert state.is_over and state.winners
    last = path.read_text("utf-8").strip().splitlines()[-1]
    assert (
        last
        == "# Game over: " + " and ".join(state.players[i].name for i in state.winners) + " won."
    )


def test_an_illegal_line_is_named_with_its_rule():
    lines = (ROOT / "examples" / "gangster-dice-four-players.jsonl").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"type": "bid"' in line)
    bid = json.loads(lines[at])
    bid["bids"] = [{"token": "lawyer", "favor": 9}]
    lines[at] = json.dumps(bid)
    with pytest.raises(RecordError) as err:
        replay(parse_record("\n".join(lines)), FILES)
    assert err.value.line == at + 1 and err.value.rule == "Sequence of play"


# --- the command line --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_writes_a_whole_game_that_replay_plays_to_its_end(tmp_path, players):
    out = tmp_path / "g.jsonl"
    done = run(
        "simulate",
        "--game",
        "gangster-dice",
        "--players",
        str(players),
        "--seed",
        "5",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    assert f"a {players}-player game" in done.stdout
    replayed = json.loads(run("replay", "--json", str(out)).stdout)
    assert replayed["ok"] and replayed["over"] and replayed["game"] == "gangster-dice"
    assert replayed["phase"] == "over" and replayed["winners"] == replayed["scores"]["winners"]
    assert all(replayed["scores"]["totals"][w] == 0 for w in replayed["winners"])
    assert len(replayed["scores"]["totals"]) == players
    assert "you" not in replayed["state"]  # the table's view: no hand
    again = run("simulate", "--game", "gangster-dice", "--players", str(players), "--seed", "5")
    assert again.stdout == out.read_text()


def test_simulate_refuses_a_table_the_game_does_not_seat():
    done = run("simulate", "--game", "gangster-dice", "--players", "5", "--seed", "1")
    assert done.returncode == 1 and "--players must be 2 to 4 for Gangster Dice" in done.stderr


def test_replay_prints_the_table_and_the_winner():
    done = run("replay", str(ROOT / "examples" / "gangster-dice-two-players.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "50 actions replayed, all legal (Gangster Dice)" in done.stdout
    assert "The Investigator" in done.stdout and "Winner: Johnny" in done.stdout


def test_demo_narrates_a_game_without_a_hand_or_a_secret_bid():
    done = run("demo", "--game", "gangster-dice", "--players", "3", "--seed", "2", "--delay", "0")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A simulated 3-player game of Gangster Dice" in out
    assert "The favor deck is shuffled (36 cards)." in out
    assert "chooses their cards." in out and "The cards are revealed:" in out
    assert "You " not in out and "order" not in out
    assert "Winner" in out


def test_score_reads_a_hand_typed_final_position(tmp_path):
    position = tmp_path / "final.toml"
    position.write_text(
        "[stash]\nMaria = 0\nJohnny = { red = 1, blue = 2 }\nClaire = 0\nVincent = 5\n"
    )
    done = run("score", "--game", "gangster-dice", "--json", str(position))
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["winners"] == ["Maria", "Claire"] and s["over"]
    assert s["totals"] == {"Maria": 0, "Johnny": 3, "Claire": 0, "Vincent": 5}
    table = run("score", "--game", "gangster-dice", str(position)).stdout
    assert "Winners: Maria and Claire" in table and "  Vincent   5\n" in table

    position.write_text("[stash]\nMaria = 2\nJohnny = 1\n")
    table = run("score", "--game", "gangster-dice", str(position)).stdout
    assert "not over yet" in table and "Fewest dice: Johnny (1)" in table

    for text, says in (
        ("[stash]\nMaria = 0\n", "one line per player (2 to 4)"),
        ("[stash]\nMaria = 0\nJohnny = { red = 9 }\n", "at most 8 dice of a colour"),
        ("[stash]\nMaria = 20\nJohnny = 20\n", "the stashes hold 40 dice"),
        ("[stash]\nMaria = -1\nJohnny = 2\n", "a number of dice"),
        ("players = 3\n", "unknown keys players"),
    ):
        position.write_text(text)
        done = run("score", "--game", "gangster-dice", str(position))
        assert done.returncode == 1 and says in done.stderr, done.stderr


def test_rules_lists_the_house_rules():
    done = run("rules", "--game", "gangster-dice")
    assert "spent_fours" in done.stdout and "investigator_load" in done.stdout
