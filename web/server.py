"""Serving the app with waitress: one process, enough threads for every open event stream.

Each Server-Sent Events stream holds one waitress worker thread for as long as the page is
open (a table of six phones, a table screen and the host is eight), and POSTs need threads of
their own besides, so the pool is far above waitress's default of four. One process only: the
table service in it is the single writer of every game.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

THREADS = 32  # >= 16: streams hold threads, and a phone that slept may leave one for ~10 s


def lan_addresses() -> list[str]:
    """This machine's addresses on the local network, best guess first (phones need one of
    them; ``localhost`` means nothing to a phone). No packet is sent: connecting a UDP socket
    only asks the kernel which interface it would use."""
    found: list[str] = []
    for probe in ("192.168.0.1", "10.0.0.1", "172.16.0.1"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = s.getsockname()[0]
        except OSError:
            continue
        if ip not in found and not ip.startswith("127."):
            found.append(ip)
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(info[4][0])
            if ip not in found and not ip.startswith("127."):
                found.append(ip)
    except OSError:
        pass
    return found


# A server in a background thread checks this often whether it should stop (an idle select()
# waits no longer; a busy one never waits).
LOOP_WAKE = 0.05


@dataclass
class Running:
    """A server running in a background thread (tests and benchmarks)."""

    server: object
    thread: threading.Thread
    host: str
    port: int
    stopping: threading.Event

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self, app: Flask | None = None) -> None:
        """End the streams (when ``app`` is given), let the requests in flight finish, then
        stop the loop and wait for its thread."""
        if app is not None:
            app.extensions["companion"].hub.close()  # end the streams so their threads return
        dispatcher = self.server.task_dispatcher  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while dispatcher.active_count and time.monotonic() < deadline:
            time.sleep(0.02)
        self.stopping.set()
        self.thread.join(timeout=10)


def _serve_until(server: object, stopping: threading.Event) -> None:
    """Run ``server``'s loop until ``stopping`` is set, then close its sockets here.

    Everything happens in the loop's own thread: its sockets are never closed under a
    select() that is waiting on them, and a stop needs nothing from another thread but the
    event. (Stopping through waitress's trigger pipe instead once failed in CI: its write
    end was already closed, EBADF.)"""
    sockets = server._map  # type: ignore[attr-defined]
    while not stopping.is_set():
        wasyncore.loop(timeout=LOOP_WAKE, map=sockets, count=1)
    server.task_dispatcher.shutdown(timeout=5)  # type: ignore[attr-defined]
    wasyncore.close_all(sockets, ignore_all=True)


def make_server(app: Flask, host: str, port: int, threads: int = THREADS):
    """A waitress server for ``app``, bound but not yet serving (port 0 picks a free one)."""
    return create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        channel_timeout=60,  # streams send a comment every 10 s, so only dead ones time out
        # Read ahead on each connection so waitress notices a client that went away while
        # its stream waits (environ["waitress.client_disconnected"]).
        channel_request_lookahead=1,
        ident="godfather-companion",
        clear_untrusted_proxy_headers=True,
    )


def start_in_thread(app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = THREADS):
    """Serve ``app`` from a background thread; returns where it listens."""
    server = make_server(app, host, port, threads)
    stopping = threading.Event()
    thread = threading.Thread(target=_serve_until, args=(server, stopping), name="waitress",
                              daemon=True)
    thread.start()
    return Running(server, thread, host, server.effective_port, stopping)  # type: ignore[attr-defined]
