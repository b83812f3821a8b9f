"""The event log on disk: one SQLite file, append-only, durable before anyone hears of an event.

WAL journal with ``synchronous=FULL``: a committed event survives a killed process and, on
storage that honours fsync, a power cut. Nothing is ever updated or deleted; undo and
corrections are events of their own. The file is stamped with an application id, so a foreign
or damaged file is refused with a clear error and left exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x47464E44  # "GFND": marks the file as this companion's
SCHEMA_VERSION = 1
FILENAME = "companion.sqlite3"

_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',    -- active | finished | archived
    title TEXT NOT NULL DEFAULT ''
);
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,                      -- 0 is the setup, then 1, 2, 3 ...
    kind TEXT NOT NULL,                        -- setup action undo correction status disclosed
    actor TEXT NOT NULL,                       -- who submitted it: player:NAME, host, dice:SOURCE
    payload TEXT NOT NULL,                     -- JSON
    idem_key TEXT,                             -- a client's key: a double tap is applied once
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX events_idem ON events (game_id, idem_key) WHERE idem_key IS NOT NULL;
"""


_KEEP = (
    "It was left untouched. Move it away (or start with --data pointing at another folder) "
    "to begin a new database; keep it if it holds games you want back."
)


def private(path: Path) -> None:
    """Make ``path`` (created empty if missing) readable by this user alone: the log holds
    every hidden die. SQLite gives its -wal and -shm files the same mode as the database."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


class StorageError(RuntimeError):
    """The data file cannot be used. The message says what is wrong and what to do; the file
    itself is never changed or replaced."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    game_id: str
    seq: int
    kind: str
    actor: str
    payload: dict[str, Any]
    idem_key: str | None
    created_at: str


class Storage:
    """One SQLite connection, used by one writer at a time (the table service holds the lock)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / FILENAME
        self._lock = threading.Lock()
        try:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            private(self.path)
        except OSError as exc:
            raise StorageError(
                f"cannot use the data folder {self.data_dir}: {exc.strerror}"
            ) from None
        if self.path.exists() and self.path.stat().st_size > 0:
            with open(self.path, "rb") as f:
                if not f.read(16).startswith(b"SQLite format 3\x00"):
                    raise StorageError(
                        f"{self.path} is not a SQLite database (damaged, or "
                        f"another kind of file). {_KEEP}"
                    )
        try:
            # Autocommit mode: transactions are opened explicitly with BEGIN IMMEDIATE.
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._check_or_create()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise StorageError(f"{self.path} is damaged ({exc}). {_KEEP}") from None
        except StorageError:
            self.db.close()
            raise

    def _check_or_create(self) -> None:
        """Refuse anything that is not this companion's database in good order; create the
        schema in an empty file. Reading first changes nothing, so a refused file is untouched.

        A file with no application id and no tables is our own creation interrupted (the
        process was killed between creating the file and committing the schema): it holds no
        games and is created anew.
        """
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and tables == 0:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self.db.execute("COMMIT")
            return
        if app_id != APPLICATION_ID:
            raise StorageError(
                f"{self.path} is a SQLite database of another program "
                f"(application id {app_id:#x}), not the companion's. {_KEEP}"
            )
        result = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise StorageError(f"{self.path} failed its integrity check ({result}). {_KEEP}")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"{self.path} was written by a newer companion (schema "
                f"{version}); update the companion to open it."
            )

    # --- writing: each call is one durable transaction ---------------------------------

    def create_game(
        self,
        game_id: str,
        created_at: str,
        setup: dict[str, Any],
        actor: str,
        events: list[StoredEvent] | None = None,
        status: str = "active",
    ) -> None:
        """A new game, with its setup and (for an import) its moves, in one transaction."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute(
                    "INSERT INTO games (id, created_at, status) VALUES (?, ?, ?)",
                    (game_id, created_at, status),
                )
                self._insert(StoredEvent(game_id, 0, "setup", actor, setup, None, created_at))
                for e in events or []:
                    self._insert(e)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def append(self, event: StoredEvent, status: str | None = None) -> None:
        """Append one event (and, with it, a new game status) durably, or not at all."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self._insert(event)
                if status is not None:
                    self.db.execute(
                        "UPDATE games SET status = ? WHERE id = ?", (status, event.game_id)
                    )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def _insert(self, e: StoredEvent) -> None:
        self.db.execute(
            "INSERT INTO events (game_id, seq, kind, actor, payload, idem_key, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                e.game_id,
                e.seq,
                e.kind,
                e.actor,
                json.dumps(e.payload, separators=(",", ":")),
                e.idem_key,
                e.created_at,
            ),
        )

    # --- reading -------------------------------------------------------------------------

    def games(self) -> list[tuple[str, str, str]]:
        """(id, created_at, status) of every game, oldest first."""
        with self._lock:
            return list(
                self.db.execute("SELECT id, created_at, status FROM games ORDER BY created_at, id")
            )

    def events(self, game_id: str) -> list[StoredEvent]:
        with self._lock:
            rows = list(
                self.db.execute(
                    "SELECT game_id, seq, kind, actor, payload, idem_key, created_at FROM events "
                    "WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                )
            )
        return [StoredEvent(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self.db.close()
