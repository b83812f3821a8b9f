"""Fixtures for the web tests: a real cheroot server on a loopback port, a small HTTP client
with a cookie jar, and a Server-Sent Events reader.

The server runs in a thread of the test process so a test can also watch the table service
directly (the authoritative states every page and event is checked against).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from companion.engine import action_view, new_game, player_view
from companion.engine.view import dice_public
from companion.table import Event, TableService
from web import create_app
from web.server import Running, start_in_thread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = ["Maria", "Johnny", "Claire", "Vincent"]


@dataclass
class Reply:
    status: int
    data: Any
    headers: dict[str, str]
    text: str


class Client:
    """One browser's worth of HTTP: its own cookies, JSON in and out, never raises on 4xx."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> Reply:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=hdrs)
        try:
            with self.opener.open(req, timeout=20) as resp:
                status, payload, rh = resp.status, resp.read(), dict(resp.headers)
        except urllib.error.HTTPError as exc:
            status, payload, rh = exc.code, exc.read(), dict(exc.headers)
        text = payload.decode("utf-8", "replace")
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        return Reply(status, parsed, rh, text)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, body: Any, csrf: str | None = None, **kw: Any) -> Reply:
        headers = dict(kw.pop("headers", None) or {})
        if csrf is not None:
            headers["X-CSRF-Token"] = csrf
        return self.request("POST", path, body, headers=headers, **kw)


@dataclass
class SSEMessage:
    id: int | None
    event: str
    data: Any
    raw: str


class SSEStream:
    """Reads one event stream in a thread: messages on a queue, comments counted with times."""

    def __init__(self, base: str, path: str, headers: dict[str, str] | None = None) -> None:
        url = urlsplit(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.sock = self.conn.sock
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.messages: queue.Queue[SSEMessage] = queue.Queue()
        self.received: list[SSEMessage] = []
        self.comments: list[float] = []
        self.first_line: str | None = None
        self.opened = time.monotonic()
        self.closed = threading.Event()
        if self.status == 200:
            self.thread = threading.Thread(target=self._read, daemon=True)
            self.thread.start()

    def _read(self) -> None:
        fields: dict[str, str] = {}
        raw: list[str] = []
        try:
            while not self.closed.is_set():
                line = self.response.readline()
                if not line:
                    break
                text = line.decode("utf-8").rstrip("\n")
                if self.first_line is None:
                    self.first_line = text
                raw.append(text)
                if text.startswith(":"):
                    self.comments.append(time.monotonic())
                elif text == "":
                    if "data" in fields:
                        msg = SSEMessage(
                            int(fields["id"]) if "id" in fields else None,
                            fields.get("event", "message"),
                            json.loads(fields["data"]),
                            "\n".join(raw),
                        )
                        self.received.append(msg)
                        self.messages.put(msg)
                    fields, raw = {}, []
                elif ":" in text:
                    name, _, value = text.partition(":")
                    fields[name] = value[1:] if value.startswith(" ") else value
        # AttributeError: http.client's chunk reader, cut off by close() in another
        # thread, closes a file that close() already dropped.
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass

    def next(self, timeout: float = 10) -> SSEMessage:
        return self.messages.get(timeout=timeout)

    def wait_for(self, pred: Callable[[SSEMessage], bool], timeout: float = 10) -> SSEMessage:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching event")
            msg = self.messages.get(timeout=left)
            if pred(msg):
                return msg

    def close(self) -> None:
        self.closed.set()
        # Shut the socket itself: closing the response would wait for the reader thread,
        # which sits in readline() until the next keep-alive comment.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


@dataclass
class Seat:
    name: str
    token: str
    csrf: str
    join: str


@dataclass
class GameKeys:
    id: str
    host_key: str
    host_csrf: str
    seats: dict[str, Seat]


@dataclass
class Server:
    """A running companion, and the authoritative events the table service published."""

    app: Any
    running: Running
    data_dir: Path
    events: list[Event] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.running.url

    @property
    def service(self) -> TableService:
        return self.app.extensions["companion"].service

    def client(self) -> Client:
        return Client(self.url)

    def create_game(self, players: list[Any] | None = None, **extra: Any) -> GameKeys:
        c = self.client()
        csrf = c.get("/api/csrf").data["csrf"]
        r = c.post("/api/games", {"players": players or PLAYERS, **extra}, csrf)
        assert r.status == 201, r.text
        seats = {}
        for name, url in r.data["seats"].items():
            token = url.rsplit("/", 1)[1]
            me = c.get(f"/api/games/{r.data['game_id']}/me", {"X-Player-Token": token}).data
            assert me["player"] == name
            seats[name] = Seat(name, token, me["csrf"], url)
        return GameKeys(r.data["game_id"], r.data["host_key"], r.data["csrf"], seats)

    def act(
        self, game: GameKeys, name: str, action: dict, expected: int | None = None, **kw: Any
    ) -> Reply:
        seat = game.seats[name]
        seq = self.service.game(game.id).seq if expected is None else expected
        return self.client().post(
            f"/api/games/{game.id}/actions",
            {"action": action, "expected_seq": seq, **kw},
            seat.csrf,
            headers={"X-Player-Token": seat.token},
        )

    def host(self, game: GameKeys, path: str, body: dict) -> Reply:
        return self.client().post(
            f"/api/games/{game.id}/{path}",
            {"as": "host", **body},
            game.host_csrf,
            headers={"X-Host-Key": game.host_key},
        )

    def stream(self, game: GameKeys, viewer: str | None, **headers: str) -> SSEStream:
        hdrs = dict(headers)
        if viewer is not None:
            hdrs["X-Player-Token"] = game.seats[viewer].token
            path = f"/api/games/{game.id}/events?as=player"
        else:
            path = f"/api/games/{game.id}/events?as=table"
        return SSEStream(self.url, path, hdrs)


def start_server(data_dir: Path, **config: Any) -> Server:
    app = create_app({"DATA_DIR": str(data_dir), **config})
    running = start_in_thread(app)
    server = Server(app, running, data_dir)
    server.service.subscribe(server.events.append)
    return server


def stop_server(server: Server) -> None:
    server.running.stop(server.app)
    server.app.extensions["companion"].close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = start_server(tmp_path / "data")
    try:
        yield s
    finally:
        stop_server(s)


def chromium_or_skip() -> str:
    """Debian's Chromium, or skip with the reason; in CI a missing browser is a failure."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    message = f"{CHROMIUM} is missing: install Debian's chromium package to run browser tests"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: .ci/run installs it)")
    pytest.skip(message)
    raise AssertionError  # unreachable


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server_factory() -> Iterator[Callable[[Path], Server]]:
    """Start servers on a data folder (several in turn: a restart); all stopped at the end."""
    started: list[Server] = []

    def start(data_dir: Path, **config: Any) -> Server:
        s = start_server(data_dir, **config)
        started.append(s)
        return s

    try:
        yield start
    finally:
        for s in started:
            if s.running.thread.is_alive():
                stop_server(s)


def normal(data: Any) -> Any:
    """What the data looks like after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


def _check_message(msg, viewer, events, service, game_id):
    """One received message is exactly the engine's view for this viewer at its seq, and no
    other player's hidden dice or Vegas lock is in it."""
    data = msg.data
    seq = msg.id
    if msg.event == "update":
        ev = events[seq]
        state = ev.state
        if ev.kind == "action":
            assert data["action"] == normal(action_view(ev.before, ev.action, viewer))
    else:
        state = service_state_at(events, seq, service, game_id)
    assert data["viewer"] == viewer
    assert data["view"] == normal(player_view(state, viewer)), f"seq {seq}"
    for i, p in enumerate(data["view"]["players"]):
        own = p["name"] == viewer
        assert ("dice" in p) == (own or dice_public(state, i)), (seq, viewer, p["name"])
        if not own:
            assert "locked" not in p and "to_roll" not in p
    for w in data["view"]["waiting"]:
        if w["player"] != viewer and w["does"] in ("roll", "keep_vegas"):
            assert "dice" not in w or state.phase.value == "resolution"
    for c in data["choices"]:
        assert c["action"]["player"] == viewer
    if msg.event == "update" and viewer is not None:
        raw = msg.raw
        for other in state.players:
            if other.name != viewer and other.locked:
                assert '"locked"' not in raw.split(f'"name":"{other.name}"', 1)[1].split(
                    '"name"', 1)[0]


def service_state_at(events, seq, service, game_id):
    if seq == 0:
        game = service.game(game_id)
        return new_game(game.setup, game.state.board)
    return events[seq].state


@pytest.fixture
def check_message() -> Callable[..., None]:
    """``check(msg, viewer, events_by_seq, service, game_id)``: one received SSE message is
    exactly the engine's view for its viewer at its seq, and leaks no hidden die."""
    return _check_message
