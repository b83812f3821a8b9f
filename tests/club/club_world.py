"""What the club tests share: a club server in a thread over its own database, and tables
that play random legal games (the fixtures are in ``conftest.py``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import psycopg

from companion.club.store import ClubStore
from companion.simulate import random_setup
from companion.table import Game, TableService
from web.club import create_club_app
from web.server import Running, start_in_thread


@dataclass
class Club:
    """A club server running in a thread, over its own database."""

    db: str
    store: ClubStore
    app: Any
    running: Running
    admin_key: str
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return self.running.url

    @property
    def port(self) -> int:
        return self.running.port

    def add_table(self, name: str) -> str:
        self.tokens[name] = self.store.add_table(name)
        return self.tokens[name]

    def restart(self) -> None:
        """The club server killed and started again, on a new port, over the same database."""
        self.running.stop()
        self.store.close()
        self.store = ClubStore(self.db)
        self.app = create_club_app(self.store)
        self.running = start_in_thread(self.app, threads=64)

    def rows(self, table: str, game_id: str) -> list[tuple[Any, ...]]:
        """The club's copy of a game's log, straight from PostgreSQL."""
        with psycopg.connect(self.db) as db:
            return db.execute(
                "SELECT seq, kind, actor, payload, idem_key, created_at FROM club_events "
                "WHERE table_name = %s AND game_id = %s ORDER BY seq",
                (table, game_id),
            ).fetchall()


def new_game(service: TableService, game: str = "new-don", players: int = 4) -> Game:
    return service.create_game(random_setup(players, game_id=game))


def play(service: TableService, game_id: str, rng: random.Random, moves: int | None = None) -> int:
    """Play ``moves`` random legal moves (or to the end), as the table would take them; how
    many were made."""
    made = 0
    while moves is None or made < moves:
        game = service.game(game_id)
        if game.is_over:
            break
        action = game.rules.random_action(game.state, rng)
        service.submit(game_id, action, actor=f"player:{action.player}", expected_seq=game.seq)
        made += 1
    return made


def local_log(service: TableService, game_id: str) -> list[tuple[Any, ...]]:
    """A table's own log of a game, in the shape of :meth:`Club.rows`."""
    return [
        (e.seq, e.kind, e.actor, e.payload, e.idem_key, e.created_at)
        for e in service.storage.events(game_id)
    ]
