"""Engine speed: actions per second, apply and legal_actions latency, whole-game replay.

    .venv/bin/python benchmarks/engine.py [--games N]

Targets: apply p99 under 1 ms, legal_actions p99 under 20 ms in Resolution with 8
dice and favors, a whole game replayed in under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from machine import describe, pct

from companion.gamefiles import GameFiles
from companion.games.new_don import NEW_DON, Phase, apply, legal_actions
from companion.games.new_don.boards import load_board
from companion.games.new_don.dice import Die
from companion.records import parse_record, replay
from companion.simulate import play

FILES = GameFiles(NEW_DON)

ROOT = Path(__file__).resolve().parents[1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def bench_random_games(games: int) -> list[float]:
    applies: list[float] = []
    total_actions = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        for before, action, _ in play(rng, 3 + seed % 4):
            t0 = time.perf_counter()
            apply(before, action)
            applies.append(time.perf_counter() - t0)
            total_actions += 1
    wall = time.perf_counter() - start
    print(
        f"random games: {games} games, {total_actions} actions, "
        f"{total_actions / sum(applies):,.0f} actions/s through apply "
        f"({total_actions / wall:,.0f}/s including the random players)"
    )
    print(
        f"apply: p50 {ms(pct(applies, 0.5))}, p99 {ms(pct(applies, 0.99))}, "
        f"max {ms(max(applies))}   (target p99 < 1 ms)"
    )
    return applies


def busy_resolution_states(count: int) -> list:
    """Resolution turns with 8 dice, soldiers on every Favor spot and a half-full map."""
    rng = random.Random(7)
    states = []
    for seed in range(count):
        # A mid-game position from a real random game, then a busy turn in it.
        game = list(play(random.Random(seed), 4))
        state = game[len(game) // 2][0]
        seat = rng.randrange(4)
        godfather = (seat + 1) % 4
        dice = tuple(Die(rng.randint(1, 6)) for _ in range(8))
        tokens = (1,) * len(state.board.favor_spots)
        players = list(state.players)
        players[seat] = replace(
            players[seat],
            dice=dice,
            favor_tokens=tokens,
            to_roll=0,
            muscle=state.board.muscle_track.number(5),
            house=8,
        )
        states.append(
            replace(
                state,
                players=tuple(players),
                phase=Phase.RESOLUTION,
                turn=seat,
                godfather=godfather,
            )
        )
    return states


def bench_legal_actions(count: int) -> None:
    times, sizes = [], []
    for state in busy_resolution_states(count):
        name = state.name(state.turn)
        t0 = time.perf_counter()
        actions = legal_actions(state, name)
        times.append(time.perf_counter() - t0)
        sizes.append(len(actions))
    print(
        f"legal_actions in Resolution with 8 dice and a soldier on every Favor spot: "
        f"{statistics.mean(sizes):.0f} actions on average; p50 {ms(pct(times, 0.5))}, "
        f"p99 {ms(pct(times, 0.99))}   (target p99 < 20 ms)"
    )


def bench_replay() -> None:
    for name in ("four-players.jsonl", "six-players.jsonl"):
        path = ROOT / "examples" / name
        text = path.read_text()
        runs = []
        for _ in range(20):
            t0 = time.perf_counter()
            record = parse_record(text)
            replay(record, FILES)
            runs.append(time.perf_counter() - t0)
        print(
            f"replay {name} ({len(record.actions)} actions, parse included): "
            f"median {ms(statistics.median(runs))}, worst {ms(max(runs))}   (target < 100 ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    # Boards are read and parsed once; keep that out of the timings.
    load_board(None, 4, FILES), load_board(None, 6, FILES)
    print(f"{describe()}, one core")
    bench_random_games(args.games)
    bench_legal_actions(200)
    bench_replay()


if __name__ == "__main__":
    main()
