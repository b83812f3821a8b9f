"""The command line for Ca$h 'n Guns, run as a user runs it: a real process, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_position import NIGHT

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def replayed(path: Path) -> dict:
    done = run("replay", "--json", str(path))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_simulate_writes_a_whole_game_that_replays_to_its_end(tmp_path, players):
    out = tmp_path / "game.jsonl"
    done = run(
        "simulate",
        "--game",
        "cash-n-guns",
        "--players",
        str(players),
        "--seed",
        "11",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    result = replayed(out)
    assert result["ok"] and result["over"] and result["game"] == "cash-n-guns"
    assert result["phase"] == "over" and result["end"]
    assert len(result["scores"]["totals"]) == players
    assert result["winners"] == result["scores"]["winners"]
    alive = [n for n, p in result["scores"]["players"].items() if p["alive"]]
    assert set(result["winners"]) <= set(alive)
    # the table's view: nobody's hand nor the card they put down
    assert all("hand" not in p and "card" not in p for p in result["state"]["players"])


def test_simulate_refuses_a_count_the_box_does_not_allow():
    done = run("simulate", "--game", "cash-n-guns", "--players", "3", "--out", "-")
    assert done.returncode == 1 and "4 to 8" in done.stderr


@pytest.mark.parametrize(
    ("name", "winner", "end"),
    [
        ("cash-n-guns-showdown.jsonl", "Maria", "last player alive"),
        ("cash-n-guns-five-players.jsonl", "Sonny", "8th turn is over"),
    ],
)
def test_the_example_games_replay(name, winner, end):
    result = replayed(EXAMPLES / name)
    assert result["over"] and result["winners"] == [winner] and end in result["end"]
    verbose = run("replay", "-v", str(EXAMPLES / name))
    assert "Winner: " + winner in verbose.stdout
    assert "loads a" not in verbose.stdout  # the table never hears which card went down


def test_an_illegal_line_is_named_with_its_rule(tmp_path):
    lines = (EXAMPLES / "cash-n-guns-showdown.jsonl").read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"privilege"' in line)
    lines[i] = lines[i].replace('"Maria"', '"Johnny"', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    out = json.loads(run("replay", "--json", str(bad)).stdout)
    assert not out["ok"] and out["line"] == i + 1
    assert out["rule"] == "Game turn, 4. Godfather's Privilege"
    assert "Godfather's (Maria)" in out["reason"]


def test_demo_narrates_a_game_as_the_table_screen_tells_it():
    done = run("demo", "--game", "cash-n-guns", "--players", "5", "--seed", "4", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "puts a Bullet card face-down" in done.stdout and "Winner:" in done.stdout
    assert "loads a" not in done.stdout and "chooses to" not in done.stdout


def test_score_reads_a_hand_typed_position(tmp_path):
    position = tmp_path / "friday.toml"
    position.write_text(NIGHT)
    done = run("score", "--game", "cash-n-guns", str(position))
    assert done.returncode == 0, done.stderr
    assert "Winner: Maria" in done.stdout and "$142,000" in done.stdout
    out = json.loads(run("score", "--game", "cash-n-guns", "--json", str(position)).stdout)
    assert out["winners"] == ["Maria"] and out["players"]["Maria"]["diamond_bonus"] == 60000
    position.write_text(NIGHT.replace("20000, 10000", "7000, 10000"))
    done = run("score", "--game", "cash-n-guns", str(position))
    assert done.returncode == 1 and "no bill is worth $7,000" in done.stderr


def test_rules_lists_the_house_rules():
    done = run("rules", "--game", "cash-n-guns")
    for name in ("split_ends", "unshared_loot", "clip_discard", "kept_loot", "aim_confirmation"):
        assert name in done.stdout


def test_the_demo_speaks_of_no_dice_in_a_game_without_dice():
    done = run("demo", "--game", "cash-n-guns", "--players", "4", "--seed", "2", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "Dice" not in done.stdout and "rolls" not in done.stdout
    assert "secret choices stay hidden" in done.stdout


BOX = ROOT / "companion" / "games" / "cash_n_guns" / "box.toml"


def test_box_check_passes_the_shipped_box_and_names_its_placeholders():
    done = run("board", "check", "--game", "cash-n-guns")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("box.toml: OK: 4-8 players, 8 turns of 8 Loot cards")
    assert "15 x $5,000 bill" in done.stdout
    assert "facts are placeholders" in done.stdout
    assert done.stdout.rstrip().endswith("1 shipped data file(s) checked, all OK.")


def test_box_check_reads_a_tables_own_count_and_says_what_to_fix(tmp_path):
    ours = tmp_path / "our-deck.toml"
    ours.write_text(BOX.read_text().replace("click = 5", "click = 4", 1))
    done = run("board", "check", "--game", "cash-n-guns", str(ours))
    assert done.returncode == 1
    line = next(
        i for i, text in enumerate(ours.read_text().splitlines(), 1) if text.startswith("bang = ")
    )
    assert f"{ours}:{line}: error: each player holds 3 Bang! and 4 Click" in done.stdout
    assert "fix: make bang + click = 8" in done.stdout
    assert "1 error(s)" in done.stdout
    ours.write_text(BOX.read_text())
    assert run("board", "check", "--game", "cash-n-guns", str(ours)).returncode == 0


def test_box_check_of_a_missing_file_says_so():
    done = run("board", "check", "--game", "cash-n-guns", "no-such-box.toml")
    assert done.returncode == 1 and "cannot read no-such-box.toml" in done.stderr
