"""The table service: stale and duplicate submissions, undo, corrections, bad input, bad files."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from companion.games.new_don import Phase
from companion.simulate import simulate
from companion.table import Refused, StorageError, TableService
from companion.table.storage import FILENAME

RECORD = simulate(4, 3)  # a whole legal 4-player game: setup, then actions


@pytest.fixture
def service(tmp_path):
    s = TableService(tmp_path)
    yield s
    s.close()


def play(service, game_id, actions, actor="host"):
    ack = None
    for a in actions:
        ack = service.submit(game_id, a, actor=actor, expected_seq=service.game(game_id).seq)
    return ack


def stored(tmp_path) -> int:
    db = sqlite3.connect(tmp_path / FILENAME)
    try:
        return db.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        db.close()


def first_index(kind, player=None, start=1):
    return next(
        i
        for i in range(start, len(RECORD))
        if RECORD[i]["type"] == kind and (player is None or RECORD[i]["player"] == player)
    )


def test_an_event_is_durable_before_subscribers_hear_of_it(service, tmp_path):
    game = service.create_game(RECORD[0])
    heard = []
    service.subscribe(lambda e: heard.append((e.seq, stored(tmp_path))), game.id)
    play(service, game.id, RECORD[1:6])
    # When each event was published, it (and the setup) was already in the file.
    assert heard == [(seq, seq + 1) for seq in range(1, 6)]


def test_stale_submissions_are_refused_and_change_nothing(service, tmp_path):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1:3])
    before = service.game(game.id)
    with pytest.raises(Refused) as err:
        service.submit(game.id, RECORD[3], actor="host", expected_seq=1)
    assert err.value.code == "stale"
    assert "it is at move 2, and this was made at move 1" in err.value.reason
    assert service.game(game.id) == before and stored(tmp_path) == 3


def test_a_double_tap_is_applied_once_even_across_a_restart(service, tmp_path):
    game = service.create_game(RECORD[0])
    first = service.submit(game.id, RECORD[1], actor="host", expected_seq=0, key="tap-1")
    again = service.submit(game.id, RECORD[1], actor="host", expected_seq=0, key="tap-1")
    assert (first.seq, first.duplicate, again.seq, again.duplicate) == (1, False, 1, True)
    service.close()
    reopened = TableService(tmp_path)
    assert reopened.submit(game.id, RECORD[1], actor="host", expected_seq=0, key="tap-1").duplicate
    assert len(reopened.game(game.id).effective) == 1


@pytest.mark.parametrize(
    "action,code,text",
    [
        ({"type": "claim", "player": "Maria"}, "malformed", "claim needs 'neighborhood'"),
        ({"type": "roll", "player": "Nobody", "faces": [1]}, "malformed", "'Nobody' is not at"),
        ({"type": "fly", "player": "Maria"}, "malformed", "unknown action type 'fly'"),
        (
            {"type": "claim", "player": "Maria", "neighborhood": "1a", "dice": [1, 1]},
            "illegal",
            "it is the setup phase",
        ),
    ],
)
def test_bad_input_gets_a_clear_refusal_and_changes_nothing(service, action, code, text):
    game = service.create_game(RECORD[0])
    with pytest.raises(Refused) as err:
        service.submit(game.id, action, actor="host", expected_seq=0)
    assert err.value.code == code and text in str(err.value)
    assert service.game(game.id).seq == 0


def test_players_act_only_for_themselves_and_dice_only_roll(service):
    game = service.create_game(RECORD[0])
    roll = {"type": "godfather_roll", "player": "Maria", "face": 3}
    with pytest.raises(Refused, match="player:Johnny cannot act for Maria") as err:
        service.submit(game.id, roll, actor="player:Johnny", expected_seq=0)
    assert err.value.code == "forbidden"
    assert service.submit(game.id, roll, actor="dice:pixels", expected_seq=0).seq == 1


def test_a_player_undoes_their_own_last_move_before_anyone_acts(service):
    game = service.create_game(RECORD[0])
    claim = first_index("claim")
    play(service, game.id, RECORD[1 : claim + 1])
    who = RECORD[claim]["player"]
    g = service.game(game.id)
    with pytest.raises(Refused, match="only the player who made the last move"):
        service.undo(game.id, actor="player:Nobody", expected_seq=g.seq)
    ack = service.undo(game.id, actor=f"player:{who}", expected_seq=g.seq)
    g = service.game(game.id)
    assert ack.seq == claim + 1 and len(g.effective) == claim - 1
    assert g.events[-1].kind == "undo" and g.events[-1].payload["undone"] == [claim]
    # the claim is gone from the state but stays in the log; it can be played again
    assert (
        service.submit(game.id, RECORD[claim], actor=f"player:{who}", expected_seq=g.seq).seq
        == claim + 2
    )


def test_rolls_cannot_be_taken_back_by_players(service):
    game = service.create_game(RECORD[0])
    roll = first_index("roll")
    play(service, game.id, RECORD[1 : roll + 1])
    with pytest.raises(Refused, match="a roll cannot be taken back"):
        service.undo(
            game.id,
            actor=f"player:{RECORD[roll]['player']}",
            expected_seq=service.game(game.id).seq,
        )


def test_the_host_undoes_anything_back_to_a_move(service, tmp_path):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1:40])
    g = service.game(game.id)
    service.undo(game.id, actor="host", expected_seq=g.seq, target=10)
    g = service.game(game.id)
    assert [s for s, _ in g.effective] == list(range(1, 10))
    service.close()
    again = TableService(tmp_path)
    assert again.game(game.id).state == g.state  # the restart replays the undo too
    assert "# host undid moves [10, 11" in again.export(game.id)


def test_a_host_correction_is_audited_and_rechecked(service):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1 : len(RECORD)])
    g = service.game(game.id)
    assert g.status == "finished" and g.state.phase is Phase.GAME_OVER
    first_roll = first_index("roll")
    original = RECORD[first_roll]
    # A misread die that changes nothing later: every later move still holds.
    same = dict(original, faces=list(original["faces"]))
    service.correct(
        game.id,
        actor="host",
        target=first_roll,
        action=same,
        why="camera read a 6 as a 6",
        expected_seq=g.seq,
    )
    g = service.game(game.id)
    assert g.events[-1].kind == "correction"
    assert g.events[-1].payload["why"] == "camera read a 6 as a 6"
    # A correction that breaks a later move is refused, naming it, and changes nothing.
    claim = first_index("claim")
    wrong = dict(RECORD[claim])
    player_roll = max(
        i
        for i in range(1, claim)
        if RECORD[i]["type"] == "roll" and RECORD[i]["player"] == wrong["player"]
    )
    bad = dict(
        RECORD[player_roll], faces=[7 - f if f != 1 else 2 for f in RECORD[player_roll]["faces"]]
    )
    with pytest.raises(Refused) as err:
        service.correct(
            game.id, actor="host", target=player_roll, action=bad, why="misread", expected_seq=g.seq
        )
    assert err.value.code == "illegal" and "would no longer be legal" in err.value.reason
    assert service.game(game.id) == g
    with pytest.raises(Refused, match="only the host"):
        service.correct(
            game.id,
            actor=f"player:{wrong['player']}",
            target=player_roll,
            action=bad,
            why="x",
            expected_seq=g.seq,
        )


def test_finished_and_archived_games(service):
    game = service.create_game(RECORD[0])
    service.set_status(game.id, "finished")
    with pytest.raises(Refused) as err:
        service.submit(game.id, RECORD[1], actor="host", expected_seq=1)
    assert err.value.code == "closed"
    service.set_status(game.id, "archived")
    assert service.games() == [] and len(service.games(include_archived=True)) == 1


def test_export_and_import_round_trip(service, tmp_path):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1 : len(RECORD)])
    text = service.export(game.id)
    copy = service.import_record(text)
    assert copy.state == service.game(game.id).state and copy.status == "finished"
    with pytest.raises(Refused) as err:
        service.import_record(text.replace('"face": ', '"face": 9, "x": ', 1))
    assert err.value.code == "malformed"
    assert len(service.games()) == 2  # the refused import stored nothing


def test_a_foreign_or_damaged_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / FILENAME
    path.write_bytes(b"this is not a database at all")
    with pytest.raises(StorageError, match="is not a SQLite database"):
        TableService(tmp_path)
    assert path.read_bytes() == b"this is not a database at all"

    path.unlink()
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE notes (x)")
    other.commit()
    other.close()
    before = path.read_bytes()
    with pytest.raises(StorageError, match="database of another program"):
        TableService(tmp_path)
    assert path.read_bytes() == before

    path.unlink()
    s = TableService(tmp_path)
    game = s.create_game(RECORD[0])
    play(s, game.id, RECORD[1:30])
    s.close()
    data = bytearray(path.read_bytes())
    for page in range(4096, len(data), 4096):  # a torn write over every page header
        data[page : page + 32] = b"\xff" * 32
    path.write_bytes(bytes(data))
    with pytest.raises(StorageError, match=r"damaged|integrity"):
        TableService(tmp_path)
    assert path.read_bytes() == bytes(data)


def test_many_threads_submit_at_once_without_loss_duplication_or_reordering(service):
    """Eight phones race to submit every move of a game; each move carries its own key, so
    retries are safe. The log must come out as the game, once, in order."""
    game = service.create_game(RECORD[0])
    moves = RECORD[1:]
    acked: list[tuple[int, int]] = []
    errors: list[BaseException] = []

    def phone() -> None:
        try:
            while True:
                g = service.game(game.id)
                i = len(g.effective)
                if i == len(moves):
                    return
                try:
                    ack = service.submit(
                        game.id, moves[i], actor="host", expected_seq=g.seq, key=f"move-{i}"
                    )
                    acked.append((i, ack.seq))
                except Refused as exc:
                    assert exc.code == "stale", exc
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=phone) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    g = service.game(game.id)
    assert [a.to_dict() for _, a in g.effective] == moves
    assert [e.seq for e in g.events] == list(range(len(moves) + 1))
    assert {seq for _, seq in acked} == set(range(1, len(moves) + 1))
    assert all(seq == i + 1 for i, seq in acked)  # duplicates got the original seq


def test_a_failing_subscriber_does_not_fail_a_durable_accept(service):
    game = service.create_game(RECORD[0])
    heard = []

    def broken(event):
        raise RuntimeError("listener bug")

    service.subscribe(broken, game.id)
    service.subscribe(heard.append, game.id)
    ack = service.submit(game.id, RECORD[1], actor="host", expected_seq=0)
    assert ack.seq == 1 and [e.seq for e in heard] == [1]


def test_the_host_can_take_back_the_move_that_ended_the_game(service):
    game = service.create_game(RECORD[0])
    play(service, game.id, RECORD[1:])
    g = service.game(game.id)
    assert g.status == "finished"
    with pytest.raises(Refused) as err:
        service.undo(game.id, actor=f"player:{RECORD[-1]['player']}", expected_seq=g.seq)
    assert err.value.code == "closed"
    service.undo(game.id, actor="host", expected_seq=g.seq)
    g = service.game(game.id)
    assert g.status == "active" and not g.state.is_over
    assert len(g.effective) == len(RECORD) - 2
