"""Power-cord safety: kill a process playing a game with SIGKILL, again and again.

A separate process plays a scripted 6-player game of 327 actions against the table service
and is killed at random moments, at least 30 times. After every kill the test opens the data
folder itself and checks that every acknowledged action is there, that nothing is half-applied
(the log is the game's own moves, in order, at most one beyond the last acknowledgement), and
that the live state equals a fresh replay of the log.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from new_don_boards import FILES

from companion.records import parse_record, replay
from companion.simulate import simulate
from companion.table import TableService

DRIVER = Path(__file__).with_name("crash_driver.py")
ROOT = Path(__file__).resolve().parents[2]
PLAYERS, SEED = 6, 1
MIN_KILLS = 30


def run_until_killed(data: Path, acks: int, delay: float, acked: dict[int, int]) -> bool:
    """Start the driver; SIGKILL it ``delay`` seconds after its ``acks``-th acknowledgement
    (0: while it starts up). True if it finished the game first.

    Counting acknowledgements, not seconds, keeps the number of kills the same on a fast or a
    slow machine; the extra few milliseconds land the kill anywhere inside the next write."""
    proc = subprocess.Popen(
        [sys.executable, str(DRIVER), str(data), str(PLAYERS), str(SEED)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    reached = threading.Event()
    done = threading.Event()
    seen = 0

    def read() -> None:
        nonlocal seen
        assert proc.stdout is not None
        for line in proc.stdout:
            word, *rest = line.split()
            if word == "READY" and acks == 0:
                reached.set()
            elif word == "ACK":
                acked[int(rest[0])] = int(rest[1])
                seen += 1
                if seen >= acks:
                    reached.set()
            elif word == "DONE":
                done.set()
                reached.set()

    reader = threading.Thread(target=read)
    reader.start()
    reached.wait(timeout=60)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    reader.join()
    return done.is_set()


def check(data: Path, moves: list[dict], acked: dict[int, int], setup: dict, before: int) -> int:
    """Check the data folder after a kill; ``before`` is the log's length before this life."""
    service = TableService(data)
    try:
        [game] = service.games()
        log = [a.to_dict() for _, a in game.effective]
        # Every acknowledged action is there, with the seq it was acknowledged with.
        for index, seq in acked.items():
            assert log[index] == moves[index]
            assert game.effective[index][0] == seq
        # Nothing half-applied and nothing invented: the log is a prefix of the game, and each
        # life adds at most one move it did not acknowledge (stored, then killed before the
        # ACK was printed; a retry with the same key would be answered as a duplicate).
        assert log == moves[: len(log)]
        assert len(log) <= max(before, max(acked, default=-1) + 1) + 1
        # The state is the replay of the log.
        text = "\n".join(__import__("json").dumps(x) for x in [setup, *log])
        assert replay(parse_record(text), FILES) == game.state
        return len(log)
    finally:
        service.close()


def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path):
    record = simulate(PLAYERS, SEED)
    setup, moves = record[0], record[1:]
    assert len(moves) >= 300
    rng = random.Random(20261122)
    acked: dict[int, int] = {}
    kills = 0
    finished = False
    length = 0
    while not finished:
        # Short lives, so the game needs many restarts; some die while starting up.
        finished = run_until_killed(tmp_path, rng.randint(0, 4), rng.uniform(0, 0.004), acked)
        kills += not finished
        length = check(tmp_path, moves, acked, setup, length)
    assert kills >= MIN_KILLS, f"only {kills} kills before the game ended"
    assert length == len(moves)
