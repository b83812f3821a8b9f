"""Server-Sent Events against a real cheroot server: the keep-alive comment at once, the full
view with the seq as its id on every (re)connect, one update per event, resuming with
Last-Event-ID, and a whole game played over the API with every stream checked for leaks."""

from __future__ import annotations

import json
import random
import time

import pytest

from companion.games.new_don import player_view
from companion.games.new_don.playout import random_action
from web import hub


def normal(data):
    """What the data looks like after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


def test_stream_opens_with_a_keepalive_then_the_full_view(server):
    game = server.create_game()
    started = time.monotonic()
    stream = server.stream(game, "Maria")
    try:
        assert stream.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        first = stream.next()
        assert stream.first_line.startswith("retry:")
        assert stream.comments and stream.comments[0] - started < 1.0  # ': keepalive' at once
        assert first.event == "view" and first.id == 0
        assert first.data["viewer"] == "Maria"
        assert first.data["view"] == normal(
            player_view(server.service.game(game.id).state, "Maria")
        )
        assert first.data["choices"] == [] and first.data["log"] == []
    finally:
        stream.close()


def test_each_event_arrives_once_with_its_seq_as_id(server):
    game = server.create_game()
    maria, table = server.stream(game, "Maria"), server.stream(game, None)
    try:
        assert maria.next().event == table.next().event == "view"
        server.act(game, "Maria", {"type": "godfather_roll", "player": "Maria", "face": 6})
        server.act(game, "Johnny", {"type": "godfather_roll", "player": "Johnny", "face": 2})
        for stream in (maria, table):
            a, b = stream.next(), stream.next()
            assert (a.event, a.id, b.event, b.id) == ("update", 1, "update", 2)
            assert a.data["lines"] == ["Maria rolls 6 for Godfather."]
            assert b.data["action"] == {"type": "godfather_roll", "player": "Johnny", "face": 2}
        with pytest.raises(Exception):  # noqa: B017 - queue.Empty: nothing more was sent
            maria.next(timeout=0.3)
    finally:
        maria.close()
        table.close()


def test_reconnect_with_last_event_id_gets_the_full_view_and_marks_what_was_missed(server):
    game = server.create_game()
    for name, face in [("Maria", 6), ("Johnny", 4)]:
        server.act(game, name, {"type": "godfather_roll", "player": name, "face": face})
    # Claire's phone saw move 1, slept through move 2 and the next two.
    for name, face in [("Claire", 2), ("Vincent", 1)]:
        server.act(game, name, {"type": "godfather_roll", "player": name, "face": face})
    stream = server.stream(game, "Claire", **{"Last-Event-ID": "1"})
    try:
        view = stream.next()
        assert view.event == "view" and view.id == 4 and view.data["since"] == 1
        missed = {e["seq"]: e["missed"] for e in view.data["log"]}
        assert missed == {1: False, 2: True, 3: True, 4: True}
        assert view.data["view"] == normal(
            player_view(server.service.game(game.id).state, "Claire")
        )
    finally:
        stream.close()


def test_a_quiet_stream_gets_keepalive_comments(server, monkeypatch):
    assert hub.KEEPALIVE <= 10  # a vanished phone's thread comes back within two of these
    monkeypatch.setattr(hub, "KEEPALIVE", 0.2)
    game = server.create_game()
    stream = server.stream(game, None)
    try:
        stream.next()
        time.sleep(1.1)
        assert len(stream.comments) >= 4
        gaps = [b - a for a, b in zip(stream.comments[1:], stream.comments[2:], strict=False)]
        assert all(g < 0.6 for g in gaps), gaps
    finally:
        stream.close()


def test_unknown_game_or_missing_token_is_refused_before_streaming(server):
    game = server.create_game()
    assert server.client().get("/api/games/nope/events").status == 404
    r = server.client().get(f"/api/games/{game.id}/events?as=player")
    assert r.status == 401 and r.data["error"] == "unauthorised"
    r = server.client().get(f"/api/games/{game.id}/events", {"Last-Event-ID": "yesterday"})
    assert r.status == 400


def test_a_whole_game_over_the_api_leaks_nothing_to_any_stream(server, check_message):
    game = server.create_game()
    names = list(game.seats)
    streams = {name: server.stream(game, name) for name in names}
    streams[None] = server.stream(game, None)
    rng = random.Random(11)
    try:
        for s in streams.values():
            s.next()
        moves = 0
        while True:
            state = server.service.game(game.id).state
            if state.is_over:
                break
            action = random_action(state, rng)
            r = server.act(game, action.player, action.to_dict(), key=f"k{moves}")
            assert r.status == 200, r.text
            assert r.data["viewer"] == action.player
            moves += 1
        final = server.service.game(game.id).seq
        assert moves > 100
        deadline = time.monotonic() + 30
        for s in streams.values():
            while (not s.received or s.received[-1].id != final) and time.monotonic() < deadline:
                time.sleep(0.05)
    finally:
        for s in streams.values():
            s.close()
    events = {e.seq: e for e in server.events if e.game_id == game.id}
    for viewer, s in streams.items():
        ids = [m.id for m in s.received]
        assert ids == list(range(0, final + 1)), f"{viewer}: lost, repeated or reordered events"
        for msg in s.received:
            check_message(msg, viewer, events, server.service, game.id)
    last = streams[None].received[-1].data
    assert last["status"] == "finished" and last["scores"]["winners"]


def test_a_phone_that_goes_away_frees_its_server_thread_at_once(server):
    """A locked phone drops its stream; the worker thread must not wait for the keep-alive
    writes to fail, or a table of sleeping phones would hold the pool."""
    game = server.create_game()
    pool = server.running.server.requests  # cheroot's fixed pool

    def busy() -> int:
        return pool.min - pool.idle

    settle = time.monotonic() + 3
    while busy() and time.monotonic() < settle:
        time.sleep(0.05)  # the requests that created the game are finishing
    before = busy()
    streams = [server.stream(game, "Maria") for _ in range(6)]
    for s in streams:
        s.next()
    assert busy() >= before + 6
    for s in streams:
        s.close()
    deadline = time.monotonic() + 3  # well inside one keep-alive interval and the next
    while busy() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert busy() <= before
