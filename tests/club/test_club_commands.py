"""The README's club night, as separate processes: ``companion club serve`` on a PostgreSQL,
two tables' ``companion serve --club`` playing through the web API while one's network is cut,
a table that lost its card restored with ``companion club restore``, and the league page
showing both tables' finished games."""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from club_link import Network
from web_client import Client

from companion.gamefiles import GameFiles
from companion.games import game as game_of
from companion.table import TableService

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Process:
    """A ``companion`` command running, its output read line by line as it comes."""

    args: list[str]
    proc: subprocess.Popen[str] = field(init=False)
    lines: queue.Queue[str] = field(default_factory=queue.Queue)
    seen: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", *self.args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, text: str, timeout: float = 60) -> str:
        """The first line containing ``text`` (lines before it are kept in ``seen``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or (self.proc.poll() is not None and self.lines.empty()):
                raise AssertionError(f"no {text!r} in: " + "\n".join(self.seen))
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self.seen.append(line)
            if text in line:
                return line

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def serve_table(data: Path, club_url: str, token: str) -> tuple[Process, str]:
    table = Process(
        [
            "serve",
            "--data",
            str(data),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--dice",
            "phone",
            "--no-qr",
            "--club",
            club_url,
            "--table-token",
            token,
        ]
    )
    url = table.until("http://127.0.0.1:").strip().rstrip("/")
    table.until("Games are saved in")
    return table, url


class TableDriver:
    """Plays a random legal game on a running table through its web API, one phone per seat,
    keeping its own copy of the state to choose each next move."""

    def __init__(self, url: str, players: list[str], seed: int) -> None:
        self.client = Client(url)
        csrf = self.client.get("/api/csrf").data["csrf"]
        made = self.client.post("/api/games", {"players": players, "game": "new-don"}, csrf)
        assert made.status == 201, made.text
        self.game_id = made.data["game_id"]
        self.seats = {}
        for name, link in made.data["seats"].items():
            code = link.rsplit("/", 1)[1]
            joined = Client(url).post(f"/api/games/{self.game_id}/join", {"code": code})
            self.seats[name] = (joined.data["token"], joined.data["csrf"])
        self.rules = game_of("new-don")
        setup = {"type": "setup", "game": "new-don", "players": players}
        self.state = self.rules.new_game(self.rules.setup_from_dict(setup), GameFiles(self.rules))
        self.seq = 0
        self.rng = random.Random(seed)

    @property
    def over(self) -> bool:
        return self.rules.is_over(self.state)

    def move(self) -> None:
        action = self.rules.random_action(self.state, self.rng)
        token, csrf = self.seats[action.player]
        reply = self.client.post(
            f"/api/games/{self.game_id}/actions",
            {"action": action.to_dict(), "expected_seq": self.seq},
            csrf,
            headers={"X-Player-Token": token},
        )
        assert reply.status == 200, reply.text
        self.state = self.rules.apply(self.state, action)
        self.seq = reply.data["accepted"]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)


def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


@pytest.mark.slow
def test_a_club_night_from_the_command_line(club_db: str, tmp_path: Path):
    network = Network()
    club = Process(
        [
            "club",
            "serve",
            "--db",
            club_db,
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--name",
            "Thursday club",
        ]
    )
    tables: list[Process] = []
    try:
        club_url = club.until("http://127.0.0.1:").strip().rstrip("/")
        club.until("admin key")
        admin_key = club.until("").strip()  # the line after it
        club.until("Stop with Ctrl-C")
        tokens = {}
        for name in ("table-1", "table-2"):
            added = companion(
                "club", "add-table", name, "--club", club_url, "--admin-key", admin_key
            )
            assert added.returncode == 0, added.stderr
            tokens[name] = added.stdout.splitlines()[1].strip()
        port = int(club_url.rsplit(":", 1)[1])
        links = {name: network.link(port) for name in tokens}

        data = {name: tmp_path / name for name in tokens}
        urls = {}
        for name in tokens:
            process, urls[name] = serve_table(data[name], links[name].url, tokens[name])
            tables.append(process)

        drivers = {
            name: TableDriver(urls[name], ["Maria", "Johnny", "Claire", "Vincent"], seed)
            for name, seed in (("table-1", 1), ("table-2", 2))
        }
        moves = 0
        while not all(d.over for d in drivers.values()):
            for driver in drivers.values():
                if not driver.over:
                    driver.move()
            moves += 1
            if moves == 40:
                links["table-1"].cut()  # table 1's network goes; it plays on
            if moves == 120:
                links["table-1"].mend()
        assert links["table-1"].cuts == 1

        def backed_up() -> bool:
            finished = {
                (g["table"], g["game_id"])
                for g in get_json(club_url + "/api/club/finished")["games"]
            }
            return all((name, d.game_id) in finished for name, d in drivers.items())

        wait_for(backed_up, 60, "both games at the club")

        # Table 2's card is lost: its server stops, its folder goes.
        tables[1].stop()
        kept = tmp_path / "table-2-before"
        shutil.copytree(data["table-2"], kept)
        shutil.rmtree(data["table-2"])
        restored = companion(
            "club",
            "restore",
            "--club",
            club_url,
            "--data",
            str(tmp_path / "new-card"),
            "--table-token",
            tokens["table-2"],
        )
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "1 games restored" in restored.stdout
        before, after = TableService(kept), TableService(tmp_path / "new-card")
        try:
            game_id = drivers["table-2"].game_id
            assert after.game(game_id).state == before.game(game_id).state
            assert after.storage.events(game_id) == before.storage.events(game_id)
        finally:
            before.close()
            after.close()

        # The restored table serves again and syncs with nothing to send twice.
        process, _ = serve_table(tmp_path / "new-card", links["table-2"].url, tokens["table-2"])
        tables.append(process)

        with urllib.request.urlopen(club_url + "/league/new-don", timeout=10) as reply:
            league = reply.read().decode()
        assert "Thursday club" in league
        for name, driver in drivers.items():
            assert name in league
            for winner in driver.rules.score(driver.state)["winners"]:
                assert winner in league
        listed = companion("club", "tables", "--club", club_url, "--admin-key", admin_key)
        assert "table-1" in listed.stdout and "table-2" in listed.stdout
    finally:
        for process in tables:
            process.stop()
        club.stop()
        network.close()
