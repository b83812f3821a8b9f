"""Speaking to the club over HTTP: one kept-alive connection, JSON in and out, a bearer token.

Only the standard library (``http.client``): a table needs nothing more to back itself up. A
request that cannot reach the club, or gets no answer in time, is :class:`Unreachable`; the
club's own refusals are :class:`ClubRefused` with its code and reason. Whether a request that
timed out arrived is unknown, which is why every push is idempotent.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
from typing import Any
from urllib.parse import urlsplit

TIMEOUT = 5.0  # seconds to connect, and to wait for each reply


class Unreachable(Exception):
    """The club could not be reached, or did not answer in time."""


class ClubRefused(Exception):
    """The club answered with a refusal: ``status``, ``code`` and ``reason`` (and the rest of
    its JSON in ``data``: a gap names the seq the club has)."""

    def __init__(self, status: int, data: dict[str, Any]) -> None:
        self.status = status
        self.code = str(data.get("error", "refused"))
        self.reason = str(data.get("reason", ""))
        self.data = data
        super().__init__(f"the club refused ({status} {self.code}): {self.reason}")


class ClubClient:
    """A club at ``url`` (``http://`` or ``https://``), with a table token or the admin key.
    ``ca``: a certificate file to trust for an ``https://`` club whose certificate no public
    authority signed (its own, self-signed). Not thread-safe: one per thread."""

    def __init__(
        self, url: str, token: str, timeout: float = TIMEOUT, ca: str | None = None
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not a club's address (http://HOST:PORT)")
        self.url = url.rstrip("/")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._base = parts.path.rstrip("/")
        self._token = token
        self._timeout = timeout
        self._ca = ca
        self._conn: http.client.HTTPConnection | None = None

    def get(self, path: str) -> dict[str, Any]:
        return self.request("GET", path)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.request("POST", path, body)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        reused = self._conn is not None
        try:
            try:
                reply, raw = self._exchange(method, path, data, headers)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                if not reused:
                    raise
                # The club closed a kept-alive connection while it was idle: once more on a
                # new one (safe: every request here may be repeated).
                self.close()
                reply, raw = self._exchange(method, path, data, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.close()  # a half-read reply must not be mistaken for the next one
            raise Unreachable(f"{self.url}: {exc or type(exc).__name__}") from None
        if reply.getheader("Connection", "").lower() == "close":
            self.close()
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"error": "not_json", "reason": raw[:200].decode(errors="replace")}
        if not isinstance(answer, dict):
            answer = {"error": "not_json", "reason": "the club's reply is not a JSON object"}
        if reply.status >= 500:
            # A club that is starting, or whose database is down: as unreachable, try later.
            raise Unreachable(f"{self.url}: {reply.status} {answer.get('reason', '')}")
        if reply.status >= 400:
            raise ClubRefused(reply.status, answer)
        return answer

    def _exchange(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str]
    ) -> tuple[http.client.HTTPResponse, bytes]:
        conn = self._connection()
        if conn.sock is None:
            conn.connect()
            sock: socket.socket | None = conn.sock
            if sock is not None:  # a push is one small request: send it now, not after an ACK
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.request(method, self._base + path, body=data, headers=headers)
        reply = conn.getresponse()
        return reply, reply.read()

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            if self._https:
                self._conn = http.client.HTTPSConnection(
                    self._host,
                    self._port,
                    timeout=self._timeout,
                    context=ssl.create_default_context(cafile=self._ca),
                )
            else:
                self._conn = http.client.HTTPConnection(
                    self._host, self._port, timeout=self._timeout
                )
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
