"""A whole game whose every roll comes off simulated smart dice, through the real dice layer.

The table: Maria's family on Pixels (current firmware), Johnny's on GoDice (connected, five
links), Claire's on legacy-firmware Pixels, Vincent typing on his phone, and three red Pixels
for Vegas. The dice speak their real protocol bytes through the fake bleak backend; the radio
thread, scanner, connections, trackers and hub are the real code. A "table robot" plays the
people: it rolls the physical dice the hub asks for (its RollWanted events, as the table
screen would prompt), lends red dice as the table page would, and makes the non-dice choices
as the game's own ``random_action`` does. Every Roll, VegasRoll and GodfatherRoll applied to the
engine comes out of the hub, and the game must reach its end.
"""

from __future__ import annotations

import queue
import random
import time
from pathlib import Path

from new_don_boards import board_for_players

from companion.dice.assignment import Assignment, DieRef
from companion.dice.fakeble import FakeAir, FakeDevice, FakeGoDice, FakePixel
from companion.dice.hub import DiceEvent, DiceProblem, RollWanted
from companion.dice.pixels_source import die_id_of
from companion.dice.radio import BleRadio
from companion.dice.service import DiceService
from companion.games.new_don import (
    NEW_DON,
    GodfatherRoll,
    Roll,
    Seat,
    Setup,
    State,
    VegasRoll,
    apply,
    new_game,
    waiting_for,
)
from companion.games.new_don.legal import VEGAS

SEATS = (("Maria", "red"), ("Johnny", "blue"), ("Claire", "green"), ("Vincent", "yellow"))


def build_table() -> tuple[FakeAir, Assignment, dict[str, list[FakeDevice]]]:
    air = FakeAir(interval=0.05)
    assignment = Assignment()
    dice: dict[str, list[FakeDevice]] = {}

    def pixel(owner: str, n: int, legacy: bool = False) -> FakeDevice:
        pid = 0x50000000 + n
        device = air.add(FakePixel(f"C0:00:00:00:00:{n:02X}", pid, legacy=legacy))
        assignment.assign(DieRef("pixels", die_id_of(pid)), owner)
        return device

    dice["red"] = [pixel("red", i) for i in range(1, 6)]
    dice["green"] = [pixel("green", i, legacy=True) for i in range(6, 11)]
    dice[VEGAS] = [pixel(VEGAS, i) for i in range(11, 14)]
    dice["blue"] = []
    for i in range(1, 6):
        address = f"D0:00:00:00:00:{i:02X}"
        dice["blue"].append(air.add(FakeGoDice(address, seed=i)))
        assignment.assign(DieRef("godice", address), "blue", shell="D6")
    return air, assignment, dice


class TableRobot:
    """The people at the table: roll what is asked, on the dice they own."""

    def __init__(
        self, svc: DiceService, air: FakeAir, dice: dict[str, list[FakeDevice]], rng: random.Random
    ) -> None:
        self.svc, self.air, self.dice, self.rng = svc, air, dice, rng
        self.colour = dict(SEATS)
        self.wanted: queue.Queue[RollWanted] = queue.Queue()
        self.problems: list[DiceProblem] = []
        self.red_lent: dict[int, str] = {}
        self.rolled_by_phone = 0
        self.rolled_by_dice = 0

    def on_event(self, event: DiceEvent) -> None:
        if isinstance(event, RollWanted):
            self.wanted.put(event)
        elif isinstance(event, DiceProblem):
            self.problems.append(event)

    def roll_wanted(self, state: State) -> None:
        while True:
            try:
                w = self.wanted.get_nowait()
            except queue.Empty:
                return
            self.roll(state, w)

    def roll(self, state: State, w: RollWanted) -> None:
        family = self.colour[w.player]
        if w.does == "vegas_roll":
            self.red_lent.clear()
            chosen = list(self.dice[VEGAS])
        elif family == "yellow" or w.dice > 5 + 3:
            self.svc.enter(w.player, [self.rng.randint(1, 6) for _ in range(w.dice)])
            self.rolled_by_phone += 1
            return
        else:
            own = self.dice[family][: w.dice]
            chosen = list(own)
            for i, red in enumerate(self.dice[VEGAS]):
                if len(chosen) == w.dice:
                    break
                if self.red_lent.get(i, w.player) == w.player:
                    self.red_lent[i] = w.player
                    self.svc.hub.lend(DieRef("pixels", die_id_of(red.pixel_id)), w.player)
                    chosen.append(red)
            if len(chosen) < w.dice:  # not enough dice in hand: type it in instead
                self.svc.enter(w.player, [self.rng.randint(1, 6) for _ in range(w.dice)])
                self.rolled_by_phone += 1
                return
        self.rolled_by_dice += 1
        for device in chosen:
            face = self.rng.randint(1, 6)
            self.air.run(device.roll(face, self.rng.uniform(0.005, 0.03)))  # type: ignore[attr-defined]


def test_a_whole_game_rolled_on_smart_dice(tmp_path: Path) -> None:
    rng = random.Random(7)
    air, assignment, dice = build_table()
    svc = DiceService(
        tmp_path,
        "test-table",
        sources=["pixels", "godice"],
        radio=BleRadio(
            scanner_backend=air.scanner_backend, client_backend=air.client_backend, slots=5
        ),
    )
    svc.assignment.dice.update(assignment.dice)
    svc.assignment.settings.update(assignment.settings)
    svc.godice.wanted.update({r.die_id: 0 for r in assignment.dice if r.source == "godice"})
    robot = TableRobot(svc, air, dice, rng)
    svc.hub.add_event_listener(robot.on_event)
    svc.start()
    try:
        deadline = time.monotonic() + 10
        while sum(d.client is not None for d in dice["blue"]) < 5:
            assert time.monotonic() < deadline, "the GoDice never all connected"
            time.sleep(0.02)
        time.sleep(0.2)  # every Pixels die heard at rest once: its baseline

        seats = tuple(Seat(n, c) for n, c in SEATS)
        state = new_game(Setup(seats), board_for_players(4))
        svc.expect(NEW_DON, seats, state)
        from_dice = 0
        for _ in range(5000):
            if state.is_over:
                break
            robot.roll_wanted(state)
            others = [w for w in waiting_for(state) if w.dice is None]
            try:
                action = svc.hub.actions.get_nowait()
                from_dice += 1
            except queue.Empty:
                if others:
                    action = NEW_DON.random_action(state, rng)
                    while isinstance(action, Roll | VegasRoll | GodfatherRoll):
                        action = NEW_DON.random_action(state, rng)
                else:
                    action = svc.hub.actions.get(timeout=5)
                    from_dice += 1
            state = apply(state, action)
            svc.expect(NEW_DON, seats, state, action)
        else:
            raise AssertionError("the game did not end")
        assert state.is_over
        assert from_dice > 20
        assert robot.rolled_by_dice > 20 and robot.rolled_by_phone > 5
        assert not [p for p in robot.problems if "not counted" in p.message]
        assert svc.pixels is not None and svc.pixels.problems == 0
        assert svc.godice is not None and svc.godice.problems == 0
        assert all(d.connections == 1 for d in dice["blue"])  # no link ever dropped
    finally:
        svc.stop()
