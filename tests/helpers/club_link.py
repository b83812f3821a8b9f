"""The network between tables and the club, with a pair of scissors: a TCP proxy per link.

Each :class:`Link` listens on a port of its own and forwards every connection to the club.
``cut()`` drops every connection of the link at once, wherever its bytes are (a request half
sent, a reply half read), and refuses new ones until ``mend()``: what a pulled cable or a
convention's Wi-Fi does. ``point_at(port)`` sends new connections to a club server started
again on another port. One thread serves every link of a :class:`Network` with ``selectors``,
so a hundred tables cost one thread.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import struct
import threading
from dataclasses import dataclass, field


@dataclass(eq=False)
class Link:
    """One table's link to the club."""

    network: Network
    listener: socket.socket
    target: int
    up: bool = True
    pairs: set[tuple[socket.socket, socket.socket]] = field(default_factory=set)
    cuts: int = 0

    @property
    def port(self) -> int:
        return int(self.listener.getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self.network.lock:
            self.up = False
            self.cuts += 1
            for pair in list(self.pairs):
                self.network.drop(self, pair)

    def mend(self) -> None:
        with self.network.lock:
            self.up = True

    def point_at(self, port: int) -> None:
        with self.network.lock:
            self.target = port


class Network:
    """Every link, served by one thread."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.selector = selectors.DefaultSelector()
        self.links: list[Link] = []
        self._stop = False
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self.selector.register(self._wake_r, selectors.EVENT_READ, ("wake", None, None))
        self.thread = threading.Thread(target=self._run, name="club-links", daemon=True)
        self.thread.start()

    def link(self, target: int) -> Link:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        listener.setblocking(False)
        link = Link(self, listener, target)
        with self.lock:
            self.links.append(link)
            self.selector.register(listener, selectors.EVENT_READ, ("accept", link, None))
        self._wake()
        return link

    def point_all_at(self, port: int) -> None:
        for link in self.links:
            link.point_at(port)

    def close(self) -> None:
        self._stop = True
        self._wake()
        self.thread.join(5)
        with self.lock:
            for link in self.links:
                link.cut()
                link.listener.close()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    def drop(self, link: Link, pair: tuple[socket.socket, socket.socket]) -> None:
        """Close both ends of a connection (with a reset: no polite goodbye on a cut)."""
        link.pairs.discard(pair)
        for sock in pair:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(sock)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()

    def _accept(self, link: Link) -> None:
        try:
            client, _ = link.listener.accept()
        except OSError:
            return
        if not link.up:
            client.close()
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", link.target), timeout=1)
        except OSError:  # the club is down: the table sees the connection close
            client.close()
            return
        for sock in (client, upstream):  # small messages go at once, as on a real network
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setblocking(False)
        pair = (client, upstream)
        link.pairs.add(pair)
        self.selector.register(client, selectors.EVENT_READ, ("pipe", link, (pair, upstream)))
        self.selector.register(upstream, selectors.EVENT_READ, ("pipe", link, (pair, client)))

    def _run(self) -> None:
        while not self._stop:
            for key, _ in self.selector.select(timeout=0.5):
                kind, link, extra = key.data
                with self.lock:
                    if kind == "wake":
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(4096)
                    elif kind == "accept":
                        self._accept(link)
                    else:
                        pair, other = extra
                        if pair not in link.pairs:
                            continue
                        try:
                            data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                            if not data:
                                raise OSError("closed")
                            other.settimeout(5)  # small messages: never stalls for long
                            other.sendall(data)
                            other.setblocking(False)
                        except OSError:
                            self.drop(link, pair)
