"""Who may do what: the table's owner key, each game's host key, and each seat's codes and
session, kept across restarts.

A game's secrets live in their own small SQLite file next to the event log
(``web-keys.sqlite3``), so a kicked power cord does not lock the phones out of their own
game: after a restart every phone's cookie still works. The event log itself stays the table
service's alone; nothing here is ever part of a game record.

A seat has two kinds of secret. Its **join code** is what the host's QR code carries; it works
once: claiming it makes a new **session** token for that phone (its cookie) and ends the seat's
previous session, so a seat is open on one phone at a time and a photo of a QR code that was
already scanned is worth nothing. The host can give a seat a new code (a phone was lost); the
phone that claims it takes the seat over, and the old one is told so.

CSRF tokens are derived, not stored: ``HMAC(server secret, credential)``. A page gets the token
for the credential it uses, and a state-changing request must carry it in a header, which a
page on another origin can neither read nor send.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from companion.table.storage import private

FILENAME = "web-keys.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS secret (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS owner (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS keys (
    game_id TEXT NOT NULL,
    role TEXT NOT NULL,          -- host | player (a seat's session) | join (its code) | used
    name TEXT NOT NULL,          -- the player's name ('' for the host)
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (game_id, role, name)
);
"""
# One row per (game, role, name): a new code replaces the seat's old one, a claimed code
# becomes the seat's ``used`` row (so a second scan can be told it was used), and a new
# session replaces the old session.


class Role(StrEnum):
    HOST = "host"
    PLAYER = "player"  # a seat's session on one phone
    JOIN = "join"  # a seat's unclaimed join code
    USED = "used"  # the seat's last claimed code


class JoinRefused(Exception):
    """A join code that cannot be claimed, with the reason a person can act on."""


@dataclass(frozen=True, slots=True)
class Credential:
    """What a request proved: the host of a game, or one player of it."""

    game_id: str
    role: Role
    name: str | None  # the player's name; None for the host
    token: str

    @property
    def actor(self) -> str:
        """The table service's name for this credential (``host`` or ``player:NAME``)."""
        return "host" if self.role is Role.HOST else f"player:{self.name}"


class KeyStore:
    """Host keys and player tokens per game, and the server secret for CSRF tokens."""

    def __init__(self, data_dir: Path) -> None:
        data_dir = Path(data_dir)
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = data_dir / FILENAME
        private(path)  # tokens are secrets: readable by the companion's user only
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
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
        row = self._db.execute("SELECT key FROM owner WHERE id = 1").fetchone()
        if row is None:
            self.owner_key = secrets.token_urlsafe(18)
            self._db.execute("INSERT INTO owner VALUES (1, ?)", (self.owner_key,))
        else:
            self.owner_key = row[0]
        for game_id, role, name, token in self._db.execute("SELECT * FROM keys"):
            self._cache[token] = Credential(game_id, Role(role), name or None, token)

    def _write(
        self,
        rows: list[tuple[str, Role, str, str]],
        delete: tuple[str, Role, str] | None = None,
    ) -> None:
        """Store rows (replacing the same game, role and name) and delete one, in one
        transaction, then update the cache: a replaced or deleted token stops working at
        once. Call with the lock held."""
        dropped: list[str] = []
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if delete is not None:
                old = self._db.execute(
                    "DELETE FROM keys WHERE game_id = ? AND role = ? AND name = ? RETURNING token",
                    delete,
                ).fetchone()
                dropped += old or ()
            for row in rows:
                old = self._db.execute(
                    "SELECT token FROM keys WHERE game_id = ? AND role = ? AND name = ?", row[:3]
                ).fetchone()
                dropped += old or ()
                self._db.execute("INSERT OR REPLACE INTO keys VALUES (?, ?, ?, ?)", row)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        for token in dropped:
            self._cache.pop(token, None)
        for game_id, role, name, token in rows:
            self._cache[token] = Credential(game_id, Role(role), name or None, token)

    def issue(self, game_id: str, players: list[str]) -> tuple[str, dict[str, str]]:
        """A new host key and one join code per player, stored before they are handed out."""
        host = secrets.token_urlsafe(24)
        codes = {name: secrets.token_urlsafe(18) for name in players}
        rows = [(game_id, Role.HOST, "", host)] + [
            (game_id, Role.JOIN, name, code) for name, code in codes.items()
        ]
        with self._lock:
            self._write(rows)
        return host, codes

    def new_code(self, game_id: str, name: str) -> str:
        """A fresh join code for a seat (the old, unclaimed one stops working). The seat's
        session goes on until a phone claims the new code."""
        code = secrets.token_urlsafe(18)
        with self._lock:
            self._write([(game_id, Role.JOIN, name, code)])
        return code

    def claim(self, game_id: str, code: str) -> tuple[Credential, bool]:
        """Trade a seat's join code for a new session on this phone; the seat's previous
        session, if any, ends. Returns the session and whether one was ended."""
        with self._lock:
            cred = self._cache.get(code)
            if cred is None or cred.game_id != game_id:
                raise JoinRefused("this is not a join code of this game: ask the host")
            if cred.role is Role.USED:
                raise JoinRefused(
                    f"this code for {cred.name}'s seat was already used: ask the host for a "
                    "new one (the host page has a button for it)"
                )
            if cred.role is not Role.JOIN or cred.name is None:
                raise JoinRefused("this is not a join code: ask the host")
            name = cred.name
            replaced = any(
                c.game_id == game_id and c.role is Role.PLAYER and c.name == name
                for c in self._cache.values()
            )
            session = secrets.token_urlsafe(24)
            self._write(
                [(game_id, Role.USED, name, code), (game_id, Role.PLAYER, name, session)],
                delete=(game_id, Role.JOIN, name),
            )
            return self._cache[session], replaced

    def lookup(self, game_id: str, token: str | None) -> Credential | None:
        """The host key or seat session a token proves for this game, or None (unknown,
        another game's, ended, or a join code, which is good for joining only)."""
        if not token:
            return None
        cred = self._cache.get(token)
        if cred is None or cred.game_id != game_id or cred.role not in (Role.HOST, Role.PLAYER):
            return None
        return cred

    def seats(self, game_id: str) -> dict[str, dict[str, str | bool | None]]:
        """Each seat of a game: whether a phone holds it, and its unclaimed join code."""
        out: dict[str, dict[str, str | bool | None]] = {}
        for c in list(self._cache.values()):
            if c.game_id != game_id or not c.name:
                continue
            seat = out.setdefault(c.name, {"joined": False, "code": None})
            if c.role is Role.PLAYER:
                seat["joined"] = True
            elif c.role is Role.JOIN:
                seat["code"] = c.token
        return out

    def is_owner(self, key: str | None) -> bool:
        """Whether ``key`` is this companion's owner key (it lets a browser start games)."""
        return bool(key) and hmac.compare_digest(key or "", self.owner_key)

    def csrf_for(self, value: str) -> str:
        """The CSRF token that goes with a credential (or a browser's anonymous cookie)."""
        return hmac.new(self._secret, b"csrf:" + value.encode(), hashlib.sha256).hexdigest()[:32]

    def check_csrf(self, value: str, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf_for(value), token or "")

    def close(self) -> None:
        self._db.close()
