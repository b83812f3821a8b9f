"""Who may do what: the host key and each player's secret token, kept across restarts.

A game's secrets live in their own small SQLite file next to the event log
(``web-keys.sqlite3``), so a kicked power cord does not lock the phones out of their own
game: after a restart every phone's cookie still works. The event log itself stays the table
service's alone; nothing here is ever part of a game record.

CSRF tokens are derived, not stored: ``HMAC(server secret, credential)``. A page gets the token
for the credential it uses, and a state-changing request must carry it in a header, which a
page on another origin can neither read nor send.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

FILENAME = "web-keys.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS secret (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS keys (
    game_id TEXT NOT NULL,
    role TEXT NOT NULL,          -- host | player
    name TEXT NOT NULL,          -- the player's name ('' for the host)
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (game_id, role, name)
);
"""


@dataclass(frozen=True, slots=True)
class Credential:
    """What a request proved: the host of a game, or one player of it."""

    game_id: str
    role: str  # host | player
    name: str | None  # the player's name; None for the host
    token: str

    @property
    def actor(self) -> str:
        """The table service's name for this credential (``host`` or ``player:NAME``)."""
        return "host" if self.role == "host" else f"player:{self.name}"


class KeyStore:
    """Host keys and player tokens per game, and the server secret for CSRF tokens."""

    def __init__(self, data_dir: Path) -> None:
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / FILENAME
        fresh = not path.exists()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        if fresh:
            os.chmod(path, 0o600)  # tokens are secrets: readable by the companion's user only
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._cache: dict[str, Credential] = {}
        row = self._db.execute("SELECT value FROM secret WHERE id = 1").fetchone()
        if row is None:
            value = secrets.token_hex(32)
            self._db.execute("INSERT INTO secret VALUES (1, ?)", (value,))
        else:
            value = row[0]
        self._secret = bytes.fromhex(value)
        for game_id, role, name, token in self._db.execute("SELECT * FROM keys"):
            self._cache[token] = Credential(game_id, role, name or None, token)

    def issue(self, game_id: str, players: list[str]) -> tuple[str, dict[str, str]]:
        """A new host key and one token per player, stored before they are handed out."""
        host = secrets.token_urlsafe(24)
        tokens = {name: secrets.token_urlsafe(24) for name in players}
        rows = [(game_id, "host", "", host)] + [
            (game_id, "player", name, tok) for name, tok in tokens.items()
        ]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT INTO keys VALUES (?, ?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            for game_id_, role, name, tok in rows:
                self._cache[tok] = Credential(game_id_, role, name or None, tok)
        return host, tokens

    def lookup(self, game_id: str, token: str | None) -> Credential | None:
        """The credential a token proves for this game, or None (unknown, or another game's)."""
        if not token:
            return None
        cred = self._cache.get(token)
        if cred is None or cred.game_id != game_id:
            return None
        return cred

    def seats(self, game_id: str) -> dict[str, str]:
        """Every player's token for a game (the host prints them as join QR codes)."""
        return {
            c.name: c.token
            for c in list(self._cache.values())
            if c.game_id == game_id and c.role == "player" and c.name
        }

    def csrf_for(self, value: str) -> str:
        """The CSRF token that goes with a credential (or a browser's anonymous cookie)."""
        return hmac.new(self._secret, b"csrf:" + value.encode(), hashlib.sha256).hexdigest()[:32]

    def check_csrf(self, value: str, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf_for(value), token or "")

    def close(self) -> None:
        self._db.close()
