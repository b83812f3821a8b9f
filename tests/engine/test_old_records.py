"""Every record written before the game protocol replays to the same scores: their setup lines
name no game (so they are A New Don's), and the scores were taken from the engine as it was
(tests/data/records/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from new_don_boards import FILES

from companion.games.new_don import NEW_DON
from companion.records import RecordError, parse_record, replay

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "data" / "records"
BEFORE = json.loads((RECORDS / "scores-before-the-protocol.json").read_text())
PATHS = {p.name: p for p in [*RECORDS.glob("*.jsonl"), *(ROOT / "examples").glob("*.jsonl")]}


def test_every_record_has_its_old_score():
    assert set(BEFORE) <= set(PATHS) and len(BEFORE) >= 6


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_an_old_record_replays_to_the_same_score(name):
    text = PATHS[name].read_text("utf-8")
    record = parse_record(text)
    assert record.game is NEW_DON
    state = replay(record, FILES)
    assert NEW_DON.is_over(state)
    assert NEW_DON.score(state) == BEFORE[name]


def test_a_record_names_its_game_and_a_record_naming_none_is_a_new_dons():
    old = parse_record((RECORDS / "old-3-players.jsonl").read_text("utf-8"))
    assert "game" not in json.loads(
        next(
            line
            for line in (RECORDS / "old-3-players.jsonl").read_text().splitlines()
            if line.startswith("{")
        )
    )
    assert old.setup.to_dict()["game"] == "new-don"  # written anew, the line names it
    with pytest.raises(RecordError, match="no game 'chess'"):
        parse_record('{"type": "setup", "game": "chess", "players": ["A", "B"]}\n')
