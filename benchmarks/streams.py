"""What idle event streams cost: page loads with 200 streams open, and memory per stream.

Starts ``companion serve`` as its own process (the way a table runs it), creates a game, and
times page loads on a quiet server: the home page and the game's picture, each over a new
connection as a phone opening the page makes it. Then it opens 200 idle event streams (table
screens, 32 per loopback address 127.0.0.2, 127.0.0.3 ..., as phones each have their own
address) and times the same page loads again, and reports the server's resident memory
(``/proc/PID/status``) before and after: the memory per open stream.

    .venv/bin/python benchmarks/streams.py [--streams 200] [--loads 300] [--https]

``--https`` does the same over TLS (a handshake on every page load).

Target: with 200 streams open, a page loads in under 1 s (p99), with no errors.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe, pct  # noqa: E402

from web.server import THREADS  # noqa: E402
from web.streams import PER_ADDRESS  # noqa: E402


class Server:
    """``companion serve`` in its own process, on a free loopback port."""

    def __init__(self, data: str, https: bool) -> None:
        code = (
            "import argparse, sys; from web.cli import add_serve_parser; "
            "p = argparse.ArgumentParser(); s = p.add_subparsers(); add_serve_parser(s); "
            "a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))"
        )
        args = ["serve", "--host", "127.0.0.1", "--port", "0", "--data", data, "--no-qr"]
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, *args, *(["--https"] if https else [])],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            m = re.search(r"https?://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                self.tls: ssl.SSLContext | None = None
                if https:  # trusting the certificate the server made, and only it
                    cert = Path(data) / "tls" / "cert.pem"
                    self.tls = ssl.create_default_context(cafile=str(cert))
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # drain
                return
        self.proc.kill()
        raise RuntimeError("the server did not start")

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=30, source_address=(source, 0)
        )
        if self.tls is not None:
            sock = self.tls.wrap_socket(sock, server_hostname="127.0.0.1")
        return sock

    def request(self, method: str, path: str, headers: str = "", body: str = "") -> tuple:
        """One request over a new connection, read to the end: (status, head, body)."""
        with self.connect() as sock:
            sock.sendall(
                f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}".encode()
            )
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
        head, _, content = reply.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), head, content

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


def create_game(server: Server) -> str:
    _, head, body = server.request("GET", "/api/csrf")
    cookie = re.search(rb"Set-Cookie: (csrf=[^;]+)", head).group(1).decode()
    csrf = json.loads(body)["csrf"]
    players = json.dumps({"players": ["Maria", "Johnny", "Claire", "Vincent"]})
    headers = f"Content-Type: application/json\r\nCookie: {cookie}\r\nX-CSRF-Token: {csrf}\r\n"
    status, _, body = server.request("POST", "/api/games", headers, players)
    assert status == 201, body
    return json.loads(body)["game_id"]


def open_stream(server: Server, path: str, source: str) -> socket.socket:
    """An event stream, once its full view has arrived; left open and unread (idle)."""
    sock = server.connect(source)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    seen = b""
    while b"event: view" not in seen:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("stream closed")
        seen += chunk
    if not seen.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(seen.split(b"\r\n", 1)[0].decode())
    return sock


def time_loads(server: Server, game: str, loads: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"home page": [], "game picture (API)": []}
    for i in range(loads):
        for label, path in (("home page", "/"), ("game picture (API)", f"/api/games/{game}")):
            t0 = time.perf_counter()
            status, _, _ = server.request("GET", path)
            times[label].append(time.perf_counter() - t0)
            if status != 200:
                raise RuntimeError(f"{path}: HTTP {status} (load {i})")
    return times


def report(title: str, times: dict[str, list[float]]) -> None:
    print(title)
    for label, v in times.items():
        print(
            f"  {label:<20} p50 {pct(v, 0.5) * 1000:6.1f} ms  p99 {pct(v, 0.99) * 1000:6.1f} ms"
            f"  max {max(v) * 1000:6.1f} ms  (n={len(v)})"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--loads", type=int, default=300)
    ap.add_argument("--https", action="store_true")
    args = ap.parse_args()
    streams: list[socket.socket] = []
    with tempfile.TemporaryDirectory() as data:
        server = Server(data, args.https)
        try:
            game = create_game(server)
            path = f"/api/games/{game}/events?as=table"
            open_stream(server, path, "127.0.0.2").close()  # warm: the feed and its caches
            time_loads(server, game, 20)
            quiet = time_loads(server, game, args.loads)
            before = server.rss_kb()
            t0 = time.perf_counter()
            for n in range(args.streams):
                streams.append(open_stream(server, path, f"127.0.0.{2 + n // PER_ADDRESS}"))
            opening = time.perf_counter() - t0
            busy = time_loads(server, game, args.loads)
            after = server.rss_kb()
        finally:
            for s in streams:
                with contextlib.suppress(OSError):
                    s.close()
            server.stop()
    scheme = "HTTPS (a TLS handshake per page load)" if args.https else "HTTP"
    print(f"{describe()}, {os.cpu_count()} cores")
    print(
        f"server: companion serve (cheroot, one process, a fixed pool of {THREADS} threads), "
        f"{scheme}"
    )
    report("no streams open:", quiet)
    report(f"{len(streams)} idle event streams open:", busy)
    print(
        f"opening {len(streams)} streams (each: request, auth, the full view): "
        f"{opening:.2f} s, {opening / len(streams) * 1000:.1f} ms each"
    )
    per = (after - before) / len(streams)
    print(
        f"server RSS: {before / 1024:.1f} MB before, {after / 1024:.1f} MB with "
        f"{len(streams)} streams: {per:.1f} KB per stream"
    )
    worst = max(pct(v, 0.99) for v in busy.values())
    ok = len(streams) >= 200 and worst < 1.0
    print("target: 200 streams open, page load p99 < 1 s:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
