"""Pushes are idempotent by (table, game, seq): the same events twice are kept once, a hole is
refused with the seq the club has, and another event under a seq the club has is a conflict.
Over real HTTP, into a real PostgreSQL."""

from __future__ import annotations

import random
import threading

import psycopg
import pytest
from club_world import Club, new_game, play

from companion.club.client import ClubClient, ClubRefused
from companion.club.wire import MAX_BATCH, SYNC, event_to_wire, push_path
from companion.table import TableService


@pytest.fixture
def logged(club: Club, table_dir):
    """A table with a game of 60 moves, nothing pushed yet; its client and events."""
    club.add_table("table-1")
    service = TableService(table_dir)
    game = new_game(service)
    play(service, game.id, random.Random(11), moves=60)
    events = service.storage.events(game.id)
    client = ClubClient(club.url, club.tokens["table-1"])
    yield client, game.id, events
    client.close()
    service.close()


def body(events, status=None):
    return {"events": [event_to_wire(e) for e in events], "status": status}


def test_the_same_push_twice_is_kept_once(club: Club, logged):
    client, game_id, events = logged
    assert client.post(push_path(game_id), body(events[:30]))["seq"] == 29
    assert client.post(push_path(game_id), body(events[:30]))["seq"] == 29
    assert client.post(push_path(game_id), body(events[10:40]))["seq"] == 39  # overlapping
    assert [r[0] for r in club.rows("table-1", game_id)] == list(range(40))
    assert client.get(SYNC) == {"table": "table-1", "games": {game_id: 39}}


def test_the_primary_key_is_table_game_seq(club: Club):
    with psycopg.connect(club.db) as db:
        columns = db.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'club_events'::regclass "
            "AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)"
        ).fetchall()
    assert [c[0] for c in columns] == ["table_name", "game_id", "seq"]


def test_a_push_that_would_leave_a_hole_is_refused_with_the_clubs_seq(club: Club, logged):
    client, game_id, events = logged
    with pytest.raises(ClubRefused) as first:
        client.post(push_path(game_id), body(events[5:10]))  # the club has nothing yet
    assert (first.value.status, first.value.code, first.value.data["seq"]) == (409, "gap", -1)
    client.post(push_path(game_id), body(events[:10]))
    with pytest.raises(ClubRefused) as later:
        client.post(push_path(game_id), body(events[12:20]))
    assert (later.value.code, later.value.data["seq"]) == ("gap", 9)
    assert len(club.rows("table-1", game_id)) == 10


def test_another_event_under_a_seq_the_club_has_is_a_conflict(club: Club, logged):
    client, game_id, events = logged
    client.post(push_path(game_id), body(events[:10]))
    changed = body(events[8:12])
    changed["events"][1]["payload"] = {**changed["events"][1]["payload"], "player": "Sonny"}
    with pytest.raises(ClubRefused) as refused:
        client.post(push_path(game_id), changed)
    assert (refused.value.code, refused.value.data["seq"]) == ("conflict", 9)
    assert len(club.rows("table-1", game_id)) == 10  # nothing of that push was kept


def test_racing_retries_of_one_push_keep_one_copy(club: Club, logged):
    """A retry racing the original (the reply was slow, the table sent it again): the game's
    row is locked for each push, so the second finds the events there."""
    _, game_id, events = logged
    answers: list[int] = []
    errors: list[BaseException] = []

    def push() -> None:
        client = ClubClient(club.url, club.tokens["table-1"])
        try:
            answers.append(client.post(push_path(game_id), body(events[:50]))["seq"])
        except BaseException as exc:
            errors.append(exc)
        finally:
            client.close()

    threads = [threading.Thread(target=push) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and answers == [49] * 8
    assert [r[0] for r in club.rows("table-1", game_id)] == list(range(50))


@pytest.mark.parametrize(
    "bad, why",
    [
        ({"events": []}, "1 to"),
        ({"events": "x"}, "events"),
        (
            {
                "events": [
                    {"seq": 0, "kind": "action", "actor": "host", "payload": {}, "created_at": "t"}
                ]
            },
            "setup",
        ),
        (
            {
                "events": [
                    {"seq": 1, "kind": "setup", "actor": "host", "payload": {}, "created_at": "t"}
                ]
            },
            "setup",
        ),
        (
            {
                "events": [
                    {
                        "seq": 0,
                        "kind": "nonsense",
                        "actor": "host",
                        "payload": {},
                        "created_at": "t",
                    }
                ]
            },
            "kind",
        ),
        (
            {
                "events": [
                    {"seq": -1, "kind": "action", "actor": "host", "payload": {}, "created_at": "t"}
                ]
            },
            "seq",
        ),
        (
            {
                "events": [
                    {"seq": 0, "kind": "setup", "actor": "host", "payload": [], "created_at": "t"}
                ]
            },
            "payload",
        ),
        (
            {
                "events": [
                    {"seq": 0, "kind": "setup", "actor": "", "payload": {}, "created_at": "t"}
                ]
            },
            "actor",
        ),
        (
            {
                "events": [
                    {"seq": 0, "kind": "setup", "actor": "host", "payload": {}, "created_at": "t"}
                ],
                "status": "won",
            },
            "status",
        ),
    ],
)
def test_a_malformed_push_is_refused_and_names_what_is_wrong(club: Club, logged, bad, why):
    client, game_id, _ = logged
    with pytest.raises(ClubRefused) as refused:
        client.post(push_path(game_id), bad)
    assert refused.value.status == 400 and why in refused.value.reason


def test_a_push_of_more_than_a_batch_or_a_non_consecutive_one_is_refused(club: Club, logged):
    client, game_id, events = logged
    many = body(events[:1] * (MAX_BATCH + 1))
    with pytest.raises(ClubRefused, match="1 to"):
        client.post(push_path(game_id), many)
    with pytest.raises(ClubRefused, match="follow each other"):
        client.post(push_path(game_id), body([events[0], events[2]]))
    with pytest.raises(ClubRefused) as bad_id:
        client.post(push_path("../x"), body(events[:1]))
    assert bad_id.value.status in (400, 404)


def test_a_log_the_club_cannot_replay_is_kept_all_the_same_and_says_why(club: Club, logged):
    """The table's log is the truth: an event the club's engine refuses (another version of a
    game's rules at the table) is backed up anyway, and its row says the club cannot show it."""
    client, game_id, events = logged
    client.post(push_path(game_id), body(events[:5]))
    odd = body(events[4:6])
    odd["events"][1]["payload"] = {"type": "no_such_move", "player": "Maria"}
    assert client.post(push_path(game_id), odd)["seq"] == 5
    row = club.store.game_row("table-1", game_id)
    assert row is not None and row.seq == 5 and "cannot replay" in (row.problem or "")
    assert len(club.rows("table-1", game_id)) == 6


def test_hostile_bodies_are_refused_before_anything_is_read(club: Club, logged):
    """The web's one body reader guards the club too: the type, the size, the nesting."""
    import http.client

    _, game_id, _ = logged
    token = club.tokens["table-1"]

    def send(body: bytes, content_type: str = "application/json") -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", club.port, timeout=10)
        conn.request(
            "POST",
            push_path(game_id),
            body=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": content_type},
        )
        reply = conn.getresponse()
        out = reply.status, reply.read()
        conn.close()
        return out

    assert send(b"events=1", "application/x-www-form-urlencoded")[0] == 400
    assert send(b"{not json")[0] == 400
    assert send(b"[]")[0] == 400
    assert send(b'{"events": ' + b"[" * 50 + b"]" * 50 + b"}")[0] == 400
    assert send(b'{"events": [], "x": NaN}')[0] == 400
    # A body announced as 5 MB is refused from its Content-Length, before it is sent.
    conn = http.client.HTTPConnection("127.0.0.1", club.port, timeout=10)
    conn.putrequest("POST", push_path(game_id))
    for name, value in (
        ("Authorization", f"Bearer {token}"),
        ("Content-Type", "application/json"),
        ("Content-Length", str(5 * 1024 * 1024)),
    ):
        conn.putheader(name, value)
    conn.endheaders()
    assert conn.getresponse().status == 413
    conn.close()
    assert club.rows("table-1", game_id) == []
