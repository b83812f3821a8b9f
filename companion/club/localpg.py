"""A PostgreSQL cluster of one's own, in a folder: for a club night on a laptop, the tests and
the benchmark.

``initdb`` makes the cluster, ``pg_ctl`` starts and stops it. It listens on a Unix socket in
its own folder only (no TCP port is opened: ``listen_addresses=''``), and the folder is private
to the user that runs it (``initdb`` makes it 0700), so trusting local connections lets in
nobody else. A real club points ``companion club serve --db`` at its own PostgreSQL instead.

PostgreSQL will not run as root. Run as root (a CI container), the cluster runs as the
``postgres`` user that Debian's ``postgresql`` package creates, in a folder handed to it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

DATABASE = "club"
USER = "companion"
APT_HINT = "apt-get install postgresql (Debian's package: initdb and pg_ctl)"
_DEBIAN_BINARIES = Path("/usr/lib/postgresql")


class LocalPostgresError(RuntimeError):
    """The cluster cannot be made or started; the message says why (and the log's tail)."""


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest
    ``/usr/lib/postgresql/<version>/bin`` (the package does not put them on PATH)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(
        (p for p in _DEBIAN_BINARIES.glob("*/bin") if (p / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return versions[-1] if versions else None


def private_folder(prefix: str = "club-pg-") -> Path:
    """A new folder for a throwaway cluster, usable by whoever will run PostgreSQL (as root,
    the ``postgres`` user: a folder under root's own temporary folders is out of its reach)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    _hand_over(folder)
    return folder


class LocalPostgres:
    """The cluster in ``folder`` (``folder/data``, its log ``folder/postgres.log``), its
    socket in ``folder`` under ``port`` (which only names the socket file)."""

    def __init__(self, folder: Path, port: int = 5433) -> None:
        self.folder = Path(folder).absolute()
        self.port = port
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        found = binaries()
        if found is None:
            raise LocalPostgresError(
                f"PostgreSQL's initdb and pg_ctl are not installed ({APT_HINT})"
            )
        self.bin = found

    @property
    def url(self) -> str:
        """The connection URL for ``companion club serve --db``."""
        return f"postgresql://{USER}@/{DATABASE}?host={self.folder}&port={self.port}"

    @property
    def exists(self) -> bool:
        return (self.data / "PG_VERSION").exists()

    @property
    def running(self) -> bool:
        if not self.exists:
            return False
        done = self._run("pg_ctl", "status", "-D", str(self.data), check=False)
        return done.returncode == 0

    def init(self) -> None:
        """Make the cluster (once): the ``companion`` superuser, UTF-8, local trust."""
        if self.exists:
            return
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _hand_over(self.folder)
        self._run(
            "initdb", "-D", str(self.data), "-U", USER, "-E", "UTF8", "--no-locale", "--auth=trust"
        )

    def start(self, *, durable: bool = True) -> str:
        """Start it (making it first if needed) and make the club's database; the URL.
        ``durable=False`` turns off fsync: for a test that will throw the cluster away."""
        self.init()
        if not self.running:
            options = f"-c listen_addresses='' -k {self.folder} -p {self.port}"
            if not durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            done = self._run(
                "pg_ctl",
                "start",
                "-w",
                "-t",
                "60",
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-o",
                options,
                check=False,
            )
            if done.returncode != 0:
                raise LocalPostgresError(f"PostgreSQL did not start: {self._tail()}")
        self._create_database()
        return self.url

    def stop(self, mode: str = "fast") -> None:
        """Stop it (``fast``: end sessions, shut down cleanly; ``immediate``: as a crash)."""
        if self.running:
            self._run("pg_ctl", "stop", "-w", "-D", str(self.data), "-m", mode)

    def destroy(self) -> None:
        """Stop it and delete the folder."""
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def _create_database(self) -> None:
        import psycopg

        admin = f"postgresql://{USER}@/postgres?host={self.folder}&port={self.port}"
        with psycopg.connect(admin, autocommit=True) as db:
            have = db.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)
            ).fetchone()
            if have is None:
                db.execute(f"CREATE DATABASE {DATABASE}")

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", _postgres_user(), "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            raise LocalPostgresError(
                f"{tool} failed: {(done.stderr or done.stdout).strip()[-800:]}"
            )
        return done

    def _tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-800:]
        except OSError:
            return "(no log)"


def _postgres_user() -> str:
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise LocalPostgresError(
            f"PostgreSQL does not run as root, and there is no postgres user ({APT_HINT})"
        ) from None
    return "postgres"


def _hand_over(folder: Path) -> None:
    """As root, give the folder to the postgres user (PostgreSQL refuses to run as root)."""
    if os.geteuid() == 0:
        entry = pwd.getpwnam(_postgres_user())
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        os.chmod(folder, 0o700)
