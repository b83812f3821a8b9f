"""End to end: simulated smart dice roll every die of a whole game through the table service."""

from __future__ import annotations

import random
import time

import pytest

from companion.dice.service import DiceService
from companion.dice.sources import SourceSpec
from companion.dice.table import DiceBridge
from companion.games.new_don import legal_actions, waiting_for
from companion.simulate import random_setup
from companion.table import Refused, TableService

DICE_WAITS = {"roll", "vegas_roll", "godfather_roll"}


def test_simulated_dice_play_every_roll_of_a_game_through_the_table_service(tmp_path):
    service = TableService(tmp_path / "games")
    setup = random_setup(4)
    game = service.create_game(setup)
    bridge = DiceBridge(service, game.id)
    simulated = SourceSpec(
        "simulated", {"sets": game.rules.dice_sets(game.state), "roll_time": 0.0}
    )
    dice = DiceService(
        tmp_path / "dice",
        table="test",
        on_action=bridge.offer,
        sources=[simulated],
        tick=0.01,
        early_grace=0.0,
    )
    bridge.start(dice)
    rng = random.Random(4)
    deadline = time.monotonic() + 120
    try:
        while not service.game(game.id).state.is_over:
            assert time.monotonic() < deadline, "the game stalled"
            g = service.game(game.id)
            choices = [w for w in waiting_for(g.state) if w.does not in DICE_WAITS]
            if not choices:
                time.sleep(0.002)  # only dice are awaited: the simulated dice will roll
                continue
            w = rng.choice(choices)
            options = legal_actions(g.state, w.player)
            sets = [a for a in options if a.TYPE in ("claim", "muscle_out")]
            action = (
                rng.choice(sets)
                if sets and rng.random() < 0.8
                else (options[0] if w.does in ("resolve", "reroll") else rng.choice(options))
            )
            try:
                service.submit(game.id, action, actor=f"player:{w.player}", expected_seq=g.seq)
            except Refused as exc:
                assert exc.code == "stale", exc  # the dice moved the game on meanwhile
    finally:
        bridge.stop()
    g = service.game(game.id)
    dice_moves = [e for e in g.events if e.actor == "dice"]
    assert g.status == "finished" and not bridge.refused
    assert len(dice_moves) >= 20  # every roll of the game came off the dice
    assert {e.payload["type"] for e in dice_moves} >= {"godfather_roll", "roll"}
    assert not any(
        e.actor.startswith("player:") and e.payload["type"] in DICE_WAITS for e in g.events
    )
    service.close()


def test_the_table_dice_follow_the_game_being_played(tmp_path):
    from companion.dice.phone import PhoneEntryError
    from companion.dice.table import TableDice

    service = TableService(tmp_path / "games")
    first = service.create_game(random_setup(3))
    second = service.create_game(random_setup(4))
    dice = TableDice(service, tmp_path / "dice", mode="phone", tick=0.01, early_grace=0.0)
    try:
        dice.follow(first.id)
        dice.enter(first.id, "Maria", [6])  # phone entry: Maria's roll for Godfather
        deadline = time.monotonic() + 10
        while not service.game(first.id).effective and time.monotonic() < deadline:
            time.sleep(0.01)
        [(_, action)] = service.game(first.id).effective
        assert action.to_dict() == {"type": "godfather_roll", "player": "Maria", "face": 6}
        assert service.game(first.id).events[-1].actor == "dice"
        with pytest.raises(PhoneEntryError) as err:
            dice.enter(second.id, "Vincent", [2, 3])  # the dice move to the other game
        assert dice.game_id == second.id
        assert "Vincent" in str(err.value)  # a sentence for Vincent's phone
    finally:
        dice.stop()
    service.close()


def test_a_source_added_to_the_table_feeds_the_game_being_played(tmp_path):
    """A source added to the table's dice (here one pumping a camera's readings behind Maria's
    screen: its owner is in its source name, as vision.source.CameraDiceSource names it)
    reaches the followed game, and stays with the table when it moves to the next game."""
    import queue

    from companion.dice.reading import DieReading, DieState
    from companion.dice.source import Need, PumpedSource
    from companion.dice.table import TableDice

    service = TableService(tmp_path / "games")
    game = service.create_game(random_setup(3))
    dice = TableDice(service, tmp_path / "dice", mode="phone", tick=0.01, early_grace=0.0)
    frames: queue.Queue = queue.Queue()

    def wait_for_action(game_id):
        deadline = time.monotonic() + 10
        while not service.game(game_id).effective and time.monotonic() < deadline:
            time.sleep(0.01)
        [(_, action)] = service.game(game_id).effective
        return action.to_dict()

    try:
        dice.follow(game.id)
        dice.add_source(PumpedSource("cam0", lambda: iter(frames.get, None), needs=Need.CAMERA))
        frames.put(
            DieReading(
                "camera:cam0:Maria", "cam0/0", DieState.SETTLED, face=5, roll=1, confidence=0.97
            )
        )
        assert wait_for_action(game.id) == {"type": "godfather_roll", "player": "Maria", "face": 5}
        second = service.create_game(random_setup(3))
        dice.follow(second.id)
        frames.put(DieReading("camera:cam0:Maria", "cam0/0", DieState.SETTLED, face=2, roll=2))
        assert wait_for_action(second.id) == {
            "type": "godfather_roll",
            "player": "Maria",
            "face": 2,
        }
        assert len(service.game(game.id).effective) == 1  # the first game heard no more
    finally:
        frames.put(None)
        dice.stop()
    service.close()
