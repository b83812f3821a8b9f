"""Plays a scripted game against the table service until killed (run by test_table_crash.py).

    python crash_driver.py DATA_DIR PLAYERS SEED

It creates the game on first start and, on every later start, resumes where the log says the
game is. After each acknowledged action it prints ``ACK <index> <seq>`` and flushes, so the
test knows exactly which actions were acknowledged before the SIGKILL.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.simulate import simulate
from companion.table import TableService


def main() -> None:
    data, players, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    record = simulate(players, seed)
    setup, moves = record[0], record[1:]
    service = TableService(data)
    games = service.games()
    game = games[0] if games else service.create_game(setup)
    print(f"READY {game.id}", flush=True)
    while True:
        g = service.game(game.id)
        i = len(g.effective)
        if i == len(moves):
            print("DONE", flush=True)
            return
        ack = service.submit(game.id, moves[i], actor="host", expected_seq=g.seq, key=f"move-{i}")
        print(f"ACK {i} {ack.seq}", flush=True)


if __name__ == "__main__":
    main()
