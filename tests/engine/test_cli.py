"""The command line, run as a user runs it: a real process, real files, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.parametrize("name,players", [("four-players.jsonl", 4), ("six-players.jsonl", 6)])
def test_example_games_replay_to_a_winner(name, players):
    done = run("replay", str(EXAMPLES / name))
    assert done.returncode == 0, done.stderr
    assert "actions replayed, all legal" in done.stdout
    assert "Winner: " in done.stdout
    out = json.loads(run("replay", "--json", str(EXAMPLES / name)).stdout)
    assert out["ok"] and out["over"] and out["phase"] == "game_over"
    assert len(out["scores"]["totals"]) == players
    assert out["winners"] == out["scores"]["winners"]
    best = max(out["scores"]["totals"].values())
    assert all(out["scores"]["totals"][w] == best for w in out["winners"])
    assert len(out["scores"]["districts"]) == 6
    # the final state for the table screen: nobody's dice
    assert all("dice" not in p for p in out["state"]["players"])


def test_replay_stops_at_the_first_illegal_line(tmp_path):
    lines = (EXAMPLES / "four-players.jsonl").read_text().splitlines()
    # The Godfather's first claim, re-targeted at a neighborhood its dice do not fit.
    bad = next(i for i, line in enumerate(lines) if '"claim"' in line)
    action = json.loads(lines[bad])
    action["neighborhood"] = "1a"
    lines[bad] = json.dumps(action)
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines) + "\n")
    done = run("replay", str(record))
    assert done.returncode == 1
    assert f"bad.jsonl: line {bad + 1}: 1A needs pair of 1s" in done.stderr
    assert "(Resolution B.i)" in done.stderr
    out = json.loads(run("replay", "--json", str(record)).stdout)
    assert out == {"ok": False, "line": bad + 1, "rule": "Resolution B.i", "reason": out["reason"]}


def test_replay_reports_malformed_lines(tmp_path):
    record = tmp_path / "r.jsonl"
    record.write_text(
        '{"type": "setup", "players": ["A", "B", "C"]}\n'
        '{"type": "godfather_roll", "player": "A", "face": 6}\n'
        '{"type": "godfather_roll", "player": "Z", "face": 6}\n'
    )
    done = run("replay", str(record))
    assert done.returncode == 1
    assert "line 3: 'Z' is not at this table; players: A, B, C" in done.stderr
    record.write_text('{"type": "setup", "players": ["A", "B", "C"]}\n{"type": "claim",\n')
    assert "line 2: not valid JSON" in run("replay", str(record)).stderr


def test_an_unfinished_record_shows_the_score_so_far(tmp_path):
    lines = (EXAMPLES / "four-players.jsonl").read_text().splitlines()[:60]
    record = tmp_path / "half.jsonl"
    record.write_text("\n".join(lines) + "\n")
    done = run("replay", str(record))
    assert done.returncode == 0
    assert "The game is not over yet" in done.stdout


def test_simulate_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "g.jsonl"
    done = run("simulate", "--players", "5", "--seed", "7", "--out", str(out))
    assert done.returncode == 0 and "a 5-player game" in done.stdout
    assert run("replay", str(out)).returncode == 0
    assert run("simulate", "--players", "5", "--seed", "7").stdout == out.read_text()


def test_score_a_hand_typed_final_position(tmp_path):
    position = tmp_path / "final.toml"
    position.write_text(
        'players = ["Vincent", "Maria", "Claire", "Johnny"]\n'
        'muscle = ["Claire", "Johnny", "Maria"]\n'
        "[house]\nVincent = 2\nMaria = 5\nClaire = 5\nJohnny = 1\n"
        "[districts]\n3 = { Vincent = 3, Maria = 2, Claire = 2, Johnny = 1 }\n"
    )
    done = run("score", "--json", str(position))
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["districts"][2]["points"] == {"Vincent": 7, "Maria": 2, "Claire": 2, "Johnny": 0}
    assert s["house"]["points"] == {"Vincent": 1, "Maria": 2, "Claire": 2, "Johnny": 0}
    assert s["totals"] == {"Vincent": 8, "Maria": 4, "Claire": 4, "Johnny": 0}
    assert s["winners"] == ["Vincent"]
    table = run("score", str(position)).stdout
    assert "District Three" in table and "Winner: Vincent" in table

    position.write_text('players = ["A", "B", "C"]\n[districts]\n3 = { A = 10 }\n')
    done = run("score", str(position))
    assert done.returncode == 1
    assert "district 3 has 9 neighborhoods on board '3-4', but 10 are listed" in done.stderr


def test_score_the_rulebooks_second_scoring_example(tmp_path):
    """ "If Vincent had controlled three neighborhoods and Claire had tied with him instead of
    Maria, Vincent and Claire would score four points each, and Maria would still score two,
    being bumped down to the third place scoring tier. Johnny is still bumped out of scoring."
    That is 3 + 3 + 2 + 1 = 9 neighborhoods in the 7/4/2 district: the placeholder board holds
    them."""
    position = tmp_path / "second.toml"
    position.write_text(
        'players = ["Vincent", "Maria", "Claire", "Johnny"]\n'
        "[districts]\n3 = { Vincent = 3, Claire = 3, Maria = 2, Johnny = 1 }\n"
    )
    done = run("score", "--json", str(position))
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["districts"][2]["district"] == "District Three"
    assert s["districts"][2]["points"] == {"Vincent": 4, "Maria": 2, "Claire": 4, "Johnny": 0}


def test_demo_plays_a_whole_game_without_showing_hidden_dice():
    done = run("demo", "--players", "3", "--seed", "11", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "Winner: " in done.stdout
    assert "Maria rolls." in done.stdout  # the table screen never says what was rolled
    assert "Maria rolls:" not in done.stdout


def test_rules_lists_every_house_rule():
    done = run("rules")
    for name in ("straights_wrap", "tie_block", "empty_house", "request_revealed_number"):
        assert name in done.stdout


@pytest.mark.parametrize("line", ["house = 3", 'districts = "a"', "house = { A = true }"])
def test_a_position_file_of_the_wrong_shape_is_a_clear_error(tmp_path, line):
    position = tmp_path / "final.toml"
    position.write_text(f'players = ["A", "B", "C"]\n{line}\n')
    done = run("score", str(position))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"companion: {position}: ")


def test_board_commands_are_a_new_dons_unless_another_game_is_named():
    plain = run("board", "show", "3-4")
    named = run("board", "show", "--game", "new-don", "3-4")
    assert plain.returncode == named.returncode == 0 and plain.stdout == named.stdout
    assert "Muscle track" in plain.stdout
    other = run("board", "show", "--game", "godfather-1971", "midtown")
    assert other.returncode == 0 and "Midtown (midtown): 20 positions" in other.stdout
    none = run("board", "check", "--game", "gangster-dice", "any.toml")
    assert none.returncode == 1 and "has no data files of its own" in none.stderr
    assert "new-don, godfather-1971, monopoly-godfather, cash-n-guns" in none.stderr


@pytest.mark.parametrize("game", ["new-don", "godfather-1971", "monopoly-godfather", "cash-n-guns"])
def test_every_data_file_a_game_ships_passes_its_check(game):
    # The facts a rulebook lacks are data with a source each; this is the command that checks
    # them, so a shipped file with an error fails here.
    done = run("board", "check", "--game", game)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "shipped data file(s) checked, all OK." in done.stdout
    assert "error" not in done.stdout.lower()


def test_a_broken_shipped_style_file_fails_the_check(tmp_path):
    broken = tmp_path / "board.toml"
    broken.write_text(
        (ROOT / "companion/games/new_don/boards/three-four.toml")
        .read_text()
        .replace("[muscle_track]", "[muscle_trak]", 1)
    )
    done = run("board", "check", str(broken))
    assert done.returncode == 1 and "error" in done.stdout
