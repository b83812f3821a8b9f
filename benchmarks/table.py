"""Table service speed: durable accepts, and restart.

    .venv/bin/python benchmarks/table.py [--games N]

Each accepted action is checked by the engine, committed to SQLite (WAL, synchronous=FULL: one
fsync per action) and published to a subscriber that builds every player's view, the way the
web app will. Targets: accept + store + publish under 5 ms at p99 here (20 ms on a
Raspberry Pi class machine), restart under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from machine import describe, pct

from companion.games.new_don import player_view
from companion.simulate import simulate
from companion.table import TableService


def fsync_floor(folder: Path, n: int = 300) -> tuple[float, float]:
    """p50 and p99 of one small write + fsync on this disk: no durable accept can beat it."""
    import os

    times = []
    with open(folder / "fsync-probe", "wb") as f:
        for _ in range(n):
            t0 = time.perf_counter()
            f.write(b"x" * 200)
            f.flush()
            os.fsync(f.fileno())
            times.append(time.perf_counter() - t0)
    return pct(times, 0.5), pct(times, 0.99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="6-player games to play")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        print(f"{describe()}; data folder on {data}")
        service = TableService(data)
        views = 0

        def publish(event) -> None:
            nonlocal views
            for p in event.state.players:
                player_view(event.state, p.name)
                views += 1
            player_view(event.state, None)

        service.subscribe(publish)
        latencies: list[float] = []
        start = time.perf_counter()
        total = 0
        for seed in range(args.games):
            record = simulate(6, seed + 1)
            game = service.create_game(record[0])
            seq = 0
            for i, action in enumerate(record[1:]):
                t0 = time.perf_counter()
                seq = service.submit(
                    game.id, action, actor="host", expected_seq=seq, key=f"{seed}-{i}"
                ).seq
                latencies.append(time.perf_counter() - t0)
                total += 1
        wall = time.perf_counter() - start
        service.close()
        print(
            f"accepted {total} actions in {args.games} six-player games: "
            f"{total / wall:,.0f} actions/s, durable (one fsync each), "
            f"{views:,} player views published"
        )
        print(
            f"accept + store + publish: p50 {pct(latencies, 0.5) * 1000:.2f} ms, "
            f"p99 {pct(latencies, 0.99) * 1000:.2f} ms, max {max(latencies) * 1000:.2f} ms"
            "   (target p99 < 5 ms here)"
        )
        f50, f99 = fsync_floor(data)
        print(
            f"this disk's floor, one write + fsync: p50 {f50 * 1000:.2f} ms, "
            f"p99 {f99 * 1000:.2f} ms (every durable accept pays it once)"
        )
        restarts = []
        for _ in range(5):
            t0 = time.perf_counter()
            TableService(data).close()
            restarts.append(time.perf_counter() - t0)
        print(
            f"restart with {args.games} finished six-player games ({total} actions) on disk: "
            f"median {statistics.median(restarts) * 1000:.0f} ms   (target < 1 s)"
        )


if __name__ == "__main__":
    main()
