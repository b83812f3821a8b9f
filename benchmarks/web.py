"""How fast a move reaches every screen: POST an action, time its event on every open stream.

Starts ``companion serve`` as its own process on a loopback port (the way a table runs it),
connects 8 phones (two per player in a 4-player game) and 4 table screens over Server-Sent
Events, and plays whole random games through the API. For every action it measures the time
from just before the POST to that event's arrival on each of the 12 streams, and the POST's
own round trip (the durable accept: engine check and one fsync).

    .venv/bin/python benchmarks/web.py [--games 3] [--seed 1]

Target: p99 under 100 ms from POST to every stream, and no errors.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.gamefiles import GameFiles  # noqa: E402
from companion.games.new_don import NEW_DON, State, action_from_dict, apply, new_game  # noqa: E402
from companion.games.new_don.actions import Setup  # noqa: E402
from companion.games.new_don.boards import load_board  # noqa: E402
from companion.games.new_don.playout import random_action  # noqa: E402
from web.server import THREADS  # noqa: E402

PLAYERS = ["Maria", "Johnny", "Claire", "Vincent"]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.machine()}, {cpu}, {os.cpu_count()} cores, Python {platform.python_version()},"
        f" {platform.system()} {platform.release()}"
    )


class Stream:
    """One SSE connection; records when each event id arrived."""

    def __init__(self, port: int, path: str, headers: dict[str, str]) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", path, headers=headers)
        self.sock = self.conn.sock
        self.resp = self.conn.getresponse()
        if self.resp.status != 200:
            raise RuntimeError(f"stream {path}: HTTP {self.resp.status}")
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()
        self.errors = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event_id = None
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    event_id = int(line[4:])
                elif line == b"\n" and event_id is not None:
                    with self.cond:
                        self.arrived[event_id] = time.perf_counter()
                        self.cond.notify_all()
                    event_id = None
        # AttributeError: http.client's chunk reader, cut off by close() in another
        # thread, closes a file that close() already dropped.
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return

    def wait(self, seq: int, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: seq in self.arrived, timeout)

    def close(self) -> None:
        # Shut the socket itself: closing the response would wait for the reader thread,
        # which sits in readline() until the next keep-alive comment.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def call(port: int, method: str, path: str, body=None, headers=None) -> tuple[int, dict, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = None if body is None else json.dumps(body)
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    conn.request(method, path, body=data, headers=hdrs)
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    return resp.status, (json.loads(raw) if raw else {}), dict(resp.getheaders())


def create_game(port: int) -> tuple[str, dict[str, dict[str, str]], Setup]:
    status, body, headers = call(port, "GET", "/api/csrf")
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    status, game, _ = call(
        port,
        "POST",
        "/api/games",
        {"players": PLAYERS},
        {"X-CSRF-Token": body["csrf"], "Cookie": cookie},
    )
    assert status == 201, game
    seats = {}
    for name, url in game["seats"].items():
        code = url.rsplit("/", 1)[1]  # a seat's join code: traded once for the phone's session
        status, seat, _ = call(port, "POST", f"/api/games/{game['game_id']}/join", {"code": code})
        assert status == 200 and seat["player"] == name, seat
        seats[name] = {"X-Player-Token": seat["token"], "X-CSRF-Token": seat["csrf"]}
    setup = Setup.from_dict({"type": "setup", "players": PLAYERS})
    return game["game_id"], seats, setup


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def play(port: int, seed: int, results: dict) -> None:
    game_id, seats, setup = create_game(port)
    streams = []
    for name in PLAYERS:  # 8 phones: two per player (a phone and, say, a tablet)
        for _ in range(2):
            streams.append(Stream(port, f"/api/games/{game_id}/events?as=player", seats[name]))
    for _ in range(4):
        streams.append(Stream(port, f"/api/games/{game_id}/events?as=table", {}))
    state: State = new_game(setup, load_board(None, len(PLAYERS), GameFiles(NEW_DON)))
    rng = random.Random(seed)
    seq = 0
    try:
        for s in streams:
            if not s.wait(0, 10):
                results["errors"] += 1
        while not state.is_over:
            action = random_action(state, rng)
            body = {"action": action.to_dict(), "expected_seq": seq, "key": f"b{seq}"}
            t0 = time.perf_counter()
            status, reply, _ = call(
                port, "POST", f"/api/games/{game_id}/actions", body, seats[action.player]
            )
            results["post"].append(time.perf_counter() - t0)
            if status != 200:
                results["errors"] += 1
                print(f"refused: {status} {reply}", file=sys.stderr)
                return
            seq = reply["accepted"]
            state = apply(state, action_from_dict(action.to_dict()))
            worst = 0.0
            for s in streams:
                if not s.wait(seq, 5):
                    results["errors"] += 1
                    continue
                latency = s.arrived[seq] - t0
                results["event"].append(latency)
                worst = max(worst, latency)
            results["all"].append(worst)
    finally:
        for s in streams:
            s.close()
    results["actions"] += seq
    results["streams"] = len(streams)


def start_server(data: str) -> tuple[subprocess.Popen, int]:
    code = (
        "import argparse, sys; from web.cli import add_serve_parser; "
        "p = argparse.ArgumentParser(); s = p.add_subparsers(); add_serve_parser(s); "
        "a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))"
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            data,
            "--no-qr",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain
            return proc, int(m.group(1))
    proc.kill()
    raise RuntimeError("the server did not start")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    results: dict = {"post": [], "event": [], "all": [], "errors": 0, "actions": 0}
    with tempfile.TemporaryDirectory() as data:
        proc, port = start_server(data)
        try:
            for g in range(args.games):
                t = time.perf_counter()
                play(port, args.seed + g, results)
                print(f"game {g + 1}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
        finally:
            proc.terminate()
            proc.wait(10)
    ms = 1000.0
    print(f"machine: {machine()}")
    print(
        f"{args.games} games, {results['actions']} actions, {results.get('streams', 0)} streams "
        "(8 phones, 4 table screens)"
    )
    print(f"server: companion serve (cheroot, one process, a fixed pool of {THREADS} threads)")
    for label, key in [
        ("POST round trip (durable accept)", "post"),
        ("POST -> event, each stream", "event"),
        ("POST -> event on every stream (slowest)", "all"),
    ]:
        v = results[key]
        if v:
            print(
                f"{label:<42} p50 {pct(v, 0.5) * ms:6.1f} ms  p99 {pct(v, 0.99) * ms:6.1f} ms"
                f"  max {max(v) * ms:6.1f} ms  mean {statistics.mean(v) * ms:6.1f} ms"
                f"  (n={len(v)})"
            )
    print(f"errors: {results['errors']}")
    ok = results["errors"] == 0 and results["event"] and pct(results["event"], 0.99) < 0.1
    print("target p99 < 100 ms, no errors:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
