"""The league: finished games of every table, wins, points and an OpenSkill rating, and the
plays exported as BG Stats imports them."""

from __future__ import annotations

import json
import random
import urllib.request
from datetime import UTC, datetime

from club_world import Club, new_game, play

from companion.club.league import BGSTATS_LINK, bgstats_play, places, standings
from companion.club.store import GameRow
from companion.club.sync import ClubSync
from companion.table import TableService


def row(players, totals, winners, ended="2026-05-01T20:00:00+00:00", game_id="g1"):
    return GameRow(
        "T",
        game_id,
        100,
        "finished",
        "2026-05-01T19:00:00+00:00",
        ended,
        datetime.now(UTC),
        "new-don",
        players,
        "over",
        [],
        {},
        True,
        False,
        {"totals": totals, "winners": winners},
        None,
    )


def test_places_put_the_winners_first_then_by_points():
    game = row(["A", "B", "C", "D"], {"A": 10, "B": 30, "C": 30, "D": 5}, ["C"])
    assert places(game) == [2, 1, 0, 3]  # B and C tie on points; the tie-break made C win
    shared = row(["A", "B", "C"], {"A": 9, "B": 9, "C": 1}, ["A", "B"])
    assert places(shared) == [0, 0, 1]


def test_a_steady_winner_rates_above_one_lucky_game():
    games = [
        row(["Ann", "Bob", "Cid"], {"Ann": 30, "Bob": 20, "Cid": 10}, ["Ann"], game_id=f"g{i}")
        for i in range(5)
    ]
    games.append(
        row(["Dee", "Bob", "Cid"], {"Dee": 40, "Bob": 20, "Cid": 10}, ["Dee"], game_id="g9")
    )
    table = standings(games)
    by_name = {s.player: s for s in table}
    ann, dee = by_name["Ann"], by_name["Dee"]
    assert table[0] is ann
    # Dee won her one game (her mu is up) but one game says little (her sigma is still wide).
    assert dee.mu > 25 > by_name["Cid"].mu and dee.sigma > ann.sigma and dee.rating < ann.rating
    assert (ann.plays, ann.wins, ann.points) == (5, 5, 150.0)
    assert ann.rating == ann.mu - 3 * ann.sigma
    assert table[-1].player == "Cid" and table[-1].wins == 0


def test_a_play_for_bg_stats_says_who_played_scored_and_won():
    game = row(["Ann", "Bob"], {"Ann": 12, "Bob": 30}, ["Bob"], ended="2026-05-01T20:31:00+00:00")
    play = bgstats_play(game, "The Godfather: A New Don")
    assert play["sourceName"] == "Godfather table companion"
    assert play["sourcePlayId"] == "T/g1"
    assert play["game"] == {
        "name": "The Godfather: A New Don",
        "sourceGameId": "new-don",
        "highestWins": True,
        "noPoints": False,
    }
    assert play["durationMin"] == 91
    assert datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S")
    assert play["players"] == [
        {
            "name": "Ann",
            "sourcePlayerId": "Ann",
            "score": 12.0,
            "winner": False,
            "rank": 2,
            "role": "",
        },
        {
            "name": "Bob",
            "sourcePlayerId": "Bob",
            "score": 30.0,
            "winner": True,
            "rank": 1,
            "role": "",
        },
    ]


def test_the_league_page_shows_every_tables_finished_games(club: Club, tmp_path):
    ended = {}
    for name, seed in (("A", 41), ("B", 42)):
        club.add_table(name)
        service = TableService(tmp_path / name)
        sync = ClubSync(service, club.url, club.tokens[name]).start()
        try:
            done = [new_game(service) for _ in range(2)]
            for g in done:
                play(service, g.id, random.Random(seed + len(g.id)))
            stopped = new_game(service)  # ended by the host: listed, not in the league
            play(service, stopped.id, random.Random(seed), moves=20)
            service.set_status(stopped.id, "finished")
            assert sync.wait_synced(60)
            ended[name] = (
                [g.id for g in done],
                stopped.id,
                [service.game(g.id).rules.score(service.game(g.id).state) for g in done],
            )
        finally:
            sync.stop()
            service.close()

    league = club.store.league_games("new-don")
    assert sorted(r.game_id for r in league) == sorted(ended["A"][0] + ended["B"][0])
    finished = {r.game_id for r in club.store.finished()}
    assert {ended["A"][1], ended["B"][1]} <= finished

    with urllib.request.urlopen(club.url + "/league/new-don") as reply:
        page = reply.read().decode()
    for name in ("A", "B"):
        for scores in ended[name][2]:
            for winner in scores["winners"]:
                assert winner in page
    assert page.count(BGSTATS_LINK) == 4
    with urllib.request.urlopen(club.url + "/league/new-don/bgstats.json") as reply:
        exported = json.load(reply)
    assert sorted(p["sourcePlayId"] for p in exported["plays"]) == sorted(
        f"{t}/{g}" for t in "AB" for g in ended[t][0]
    )
    with urllib.request.urlopen(club.url + "/api/club/league/new-don") as reply:
        table = json.load(reply)["standings"]
    assert sum(s["plays"] for s in table) == 4 * 4  # four games of four players
    assert sum(s["wins"] for s in table) >= 4
    with urllib.request.urlopen(club.url + "/finished") as reply:
        assert "ended by the host" in reply.read().decode()
