"""A small HTTP client with a cookie jar, a Server-Sent Events reader, and the keys of a game
made through the API: what the web tests use to act as phones, hosts and strangers."""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from http.cookiejar import CookieJar
from typing import Any
from urllib.parse import urlsplit

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
