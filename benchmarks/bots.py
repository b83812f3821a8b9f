"""How strong and how fast the bots are: four-player games of A New Don, per pairing.

    .venv/bin/python benchmarks/bots.py [--games 1000] [--jobs 2] [--pairings vs-random,...]
                                        [--results FILE] [--timed]

Each pairing seats a line-up of four players (a bot level, ``standard:N`` for the standard bot
searching N iterations a move, or a baseline: ``random``, the game's own random moves;
``greedy``, the best immediate claim); game *i* rotates the line-up
by *i* seats, so every player sits in every seat equally often, and rolls the dice from seed
*i*. Results go to ``--results`` one game per line as they finish, so an interrupted run
resumes where it stopped (and ``--jobs`` games run at once). The table gives each player's
share of the wins (a shared win counts a fraction) with its 95% Wilson interval, and each bot
level's time per move (moves with more than one choice). Where the four players differ (the
``levels`` ladder) it also gives each rung against the next at the same tables: how often it
finished ahead and by how many points, which tells close players apart in fewer games.

Bots search a fixed number of iterations per move, so a game plays the same on any machine;
``--timed`` adds each level's time cap as a table would use it.

Targets (the bots' issue): the standard level wins at least 90% against three random players
and at least 40% against three greedy ones; the top level beats the lower ones; a move takes
under 200 ms at the standard level on one core here.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from machine import describe, pct

from companion.bots import LEVELS, Bot
from companion.bots.arena import Seat, bot_seat, play
from companion.bots.baselines import greedy_player, random_player
from companion.games import game
from companion.simulate import random_setup

ROOT = Path(__file__).resolve().parents[1]
PAIRINGS = {
    "vs-random": ("standard", "random", "random", "random"),
    "vs-greedy": ("standard", "greedy", "greedy", "greedy"),
    "levels": ("standard", "easy", "greedy", "random"),
    "easy-vs-random": ("easy", "random", "random", "random"),
    "easy-vs-greedy": ("easy", "greedy", "greedy", "greedy"),
    "standard-vs-easy": ("standard", "easy", "easy", "easy"),
    # Does more search make a stronger bot? (It has not: docs/bots.md, "the levels".)
    "search-20": ("standard:20", "standard", "standard", "standard"),
    "search-600": ("standard:600", "standard", "standard", "standard"),
}
DEFAULT = ("vs-random", "vs-greedy", "levels")


def seat_for(kind: str, timed: bool) -> Seat:
    if kind == "random":
        return Seat(random_player, label=kind)
    if kind == "greedy":
        return Seat(greedy_player, label=kind)
    level, _, iterations = kind.partition(":")  # "standard:600": 600 iterations a move
    bot = Bot(
        game("new-don"),
        level,
        seconds=None if timed else 0,
        iterations=int(iterations) if iterations else None,
    )
    return bot_seat(bot)


def one_game(job: tuple[str, int, bool]) -> dict[str, Any]:
    """Play game ``index`` of ``pairing``: who sat where, who won, the bots' move times."""
    pairing, index, timed = job
    lineup = PAIRINGS[pairing]
    setup = random_setup(4)
    names = [p["name"] for p in setup["players"]]
    kinds = [lineup[(i + index) % 4] for i in range(4)]
    seats = {name: seat_for(kind, timed) for name, kind in zip(names, kinds, strict=True)}
    began = time.process_time()
    last = None
    for step in play(setup, seats, index):
        last = step.after
    rules = game("new-don")
    assert last is not None and rules.is_over(last)
    scores = rules.score(last)
    return {
        "pairing": pairing,
        "game": index,
        "timed": timed,
        "kinds": dict(zip(names, kinds, strict=True)),
        "winners": scores["winners"],
        "totals": scores["totals"],
        "seconds": round(time.process_time() - began, 3),  # CPU time: the machine is shared
        "moves": {
            name: [round(s, 5) for s in seats[name].seconds]
            for name, kind in zip(names, kinds, strict=True)
            if kind.partition(":")[0] in LEVELS
        },
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def head_to_head(games: list[dict[str, Any]], a: str, b: str) -> str:
    """How ``a`` fared against ``b`` at the same tables: the share of games it finished
    ahead (a tie counts half; 95% Wilson interval) and its mean lead in points (95% normal
    interval). Every game compares the two, where a win share counts only the one winner:
    so this tells two close levels apart in fewer games."""
    ahead, leads = 0.0, []
    for r in games:
        seat = {kind: name for name, kind in r["kinds"].items()}
        lead = r["totals"][seat[a]] - r["totals"][seat[b]]
        ahead += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        leads.append(lead)
    n = len(leads)
    low, high = wilson(ahead, n)
    mean = statistics.mean(leads)
    half = 1.96 * statistics.stdev(leads) / math.sqrt(n) if n > 1 else math.inf
    return (
        f"{a} ahead of {b} in {ahead / n:.1%} ({low:.1%}-{high:.1%}), "
        f"by {mean:+.2f} points ({mean - half:+.2f} to {mean + half:+.2f})"
    )


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def report(results: list[dict[str, Any]], pairings: list[str], timed: bool) -> None:
    print(describe())
    print("A New Don, 4 players, 3-4 board; each line-up rotated through the seats.\n")
    print(f"{'pairing':<20} {'player':<9} {'games':>5} {'wins':>7} {'win rate':>9}   95% interval")
    times: dict[str, list[float]] = defaultdict(list)
    for pairing in pairings:
        games = [r for r in results if r["pairing"] == pairing and r["timed"] == timed]
        if not games:
            continue
        wins: dict[str, float] = defaultdict(float)
        seats: dict[str, int] = defaultdict(int)
        for r in games:
            for name, kind in r["kinds"].items():
                seats[kind] += 1
                if name in r["winners"]:
                    wins[kind] += 1 / len(r["winners"])
            for name, moves in r["moves"].items():
                times[r["kinds"][name]] += moves
        for kind in dict.fromkeys(PAIRINGS[pairing]):
            n = seats[kind]
            low, high = wilson(wins[kind], n)
            print(
                f"{pairing:<20} {kind:<9} {n:>5} {wins[kind]:>7.1f} {wins[kind] / n:>8.1%}"
                f"   {low:.1%}-{high:.1%}"
            )
        hours = sum(r["seconds"] for r in games) / 3600
        print(f"{'':<20} ({len(games)} games, {hours:.2f} h of one core)")
        kinds = list(dict.fromkeys(PAIRINGS[pairing]))
        if len(kinds) == len(PAIRINGS[pairing]):  # a ladder: each rung against the next
            for better, worse in itertools.pairwise(kinds):
                print(f"{'':<20} {head_to_head(games, better, worse)}")
    print("\ntime per move (moves with a choice), one core:")
    for kind in LEVELS:
        moves = times.get(kind)
        if moves:
            print(
                f"  {kind:<9} mean {statistics.mean(moves) * 1000:6.1f} ms, "
                f"p50 {pct(moves, 0.5) * 1000:6.1f} ms, p95 {pct(moves, 0.95) * 1000:6.1f} ms, "
                f"max {max(moves) * 1000:6.1f} ms  ({len(moves)} moves)"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--pairings", default=",".join(DEFAULT), help=f"comma-separated, of: {', '.join(PAIRINGS)}"
    )
    parser.add_argument("--results", default=str(ROOT / "benchmarks" / "results" / "bots.jsonl"))
    parser.add_argument("--timed", action="store_true", help="bots also keep their time caps")
    parser.add_argument("--report", action="store_true", help="print the table, play nothing")
    args = parser.parse_args()
    pairings = [p.strip() for p in args.pairings.split(",") if p.strip()]
    unknown = [p for p in pairings if p not in PAIRINGS]
    if unknown:
        parser.error(f"unknown pairing {', '.join(unknown)}; choose from {', '.join(PAIRINGS)}")
    path = Path(args.results)
    path.parent.mkdir(parents=True, exist_ok=True)
    results = load(path)
    done = {(r["pairing"], r["game"], r["timed"]) for r in results}
    # Game by game across the pairings: a run stopped early has a little of each.
    jobs = [
        (p, i, args.timed)
        for i in range(args.games)
        for p in pairings
        if (p, i, args.timed) not in done
    ]
    if jobs and not args.report:
        print(f"{len(jobs)} games to play ({len(done)} already in {path})", file=sys.stderr)
        with path.open("a", encoding="utf-8") as out, multiprocessing.Pool(args.jobs) as pool:
            for n, result in enumerate(pool.imap_unordered(one_game, jobs), 1):
                out.write(json.dumps(result) + "\n")
                out.flush()
                results.append(result)
                if n % 50 == 0:
                    print(f"  {n}/{len(jobs)} games", file=sys.stderr)
    report(results, pairings, args.timed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
