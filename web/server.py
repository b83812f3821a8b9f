"""Serving the app with cheroot: one process, a fixed pool of worker threads.

One process only: the table service in it is the single writer of every game. Every
Server-Sent Events stream holds one worker thread for as long as its page is open, so the pool
is sized for a table's phones many times over: the streams' share (``web.streams``) and the
threads always kept for page loads and moves. An idle thread costs about 16 KB of memory (its
stack is reserved, not touched), so 300 of them cost about 5 MB on the Pi.

Why cheroot (CherryPy's WSGI server) rather than waitress: cheroot keeps idle keep-alive
connections in a selector and gives a connection a thread only while a request is being read
or answered, writes every chunk at once (an event reaches the phone when it is yielded), and
speaks TLS itself, so ``companion serve --https`` needs no reverse proxy on the Pi. cheroot
does not grow its pool by itself: every thread starts with the server (``numthreads == max``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import select
import socket
import ssl
import threading
from dataclasses import dataclass
from typing import Any

from cheroot import wsgi
from cheroot.server import HTTPConnection
from cheroot.ssl.builtin import BuiltinSSLAdapter
from flask import Flask

from web.streams import MAX_STREAMS, SPARE_THREADS
from web.tls import Certificate

log = logging.getLogger("web.server")

THREADS = MAX_STREAMS + SPARE_THREADS  # 300: the streams' threads, and the ones they never get

# The WSGI environ key of a callable that says whether the client has closed its end: a stream
# waiting for the next event asks it every second, so a phone that locks its screen gives its
# thread back at once instead of when the next keep-alive write fails.
CLIENT_GONE = "companion.client_gone"
# Linux reports the peer's FIN as POLLRDHUP even when unread bytes (a TLS close_notify) wait.
_CLOSED = (
    getattr(select, "POLLRDHUP", 0) | getattr(select, "POLLHUP", 0) | getattr(select, "POLLERR", 0)
)


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


def _peer_closed(sock: socket.socket) -> bool:
    """True once the client has closed its end or reset the connection. Only polls (never
    reads), so it cannot take bytes from the request parser or the TLS layer."""
    fd = sock.fileno()
    if fd < 0:
        return True
    poller = select.poll()
    poller.register(fd, _CLOSED)
    return bool(poller.poll(0))


class _Gateway(wsgi.Gateway_10):
    """cheroot's WSGI 1.0 gateway, adding :data:`CLIENT_GONE` to the environ."""

    def get_environ(self) -> dict[str, Any]:  # type: ignore[override]  # cheroot's stub says None
        env: dict[str, Any] = super().get_environ()  # type: ignore[no-untyped-call]
        if hasattr(select, "poll") and _CLOSED:
            env[CLIENT_GONE] = functools.partial(_peer_closed, self.req.conn.socket)
        return env


_SPEAKS_HTTPS = b"This companion speaks HTTPS: put https:// in front of its address.\r\n"
_PLAIN_HTTP_REPLY = (
    b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n"
    + f"Content-Length: {len(_SPEAKS_HTTPS)}\r\n\r\n".encode()
    + _SPEAKS_HTTPS
)


class _HandshakeLater(BuiltinSSLAdapter):
    """cheroot's TLS, with the handshake left to the worker thread (:class:`_Connection`).

    cheroot shakes hands in the one thread that accepts every connection, so a client that
    connects and says nothing (a port scanner, a stranger with ``nc``) would stop the whole
    server for as long as the socket timeout, again and again. Here it only holds one worker
    for that long."""

    def wrap(self, sock: socket.socket) -> tuple[ssl.SSLSocket, dict[str, Any]]:
        wrapped = self.context.wrap_socket(sock, do_handshake_on_connect=False, server_side=True)
        return wrapped, {}


class _Connection(HTTPConnection):
    """A connection that finishes its TLS handshake in its worker thread, first thing."""

    _shaken = False

    def communicate(self) -> bool:
        if isinstance(self.socket, ssl.SSLSocket) and not self._shaken:
            try:
                self.socket.do_handshake()
            except ssl.SSLError as exc:
                if "http request" in str(exc).lower():  # plain http:// to the HTTPS port
                    with contextlib.suppress(OSError):
                        socket.socket.sendall(self.socket, _PLAIN_HTTP_REPLY)  # bypasses TLS
                return False  # also a phone refusing the certificate: nothing to say
            except OSError:
                return False  # timed out or gone during the handshake
            self._shaken = True
            self.ssl_env = self.server.ssl_adapter.get_environ(self.socket)
        return bool(super().communicate())  # type: ignore[no-untyped-call]


class Server(wsgi.Server):
    """cheroot's WSGI server, logging through :mod:`logging` (a phone that drops its stream
    is an INFO line there, not a line on the terminal)."""

    def error_log(self, msg: str = "", level: int = logging.INFO, traceback: bool = False) -> None:
        log.log(level, "%s", msg, exc_info=traceback)


def make_server(
    app: Flask, host: str, port: int, threads: int = THREADS, tls: Certificate | None = None
) -> Server:
    """A cheroot server for ``app``, not yet bound (``prepare()`` binds it: port 0 picks a
    free one, then ``bind_addr`` holds the real port). ``threads`` must hold the app's
    ``MAX_STREAMS`` and leave ``SPARE_THREADS`` over, or a page load could wait for a stream
    to end. With ``tls`` it speaks HTTPS only."""
    streams = app.config.get("MAX_STREAMS", MAX_STREAMS)
    if threads < streams + SPARE_THREADS:
        raise ValueError(
            f"{threads} threads cannot hold {streams} event streams and keep "
            f"{SPARE_THREADS} for page loads and moves"
        )
    server = Server(
        (host, port),
        app,
        numthreads=threads,
        max=threads,  # a fixed pool: cheroot only grows it when told to
        server_name="godfather-companion",
        request_queue_size=128,  # a table's phones all reconnecting at once after a Wi-Fi blip
        timeout=10,  # a blocked read or write; quiet streams write a comment every 5 s
        shutdown_timeout=5,
    )
    server.gateway = _Gateway
    server.keep_alive_conn_limit = 256  # idle keep-alive connections cost a socket, no thread
    server.max_request_header_size = 64 * 1024  # cheroot's default is unlimited
    server.max_request_body_size = 8 * 1024 * 1024
    if tls is not None:
        server.ssl_adapter = _HandshakeLater(str(tls.cert), str(tls.key))
        server.ConnectionClass = _Connection
    return server


@dataclass
class Running:
    """A server running in a background thread (tests and benchmarks)."""

    server: Server
    thread: threading.Thread
    host: str
    port: int

    @property
    def url(self) -> str:
        scheme = "http" if self.server.ssl_adapter is None else "https"
        return f"{scheme}://{self.host}:{self.port}"

    def stop(self, app: Flask | None = None) -> None:
        """End the streams (when ``app`` is given) so their threads return, then stop the
        server: requests in flight finish, the workers and the listening socket close."""
        if app is not None:
            app.extensions["companion"].hub.close()
        self.server.stop()
        self.thread.join(timeout=10)


def start_in_thread(
    app: Flask,
    host: str = "127.0.0.1",
    port: int = 0,
    threads: int = THREADS,
    tls: Certificate | None = None,
) -> Running:
    """Serve ``app`` from a background thread; returns where it listens."""
    server = make_server(app, host, port, threads, tls)
    server.prepare()  # bound and listening before this returns
    thread = threading.Thread(target=server.serve, name="cheroot", daemon=True)
    thread.start()
    return Running(server, thread, host, server.bind_addr[1])
