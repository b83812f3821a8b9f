"""Bots play whole games legally, the same way from the same seed, and sensibly where the
answer is plain (each scenario reads like a rulebook example). Strength is measured by
benchmarks/bots.py, not here."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from scenario import arrange, table

from companion.bots import Bot
from companion.bots.arena import Seat, bot_seat, play
from companion.bots.baselines import greedy_player, random_player
from companion.bots.new_don import Board, Market, NewDonKnowledge, Position
from companion.gamefiles import GameFiles
from companion.games import game
from companion.games.new_don import Claim, MuscleOut, Phase, Request, State
from companion.records import parse_record, replay
from companion.simulate import random_setup, simulate_text

NEW_DON = game("new-don")
ROOT = Path(__file__).resolve().parents[2]


def quick(level: str = "standard") -> Bot:
    return Bot(NEW_DON, level, seconds=0, iterations=10)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bots_play_a_whole_game_to_its_end_with_every_move_legal(players: int) -> None:
    setup = random_setup(players)
    names = [p["name"] for p in setup["players"]]
    seats = {
        names[0]: bot_seat(quick()),
        names[1]: bot_seat(quick("easy")),
        names[2]: Seat(greedy_player),
        names[-1]: Seat(random_player),
    }
    steps = list(play(setup, seats, players))  # play applies every move: illegal ones raise
    assert NEW_DON.is_over(steps[-1].after)
    assert {s.action.player for s in steps if s.seat == "standard"} == {names[0]}


def test_the_same_seed_plays_the_same_game_and_the_record_replays() -> None:
    first, count = simulate_text(4, 11, bots=2, level="easy")
    again, _ = simulate_text(4, 11, bots=2, level="easy")
    assert first == again
    assert "# Bots (easy) play Claire and Vincent" in first
    record = parse_record(first)
    state = replay(record, GameFiles(record.game))
    assert NEW_DON.is_over(state) and len(record.actions) == count


def test_a_searching_bot_is_deterministic_with_a_seed() -> None:
    setup = random_setup(4)
    runs = []
    for _ in range(2):
        seats = {"Claire": bot_seat(quick())}
        runs.append([s.action for s in play(setup, seats, 3)])
    assert runs[0] == runs[1]


def test_the_generic_bot_plays_cash_n_guns_legally() -> None:
    """Any game plays through the protocol alone (no knowledge of its own)."""
    cng = game("cash-n-guns")
    setup = random_setup(4, game_id="cash-n-guns")
    seats = {
        name: bot_seat(Bot(cng, "standard", seconds=0, iterations=8))
        for name in ("Claire", "Vincent")
    }
    steps = list(play(setup, seats, 2))
    assert cng.is_over(steps[-1].after)
    assert any(s.seat == "standard" for s in steps)


# --- what a pool of dice is worth, and the plain choices -----------------------------------


def market(state, me: str) -> Market:
    knowledge = NewDonKnowledge(NEW_DON)
    return Market(knowledge.position(state, me), me)


def test_a_pair_is_worth_the_open_neighborhood_it_claims() -> None:
    state = arrange(table(), turn="Johnny", dice={"Johnny": [4, 4, 1, 2, 6]})
    plan = market(state, "Johnny").plan([4, 4, 1, 2, 6])
    assert [faces for faces, _, _ in plan.sets] == [(4, 4)]
    # 4-4 and 1-2 are no straight, but 1-2-3 would be: a 3 makes two sets
    assert len(market(state, "Johnny").plan([4, 4, 1, 2, 3]).sets) == 2


def test_a_full_group_sends_the_set_to_a_muscle_out_only_from_above() -> None:
    pairs = {f"4{x}": "Claire" for x in "abcd"}
    low = arrange(table(), turn="Johnny", held=pairs, muscle={"Johnny": "B", "Claire": "D"})
    assert market(low, "Johnny").plan([4, 4]).sets == ()
    high = arrange(table(), turn="Johnny", held=pairs, muscle={"Johnny": "5", "Claire": "D"})
    ((faces, hood, victim),) = market(high, "Johnny").plan([4, 4]).sets
    assert faces == (4, 4) and hood in pairs and victim == "Claire"


def test_the_bot_claims_the_last_open_neighborhood_for_its_pair() -> None:
    """Claire's 3-3 has one place left to go: 3D. The bot claims it, and says so. (She
    holds no favor: an extra die first, hoping for a triple of 3s, would be a fair choice.)"""
    held = {"3a": "Maria", "3b": "Vincent", "3c": "Maria"}
    state = arrange(
        table(),
        turn="Claire",
        held=held,
        dice={"Claire": [3, 3, 1, 6, 6]},
        muscle={"Claire": "Zero Zone"},
        favors={"Claire": {}},
    )
    bot = quick()
    action = bot.choose(bot.observe(state, "Claire", random.Random(1)), random.Random(1)).action
    assert isinstance(action, Claim | MuscleOut)
    board = NEW_DON.table_data(state)
    after = NEW_DON.apply(state, Claim("Claire", "3d", (3, 3)))
    reason = bot.knowledge.reason(
        board,
        NEW_DON.player_view(state, None),
        NEW_DON.action_view(state, Claim("Claire", "3d", (3, 3)), None),
        NEW_DON.player_view(after, None),
    )
    assert reason == "claims 3D: the last open neighborhood for pair of 3s"


def offers_under_way(held: dict[str, str] | None = None) -> State:
    """Maria the Godfather with 6, 6, 2, 3, 1 and her offers about to start: Johnny (who
    also holds a 6), Claire and Vincent have revealed favors 1, 2 and 1."""
    state = arrange(
        table(),
        phase=Phase.ROLL,
        held=held,
        dice={
            "Maria": [6, 6, 2, 3, 1],
            "Johnny": [1, 6, 4, 4, 2],
            "Claire": [2, 2, 3, 5, 5],
            "Vincent": [1, 1, 2, 5, 6],
        },
    )
    for name, favor in (("Johnny", 1), ("Claire", 2), ("Vincent", 1)):
        state = NEW_DON.apply(
            state, NEW_DON.action_from_dict({"type": "reveal_favor", "player": name, "face": favor})
        )
    return state


@pytest.mark.xfail(
    strict=True,
    reason=(
        "the search prefers asking Johnny for his 1 (or for a 2) at 40, 180 and 600 "
        "iterations, with no world discarded: from Maria's view Johnny holds a 6 only about "
        "half the time, and the rollouts value the sure die higher; the reading that the 6 "
        "is best assumed he has it"
    ),
)
def test_the_godfather_asks_for_the_number_that_completes_a_triple() -> None:
    """Maria, the Godfather, holds 6-6 and a spare; every pair of 6s is held, both triples
    of 6s are open. Johnny showed a 1 as his favor: she asks him for a 6 rather than take
    his 1. (With a pair of 6s still open, a third 6 adds nothing: a triple claims one
    neighborhood, as a pair does.)"""
    held = {"6a": "Claire", "6b": "Vincent", "6c": "Claire", "6d": "Vincent"}
    state = offers_under_way(held)
    assert NEW_DON.waiting_for(state)[0].does == "offer"
    bot = Bot(NEW_DON, "standard", seconds=0, iterations=40)
    action = bot.choose(bot.observe(state, "Maria", random.Random(2)), random.Random(2)).action
    assert action == Request("Maria", "Johnny", 6)


def test_a_reroll_keeps_the_pair_and_rolls_the_rest() -> None:
    knowledge = NewDonKnowledge(NEW_DON)
    state = arrange(table(), dice={"Johnny": [5, 5, 1, 3, 2]})
    pos = knowledge.position(state, "Johnny")
    plan = knowledge.market(pos, "Johnny").plan([5, 5, 1, 3, 2])
    kept = sorted(f for faces, _, _ in plan.sets for f in faces)
    assert kept in ([1, 2, 3, 5, 5], [5, 5])  # the pair, and maybe the straight 1-2-3


def test_board_words_are_read_into_sets() -> None:
    board = Board.read(NEW_DON.table_data(table()), wrap=False)
    kinds = {h.kind for h in board.hoods}
    assert kinds == {"pair", "triple", "four", "straight"}
    assert board.by_id["3i"].sets == ((3, 3, 3, 3),)  # District Three's ninth: four 3s
    straight = next(h for h in board.hoods if h.kind == "straight" and h.district == 1)
    assert straight.sets == ((1, 2, 3),)
    wrapped = Board.read(NEW_DON.table_data(table()), wrap=True)
    assert len(next(h for h in wrapped.hoods if h.id == straight.id).sets) == 3


def test_positions_score_as_the_engine_does() -> None:
    """The bots' own reckoning of the score (for positions that do not exist yet) agrees
    with the engine's on real positions."""
    knowledge = NewDonKnowledge(NEW_DON)
    for step in play(random_setup(4), {}, 9):
        pos = Position.read(
            knowledge.board(step.after, NEW_DON.player_view(step.after, None)),
            NEW_DON.player_view(step.after, None),
        )
        assert pos.totals() == NEW_DON.score(step.after)["totals"]


def test_worlds_keep_every_coming_target_s_favor() -> None:
    """During the offers, a world in which a player the Godfather has still to reach lacks
    the favor die they revealed is ruled out, not only one where the current target does."""
    state = offers_under_way()
    knowledge = NewDonKnowledge(NEW_DON)
    view = NEW_DON.player_view(state, "Maria")
    assert view["offer"]["target"] == "Johnny"
    assert knowledge.consistent(state, view, "Maria")
    vincent = state.seat("Vincent")
    no_favor = tuple(replace(d, face=5) for d in state.players[vincent].dice)
    world = state.with_player(vincent, dice=no_favor)
    assert not knowledge.consistent(world, view, "Maria")
    # Vincent's own view knows his dice: what he revealed is his to see.
    assert knowledge.consistent(world, NEW_DON.player_view(state, "Vincent"), "Vincent")


def test_the_benchmark_plays_and_prints_the_ladder(tmp_path: Path) -> None:
    """``benchmarks/bots.py`` on two games of the levels ladder: a result line per game, the
    win-rate table, and each rung against the next (a second run resumes: nothing to play)."""
    results = tmp_path / "bots.jsonl"
    command = [sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--games", "2"]
    command += ["--pairings", "levels", "--results", str(results)]
    first = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    assert len(results.read_text().splitlines()) == 2
    assert re.search(r"levels\s+standard\s+2\s", first.stdout)
    assert re.search(r"standard ahead of easy in \d+\.\d%", first.stdout)
    assert "easy ahead of greedy" in first.stdout and "greedy ahead of random" in first.stdout
    again = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    assert "games to play" not in again.stderr and again.stdout == first.stdout
