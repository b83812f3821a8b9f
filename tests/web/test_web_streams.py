"""A table's worth of event streams and many more: 256 idle streams stay open while pages and
moves are still served, a stream over a limit is refused at once (503 when every slot is taken,
429 when its address has its share), and a closed stream gives its slot back.

Streams come from several loopback addresses (127.0.0.2, 127.0.0.3 ...: all of 127/8 is this
machine on Linux), as phones on the Wi-Fi each have their own.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from dataclasses import dataclass

import pytest

from web import streams


@dataclass
class RawStream:
    """One event stream on a bare socket: no reader thread, so hundreds stay cheap."""

    sock: socket.socket
    status: int
    headers: dict[str, str]
    body: bytes

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def open_stream(port: int, path: str, source: str, timeout: float = 10) -> RawStream:
    """GET an event stream from ``source``; returns once its full view has arrived (a 200)
    or its whole refusal has (anything else)."""
    sock = socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
    )
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    data = b""
    while b"\r\n\r\n" not in data:
        data += _recv(sock)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    if status == 200:
        while b"event: view" not in body:
            body += _recv(sock)
    else:
        while len(body) < int(headers["content-length"]):
            body += _recv(sock)
    return RawStream(sock, status, headers, body)


def _recv(sock: socket.socket) -> bytes:
    chunk = sock.recv(65536)
    if not chunk:
        raise ConnectionError("the server closed the stream")
    return chunk


def get_home(port: int, timeout: float) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
        )
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert b"New game" in reply
    return int(reply.split(b" ", 2)[1])


def wait_until(predicate, timeout: float = 5) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_256_idle_streams_stay_open_while_pages_and_moves_are_served(server):
    assert streams.MAX_STREAMS >= 200 and streams.PER_ADDRESS == 32
    game = server.create_game()
    path = f"/api/games/{game.id}/events?as=table"
    port = server.running.port
    slots = server.app.extensions["companion"].hub.slots
    sources = [f"127.0.0.{n}" for n in range(2, 2 + streams.MAX_STREAMS // streams.PER_ADDRESS)]
    opened: dict[str, list[RawStream]] = {source: [] for source in sources}
    try:
        # One address gets its share, and not one stream more.
        for _ in range(streams.PER_ADDRESS):
            opened[sources[0]].append(open_stream(port, path, sources[0]))
        over = open_stream(port, path, sources[0])
        assert over.status == 429, over.body
        assert json.loads(over.body)["error"] == "too_many_streams"
        assert int(over.headers["retry-after"]) > 0
        over.close()

        for source in sources[1:]:
            for _ in range(streams.PER_ADDRESS):
                opened[source].append(open_stream(port, path, source))
        assert all(s.status == 200 for group in opened.values() for s in group)
        assert slots.open == streams.MAX_STREAMS

        # Every slot taken: a page still loads, a move is still made and reaches a stream.
        assert get_home(port, timeout=5) == 200
        r = server.act(game, "Maria", {"type": "godfather_roll", "player": "Maria", "face": 6})
        assert r.status == 200, r.text
        watched = opened[sources[1]][0].sock
        seen = b""
        while b"event: update" not in seen:
            seen += _recv(watched)

        # One stream more, from an address with none: refused at once, not left waiting.
        full = open_stream(port, path, "127.0.0.100", timeout=5)
        assert full.status == 503, full.body
        refusal = json.loads(full.body)
        assert refusal["error"] == "busy" and "try again" in refusal["reason"]
        assert int(full.headers["retry-after"]) > 0
        full.close()

        # A phone closes its page: its slot comes back and the next stream gets it.
        opened[sources[2]].pop().close()
        assert wait_until(lambda: slots.open == streams.MAX_STREAMS - 1), slots.open
        again = open_stream(port, path, "127.0.0.100")
        assert again.status == 200
        opened[sources[2]].append(again)
    finally:
        for group in opened.values():
            for s in group:
                s.close()
    assert wait_until(lambda: slots.open == 0), slots.open


def test_the_per_address_share_comes_from_the_app_config(server_factory, tmp_path):
    s = server_factory(tmp_path / "data", STREAMS_PER_ADDRESS=2)
    game = s.create_game()
    path = f"/api/games/{game.id}/events?as=table"
    opened = [open_stream(s.running.port, path, "127.0.0.2") for _ in range(2)]
    try:
        assert [o.status for o in opened] == [200, 200]
        opened.append(open_stream(s.running.port, path, "127.0.0.2"))
        assert opened[-1].status == 429
        opened.append(open_stream(s.running.port, path, "127.0.0.3"))
        assert opened[-1].status == 200  # another phone
        opened[0].close()
        slots = s.app.extensions["companion"].hub.slots
        assert wait_until(lambda: slots.open == 2), slots.open
        opened.append(open_stream(s.running.port, path, "127.0.0.2"))
        assert opened[-1].status == 200
    finally:
        for o in opened:
            o.close()


def test_a_refused_or_unstarted_stream_gives_its_slot_back(server):
    """The slot is taken before the first byte; a stream closed before it ever ran (the
    client went at once) must still return it."""
    hub = server.app.extensions["companion"].hub
    game = server.create_game()
    stream = hub.stream(game.id, None, None, address="127.0.0.9")
    assert hub.slots.open == 1
    stream.close()
    assert hub.slots.open == 0
    started = hub.stream(game.id, None, None, address="127.0.0.9")
    assert next(started).startswith("retry:")
    started.close()
    assert hub.slots.open == 0


def test_a_pool_too_small_for_the_streams_is_refused(tmp_path):
    from web import create_app
    from web.server import make_server

    app = create_app({"DATA_DIR": str(tmp_path)})
    try:
        with pytest.raises(ValueError, match="cannot hold 256 event streams"):
            make_server(app, "127.0.0.1", 0, threads=100)
    finally:
        app.extensions["companion"].close()
