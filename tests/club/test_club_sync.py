"""A table backs itself up to the club as it plays, offline first.

Every durable event reaches PostgreSQL exactly once, in order, whatever happens between: the
link cut in the middle of a push, the club server killed and started again, the table's own
sync restarted. The table never waits: its moves are taken at its own speed through a cut.
"""

from __future__ import annotations

import random
import time

import pytest
from club_link import Network
from club_world import Club, local_log, new_game, play

from companion.club.sync import ClubSync
from companion.table import TableService


@pytest.fixture
def network():
    net = Network()
    yield net
    net.close()


def test_every_event_of_a_game_reaches_the_club_as_the_table_wrote_it(club: Club, table_dir):
    club.add_table("table-1")
    service = TableService(table_dir)
    sync = ClubSync(service, club.url, club.tokens["table-1"]).start()
    try:
        game = new_game(service)
        play(service, game.id, random.Random(1))
        service.set_status(game.id, "archived")
        assert sync.wait_synced(30)
        assert club.rows("table-1", game.id) == local_log(service, game.id)
        row = club.store.game_row("table-1", game.id)
        assert row is not None and row.over and not row.can_go_on and row.status == "archived"
        assert row.scores == service.game(game.id).rules.score(service.game(game.id).state)
        assert sync.state.table == "table-1" and not sync.state.conflicts
    finally:
        sync.stop()
        service.close()


def test_a_game_in_play_is_shown_live_as_it_goes(club: Club, table_dir):
    club.add_table("table-1")
    service = TableService(table_dir)
    sync = ClubSync(service, club.url, club.tokens["table-1"]).start()
    try:
        game = new_game(service, "cash-n-guns", 5)
        play(service, game.id, random.Random(2), moves=30)
        assert sync.wait_synced(30)
        row = club.store.game_row("table-1", game.id)
        here = service.game(game.id)
        assert row is not None and row.seq == here.seq and row.can_go_on
        assert row.progress == here.rules.progress(here.state)
        assert row.waiting == [
            {"player": w.player, "does": w.does} for w in here.rules.waiting_for(here.state)
        ]
        assert row.scores is None  # a game that can go on shows no score
        assert [r.game_id for r in club.store.live()] == [game.id]
    finally:
        sync.stop()
        service.close()


def test_through_a_cut_the_table_plays_on_and_catches_up(club: Club, table_dir, network):
    club.add_table("table-1")
    link = network.link(club.port)
    service = TableService(table_dir)
    sync = ClubSync(service, link.url, club.tokens["table-1"]).start()
    try:
        game = new_game(service)
        rng = random.Random(3)
        play(service, game.id, rng, moves=20)
        assert sync.wait_synced(30)

        link.cut()
        took = []
        for _ in range(40):  # the table never waits for the club
            start = time.monotonic()
            play(service, game.id, rng, moves=1)
            took.append(time.monotonic() - start)
        assert max(took) < 0.5, f"a move waited for the network: {max(took):.2f} s"
        assert not sync.wait_synced(1.0)
        assert sync.pending() > 0 and not sync.state.connected
        assert len(club.rows("table-1", game.id)) < service.game(game.id).seq + 1

        link.mend()
        assert sync.wait_synced(30)
        assert club.rows("table-1", game.id) == local_log(service, game.id)
    finally:
        sync.stop()
        service.close()


def test_cuts_in_the_middle_of_pushes_lose_and_duplicate_nothing(club: Club, table_dir, network):
    club.add_table("table-1")
    link = network.link(club.port)
    service = TableService(table_dir)
    sync = ClubSync(service, link.url, club.tokens["table-1"]).start()
    rng = random.Random(4)
    try:
        games = [new_game(service), new_game(service, "cash-n-guns", 4)]
        for round_ in range(12):
            for game in games:
                play(service, game.id, rng, moves=15)
            time.sleep(rng.uniform(0, 0.05))  # somewhere in a push, or between two
            link.cut()
            time.sleep(rng.uniform(0, 0.1))
            link.mend()
            if round_ % 4 == 3:
                club.restart()  # the club server killed and started again
                link.point_at(club.port)
        assert sync.wait_synced(60)
        for game in games:
            assert club.rows("table-1", game.id) == local_log(service, game.id)
        assert link.cuts == 12
    finally:
        sync.stop()
        service.close()


def test_a_restarted_table_resumes_where_the_club_is(club: Club, table_dir, network):
    """The Pi keeps no cursor: it asks the club where to resume, so a restart (or a crash
    mid-push) neither skips nor repeats an event."""
    club.add_table("table-1")
    link = network.link(club.port)
    service = TableService(table_dir)
    rng = random.Random(5)
    game = new_game(service)
    sync = ClubSync(service, link.url, club.tokens["table-1"]).start()
    play(service, game.id, rng, moves=25)
    assert sync.wait_synced(30)
    sync.stop()
    link.cut()
    play(service, game.id, rng, moves=25)  # while the sync is down and the link is cut
    service.close()

    service = TableService(table_dir)  # the Pi restarted
    sync = ClubSync(service, link.url, club.tokens["table-1"]).start()
    try:
        play(service, game.id, rng, moves=10)
        link.mend()
        assert sync.wait_synced(30)
        assert club.rows("table-1", game.id) == local_log(service, game.id)
        assert sync.state.pushed == 35  # exactly the events the club did not have
    finally:
        sync.stop()
        service.close()


def test_a_table_whose_log_is_not_the_one_backed_up_is_told_and_left_alone(club: Club, tmp_path):
    """A second Pi given the same token (or a card set up anew) makes a game with an id the
    club has: its events differ, so the club refuses them rather than mixing two histories."""
    club.add_table("table-1")
    first = TableService(tmp_path / "one")
    game = new_game(first)
    play(first, game.id, random.Random(6), moves=10)
    sync = ClubSync(first, club.url, club.tokens["table-1"]).start()
    assert sync.wait_synced(30)
    sync.stop()

    # Another Pi whose log has a game under the same id, with another history.
    other_dir = tmp_path / "two"
    twin = TableService(other_dir)
    twin.storage.create_game(
        game.id,
        "2026-01-01T00:00:00.000+00:00",
        {"type": "setup", "game": "new-don", "players": ["Ann", "Bob", "Cid"]},
        "host",
    )
    twin.close()
    twin = TableService(other_dir)
    play(twin, game.id, random.Random(7), moves=12)
    sync = ClubSync(twin, club.url, club.tokens["table-1"]).start()
    try:
        deadline = time.monotonic() + 20
        while game.id not in sync.state.conflicts and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "differs" in sync.state.conflicts[game.id]
        assert club.rows("table-1", game.id) == local_log(first, game.id)  # untouched
    finally:
        sync.stop()
        twin.close()
        first.close()
