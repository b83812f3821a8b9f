"""The club's store: every table's event log in PostgreSQL, and what the pages may show.

One row per event, keyed by (table, game, seq): the primary key is what makes a push
idempotent. A push is one transaction that locks its game's row, so two pushes of one game
(a retry racing the original) are applied one after the other: events the club already has
are compared and skipped (a different event under a seq it has is a :class:`Conflict`), new
ones are inserted, and a batch that would leave a hole is refused with the seq the club has
(:class:`Gap`), from which the table resends. A table is known by its token alone, so a token
can only ever write its own table's games.

Beside the log, each game's row holds what anyone may see of it (``companion.club.showing``),
computed by replaying the log with the game's own engine as each push arrives: the pages read
those rows only, never the log. The replay also checks every backup as it is made: a log the
club cannot replay is stored all the same (it is the table's truth) and its row says why.

Tokens and the admin key are kept as SHA-256 digests: they are long random strings, so a copy
of the database gives nobody a key.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import queue
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Json, Jsonb

from companion.club.showing import Shown, shown
from companion.club.wire import TABLE_NAME, Kind, Status
from companion.gamefiles import GameFiles
from companion.games import AnyGame
from companion.protocol import MalformedAction, RuleViolation
from companion.table import Game, Refused
from companion.table.service import load_game
from companion.table.storage import StoredEvent

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS club_meta (
    key TEXT PRIMARY KEY,                 -- schema, admin_key
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS club_tables (
    name TEXT PRIMARY KEY,                -- the table's name at the club: "table-07"
    token_sha256 BYTEA NOT NULL UNIQUE,   -- its token's digest; the token is shown once
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_seen TIMESTAMPTZ                 -- when it last asked where to resume (a push
                                          -- is seen in its game's updated_at)
);
CREATE TABLE IF NOT EXISTS club_games (
    table_name TEXT NOT NULL REFERENCES club_tables (name),
    game_id TEXT NOT NULL,                -- the table's own id of the game
    seq INTEGER NOT NULL,                 -- the last event the club has
    status TEXT NOT NULL,                 -- at the table: active | finished | archived
    started_at TEXT NOT NULL,             -- the setup's time, as the table wrote it
    ended_at TEXT,                        -- the time of the event after which it could not go on
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- what anyone may see (companion.club.showing), from the club's replay of the log:
    game TEXT NOT NULL,                   -- new-don, cash-n-guns
    players JSONB NOT NULL,
    progress TEXT NOT NULL DEFAULT '',
    waiting JSONB NOT NULL DEFAULT '[]',
    view JSONB,
    over BOOLEAN NOT NULL DEFAULT false,  -- ended by its rules
    can_go_on BOOLEAN NOT NULL DEFAULT true,
    scores JSONB,                         -- once it cannot go on
    problem TEXT,                         -- why the club cannot replay the log, if it cannot
    PRIMARY KEY (table_name, game_id)
);
CREATE INDEX IF NOT EXISTS club_games_live ON club_games (can_go_on, table_name);
CREATE INDEX IF NOT EXISTS club_games_game ON club_games (game, ended_at);
CREATE TABLE IF NOT EXISTS club_events (
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,                 -- as at the table: 0 is the setup, then 1, 2, 3 ...
    kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    payload JSON NOT NULL,                -- JSON, not JSONB: the table's text, kept as sent
    idem_key TEXT,
    created_at TEXT NOT NULL,             -- when the table made it, as the table wrote it
    received_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_name, game_id, seq),
    FOREIGN KEY (table_name, game_id) REFERENCES club_games (table_name, game_id)
);
CREATE TABLE IF NOT EXISTS club_reads (  -- every read of a whole log (every hidden die)
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    reader TEXT NOT NULL,                 -- "table" (its own token) or "admin"
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL                  -- how far the log went
);
"""

_GAME_COLUMNS = (
    "table_name, game_id, seq, status, started_at, ended_at, updated_at, game, "
    "players, progress, waiting, view, over, can_go_on, scores, problem"
)


class ClubError(Exception):
    """A request the store refuses; ``code`` says what kind (as the web's refusals do)."""

    code = "refused"

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class Gap(ClubError):
    """A push that would leave a hole: the club has the game up to ``seq`` (-1: nothing)."""

    code = "gap"

    def __init__(self, seq: int, first: int) -> None:
        self.seq = seq
        super().__init__(
            f"the club has this game up to event {seq}; this push starts at "
            f"{first}: send from {seq + 1}"
        )


class Conflict(ClubError):
    """An event the club already has under this seq, different from the one pushed: the
    table's log is not the one the club backed up (a table set up again from nothing?)."""

    code = "conflict"

    def __init__(self, seq: int) -> None:
        self.seq = seq
        super().__init__(
            f"event {seq} of this game differs from the one the club has: this "
            "table's log is not the one the club backed up"
        )


class TableTaken(ClubError):
    code = "exists"


class NoSuchTable(ClubError):
    code = "not_found"


class SchemaError(RuntimeError):
    """The database is not one this club server can use; the message says what to do."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as the club's pages see it: where and when, and what anyone may see."""

    table: str
    game_id: str
    seq: int
    status: str
    started_at: str
    ended_at: str | None
    updated_at: datetime
    game: str
    players: list[str]
    progress: str
    waiting: list[dict[str, str]]
    view: dict[str, Any] | None
    over: bool
    can_go_on: bool
    scores: dict[str, Any] | None
    problem: str | None


@dataclass(frozen=True, slots=True)
class TableRow:
    name: str
    created_at: datetime
    last_seen: datetime | None
    games: int
    events: int


def new_secret() -> str:
    """An admin key or a table's token: 32 URL-safe characters, never starting with "-", since
    people pass them on the command line (``--table-token T``), where argparse would take one
    that starts with a dash for an option."""
    while True:
        secret = secrets.token_urlsafe(24)
        if not secret.startswith("-"):
            return secret


def digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


class _Pool:
    """A few connections shared by the server's threads, each used by one at a time. A
    connection that failed (the database restarted) is closed and replaced on next use."""

    def __init__(self, url: str, size: int) -> None:
        self.url = url
        self._free: queue.LifoQueue[psycopg.Connection[Any] | None] = queue.LifoQueue()
        for _ in range(size):
            self._free.put(None)  # opened when first needed

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        conn = self._free.get()
        try:
            if conn is None or conn.closed or conn.broken:
                # autocommit: a read is its own statement; writes open db.transaction()
                conn = psycopg.connect(self.url, connect_timeout=5, autocommit=True)
            yield conn
        except psycopg.OperationalError:
            if conn is not None:
                conn.close()
            conn = None
            raise
        finally:
            self._free.put(conn)

    def close(self) -> None:
        while True:
            try:
                conn = self._free.get_nowait()
            except queue.Empty:
                return
            if conn is not None:
                conn.close()


class ClubStore:
    """The club's database. Thread-safe: each call takes a connection of its own."""

    def __init__(self, url: str, pool: int = 8, cache: int = 2000, migrate: bool = True) -> None:
        """``migrate=False`` for a role that may only read (the pages on a read replica, or a
        role granted nothing but the public summaries: ``docs/club.md``)."""
        self._pool = _Pool(url, pool)
        self._cache: OrderedDict[tuple[str, str], Game] = OrderedDict()
        self._cache_size = cache
        self._cache_lock = threading.Lock()
        if migrate:
            self._migrate()

    def close(self) -> None:
        self._pool.close()

    def _migrate(self) -> None:
        with self._pool.connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(7446)")  # two servers starting at once
            db.execute(_SCHEMA)
            row = db.execute("SELECT value FROM club_meta WHERE key = 'schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO club_meta VALUES ('schema', %s)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise SchemaError(
                    f"this database was set up by a newer club server (schema "
                    f"{row[0]}); update the companion to use it"
                )

    # --- the admin key and the tables --------------------------------------------------

    def ensure_admin_key(self) -> str | None:
        """A new admin key if the club has none yet (shown once, kept as its digest)."""
        key = new_secret()
        with self._pool.connection() as db, db.transaction():
            done = db.execute(
                "INSERT INTO club_meta VALUES ('admin_key', %s) ON CONFLICT DO NOTHING",
                (digest(key).hex(),),
            )
            return key if done.rowcount == 1 else None

    def new_admin_key(self) -> str:
        """Replace the admin key (the old one stops working at once)."""
        key = new_secret()
        with self._pool.connection() as db, db.transaction():
            db.execute(
                "INSERT INTO club_meta VALUES ('admin_key', %s) ON CONFLICT (key) "
                "DO UPDATE SET value = excluded.value",
                (digest(key).hex(),),
            )
        return key

    def is_admin(self, key: str | None) -> bool:
        if not key:
            return False
        with self._pool.connection() as db:
            row = db.execute("SELECT value FROM club_meta WHERE key = 'admin_key'").fetchone()
        return row is not None and hmac.compare_digest(row[0], digest(key).hex())

    def add_table(self, name: str) -> str:
        """A new table and its token (shown once)."""
        if not TABLE_NAME.fullmatch(name):
            raise ClubError(
                f"{name!r} cannot be a table's name: 1 to 40 letters, digits, "
                "spaces, dots, dashes or underscores"
            )
        token = new_secret()
        with self._pool.connection() as db, db.transaction():
            done = db.execute(
                "INSERT INTO club_tables (name, token_sha256) VALUES (%s, %s) "
                "ON CONFLICT DO NOTHING",
                (name, digest(token)),
            )
            if done.rowcount != 1:
                raise TableTaken(
                    f"there is a table {name!r} already; to give it a new token "
                    "use its token command"
                )
        return token

    def new_token(self, name: str) -> str:
        """A new token for a table; the old one stops working at once (a lost or stolen Pi)."""
        token = new_secret()
        with self._pool.connection() as db, db.transaction():
            done = db.execute(
                "UPDATE club_tables SET token_sha256 = %s WHERE name = %s", (digest(token), name)
            )
            if done.rowcount != 1:
                raise NoSuchTable(f"there is no table {name!r}")
        return token

    def table_of(self, token: str | None) -> str | None:
        """The table a token belongs to, or None."""
        if not token:
            return None
        with self._pool.connection() as db:
            row = db.execute(
                "SELECT name FROM club_tables WHERE token_sha256 = %s", (digest(token),)
            ).fetchone()
        return row[0] if row else None

    def has_table(self, name: str) -> bool:
        with self._pool.connection() as db:
            row = db.execute("SELECT 1 FROM club_tables WHERE name = %s", (name,)).fetchone()
        return row is not None

    def tables(self) -> list[TableRow]:
        with self._pool.connection() as db:
            rows = db.execute(
                "SELECT t.name, t.created_at, greatest(t.last_seen, max(g.updated_at)), "
                "count(g.game_id), "
                "coalesce(sum(g.seq + 1), 0) FROM club_tables t LEFT JOIN club_games g "
                "ON g.table_name = t.name GROUP BY t.name ORDER BY t.name"
            ).fetchall()
        return [TableRow(r[0], r[1], r[2], int(r[3]), int(r[4])) for r in rows]

    # --- sync ------------------------------------------------------------------------

    def cursors(self, table: str) -> dict[str, int]:
        """The last seq the club has of each of a table's games (a table resumes from here)."""
        with self._pool.connection() as db, db.transaction():
            db.execute("UPDATE club_tables SET last_seen = now() WHERE name = %s", (table,))
            rows = db.execute(
                "SELECT game_id, seq FROM club_games WHERE table_name = %s", (table,)
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def push(
        self, table: str, game_id: str, events: list[StoredEvent], status: Status | None = None
    ) -> int:
        """Keep consecutive events of one of ``table``'s games; the last seq the club has.
        Events it has already are checked and skipped; :class:`Gap`, :class:`Conflict`."""
        first = events[0].seq
        with self._pool.connection() as db, db.transaction():
            have, row_status, known = self._lock_game(db, table, game_id, events)
            if first > have + 1:
                raise Gap(have, first)
            for event in events:
                if event.seq <= have and known.get(event.seq) != event:
                    raise Conflict(event.seq)
            new = [e for e in events if e.seq > have]
            if not new:
                return have
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO club_events (table_name, game_id, seq, kind, actor, payload, "
                    "idem_key, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        (
                            table,
                            game_id,
                            e.seq,
                            e.kind,
                            e.actor,
                            Json(e.payload),
                            e.idem_key,
                            e.created_at,
                        )
                        for e in new
                    ],
                )
            game, problem = self._advance(
                db, table, game_id, have, new, status or Status(row_status)
            )
            self._update_row(
                db, table, game_id, new[-1], status or Status(row_status), game, problem
            )
        if game is not None:
            self._remember((table, game_id), game)
        return new[-1].seq

    def _lock_game(
        self, db: psycopg.Connection[Any], table: str, game_id: str, events: list[StoredEvent]
    ) -> tuple[int, str, dict[int, StoredEvent]]:
        """The game's row, locked until the push commits (made by its first push, which
        starts with the setup): its last seq, its status, and the events of the push the club
        has already (to compare), read in the same round trip."""
        first = events[0]
        if first.seq == 0:
            db.execute(
                "INSERT INTO club_games (table_name, game_id, seq, status, started_at, game, "
                "players) VALUES (%s, %s, -1, 'active', %s, %s, '[]') ON CONFLICT DO NOTHING",
                (table, game_id, first.created_at, str(first.payload.get("game", "new-don"))),
            )
        rows = db.execute(
            "SELECT g.seq, g.status, e.seq, e.kind, e.actor, e.payload, e.idem_key, "
            "e.created_at FROM (SELECT seq, status FROM club_games WHERE table_name = %s AND "
            "game_id = %s FOR UPDATE) g LEFT JOIN club_events e ON e.table_name = %s AND "
            "e.game_id = %s AND e.seq BETWEEN %s AND least(%s, g.seq) ORDER BY e.seq",
            (table, game_id, table, game_id, first.seq, events[-1].seq),
        ).fetchall()
        if not rows:
            raise Gap(-1, first.seq)
        known = {
            r[2]: StoredEvent(game_id, r[2], r[3], r[4], r[5], r[6], r[7])
            for r in rows
            if r[2] is not None
        }
        return int(rows[0][0]), str(rows[0][1]), known

    # --- the club's replay, and what it may show -----------------------------------------

    def _advance(
        self,
        db: psycopg.Connection[Any],
        table: str,
        game_id: str,
        have: int,
        new: list[StoredEvent],
        status: Status,
    ) -> tuple[Game | None, str | None]:
        """The game after ``new``: moves applied to the cached game when that is all they
        are, else the whole log replayed (an undo, a correction, or nothing cached)."""
        with self._cache_lock:
            cached = self._cache.get((table, game_id))
        try:
            if (
                cached is not None
                and cached.seq == have
                and all(e.kind == Kind.ACTION for e in new)
            ):
                game = cached
                for event in new:
                    action = game.rules.action_from_dict(event.payload)
                    game = replace(
                        game,
                        events=(*game.events, event),
                        effective=(*game.effective, (event.seq, action)),
                        state=game.rules.apply(game.state, action),
                    )
            else:
                game = load_game(game_id, "", status, self._events(db, table, game_id), _files)
            return replace(game, status=str(status)), None
        except (
            Refused,
            MalformedAction,
            RuleViolation,
            KeyError,
            ValueError,
            TypeError,
            OSError,
        ) as exc:
            reason = exc.reason if isinstance(exc, Refused | RuleViolation) else str(exc)
            log.warning(
                "table %s, game %s: the club cannot replay its log: %s", table, game_id, reason
            )
            with self._cache_lock:
                self._cache.pop((table, game_id), None)
            return None, f"the club cannot replay this game's log: {reason}"

    def _update_row(
        self,
        db: psycopg.Connection[Any],
        table: str,
        game_id: str,
        last: StoredEvent,
        status: Status,
        game: Game | None,
        problem: str | None,
    ) -> None:
        if game is None:
            db.execute(
                "UPDATE club_games SET seq = %s, status = %s, problem = %s, "
                "updated_at = now() WHERE table_name = %s AND game_id = %s",
                (last.seq, str(status), problem, table, game_id),
            )
            return
        public: Shown = shown(game)
        db.execute(
            "UPDATE club_games SET seq = %s, status = %s, updated_at = now(), game = %s, "
            "players = %s, progress = %s, waiting = %s, view = %s, over = %s, can_go_on = %s, "
            "scores = %s, problem = NULL, ended_at = CASE WHEN %s THEN NULL "
            "ELSE coalesce(ended_at, %s) END WHERE table_name = %s AND game_id = %s",
            (
                last.seq,
                str(status),
                public.game,
                Jsonb(public.players),
                public.progress,
                Jsonb(public.waiting),
                Jsonb(public.view),
                public.over,
                public.can_go_on,
                Jsonb(public.scores) if public.scores is not None else None,
                public.can_go_on,
                last.created_at,
                table,
                game_id,
            ),
        )

    def _remember(self, key: tuple[str, str], game: Game) -> None:
        with self._cache_lock:
            old = self._cache.get(key)
            if old is None or old.seq < game.seq:
                self._cache[key] = game
            self._cache.move_to_end(key)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _events(self, db: psycopg.Connection[Any], table: str, game_id: str) -> list[StoredEvent]:
        rows = db.execute(
            "SELECT seq, kind, actor, payload, idem_key, created_at FROM club_events "
            "WHERE table_name = %s AND game_id = %s ORDER BY seq",
            (table, game_id),
        ).fetchall()
        return [StoredEvent(game_id, r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    # --- backup and restore: the whole log, every hidden die -----------------------------

    def backup_games(self, table: str) -> list[dict[str, Any]]:
        """A table's games: id, game, last seq, status, when started."""
        with self._pool.connection() as db:
            rows = db.execute(
                "SELECT game_id, game, seq, status, started_at FROM club_games WHERE "
                "table_name = %s ORDER BY started_at, game_id",
                (table,),
            ).fetchall()
        return [
            {"game_id": r[0], "game": r[1], "seq": r[2], "status": r[3], "started_at": r[4]}
            for r in rows
        ]

    def backup_log(self, table: str, game_id: str, reader: str) -> tuple[str, list[StoredEvent]]:
        """One game's whole log and its status, for its own table (``reader`` "table") or the
        admin: every hidden die, so each read is written down in ``club_reads``."""
        with self._pool.connection() as db, db.transaction():
            row = db.execute(
                "SELECT status FROM club_games WHERE table_name = %s AND game_id = %s",
                (table, game_id),
            ).fetchone()
            if row is None:
                raise NoSuchTable(f"the club has no game {game_id!r} of table {table!r}")
            events = self._events(db, table, game_id)
            db.execute(
                "INSERT INTO club_reads (reader, table_name, game_id, seq) VALUES (%s, %s, %s, %s)",
                (reader, table, game_id, events[-1].seq),
            )
        return str(row[0]), events

    # --- what the pages show -------------------------------------------------------------

    def live(self) -> list[GameRow]:
        """Every game that can still go on, by table."""
        return self._games("WHERE can_go_on ORDER BY table_name, started_at")

    def finished(self, game: str | None = None, limit: int = 500) -> list[GameRow]:
        """Games that cannot go on (over, or ended by the host), latest first."""
        where = "WHERE NOT can_go_on" + (" AND game = %s" if game else "")
        return self._games(
            f"{where} ORDER BY ended_at DESC NULLS LAST, game_id LIMIT %s",
            (*([game] if game else []), limit),
        )

    def game_row(self, table: str, game_id: str) -> GameRow | None:
        rows = self._games("WHERE table_name = %s AND game_id = %s", (table, game_id))
        return rows[0] if rows else None

    def league_games(self, game: str) -> list[GameRow]:
        """The games of ``game`` its rules ended, in the order they ended (ratings are
        updated in that order)."""
        return self._games(
            "WHERE game = %s AND over AND NOT can_go_on "
            "ORDER BY ended_at, started_at, table_name, game_id",
            (game,),
        )

    def _games(self, where: str, args: tuple[Any, ...] = ()) -> list[GameRow]:
        with self._pool.connection() as db:
            rows = db.execute(f"SELECT {_GAME_COLUMNS} FROM club_games {where}", args).fetchall()
        return [GameRow(*r) for r in rows]

    def counts(self) -> dict[str, int]:
        """Rows in the log and games, for the benchmark and the admin."""
        with self._pool.connection() as db:
            events = db.execute("SELECT count(*) FROM club_events").fetchone()
            games = db.execute("SELECT count(*) FROM club_games").fetchone()
        return {"events": int(events[0]) if events else 0, "games": int(games[0]) if games else 0}


def _files(rules: AnyGame) -> GameFiles:
    """The club reads only the files games ship: a table's own traced board is not here, so a
    game on one is backed up but not shown (its row says so)."""
    return GameFiles(rules)
