"""The web companion against someone at the table, or on the Wi-Fi, who tries to see hidden dice
or break the game: each test is one attack from a security review, and fails on the code it was
found in. The threat model these tests hold the code to is in docs/web.md."""

from __future__ import annotations

import http.client
import json
import socket
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from web_client import PLAYERS, Client, GameKeys

from companion.table.storage import FILENAME, Storage
from web.keys import FILENAME as KEYS_FILE

ROOT = Path(__file__).resolve().parents[2]


def create(server, body, client: Client | None = None, **headers):
    c = client or server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    return c.post("/api/games", body, csrf, headers=headers)


def raw_request(server, method, path, body=b"", headers=None):
    """A request exactly as given (http.client leaves a bad Host header alone)."""
    url = urlsplit(server.url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


# --- 1. one request must not break the home page for good --------------------------------


def test_a_lone_surrogate_in_a_name_is_refused_and_nothing_is_stored(server):
    r = create(server, {"players": ["\ud800", "b", "c"]})
    assert r.status == 400 and "surrogate" in r.data["reason"], r.text
    assert server.service.games() == []
    assert server.client().get("/").status == 200


def test_a_game_an_older_companion_let_in_does_not_break_the_home_page(tmp_path, server_factory):
    data = tmp_path / "data"
    storage = Storage(data)
    storage.create_game(
        "bad001",
        "2026-01-01T00:00:00.000+00:00",
        {"type": "setup", "players": ["\ud800", "b", "c"]},
        "host",
    )
    storage.close()
    server = server_factory(data)
    game = server.create_game()
    home = server.client().get("/")
    assert home.status == 200 and game.id in home.text and "bad001" not in home.text
    listed = subprocess.run(
        [sys.executable, "-m", "companion", "games", "--data", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert listed.returncode == 0, listed.stderr
    assert "Traceback" not in listed.stderr
    assert "bad001  damaged" in listed.stdout and game.id in listed.stdout


# --- 2. the host must not learn a hidden die while the game can go on ---------------------


def test_the_record_needs_a_seat_or_the_host_key_and_reading_it_ends_the_game(server):
    game = server.create_game()
    for name, face in zip(PLAYERS, (6, 4, 2, 1), strict=True):
        server.act(game, name, {"type": "godfather_roll", "player": name, "face": face})
    server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 6]})
    path = f"/api/games/{game.id}/record"
    host = {"X-Host-Key": game.host_key}
    assert server.client().get(path).status == 401  # no credential: not even once it is over
    assert server.client().get(path, host).status == 409  # the game can go on
    # The attack: end the game, read every die, reopen it and play on.
    assert server.host(game, "status", {"status": "finished"}).status == 200
    assert server.client().get(path).status == 401
    r = server.client().get(path, host)
    assert r.status == 200 and "3, 3, 4, 5, 6" in r.text
    r = server.host(game, "status", {"status": "active"})
    assert r.status == 409 and r.data["error"] == "closed"
    assert "shown to the host" in r.data["reason"]
    r = server.host(game, "undo", {"expected_seq": server.service.game(game.id).seq})
    assert r.status == 409
    assert server.service.game(game.id).status == "finished"
    # A player who sat at the table may read it too.
    maria = {"X-Player-Token": game.seats["Maria"].token}
    assert server.client().get(path, maria).status == 200


# --- 3. a seat is one phone, and a photo of an old QR code is worth nothing ---------------


def test_a_join_code_works_once_and_a_new_code_moves_the_seat(server):
    c = server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    r = c.post("/api/games", {"players": PLAYERS}, csrf)
    gid, link = r.data["game_id"], r.data["seats"]["Maria"]
    host = {"X-Host-Key": r.data["host_key"]}
    code = link.rsplit("/", 1)[1]
    # The code alone is no credential: it only trades for a session, once.
    assert (
        server.client().get(f"/api/games/{gid}?as=player", {"X-Player-Token": code}).status == 401
    )
    first = server.sit(gid, link)
    again = server.client().post(f"/api/games/{gid}/join", {"code": code})
    assert again.status == 403 and "already used" in again.data["reason"]
    seats = {s["name"]: s for s in c.get(f"/api/games/{gid}/seats", host).data["seats"]}
    assert seats["Maria"]["joined"] is True and seats["Maria"]["join"] is None
    assert seats["Johnny"]["joined"] is False and seats["Johnny"]["join"]
    # The first phone watches; the host gives Maria a new code; another phone claims it.
    table = server.stream(_keys(gid, r.data), None)
    old = server.stream(_keys(gid, r.data, Maria=first), "Maria")
    old.next()  # its view
    r2 = c.post(f"/api/games/{gid}/seats/code", {"player": "Maria"}, r.data["csrf"], headers=host)
    assert r2.status == 200
    new_link = next(s["join"] for s in r2.data["seats"] if s["name"] == "Maria")
    assert new_link != link
    # Until it is claimed, Maria's phone keeps her seat.
    assert (
        server.client().get(f"/api/games/{gid}?as=player", {"X-Player-Token": first.token}).status
        == 200
    )
    second = server.sit(gid, new_link)
    assert second.token != first.token
    revoked = old.wait_for(lambda m: m.event == "revoked")
    assert "another phone" in revoked.data["text"]
    assert "dice" not in revoked.raw
    assert (
        server.client().get(f"/api/games/{gid}?as=player", {"X-Player-Token": first.token}).status
        == 401
    )
    assert (
        server.client()
        .get(f"/api/games/{gid}?as=player", {"X-Player-Token": second.token})
        .data["viewer"]
        == "Maria"
    )
    notice = table.wait_for(lambda m: m.event == "notice" and "another phone" in m.data["text"])
    assert notice.data == {"text": "Maria's seat moved to another phone."}
    old.close()
    table.close()


def test_a_seats_cookie_lasts_a_game_night_not_a_month(server):
    c = server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    r = c.post("/api/games", {"players": PLAYERS}, csrf)
    reply = server.client().post(
        f"/api/games/{r.data['game_id']}/join", {"code": r.data["seats"]["Maria"].rsplit("/", 1)[1]}
    )
    cookie = reply.headers["Set-Cookie"]
    max_age = int(cookie.split("Max-Age=", 1)[1].split(";", 1)[0])
    assert max_age <= 24 * 3600 and "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_the_join_page_changes_nothing_until_the_phone_asks(server):
    """A link preview or a prefetch of the join link must not use the code up."""
    c = server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    r = c.post("/api/games", {"players": PLAYERS}, csrf)
    link = r.data["seats"]["Maria"]
    for _ in range(2):
        page = server.client().get(urlsplit(link).path)
        assert page.status == 200 and "Set-Cookie" not in page.headers
    assert server.sit(r.data["game_id"], link).name == "Maria"


# --- 4. a stranger on the Wi-Fi cannot start a game (and take the table's dice) -----------


def test_only_the_owner_starts_games(tmp_path, server_factory):
    server = server_factory(tmp_path / "data", TRUST_LOOPBACK=False)
    stranger = server.client()
    r = create(server, {"players": PLAYERS}, stranger)
    assert r.status == 403 and r.data["error"] == "not_owner", r.text
    assert 'id="create"' not in stranger.get("/").text
    assert stranger.get("/?key=guess").status == 403
    owner_key = server.app.extensions["companion"].keys.owner_key
    r = create(server, {"players": PLAYERS}, stranger, **{"X-Table-Key": owner_key})
    assert r.status == 201, r.text
    # The owner's link remembers the key in this browser, out of the address bar.
    phone = server.client()
    opened = phone.get(f"/?key={owner_key}")
    assert opened.status == 200 and 'id="create"' in opened.text
    assert create(server, {"players": PLAYERS}, phone).status == 201
    assert len(server.service.games()) == 2


@pytest.mark.parametrize(
    "host", ["attacker.example", "attacker.example:8000", "", "localhost.attacker.example"]
)
def test_a_host_header_naming_another_site_is_refused(server, host):
    """A DNS-rebinding page reaches the companion under its own name."""
    headers = {"Host": host} if host else {}
    status, body = raw_request(server, "GET", "/", headers=headers)
    assert status == 400 and b"bad_host" in body
    status, _ = raw_request(
        server, "POST", "/api/games", b"{}", {**headers, "Content-Type": "application/json"}
    )
    assert status == 400
    assert server.service.games() == []


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "192.168.1.23:8000", "[::1]:80"])
def test_the_companions_own_names_and_any_address_are_served(server, host):
    status, _ = raw_request(server, "GET", "/", headers={"Host": host})
    assert status == 200


# --- 5, 6. sizes and shapes a handler never expected -------------------------------------


def test_a_five_megabyte_name_is_refused_before_it_is_read(server):
    """The size is refused from the request's Content-Length, before a byte of the body is
    read: the client is answered 413 while it has sent only its headers."""
    c = server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    cookie = "; ".join(f"{k.name}={k.value}" for k in c.jar)
    body = json.dumps({"players": ["x" * 5_000_000, "b", "c"]}).encode()
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(
            f"POST /api/games HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Type: "
            f"application/json\r\nContent-Length: {len(body)}\r\nX-CSRF-Token: {csrf}\r\n"
            f"Cookie: {cookie}\r\n\r\n".encode()
        )
        chunks = []
        while chunk := sock.recv(65536):  # the server closes the connection after its reply
            chunks.append(chunk)
        reply = b"".join(chunks).decode("latin-1")
    assert reply.startswith("HTTP/1.1 413"), reply[:200]
    assert "request_entity_too_large" in reply
    assert server.service.games() == []
    r = create(server, {"players": ["x" * 25, "b", "c"]})
    assert r.status == 400 and "at most 24" in r.data["reason"]


def test_deeply_nested_json_is_a_400_on_every_post(server):
    game = server.create_game()
    nested = ("[" * 20000 + "]" * 20000).encode()
    seat = game.seats["Maria"]
    for path in [
        "/api/games",
        f"/api/games/{game.id}/actions",
        f"/api/games/{game.id}/undo",
        f"/api/games/{game.id}/corrections",
        f"/api/games/{game.id}/status",
        f"/api/games/{game.id}/join",
        f"/api/games/{game.id}/seats/code",
        f"/api/games/{game.id}/dice/whose",
    ]:
        for csrf, headers in [
            (seat.csrf, {"X-Player-Token": seat.token}),
            (game.host_csrf, {"X-Host-Key": game.host_key}),
        ]:
            r = server.client().post(path, None, csrf, raw=nested, headers=headers)
            assert 400 <= r.status < 500, (path, r.status, r.text)
    assert server.service.game(game.id).seq == 0


def test_a_pairing_owner_that_is_not_text_is_a_400(tmp_path, server_factory):
    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game()
    for owner in ([], {}, 3, None, "nobody"):
        r = server.host(game, "dice/pairing", {"owner": owner})
        assert r.status == 400 and "owner must be one of" in r.data["reason"], r.text


# --- 7. names and colours --------------------------------------------------------------


@pytest.mark.parametrize(
    "players, why",
    [
        (["Maria\u202e", "b", "c"], "invisible"),
        (["Ma\x00ria", "b", "c"], "control"),
        (["Ma\nria", "b", "c"], "control"),
        ([{"name": "A", "colour": "red"}, {"name": "B", "colour": "red"}, "C"], "colour red"),
        ([{"name": "A", "colour": "javascript:alert(1)"}, "B", "C"], "colour must be one of"),
    ],
)
def test_names_and_colours_that_break_the_table_are_refused(server, players, why):
    r = create(server, {"players": players})
    assert r.status == 400 and why in r.data["reason"], r.text
    assert server.service.games() == []


# --- 8. files and headers --------------------------------------------------------------


def test_the_data_files_are_the_companions_own(server):
    for name in (FILENAME, KEYS_FILE):
        mode = stat.S_IMODE((server.data_dir / name).stat().st_mode)
        assert mode == 0o600, (name, oct(mode))


@pytest.mark.parametrize("path", ["/", "/openapi.json", "/api/rules", "/table/zzz"])
def test_every_reply_forbids_framing_and_foreign_scripts(server, path):
    r = server.client().get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"


def test_a_players_replies_are_not_cached(server):
    game = server.create_game()
    r = server.client().get(f"/api/games/{game.id}", {"X-Player-Token": game.seats["Maria"].token})
    assert r.headers["Cache-Control"] == "no-store"


def _keys(game_id, created, **seats):
    """A GameKeys for streams, from a create reply and the seats claimed so far."""
    return GameKeys(game_id, created["host_key"], created["csrf"], dict(seats))


def test_the_owner_link_printed_by_serve_works(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            str(tmp_path),
            "--no-qr",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        owner = None
        for _ in range(40):
            line = proc.stdout.readline()
            if "?key=" in line:
                owner = line.strip()
            if line.startswith("Games are saved in"):
                break
        assert owner and owner.startswith("http://127.0.0.1:"), owner
        client = Client(owner.split("/?", 1)[0])
        page = client.get("/?" + owner.split("/?", 1)[1])
        assert page.status == 200 and 'id="create"' in page.text
        assert any(c.name == "owner" for c in client.jar)
    finally:
        proc.terminate()
        proc.wait(15)


def test_seat_replies_carry_json_not_html(server):
    """A refusal of a join is JSON with a reason, for the join page to show."""
    game = server.create_game()
    r = server.client().post(f"/api/games/{game.id}/join", {"code": "nope"})
    assert r.status == 403 and json.loads(r.text)["error"] == "join_refused"


def test_a_name_given_with_allow_host_is_served(tmp_path, server_factory):
    server = server_factory(tmp_path / "data", ALLOWED_HOSTS=["tisch.lan"])
    assert raw_request(server, "GET", "/", headers={"Host": "tisch.lan:8000"})[0] == 200
    assert raw_request(server, "GET", "/", headers={"Host": "tisch.lan.evil"})[0] == 400


def test_the_pages_modules_are_checked_again_after_an_upgrade(server):
    """Modules import each other: a phone must not run old ones beside new ones."""
    r = server.client().get("/static/js/main.js")
    assert r.status == 200 and r.headers["Cache-Control"] == "no-cache"
