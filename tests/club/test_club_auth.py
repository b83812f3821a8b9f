"""Who may do what at the club: a table's token writes and reads its own table's games only,
the admin key manages tables, and nobody else does either. Over real HTTP."""

from __future__ import annotations

import random

import pytest
from club_world import Club, new_game, play

from companion.club.client import ClubClient, ClubRefused
from companion.club.wire import BACKUP, SYNC, TABLES, event_to_wire, push_path
from companion.table import TableService


def refused(client: ClubClient, method: str, path: str, body=None) -> ClubRefused:
    with pytest.raises(ClubRefused) as caught:
        client.request(method, path, body)
    return caught.value


@pytest.fixture
def two_tables(club: Club, tmp_path):
    """Tables A and B, each with a game pushed; their clients."""
    clients = {}
    for name, seed in (("A", 1), ("B", 2)):
        club.add_table(name)
        service = TableService(tmp_path / name)
        game = new_game(service)
        play(service, game.id, random.Random(seed), moves=10)
        client = ClubClient(club.url, club.tokens[name])
        client.post(
            push_path(game.id),
            {"events": [event_to_wire(e) for e in service.storage.events(game.id)]},
        )
        clients[name] = (client, game.id, service.storage.events(game.id))
        service.close()
    yield clients
    for client, _, _ in clients.values():
        client.close()


def test_without_a_credential_nothing_is_written_or_read(club: Club, two_tables):
    _, game_a, events = two_tables["A"]
    nobody = ClubClient(club.url, "")
    nobody._token = ""  # sends "Authorization: Bearer " with nothing after it
    for method, path in (
        ("GET", SYNC),
        ("GET", BACKUP),
        ("GET", f"{BACKUP}/{game_a}"),
        ("GET", TABLES),
        ("POST", TABLES),
    ):
        assert (
            refused(nobody, method, path, {"name": "x"} if method == "POST" else None).status == 401
        )
    wrong = ClubClient(club.url, "not-a-token")
    assert (
        refused(wrong, "POST", push_path(game_a), {"events": [event_to_wire(events[0])]}).status
        == 401
    )
    assert refused(wrong, "GET", f"{BACKUP}/{game_a}").status == 401


def test_a_table_token_writes_only_its_own_tables_games(club: Club, two_tables):
    """B pushing a game under A's game id stores a game of B's: a token names its table, so
    there is no way to write into A's log."""
    _client_a, game_a, _events_a = two_tables["A"]
    client_b, _, events_b = two_tables["B"]
    before = club.rows("A", game_a)
    forged = [event_to_wire(e) for e in events_b[:3]]
    assert client_b.post(push_path(game_a), {"events": forged})["seq"] == 2
    assert club.rows("A", game_a) == before
    assert len(club.rows("B", game_a)) == 3


def test_a_table_token_reads_only_its_own_tables_logs(club: Club, two_tables):
    client_a, game_a, events_a = two_tables["A"]
    client_b, game_b, _ = two_tables["B"]
    assert [g["game_id"] for g in client_b.get(BACKUP)["games"]] == [game_b]
    assert refused(client_b, "GET", f"{BACKUP}?table=A").status == 403
    assert refused(client_b, "GET", f"{BACKUP}/{game_a}?table=A").status == 403
    assert refused(client_b, "GET", f"{BACKUP}/{game_a}").status == 404  # not B's game
    own = client_a.get(f"{BACKUP}/{game_a}")
    assert [e["seq"] for e in own["events"]] == [e.seq for e in events_a]


def test_a_table_token_cannot_manage_tables(club: Club, two_tables):
    client_a, _, _ = two_tables["A"]
    assert refused(client_a, "GET", TABLES).status == 403
    assert refused(client_a, "POST", TABLES, {"name": "C"}).status == 403
    assert refused(client_a, "POST", f"{TABLES}/B/token", {}).status == 403
    assert not club.store.has_table("C")


def test_the_admin_manages_tables_and_may_read_a_tables_log_which_is_written_down(
    club: Club, two_tables
):
    admin = ClubClient(club.url, club.admin_key)
    added = admin.post(TABLES, {"name": "C"})
    assert added["table"] == "C" and club.store.table_of(added["token"]) == "C"
    assert refused(admin, "POST", TABLES, {"name": "C"}).code == "exists"
    assert refused(admin, "POST", TABLES, {"name": "../etc"}).status == 400
    listed = {t["name"]: t for t in admin.get(TABLES)["tables"]}
    assert set(listed) == {"A", "B", "C"} and listed["A"]["events"] == 11

    _, game_a, _ = two_tables["A"]
    assert refused(admin, "GET", BACKUP).status == 400  # which table?
    assert refused(admin, "GET", f"{BACKUP}?table=Z").status == 404
    assert [g["game_id"] for g in admin.get(f"{BACKUP}?table=A")["games"]] == [game_a]
    admin.get(f"{BACKUP}/{game_a}?table=A")
    with club.store._pool.connection() as db:
        reads = db.execute("SELECT reader, table_name, game_id, seq FROM club_reads").fetchall()
    assert reads == [("admin", "A", game_a, 10)]
    # ... but events come from a table's own token, never the admin's.
    assert refused(admin, "POST", push_path("abc123"), {"events": []}).status == 403


def test_a_new_token_ends_the_old_one_at_once(club: Club, two_tables):
    client_a, _, _ = two_tables["A"]
    admin = ClubClient(club.url, club.admin_key)
    new = admin.post(f"{TABLES}/A/token", {})["token"]
    assert refused(client_a, "GET", SYNC).status == 401
    assert ClubClient(club.url, new).get(SYNC)["table"] == "A"
    assert refused(admin, "POST", f"{TABLES}/nobody/token", {}).status == 404


def test_a_new_admin_key_ends_the_old_one(club: Club):
    old = ClubClient(club.url, club.admin_key)
    assert old.get(TABLES) == {"tables": []}
    new = club.store.new_admin_key()
    assert refused(old, "GET", TABLES).status == 403
    assert ClubClient(club.url, new).get(TABLES) == {"tables": []}
    assert club.store.ensure_admin_key() is None  # a key exists: none is made at start


def test_a_host_name_that_is_not_the_clubs_is_refused(club: Club):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", club.port, timeout=5)
    conn.request("GET", "/", headers={"Host": "evil.example"})
    reply = conn.getresponse()
    assert reply.status == 400 and b"bad_host" in reply.read()
    conn.close()


def test_every_reply_carries_the_security_headers_and_the_api_is_not_cached(club: Club):
    import urllib.request

    with urllib.request.urlopen(club.url + "/") as page:
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert page.headers["X-Content-Type-Options"] == "nosniff"
    with urllib.request.urlopen(club.url + "/api/club/live") as api:
        assert api.headers["Cache-Control"] == "no-store"


def test_keys_and_tokens_can_be_typed_after_their_option() -> None:
    # `--table-token T` and `--admin-key K`: argparse takes a value starting with "-" for an
    # option, so the club never hands one out (a token_urlsafe starts so once in 64).
    from companion.club.store import new_secret

    secrets = [new_secret() for _ in range(2000)]
    assert not [s for s in secrets if s.startswith("-")]
    assert len(set(secrets)) == 2000 and all(len(s) == 32 for s in secrets)
