"""The command line with --game godfather-1971, run as a user runs it: simulate writes a
whole random game that replay replays to its end, demo narrates one, score reads a final
position typed by hand, and the shipped examples replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.godfather_1971.scoring import POSITION_EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("godfather-1971-*.jsonl"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_writes_a_whole_game_that_replays_to_its_end(tmp_path, players):
    out = tmp_path / "game.jsonl"
    done = run(
        "simulate",
        "--game",
        "godfather-1971",
        "--players",
        str(players),
        "--seed",
        "7",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(run("replay", "--json", str(out)).stdout)
    assert result["ok"] and result["over"] and result["game"] == "godfather-1971"
    assert len(result["scores"]["totals"]) == players
    assert result["winners"] == result["scores"]["winners"] and result["winners"]
    assert result["phase"] == "over" and "every neighborhood is closed" in result["end"]
    assert all("hand" not in p for p in result["state"]["players"])  # the table's view


def test_the_examples_replay_to_a_winner():
    assert len(EXAMPLES) >= 2
    for example in EXAMPLES:
        done = run("replay", str(example))
        assert done.returncode == 0, done.stderr
        assert "actions replayed, all legal (The Godfather Game (1971))" in done.stdout
        assert "(THE GODFATHER)" in done.stdout


def test_replay_names_the_line_and_the_rule_of_an_illegal_placement(tmp_path):
    lines = (ROOT / "examples" / "godfather-1971-short-game.jsonl").read_text().splitlines()
    places = [i for i, line in enumerate(lines) if '"place"' in line]
    first, second = places[0], places[1]
    bad = json.loads(lines[second])
    bad["positions"] = json.loads(lines[first])["positions"]  # on the piece just placed
    bad["neighborhood"] = json.loads(lines[first])["neighborhood"]
    lines[second] = json.dumps(bad)
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines) + "\n")
    out = json.loads(run("replay", "--json", str(record)).stdout)
    assert out["ok"] is False and out["line"] == second + 1
    assert out["rule"] in ("The Play C", "To Start")


def test_demo_narrates_a_game_to_the_godfather():
    done = run("demo", "--game", "godfather-1971", "--players", "2", "--seed", "3", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "THE GODFATHER:" in done.stdout
    assert "draws a card for the next turn" in done.stdout
    assert "You draw" not in done.stdout  # the table screen never sees a held card


def test_score_reads_a_final_position_typed_by_hand(tmp_path):
    position = tmp_path / "end.toml"
    position.write_text(POSITION_EXAMPLE, "utf-8")
    done = run("score", "--game", "godfather-1971", "--json", str(position))
    assert done.returncode == 0, done.stderr
    score = json.loads(done.stdout)
    # Maria: $2,300 + Extortion on the Lower East Side $6,800; Claire: $900 + Harlem's
    # Bookmaking $10,000; Johnny: $4,100 + Midtown's Hijacking $1,000.
    assert score["totals"] == {"Maria": 9100, "Johnny": 5100, "Claire": 10900}
    assert score["winners"] == ["Claire"]
    position.write_text(POSITION_EXAMPLE.replace('racket = "bookie"', 'racket = "numbers"'))
    done = run("score", "--game", "godfather-1971", str(position))
    assert done.returncode == 1 and "racket 'numbers'" in done.stderr


def test_rules_lists_the_house_rules():
    done = run("rules", "--game", "godfather-1971")
    assert done.returncode == 0
    for name in (
        "control",
        "controlled_positions",
        "control_broken_by",
        "first_player",
        "bad_break_shortfall",
    ):
        assert name in done.stdout


SHIPPED = ROOT / "companion" / "games" / "godfather_1971" / "data" / "neighborhoods"


def test_board_check_reads_a_tracing_and_shows_what_it_read(tmp_path):
    mine = tmp_path / "our-park-west.toml"
    mine.write_text(
        (SHIPPED / "park-west.toml")
        .read_text()
        .replace("cut = []", 'cut = [["A1", "A2"]]')
        .replace('map = "placeholder:', 'map = "traced: our copy; was')
    )
    done = run("board", "check", "--game", "godfather-1971", str(mine))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Park West (park-west): 30 positions\n" in done.stdout  # no longer a placeholder
    assert "   A1: B1; B2\n" in done.stdout  # the cut parts A1 from A2
    assert f"{mine}: OK." in done.stdout


def test_board_check_lists_every_problem_with_its_line_and_fix(tmp_path):
    bad = tmp_path / "bad.toml"
    text = (SHIPPED / "midtown.toml").read_text()
    text = text.replace("cut = []", 'cut = [["A1", "Z9"], ["A1", "C3"]]').replace(
        'id = "midtown"', 'id = "Mid Town"'
    )
    bad.write_text(text)
    lines = text.splitlines()
    at = {
        key: 1 + next(i for i, line in enumerate(lines) if line.startswith(key))
        for key in ("id =", "cut =")
    }
    done = run("board", "check", "--game", "godfather-1971", str(bad))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{bad}:{at['id =']}: error: the neighborhood needs an id" in done.stdout
    assert 'fix: id = "park-west"' in done.stdout
    assert f"{bad}:{at['cut =']}: error: cut: Z9 is not a position of this map" in done.stdout
    assert f"{bad}:{at['cut =']}: error: cut: A1 and C3 are not straight neighbours" in done.stdout
    assert "3 error(s)" in done.stdout  # every problem at once, not the first alone
    broken = tmp_path / "broken.toml"
    broken.write_text('format = 1\nmap = "o o\n')
    done = run("board", "check", "--game", "godfather-1971", str(broken))
    assert done.returncode == 1 and f"{broken}:2: error: not valid TOML" in done.stdout


def test_board_show_describes_the_board_and_a_neighborhood_with_its_placeholders():
    done = run("board", "show", "--game", "godfather-1971")
    assert done.returncode == 0, done.stderr
    assert done.stdout.index("midtown") < done.stdout.index("harlem")  # smallest first
    assert "PLACEHOLDERS (" in done.stdout and "Midtown: its 20 positions" in done.stdout
    done = run("board", "show", "--game", "godfather-1971", "the-docks")
    assert done.returncode == 0, done.stderr
    assert "Extortion $3,600" in done.stdout
    assert "the-docks Extortion: $3,600: inferred:" in done.stdout  # each fact's source
    assert "PLACEHOLDERS (1 fact not from" in done.stdout
    done = run("board", "show", "--game", "godfather-1971", "brooklyn")
    assert done.returncode == 1 and "neither a neighborhood" in done.stderr
