"""The club under a convention day: many tables playing at once, the network cut and the club
server killed, and not one event lost or duplicated.

    .venv/bin/python benchmarks/club.py [--tables 100] [--minutes 2] [--rate 1.0]
                                        [--scaling 10,30,100] [--scaling-seconds 30]

Every table is a real table service (its own SQLite log, one fsync per move) with the club
sync a Pi runs (``companion serve --club``), playing random legal games of A New Don and
Ca$h 'n Guns at ``--rate`` moves per second (a real table makes a move every 10-20 s: 1.0 is a
convention day compressed about fifteen times), with an occasional undo by the host. Each
table reaches the club through its own TCP link (``tests/helpers/club_link.py``) that is cut
at random for 1-8 s; the club server (``companion club serve``, a separate process) is killed
with SIGKILL at random and started again. PostgreSQL is a cluster of its own
(``companion.club.localpg``) with fsync on, as a club would run it.

Reported: events lost and duplicated (the club's log compared with every table's, row for
row), sync lag (from an event being durable on its table to its row at the club) at p50 and
p99, for events made while the link was up and for those that waited out a fault, the
tables' own move times (they must not wait for the club), PostgreSQL rows per second, and the
cost per event as the tables grow from 10 to 100 (the club server's and PostgreSQL's CPU).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

import psycopg  # noqa: E402
from club_link import Link, Network  # noqa: E402
from machine import describe, pct  # noqa: E402

from companion.club.localpg import LocalPostgres, private_folder  # noqa: E402
from companion.club.store import ClubStore  # noqa: E402
from companion.club.sync import ClubSync  # noqa: E402
from companion.simulate import random_setup  # noqa: E402
from companion.table import Event, Refused, TableService  # noqa: E402

GAMES = (("new-don", 3, 6), ("cash-n-guns", 4, 8))
TICK = os.sysconf("SC_CLK_TCK")


# --- the club server, as a process that can be killed --------------------------------------


class ClubProcess:
    """``companion club serve`` in a process of its own; its CPU time is added up across
    restarts."""

    def __init__(self, db: str, network: Network) -> None:
        self.db = db
        self.network = network
        self.proc: subprocess.Popen[str] | None = None
        self.cpu = 0.0  # seconds, every process before the current one
        self.down: list[tuple[float, float]] = []  # (killed, serving again)
        self.kills = 0

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "club",
                "serve",
                "--db",
                self.db,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--threads",
                "64",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "http://127.0.0.1:" in line:
                port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
                break
        else:
            raise RuntimeError("the club server did not start")
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # drain
        self.network.point_all_at(port)

    def kill(self) -> None:
        assert self.proc is not None
        self.cpu += process_cpu(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.kills += 1

    def restart_after(self, pause: float) -> None:
        killed = time.time()
        self.kill()
        time.sleep(pause)
        self.start()
        self.down.append((killed, time.time()))

    def total_cpu(self) -> float:
        return self.cpu + (process_cpu(self.proc.pid) if self.proc else 0.0)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.cpu += process_cpu(self.proc.pid)
            self.proc.terminate()
            self.proc.wait(20)


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


class PostgresCpu:
    """The CPU of PostgreSQL's processes (the postmaster and every backend, sampled while
    they live: a backend's time is lost when it exits, so it is read twice a second)."""

    def __init__(self, data: Path) -> None:
        self.postmaster = int((data / "postmaster.pid").read_text().split()[0])
        self.seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _children(self) -> list[int]:
        out = [self.postmaster]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(stat[1]) == self.postmaster:
                    out.append(int(entry.name))
        return out

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.sample()

    def sample(self) -> None:
        for pid in self._children():
            self.seen[pid] = max(self.seen.get(pid, 0.0), process_cpu(pid))

    def total(self) -> float:
        self.sample()
        return sum(self.seen.values())

    def stop(self) -> None:
        self._stop.set()


# --- a table ---------------------------------------------------------------------------------


@dataclass
class Table:
    name: str
    service: TableService
    sync: ClubSync
    link: Link
    rng: random.Random
    durable: dict[tuple[str, int], float] = field(default_factory=dict)
    moves: list[tuple[float, float]] = field(default_factory=list)  # (when, how long)
    cuts: list[tuple[float, float]] = field(default_factory=list)

    def on_event(self, event: Event) -> None:
        self.durable[(event.game_id, event.seq)] = time.time()

    def playing(self) -> str:
        live = [g for g in self.service.games() if g.can_go_on]
        if live:
            return live[0].id
        kind, low, high = self.rng.choice(GAMES)
        game = self.service.create_game(random_setup(self.rng.randint(low, high), game_id=kind))
        self.durable[(game.id, 0)] = time.time()
        return game.id

    def move(self) -> None:
        game = self.service.game(self.playing())
        start = time.perf_counter()
        try:
            if game.effective and self.rng.random() < 0.02:
                self.service.undo(game.id, actor="host", expected_seq=game.seq)
            else:
                action = game.rules.random_action(game.state, self.rng)
                self.service.submit(
                    game.id, action, actor=f"player:{action.player}", expected_seq=game.seq
                )
        except Refused:
            return
        self.moves.append((time.time(), time.perf_counter() - start))


def play(tables: list[Table], rate: float, seconds: float, stop: threading.Event) -> None:
    """Every table makes a move every 1/rate seconds on average (each in its own thread, as
    each Pi plays at its own pace)."""

    def run(table: Table) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not stop.is_set():
            table.move()
            stop.wait(table.rng.expovariate(rate))

    threads = [threading.Thread(target=run, args=(t,), daemon=True) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


# --- faults ------------------------------------------------------------------------------------


def cut_links(tables: list[Table], stop: threading.Event, rng: random.Random) -> None:
    """Each link is cut now and then (every 10-40 s) for 1-8 s."""
    pending: queue.PriorityQueue[tuple[float, int, str]] = queue.PriorityQueue()
    for i, _ in enumerate(tables):
        pending.put((time.time() + rng.uniform(2, 30), i, "cut"))
    while not stop.is_set():
        when, i, what = pending.get()
        if stop.wait(max(0.0, when - time.time())):
            break
        table = tables[i]
        if what == "cut":
            table.link.cut()
            table.cuts.append((time.time(), float("inf")))
            pending.put((time.time() + rng.uniform(1, 8), i, "mend"))
        else:
            table.link.mend()
            table.cuts[-1] = (table.cuts[-1][0], time.time())
            pending.put((time.time() + rng.uniform(10, 40), i, "cut"))
    for table in tables:
        table.link.mend()
        if table.cuts and table.cuts[-1][1] == float("inf"):
            table.cuts[-1] = (table.cuts[-1][0], time.time())


def kill_club(club: ClubProcess, stop: threading.Event, rng: random.Random) -> None:
    """The club server killed (SIGKILL) every 15-40 s, back 1-3 s later."""
    while not stop.wait(rng.uniform(15, 40)):
        club.restart_after(rng.uniform(1, 3))


# --- one run -----------------------------------------------------------------------------------


@dataclass
class Result:
    tables: int
    seconds: float
    events: int
    lost: int
    duplicated: int
    differing: int
    lag_clean: list[float]
    lag_all: list[float]
    lag_fault: list[float]
    moves: list[float]
    moves_in_cut: list[float]
    club_cpu: float
    pg_cpu: float
    peak_rows: int
    cuts: int
    kills: int
    synced: float  # seconds from the end of play (offline: the links back) to all synced
    span: float  # seconds from the first row received to the last


def play_offline(tables: list[Table], moves: int) -> None:
    """Every table plays ``moves`` moves as fast as it can (its link is cut)."""

    def run(table: Table) -> None:
        for _ in range(moves):
            table.move()

    threads = [threading.Thread(target=run, args=(t,), daemon=True) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def run(
    pg: LocalPostgres,
    n: int,
    rate: float,
    seconds: float,
    faults: bool,
    seed: int,
    work: Path,
    offline_moves: int = 0,
) -> Result:
    """One run: ``n`` tables playing at ``rate`` for ``seconds`` (with ``faults``, or not);
    or, with ``offline_moves``, every table playing that many moves with its link cut, then
    the whole hall back online at once."""
    kind = "offline" if offline_moves else "faults" if faults else "steady"
    db_name = f"club_{n}_{kind}_{seed}"
    admin_url = pg.url.replace("/club?", "/postgres?")
    with psycopg.connect(admin_url, autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {db_name}")
        db.execute(f"CREATE DATABASE {db_name}")
    url = pg.url.replace("/club?", f"/{db_name}?")
    store = ClubStore(url, pool=2)
    tokens = {f"table-{i:03}": store.add_table(f"table-{i:03}") for i in range(n)}
    store.close()

    network = Network()
    links = {name: network.link(1) for name in tokens}
    club = ClubProcess(url, network)
    club.start()
    pg_cpu = PostgresCpu(pg.data)
    pg_start, club_start = pg_cpu.total(), club.total_cpu()
    rng = random.Random(seed)
    tables = []
    for name, token in tokens.items():
        service = TableService(work / db_name / name)
        table = Table(
            name,
            service,
            ClubSync(service, links[name].url, token),
            links[name],
            random.Random(rng.random()),
        )
        service.subscribe(table.on_event)
        table.sync.start()
        tables.append(table)

    stop = threading.Event()
    helpers = []
    if faults:
        helpers = [
            threading.Thread(
                target=cut_links, args=(tables, stop, random.Random(seed)), daemon=True
            ),
            threading.Thread(
                target=kill_club, args=(club, stop, random.Random(seed + 1)), daemon=True
            ),
        ]
    for h in helpers:
        h.start()
    started = time.time()
    if offline_moves:
        for table in tables:
            table.link.cut()
        play_offline(tables, offline_moves)
        started = time.time()
        for table in tables:
            table.link.mend()
            table.cuts.append((0.0, started))
    else:
        play(tables, rate, seconds, threading.Event())
    stop.set()
    for h in helpers:
        h.join()
    played = time.time() - started

    deadline = time.monotonic() + 300
    for table in tables:
        if not table.sync.wait_synced(max(1.0, deadline - time.monotonic())):
            print(
                f"  {table.name}: not synced after the run ({table.sync.pending()} events "
                f"waiting: {table.sync.state.last_error})"
            )
    synced = time.time() - started
    club_cpu, pg_used = club.total_cpu() - club_start, pg_cpu.total() - pg_start
    pg_cpu.stop()

    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_name, game_id, seq, kind, actor, payload::text, "
            "idem_key, created_at, extract(epoch FROM received_at) "
            "FROM club_events"
        ).fetchall()
        peak = db.execute(
            "SELECT count(*) FROM club_events GROUP BY "
            "date_trunc('second', received_at) ORDER BY 1 DESC LIMIT 1"
        ).fetchone()
        span = db.execute(
            "SELECT extract(epoch FROM max(received_at) - min(received_at)) "
            "FROM club_events WHERE received_at > to_timestamp(%s)",
            (started,),
        ).fetchone()
    received = {}
    duplicated = 0
    for r in rows:
        key = (r[0], r[1], r[2])
        duplicated += key in received
        received[key] = r
    lost = differing = events = 0
    lag_clean: list[float] = []
    lag_all: list[float] = []
    lag_fault: list[float] = []
    for table in tables:
        faults_here = table.cuts + club.down
        for game in table.service.games(include_archived=True):
            for e in table.service.storage.events(game.id):
                events += 1
                row = received.get((table.name, game.id, e.seq))
                if row is None:
                    lost += 1
                    continue
                if (row[3], row[4], json.loads(row[5]), row[6], row[7]) != (
                    e.kind,
                    e.actor,
                    e.payload,
                    e.idem_key,
                    e.created_at,
                ):
                    differing += 1
                made = table.durable.get((game.id, e.seq))
                if made is None:
                    continue
                lag = float(row[8]) - made
                lag_all.append(lag)
                # "While the link was up": no fault from 5 s before the event (the sync's
                # longest pause between retries) until it reached the club.
                if any(a <= float(row[8]) and b >= made - 5 for a, b in faults_here):
                    lag_fault.append(lag)
                else:
                    lag_clean.append(lag)
    moves = [d for t in tables for _, d in t.moves]
    in_cut = [
        d
        for t in tables
        for when, d in t.moves
        if any(a <= when <= b for a, b in t.cuts + club.down)
    ]
    result = Result(
        n,
        played,
        events,
        lost,
        duplicated,
        differing,
        lag_clean,
        lag_all,
        lag_fault,
        moves,
        in_cut,
        club_cpu,
        pg_used,
        int(peak[0]) if peak else 0,
        sum(len(t.cuts) for t in tables),
        club.kills,
        synced,
        float(span[0]) if span and span[0] is not None else 0.0,
    )
    for table in tables:
        table.sync.stop()
        table.service.close()
    club.stop()
    network.close()
    return result


def ms(values: list[float], q: float) -> str:
    return f"{pct(values, q) * 1000:.0f} ms" if values else "-"


def report(r: Result, title: str) -> None:
    played = f"{r.seconds:.0f} s, " if r.seconds >= 1 else ""
    print(f"\n{title}: {r.tables} tables, {played}{r.events} events")
    print(
        f"  lost {r.lost}, duplicated {r.duplicated}, differing {r.differing}"
        + (f"; {r.cuts} link cuts, club server killed {r.kills} times" if r.kills or r.cuts else "")
    )
    if r.lag_clean:
        print(
            f"  sync lag, link up:    p50 {ms(r.lag_clean, 0.5)}, p99 "
            f"{ms(r.lag_clean, 0.99)} ({len(r.lag_clean)} events)"
        )
    if r.lag_fault:
        print(
            f"  sync lag, a fault:    p50 {ms(r.lag_fault, 0.5)}, p99 "
            f"{ms(r.lag_fault, 0.99)}, max {max(r.lag_fault):.1f} s ({len(r.lag_fault)} "
            "events made during or just after a cut or a kill)"
        )
    print(
        f"  a move at the table:  p50 {ms(r.moves, 0.5)}, p99 {ms(r.moves, 0.99)}"
        + (f"; during a fault p99 {ms(r.moves_in_cut, 0.99)}" if r.moves_in_cut else "")
    )
    if r.synced and r.span and r.seconds < 1:  # the hall back online
        print(
            f"  every table synced {r.synced:.1f} s after the links came back; the club "
            f"took {r.events} rows in {r.span:.1f} s: {r.events / r.span:.0f} rows/s, peak "
            f"{r.peak_rows} rows in one second"
        )
    else:
        print(
            f"  PostgreSQL: {r.events / r.seconds:.0f} rows/s on average, peak "
            f"{r.peak_rows} rows in one second"
        )
    per = 1000 / max(1, r.events)
    print(
        f"  CPU: club server {r.club_cpu:.1f} s ({r.club_cpu * per:.2f} s per 1000 events), "
        f"PostgreSQL {r.pg_cpu:.1f} s ({r.pg_cpu * per:.2f} s per 1000 events)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=2.0, help="of the faulty day")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per table per second")
    parser.add_argument("--scaling", default="10,30,100", help="table counts, no faults")
    parser.add_argument("--scaling-seconds", type=float, default=30)
    parser.add_argument(
        "--offline-moves",
        type=int,
        default=60,
        help="moves each table plays cut off before the hall comes back online",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # Every cut is a warning from each table's sync ("backup paused"): expected here.
    logging.getLogger("companion.club.sync").setLevel(logging.ERROR)
    print(describe())
    folder = private_folder("club-bench-pg-")
    pg = LocalPostgres(folder, random.randint(20000, 60000))
    pg.start(durable=True)
    print(
        f"PostgreSQL {psycopg.connect(pg.url).info.server_version} with fsync on; tables' "
        f"logs in {tempfile.gettempdir()}"
    )
    try:
        with tempfile.TemporaryDirectory(prefix="club-bench-") as tmp:
            work = Path(tmp)
            faulty = run(pg, args.tables, args.rate, args.minutes * 60, True, args.seed, work)
            report(faulty, "A convention day with faults")
            if args.offline_moves:
                hall = run(
                    pg, args.tables, args.rate, 0, False, args.seed, work, args.offline_moves
                )
                report(hall, "The hall's network down, then back")
            scaling = []
            for n in [int(x) for x in args.scaling.split(",") if x]:
                scaling.append(run(pg, n, args.rate, args.scaling_seconds, False, args.seed, work))
                report(scaling[-1], "Steady")
            if scaling:
                print("\nHow the cost grows (no faults):")
                print("  tables  events/s  lag p50  lag p99  club CPU/1000 ev  PG CPU/1000 ev")
                for r in scaling:
                    per = 1000 / max(1, r.events)
                    print(
                        f"  {r.tables:>6}  {r.events / r.seconds:>8.0f}  "
                        f"{ms(r.lag_clean, 0.5):>7}  {ms(r.lag_clean, 0.99):>7}  "
                        f"{r.club_cpu * per:>15.2f} s  {r.pg_cpu * per:>13.2f} s"
                    )
    finally:
        pg.destroy()


if __name__ == "__main__":
    main()
