"""A Pi that lost its card gets its games back from the club, and the restored log replays to
the same state: every game, finished or in play, undos and corrections and all."""

from __future__ import annotations

import random

import pytest
from club_world import Club, local_log, new_game, play

from companion.club.client import ClubClient, ClubRefused
from companion.club.restore import restore
from companion.club.sync import ClubSync
from companion.table import TableService


@pytest.fixture
def backed_up(club: Club, tmp_path):
    """Table A's Pi: a finished game, a game in play with an undo and a correction, an archived
    one, all backed up; then the card is lost. The service stays open as the original."""
    club.add_table("A")
    service = TableService(tmp_path / "lost")
    rng = random.Random(21)
    finished = new_game(service, "cash-n-guns", 5)
    play(service, finished.id, rng)
    playing = new_game(service)
    play(service, playing.id, rng, moves=40)
    game = service.game(playing.id)
    service.undo(playing.id, actor="host", expected_seq=game.seq)
    play(service, playing.id, rng, moves=5)
    archived = new_game(service)
    play(service, archived.id, rng)
    service.set_status(archived.id, "archived")
    # A correction (the host re-enters a roll as it was read): an event of its own.
    game = service.game(playing.id)
    seq, roll = next((s, a) for s, a in reversed(game.effective) if game.rules.is_roll(a))
    service.correct(
        playing.id,
        actor="host",
        target=seq,
        action=roll.to_dict(),
        why="the die was read twice",
        expected_seq=game.seq,
    )
    sync = ClubSync(service, club.url, club.tokens["A"]).start()
    assert sync.wait_synced(60)
    sync.stop()
    yield service, [finished.id, playing.id, archived.id]
    service.close()


def test_a_lost_table_is_restored_and_replays_to_the_same_state(club: Club, backed_up, tmp_path):
    original, ids = backed_up
    client = ClubClient(club.url, club.tokens["A"])
    report = restore(client, tmp_path / "new-card")
    assert report.table == "A" and not report.damaged and not report.kept
    assert sorted(r.game_id for r in report.restored) == sorted(ids)

    restored = TableService(tmp_path / "new-card")
    try:
        for game_id in ids:
            was, now = original.game(game_id), restored.game(game_id)
            assert local_log(restored, game_id) == local_log(original, game_id)
            assert now.state == was.state
            assert (now.status, now.seq, now.effective) == (was.status, was.seq, was.effective)
            assert now.record() == was.record()
        assert [g.id for g in restored.games(include_archived=True)] == [
            g.id for g in original.games(include_archived=True)
        ]
        # ... and play goes on where it was.
        playing = ids[1]
        play(restored, playing, random.Random(22), moves=3)
        assert restored.game(playing).seq == original.game(playing).seq + 3
    finally:
        restored.close()


def test_a_restore_leaves_the_games_a_folder_has_as_they_are(club: Club, backed_up, tmp_path):
    _original, ids = backed_up
    client = ClubClient(club.url, club.tokens["A"])
    first = restore(client, tmp_path / "card")
    second = restore(client, tmp_path / "card")
    assert len(first.restored) == 3 and not second.restored and sorted(second.kept) == sorted(ids)


def test_the_admin_can_restore_a_table_whose_token_is_lost_too(club: Club, backed_up, tmp_path):
    _original, ids = backed_up
    admin = ClubClient(club.url, club.admin_key)
    report = restore(admin, tmp_path / "card", table="A")
    assert sorted(r.game_id for r in report.restored) == sorted(ids)


def test_another_tables_token_restores_nothing_of_it(club: Club, backed_up, tmp_path):
    club.add_table("B")
    other = ClubClient(club.url, club.tokens["B"])
    assert restore(other, tmp_path / "b").restored == []  # B's own games: none
    with pytest.raises(ClubRefused) as refused:
        restore(other, tmp_path / "b", table="A")
    assert refused.value.status == 403
    assert (
        not (tmp_path / "b" / "companion.sqlite3").exists()
        or TableService(tmp_path / "b").games(include_archived=True) == []
    )


def test_a_restored_table_syncs_on_without_sending_anything_twice(club: Club, backed_up, tmp_path):
    _original, ids = backed_up
    restore(ClubClient(club.url, club.tokens["A"]), tmp_path / "card")
    service = TableService(tmp_path / "card")
    sync = ClubSync(service, club.url, club.tokens["A"]).start()
    try:
        play(service, ids[1], random.Random(23), moves=6)
        assert sync.wait_synced(30)
        assert sync.state.pushed == 6 and not sync.state.conflicts
        assert club.rows("A", ids[1]) == local_log(service, ids[1])
    finally:
        sync.stop()
        service.close()
