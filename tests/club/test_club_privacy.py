"""No hidden die on the club's pages.

Two halves make the proof. What the club may show of a game (``companion.club.showing``) is
checked as the game filters are: every secret the table screen may not see is drawn anew
(the game's own ``scramble``) and the summary must not change. And the pages are shown to read
nothing but those summaries: they are served here by a PostgreSQL role that may read the
summaries and the tables' names and nothing else, not one row of any log.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from dataclasses import replace

import psycopg
import pytest
from club_world import Club, new_game, play

from companion.club.showing import shown
from companion.club.store import ClubStore
from companion.club.sync import ClubSync
from companion.gamefiles import GameFiles
from companion.games import game as game_of
from companion.games import games
from companion.simulate import random_setup
from companion.table import TableService
from companion.table.service import load_game
from companion.table.storage import StoredEvent
from web.club import create_club_app
from web.server import start_in_thread

EVERY_GAME = [(g.id, n) for g in games() for n in sorted(set(g.players))]


@pytest.mark.parametrize("game_id, players", EVERY_GAME)
def test_what_the_club_shows_does_not_change_when_every_secret_is_drawn_anew(game_id, players):
    rules = game_of(game_id)
    rng = random.Random(f"{game_id}{players}")
    setup = rules.setup_from_dict(random_setup(players, game_id=game_id))
    events = [StoredEvent("g", 0, "setup", "host", setup.to_dict(), None, "t")]
    checked = 0
    state = rules.new_game(setup, GameFiles(rules))
    while not rules.is_over(state) and len(events) < 600:
        action = rules.random_action(state, rng)
        state = rules.apply(state, action)
        events.append(StoredEvent("g", len(events), "action", "host", action.to_dict(), None, "t"))
        if rng.random() < 0.15 and not rules.is_over(state):
            game = load_game("g", "t", "active", events, GameFiles)
            seen = shown(game)
            for _ in range(3):
                scrambled = replace(game, state=rules.scramble(game.state, None, rng))
                assert shown(scrambled) == seen, f"move {len(events) - 1} leaks a secret"
            assert seen.scores is None and seen.can_go_on
            checked += 1
    assert checked >= 5


def test_the_pages_read_only_the_public_summaries(club: Club, table_dir):
    """Served by a role that cannot read a single event, every page and public API reply
    still works: none of them reads a log."""
    club.add_table("table-1")
    service = TableService(table_dir)
    sync = ClubSync(service, club.url, club.tokens["table-1"]).start()
    try:
        finished = new_game(service)
        play(service, finished.id, random.Random(31))
        playing = new_game(service, "cash-n-guns", 5)
        play(service, playing.id, random.Random(32), moves=25)
        assert sync.wait_synced(30)
    finally:
        sync.stop()
        service.close()

    with psycopg.connect(club.db, autocommit=True) as db:
        db.execute("DROP ROLE IF EXISTS club_pages_test")
        db.execute("CREATE ROLE club_pages_test LOGIN")
        db.execute("GRANT SELECT ON club_games TO club_pages_test")
        db.execute("GRANT SELECT (name, created_at, last_seen) ON club_tables TO club_pages_test")
    pages_url = re.sub(r"//[^@]+@", "//club_pages_test@", club.db)
    with psycopg.connect(pages_url) as db, pytest.raises(psycopg.errors.InsufficientPrivilege):
        db.execute("SELECT payload FROM club_events LIMIT 1")

    store = ClubStore(pages_url, migrate=False)
    running = start_in_thread(create_club_app(store), threads=64)
    try:
        for path in (
            "/",
            f"/tables/table-1/{finished.id}",
            f"/tables/table-1/{playing.id}",
            "/finished",
            "/league",
            "/league/new-don",
            "/league/cash-n-guns",
            "/league/new-don/bgstats.json",
            "/api/club/live",
            "/api/club/finished",
            "/api/club/league/new-don",
        ):
            with urllib.request.urlopen(running.url + path) as reply:
                assert reply.status == 200, path
    finally:
        running.stop()
        store.close()
        with psycopg.connect(club.db, autocommit=True) as db:
            db.execute("DROP OWNED BY club_pages_test")
            db.execute("DROP ROLE club_pages_test")


def test_a_game_in_play_shows_the_table_view_and_no_score(club: Club, table_dir):
    club.add_table("table-1")
    service = TableService(table_dir)
    sync = ClubSync(service, club.url, club.tokens["table-1"]).start()
    try:
        game = new_game(service)
        play(service, game.id, random.Random(33), moves=30)
        assert sync.wait_synced(30)
        here = service.game(game.id)
        with urllib.request.urlopen(club.url + "/api/club/live") as reply:
            [live] = json.load(reply)["games"]
        assert live["view"] == here.rules.player_view(here.state, None)
        assert live["scores"] is None
        assert live["view"] != here.rules.player_view(here.state, "Maria")  # Maria's dice
    finally:
        sync.stop()
        service.close()
