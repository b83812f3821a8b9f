"""What the table service does so that nobody learns a hidden die while the game can go on:
the record is shown only once the game cannot go on, and showing it closes the game for good;
a correction's reason stays with the move's player; one bad game never takes the others down;
the log file is readable by its owner alone."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from companion.simulate import simulate
from companion.table import Refused, TableService
from companion.table.storage import FILENAME, Storage

RECORD = simulate(4, 3)


@pytest.fixture
def service(tmp_path):
    s = TableService(tmp_path)
    yield s
    s.close()


def play(service, game_id, actions):
    for a in actions:
        service.submit(game_id, a, actor="host", expected_seq=service.game(game_id).seq)


def first(kind):
    return next(i for i in range(1, len(RECORD)) if RECORD[i]["type"] == kind)


def test_the_record_is_refused_while_the_game_can_go_on(service):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1 : first("roll") + 1])
    with pytest.raises(Refused) as err:
        service.disclose(game.id, actor="host")
    assert err.value.code == "not_over" and "hidden" in err.value.reason
    assert service.game(game.id).disclosed is None


def test_a_record_shown_closes_the_game_for_good(service):
    """The reviewer's attack: end the game, read every die, reopen it and play on."""
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1 : first("roll") + 2])
    service.set_status(game.id, "finished", actor="host")
    text = service.disclose(game.id, actor="host")
    assert '"type": "roll"' in text and '"faces"' in text
    g = service.game(game.id)
    assert g.disclosed is not None and g.disclosed.actor == "host"
    with pytest.raises(Refused) as err:
        service.set_status(game.id, "active", actor="host")
    assert err.value.code == "closed" and "shown to the host" in err.value.reason
    with pytest.raises(Refused):
        service.undo(game.id, actor="host", expected_seq=g.seq)
    roll = first("roll")
    with pytest.raises(Refused):
        service.correct(
            game.id,
            actor="host",
            target=roll,
            action=RECORD[roll],
            why="camera misread",
            expected_seq=g.seq,
        )
    assert service.game(game.id).status == "finished"
    # reading it again is not logged again
    service.disclose(game.id, actor="player:Maria")
    assert service.game(game.id).seq == g.seq


def test_a_game_ended_by_the_rules_shows_its_record_and_stays_over(service):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1:])
    assert service.game(game.id).status == "finished"
    service.disclose(game.id, actor="player:Maria")
    with pytest.raises(Refused) as err:  # the host can no longer take the last move back
        service.undo(game.id, actor="host", expected_seq=service.game(game.id).seq)
    assert "shown to Maria" in err.value.reason


def test_a_reopened_game_that_nobody_read_can_go_on(service):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1:5])
    service.set_status(game.id, "finished", actor="host")
    service.set_status(game.id, "active", actor="host")
    assert service.game(game.id).can_go_on


@pytest.mark.parametrize(
    "why", ["", "  ", 'line one\n{"type": "roll"}', "x\u202eevil", "\ud800", "y" * 201]
)
def test_a_corrections_reason_is_one_printable_line(service, why):
    """A newline in the reason would put a line of its own into the exported record (its
    notes are # comments), so it is refused like a bad name."""
    game = service.create_game(RECORD[0])
    roll = first("roll")
    play(service, game.id, RECORD[1 : roll + 1])
    seq = service.game(game.id).seq
    with pytest.raises(Refused) as err:
        service.correct(
            game.id, actor="host", target=roll, action=RECORD[roll], why=why, expected_seq=seq
        )
    assert err.value.code == "malformed"
    assert service.game(game.id).seq == seq


def test_a_game_that_cannot_be_loaded_does_not_take_the_others_down(tmp_path):
    """An older companion stored a setup with a lone surrogate in a name: loading it now fails
    its name check. It is reported and left alone; every other game loads."""
    good = TableService(tmp_path)
    kept = good.create_game(RECORD[0]).id
    good.close()
    storage = Storage(tmp_path)
    bad = {"type": "setup", "players": ["\ud800", "b", "c"]}
    storage.create_game("bad001", "2026-01-01T00:00:00.000+00:00", bad, "host")
    storage.close()
    service = TableService(tmp_path)
    try:
        assert [g.id for g in service.games()] == [kept]
        assert "bad001" in service.damaged and "surrogate" in service.damaged["bad001"]
    finally:
        service.close()
    db = sqlite3.connect(tmp_path / FILENAME)
    try:  # left untouched
        assert db.execute("SELECT count(*) FROM events WHERE game_id = 'bad001'").fetchone() == (1,)
    finally:
        db.close()


def test_the_log_is_readable_by_its_owner_alone(tmp_path):
    path = tmp_path / FILENAME
    path.touch(mode=0o644)
    os.chmod(path, 0o644)  # as an older companion left it
    TableService(tmp_path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    fresh = tmp_path / "new"
    TableService(fresh).close()
    assert stat.S_IMODE((fresh / FILENAME).stat().st_mode) == 0o600
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
