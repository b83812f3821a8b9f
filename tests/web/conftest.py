"""Fixtures for the web tests: a real cheroot server on a loopback port (the HTTP client and
the Server-Sent Events reader are in tests/helpers/web_client.py).

The server runs in a thread of the test process so a test can also watch the table service
directly (the authoritative states every page and event is checked against).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from web_client import PLAYERS, Client, GameKeys, Reply, Seat, SSEStream

from companion.games.new_don import action_view, new_game, player_view
from companion.games.new_don.view import dice_public
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
            seats[name] = self.sit(r.data["game_id"], url)
            assert seats[name].name == name
        return GameKeys(r.data["game_id"], r.data["host_key"], r.data["csrf"], seats)

    def sit(self, game_id: str, join_url: str, client: Client | None = None) -> Seat:
        """Claim a seat with its join link, as a phone's join page does."""
        code = join_url.rsplit("/", 1)[1]
        r = (client or self.client()).post(f"/api/games/{game_id}/join", {"code": code})
        assert r.status == 200, r.text
        return Seat(r.data["player"], r.data["token"], r.data["csrf"], join_url)

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


def start_server(data_dir: Path, chance: random.Random | None = None, **config: Any) -> Server:
    """A companion on ``data_dir``; ``chance`` seeds the shuffles the table service draws
    itself, for a test that needs one game's cards (by default they are truly random)."""
    service = TableService(data_dir, chance) if chance is not None else None
    app = create_app({"DATA_DIR": str(data_dir), **config}, service)
    running = start_in_thread(app)
    server = Server(app, running, data_dir)
    server.service.subscribe(server.events.append)
    return server


def stop_server(server: Server) -> None:
    server.running.stop(server.app)
    companion = server.app.extensions["companion"]
    companion.close()
    if not companion.owns_service:  # a service made here, with its chance seeded
        companion.service.close()


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
                assert (
                    '"locked"'
                    not in raw.split(f'"name":"{other.name}"', 1)[1].split('"name"', 1)[0]
                )


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
