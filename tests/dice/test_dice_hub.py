"""The hub, read like a table: who must roll, which dice count, when a roll is complete."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from new_don_boards import board_for_players

from companion.dice.assignment import Assignment, AssignmentStore, DieRef
from companion.dice.hub import DiceHub, DiceProblem, RollWanted, UnknownDie, WhoseDie
from companion.dice.pairing import Pairing
from companion.dice.phone import PhoneEntry, PhoneEntryError
from companion.dice.reading import DieReading, DieState
from companion.dice.service import DiceService
from companion.dice.sources import SourceSpec
from companion.games.new_don import (
    NEW_DON,
    GodfatherRoll,
    Roll,
    Seat,
    Setup,
    VegasRoll,
    apply,
    new_game,
)
from companion.games.new_don.legal import VEGAS

SEATS = (Seat("Maria", "red"), Seat("Johnny", "blue"), Seat("Claire", "green"))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table() -> tuple[DiceHub, Clock, list[object]]:
    assignment = Assignment()
    for family in ("red", "blue", "green"):
        for i in range(1, 6):
            assignment.assign(DieRef("pixels", f"{family}{i}"), family)
    for i in range(1, 4):
        assignment.assign(DieRef("pixels", f"vegas{i}"), VEGAS)
    clock = Clock()
    events: list[object] = []
    hub = DiceHub(assignment, clock=clock, on_event=events.append)
    return hub, clock, events


def roll(hub: DiceHub, clock: Clock, die: str, face: int, n: int = 1, dt: float = 0.1) -> None:
    hub.feed(DieReading("pixels", die, DieState.ROLLING, roll=n - 1))
    clock.now += dt
    hub.feed(DieReading("pixels", die, DieState.SETTLED, face=face, roll=n))


def at_rest(hub: DiceHub, *dice: str) -> None:
    for die in dice:
        hub.feed(DieReading("pixels", die, DieState.SETTLED, face=1, roll=0))


def setup_state():
    return new_game(Setup(SEATS), board_for_players(3))


def test_the_roll_off_comes_from_each_familys_dice() -> None:
    hub, clock, events = table()
    at_rest(hub, "red1", "blue1", "green1")
    hub.expect(NEW_DON, SEATS, setup_state())
    assert {(e.player, e.does) for e in events if isinstance(e, RollWanted)} == {
        ("Maria", "godfather_roll"),
        ("Johnny", "godfather_roll"),
        ("Claire", "godfather_roll"),
    }
    roll(hub, clock, "blue1", 4)
    roll(hub, clock, "red1", 6)
    assert [hub.actions.get_nowait() for _ in range(2)] == [
        GodfatherRoll("Johnny", 4),
        GodfatherRoll("Maria", 6),
    ]


def test_a_roll_completes_when_all_dice_settled_and_none_still_tumbles() -> None:
    hub, clock, _events = table()
    state = setup_state()
    for name, face in (("Maria", 6), ("Johnny", 2), ("Claire", 1)):
        state = apply(state, GodfatherRoll(name, face))
    at_rest(hub, *[f"red{i}" for i in range(1, 6)], "red9")
    hub.expect(NEW_DON, SEATS, state)
    for i in range(1, 5):
        roll(hub, clock, f"red{i}", i)
    assert hub.progress("Maria") == (4, 5)
    hub.feed(DieReading("pixels", "red5", DieState.ROLLING, roll=0))
    clock.now += 0.5
    hub.feed(DieReading("pixels", "red5", DieState.SETTLED, face=6, roll=1))
    assert hub.actions.get_nowait() == Roll("Maria", (1, 2, 3, 4, 6))
    assert hub.progress("Maria") is None


def test_a_die_more_than_the_roll_asks_for_is_not_counted_and_the_roller_is_told() -> None:
    """Maria rolls two dice for the roll-off's one: the first to land counts, and the message
    names the other as she can find it."""
    hub, clock, events = table()
    at_rest(hub, "red1", "red2")
    hub.expect(NEW_DON, SEATS, setup_state())
    for die in ("red1", "red2"):
        hub.feed(DieReading("pixels", die, DieState.ROLLING, roll=0))
    clock.now += 0.1
    hub.feed(DieReading("pixels", "red1", DieState.SETTLED, face=3, roll=1))
    hub.feed(DieReading("pixels", "red2", DieState.SETTLED, face=5, roll=1))
    assert hub.actions.get_nowait() == GodfatherRoll("Maria", 3)
    assert [(p.player, p.message) for p in events if isinstance(p, DiceProblem)] == [
        ("Maria", "Maria rolled more dice than the 1 asked for. Die red2 was not counted")
    ]


def test_dice_pushed_about_before_the_roll_was_asked_for_do_not_count() -> None:
    hub, clock, _ = table()
    state = setup_state()
    at_rest(hub, "red1")
    roll(hub, clock, "red1", 3)  # before the engine asked
    clock.now += 5
    hub.expect(NEW_DON, SEATS, state)
    assert hub.actions.empty()
    roll(hub, clock, "red1", 5, n=2)
    assert hub.actions.get_nowait() == GodfatherRoll("Maria", 5)


def test_a_die_rolled_again_counts_once_with_its_last_face() -> None:
    hub, clock, _ = table()
    state = setup_state()
    for name, face in (("Maria", 6), ("Johnny", 2), ("Claire", 1)):
        state = apply(state, GodfatherRoll(name, face))
    hub.expect(NEW_DON, SEATS, state)
    roll(hub, clock, "blue1", 1, n=1)
    roll(hub, clock, "blue1", 2, n=2)  # picked up again before the others landed
    for i in range(2, 6):
        roll(hub, clock, f"blue{i}", 6)
    assert hub.actions.get_nowait() == Roll("Johnny", (2, 6, 6, 6, 6))


def test_a_leaning_die_and_an_unread_one_ask_for_a_reroll() -> None:
    hub, _clock, events = table()
    hub.expect(NEW_DON, SEATS, setup_state())
    hub.feed(DieReading("pixels", "green1", DieState.ROLLING))
    hub.feed(DieReading("pixels", "green1", DieState.COCKED))
    hub.feed(DieReading("pixels", "green1", DieState.UNSURE))
    problems = [e for e in events if isinstance(e, DiceProblem)]
    assert [p.player for p in problems] == ["Claire", "Claire"]
    assert [p.message for p in problems] == [
        "Die green1 is leaning: roll it again",
        "Die green1 could not be read: roll it again",
    ]


def test_a_die_no_roll_wants_asks_for_no_reroll() -> None:
    """Dice pushed about while the game asks nobody to roll, or a die beyond a roll already
    complete, may lean or go unread: nothing to roll again."""
    hub, clock, events = table()
    hub.feed(DieReading("pixels", "green1", DieState.ROLLING))
    hub.feed(DieReading("pixels", "green1", DieState.COCKED))
    hub.feed(DieReading("pixels", "green1", DieState.UNSURE))
    hub.expect(NEW_DON, SEATS, setup_state())
    roll(hub, clock, "green1", 5)
    assert hub.actions.get_nowait() == GodfatherRoll("Claire", 5)
    hub.feed(DieReading("pixels", "green2", DieState.ROLLING))
    hub.feed(DieReading("pixels", "green2", DieState.COCKED))
    assert not [e for e in events if isinstance(e, DiceProblem)]


def test_a_camera_is_told_how_many_dice_the_roll_its_dice_count_for_lacks() -> None:
    """A camera's dice have no identity: the hub tells its reader how many to look for, and
    nothing when its dice count for no open roll, or for several (the table's tray while
    three players roll: whose dice are in view is not the camera's to know)."""
    hub, clock, _ = table()
    maria, tray = "camera:cam0:red", "camera:cam1:table"
    assert hub.lacking(maria) is None
    hub.expect(NEW_DON, SEATS, setup_state())
    assert (hub.lacking(maria), hub.lacking(tray)) == (1, None)
    roll(hub, clock, "red1", 5)
    assert hub.lacking(maria) is None


def test_a_die_that_never_settles_is_no_longer_waited_for() -> None:
    hub, clock, _ = table()
    state = setup_state()
    hub.expect(NEW_DON, SEATS, state)
    hub.feed(DieReading("pixels", "red2", DieState.ROLLING, roll=0))  # off the table
    roll(hub, clock, "red1", 4)
    assert hub.actions.empty()
    clock.now += hub.settle_timeout + 1
    hub.tick()
    assert hub.actions.get_nowait() == GodfatherRoll("Maria", 4)


def test_a_void_starts_a_roll_again_when_the_dice_missed_part_of_it() -> None:
    """Johnny's fifth die was rolled again to the same face while the radio heard nothing, so
    the table waits for it forever. The host voids his roll: what was counted is gone, his
    phone is asked again, a die still tumbling from before does not count, and the five dice
    he rolls now are his roll."""
    hub, clock, events = table()
    state = vegas_state()
    at_rest(hub, *[f"blue{i}" for i in range(1, 6)])
    hub.expect(NEW_DON, SEATS, state)
    for i in range(1, 5):
        roll(hub, clock, f"blue{i}", 1)
    hub.feed(DieReading("pixels", "blue5", DieState.ROLLING, roll=0))  # still going
    assert hub.progress("Johnny") == (4, 5)
    events.clear()
    clock.now += 1

    assert hub.void("Johnny")
    assert hub.progress("Johnny") == (0, 5)
    assert [(e.player, e.does, e.dice) for e in events if isinstance(e, RollWanted)] == [
        ("Johnny", "roll", 5)
    ]
    clock.now += 1
    hub.feed(DieReading("pixels", "blue5", DieState.SETTLED, face=3, roll=1))  # from before
    assert hub.progress("Johnny") == (0, 5)
    for i, face in zip(range(1, 6), (6, 5, 4, 3, 2), strict=True):
        roll(hub, clock, f"blue{i}", face, n=3)
    assert hub.actions.get_nowait() == Roll("Johnny", (6, 5, 4, 3, 2))
    assert hub.actions.empty()

    assert not hub.void("Johnny")  # his roll is made: nothing in progress to throw away
    assert not hub.void("Sonny")


def vegas_state():
    state = setup_state()
    for name, face in (("Maria", 6), ("Johnny", 2), ("Claire", 1)):
        state = apply(state, GodfatherRoll(name, face))
    return state


def test_red_dice_are_for_vegas_and_for_whoever_won_them() -> None:
    hub, clock, events = table()
    from dataclasses import replace

    from companion.games.new_don.state import Phase

    state = replace(vegas_state(), phase=Phase.VEGAS, vegas_faces=())
    hub.expect(NEW_DON, SEATS, state)
    roll(hub, clock, "red1", 3)  # family dice never make a Vegas roll
    for i in (1, 2, 3):
        roll(hub, clock, f"vegas{i}", i + 2)
    assert hub.actions.get_nowait() == VegasRoll("Maria", (3, 4, 5))
    # Two players rolling red dice at once: a person says whose die it is.
    players = tuple(
        replace(p, to_roll=6, vegas_taken=(4,)) if p.name != "Maria" else p for p in state.players
    )
    state = replace(state, phase=Phase.ROLL, players=players, moves=state.moves + 1)
    hub.expect(NEW_DON, SEATS, state)
    for i in range(1, 6):
        roll(hub, clock, f"blue{i}", 2, n=2)
    roll(hub, clock, "vegas1", 6, n=2)
    whose = [e for e in events if isinstance(e, WhoseDie)]
    assert whose and set(whose[0].candidates) == {"Johnny", "Claire"}
    red = DieRef("pixels", "vegas1")
    assert {ref: set(who) for ref, who in hub.undecided().items()} == {red: {"Johnny", "Claire"}}
    # The answer (from a phone or the host page) must name one of them.
    assert not hub.answer(red, "Maria") and not hub.answer(DieRef("pixels", "vegas2"), "Johnny")
    assert hub.actions.empty()
    assert hub.answer(red, "Johnny")
    assert hub.actions.get_nowait() == Roll("Johnny", (2, 2, 2, 2, 2, 6))
    # Counted: a second answer (Claire tapping late) changes nothing.
    assert hub.undecided() == {} and not hub.answer(red, "Claire")


def test_a_roll_handed_out_is_not_asked_for_again_until_applied() -> None:
    hub, clock, _events = table()
    state = vegas_state()
    hub.expect(NEW_DON, SEATS, state)
    for i in range(1, 6):
        roll(hub, clock, f"red{i}", 5)
    maria = hub.actions.get_nowait()
    state = apply(state, Roll("Johnny", (1, 1, 1, 1, 1)))  # typed in meanwhile, say
    hub.expect(NEW_DON, SEATS, state, Roll("Johnny", (1, 1, 1, 1, 1)))
    assert "Maria" not in [w.player for w in hub.waiting()]
    state = apply(state, maria)
    hub.expect(NEW_DON, SEATS, state, maria)
    assert [w.player for w in hub.waiting()] == ["Claire"]


def test_phone_entry_on_a_mixed_table() -> None:
    hub, clock, _ = table()
    phone = PhoneEntry(hub)
    state = vegas_state()
    hub.expect(NEW_DON, SEATS, state)
    with pytest.raises(PhoneEntryError, match="rolls 5 dice, not 2"):
        phone.enter("Claire", [1, 2])
    with pytest.raises(PhoneEntryError, match="1 to 6"):
        phone.enter("Claire", [1, 2, 3, 4, 9])
    phone.enter("Claire", [1, 2, 3, 4, 5])
    for i in range(1, 6):
        roll(hub, clock, f"blue{i}", 6)
    assert {hub.actions.get_nowait(), hub.actions.get_nowait()} == {
        Roll("Claire", (1, 2, 3, 4, 5)),
        Roll("Johnny", (6, 6, 6, 6, 6)),
    }
    with pytest.raises(PhoneEntryError, match="no dice to roll"):
        phone.enter("Claire", [1, 2, 3, 4, 5])


def test_unknown_dice_are_reported_once_and_pairing_collects_them(tmp_path: Path) -> None:
    hub, clock, events = table()
    hub.expect(NEW_DON, SEATS, setup_state())
    pairing = Pairing(hub, "yellow", count=2).start()
    for die in ("new1", "new1", "new2"):
        roll(hub, clock, die, 3)
    assert [e.ref for e in events if isinstance(e, UnknownDie)] == [
        DieRef("pixels", "new1"),
        DieRef("pixels", "new2"),
    ]
    assert pairing.done.is_set() and pairing.found == [
        DieRef("pixels", "new1"),
        DieRef("pixels", "new2"),
    ]
    pairing.commit(hub.assignment)
    store = AssignmentStore(tmp_path)
    store.save("kitchen", hub.assignment)
    again = store.load("kitchen")
    assert again.owner(DieRef("pixels", "new2")) == "yellow"
    assert again.owned_by(VEGAS) == hub.assignment.owned_by(VEGAS)
    assert store.tables() == ["kitchen"]
    assert AssignmentStore(tmp_path).load("elsewhere").dice == {}
    with pytest.raises(ValueError, match="table name"):
        store.path("../etc")


def test_sources_owned_as_a_whole_and_by_name() -> None:
    a = Assignment(sources={"diy-serial": "blue"})
    a.assign(DieRef("godice", "D0:01"), "red", shell="D6")
    assert a.owner(DieRef("diy-serial", "die3")) == "blue"
    assert a.owner(DieRef("camera:cam0:green", "cam0/2")) == "green"
    assert a.owner(DieRef("phone:Maria", "1")) == "Maria"
    assert a.setting(DieRef("godice", "D0:01"), "shell") == "D6"
    assert Assignment.from_json(a.to_json()) == a


def test_simulated_dice_play_through_the_same_path(tmp_path: Path) -> None:
    got: list[object] = []
    simulated = SourceSpec(
        "simulated", {"sets": NEW_DON.dice_sets(setup_state()), "roll_time": 0.01}
    )
    svc = DiceService(tmp_path, sources=[simulated], on_action=got.append)
    svc.start()
    try:
        state = setup_state()
        svc.expect(NEW_DON, SEATS, state)
        deadline = time.monotonic() + 5
        while len(got) < 3:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert {type(a) for a in got} == {GodfatherRoll}
        assert {a.player for a in got} == {"Maria", "Johnny", "Claire"}  # type: ignore[attr-defined]
    finally:
        svc.stop()
