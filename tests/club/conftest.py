"""Fixtures for the club tests: a real PostgreSQL, a real club server, real tables.

PostgreSQL is a throwaway cluster made for the test session with ``initdb`` and started with
``pg_ctl`` in a temporary folder (``companion.club.localpg``: a Unix socket in that folder, a
random port naming it, no TCP). Each test gets a database of its own. Without PostgreSQL's
binaries the tests skip and say how to install them, except under ``CI=true``, where
``.ci/run`` installs Debian's ``postgresql`` and a skip would hide that nothing was tested.
"""

from __future__ import annotations

import itertools
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from club_world import Club

from companion.club.localpg import APT_HINT, LocalPostgres, binaries, private_folder
from companion.club.store import ClubStore
from web.club import create_club_app
from web.server import start_in_thread

_numbers = itertools.count()


def require_postgres() -> None:
    if binaries() is not None:
        return
    message = f"PostgreSQL's initdb and pg_ctl are not installed ({APT_HINT})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    require_postgres()
    cluster = LocalPostgres(private_folder(), random.randint(20000, 60000))
    cluster.start(durable=False)  # thrown away at the end: no fsync needed
    yield cluster
    cluster.destroy()


@pytest.fixture
def club_db(postgres: LocalPostgres) -> Iterator[str]:
    """A new, empty database for one test; its URL. Dropped afterwards."""
    name = f"club_test_{os.getpid()}_{next(_numbers)}"
    admin = postgres.url.replace("/club?", "/postgres?")
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    yield postgres.url.replace("/club?", f"/{name}?")
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def club(club_db: str) -> Iterator[Club]:
    store = ClubStore(club_db)
    admin_key = store.ensure_admin_key()
    assert admin_key is not None
    app = create_club_app(store)
    running = start_in_thread(app, threads=64)
    club = Club(club_db, store, app, running, admin_key)
    yield club
    club.running.stop()
    club.store.close()


@pytest.fixture
def table_dir(tmp_path: Path) -> Path:
    return tmp_path / "table"
