"""The bots at a real table service: two people and two bots play a whole game.

The people move through the service as their phones would (``player:NAME``) and type their
rolls (``dice:test``); the driver plays the bot seats as ``player:<bot>`` and rolls their dice
as ``dice:bot``, each move with a reason the table may read. A restarted companion's bots sit
down again where they were.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.bots.driver import BOT_ACTOR, BotDriver
from companion.bots.knowledge import random_choice
from companion.bots.seating import BotDice, BotSeat, Seating, SeatingError
from companion.simulate import random_setup
from companion.table import TableService

PEOPLE = ("Maria", "Johnny")
BOTS = ("Claire", "Vincent")


def people_move(service: TableService, game_id: str, rng: random.Random) -> bool:
    """One move of a person (or a roll for anyone the driver leaves to the table); False
    when nobody but a bot has anything to do."""
    game = service.game(game_id)
    rules, state = game.rules, game.state
    for wait in rules.waiting_for(state):
        if wait.dice is not None and (wait.player in PEOPLE or wait.player in table_rolled):
            faces = tuple(rng.randint(1, 6) for _ in range(wait.dice.count))
            service.submit_roll(game_id, wait.player, faces, actor="dice:test", ask=wait.dice.ask)
            return True
        if wait.dice is None and wait.player in PEOPLE:
            action = random_choice(rules, state, wait.player, rng)
            service.submit(game_id, action, actor=f"player:{wait.player}", expected_seq=game.seq)
            return True
    return False


table_rolled: set[str] = set()


def play_out(
    service: TableService, driver: BotDriver, game_id: str, seed: int, limit: int = 5000
) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        assert driver.wait_idle(60), "the bots kept thinking"
        if service.game(game_id).is_over:
            return
        if not people_move(service, game_id, rng):
            driver.poke(game_id)  # nothing for people: it must be a bot's turn
            assert driver.wait_idle(60)
            assert service.game(game_id).seq > 0
    raise AssertionError("the game did not end")


def test_two_people_and_two_bots_play_a_whole_game(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    reasons: list[tuple[str, str]] = []
    driver = BotDriver(
        service,
        tmp_path,
        pace=0,
        rng=random.Random(1),
        on_reason=lambda g, text: reasons.append((g, text)),
    ).start()
    try:
        game = service.create_game(random_setup(4))
        driver.seat(game.id, BotSeat("Claire", "easy"))
        driver.seat(game.id, BotSeat("Vincent", "standard", seconds=0.05))
        play_out(service, driver, game.id, 4)
        over = service.game(game.id)
        assert over.is_over and over.status == "finished"
        actors = {(e.actor, e.payload.get("player")) for e in over.events[1:]}
        for bot in BOTS:
            assert (f"player:{bot}", bot) in actors  # its choices, as its own seat
            assert (BOT_ACTOR, bot) in actors  # its dice, rolled by the companion
        assert not any(a == f"player:{b}" and p != b for a, p in actors for b in BOTS)
        assert reasons and all(g == game.id and "(bot)" in text for g, text in reasons)
        assert any("claims" in text or "muscles" in text for _, text in reasons)
        assert driver.reasons(game.id)
    finally:
        driver.stop()
        service.close()


def test_a_bot_whose_dice_the_table_rolls_waits_for_them(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    driver = BotDriver(service, tmp_path, pace=0, rng=random.Random(2)).start()
    table_rolled.add("Claire")
    try:
        game = service.create_game(random_setup(4))
        driver.seat(game.id, BotSeat("Claire", "easy", dice=BotDice.TABLE))
        driver.seat(game.id, BotSeat("Vincent", "easy"))
        play_out(service, driver, game.id, 5)
        events = service.game(game.id).events
        rolls = [
            e
            for e in events
            if e.payload.get("player") == "Claire"
            and e.payload.get("type") in ("roll", "godfather_roll")
        ]
        assert rolls and all(e.actor == "dice:test" for e in rolls)
    finally:
        table_rolled.discard("Claire")
        driver.stop()
        service.close()


def test_with_the_tables_simulated_dice_the_driver_rolls_nothing(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    driver = BotDriver(service, tmp_path, pace=0, table_rolls=lambda game_id: True).start()
    try:
        game = service.create_game(random_setup(4))
        driver.seat(game.id, BotSeat("Claire", "easy"))
        assert driver.wait_idle(30)
        assert service.game(game.id).seq == 0  # the roll-off waits for the table's dice
    finally:
        driver.stop()
        service.close()


def test_after_a_restart_the_bots_sit_down_again(tmp_path: Path) -> None:
    service = TableService(tmp_path)
    driver = BotDriver(service, tmp_path, pace=0, rng=random.Random(3)).start()
    game = service.create_game(random_setup(4))
    driver.seat(game.id, BotSeat("Claire", "easy"))
    driver.seat(game.id, BotSeat("Vincent", "easy"))
    rng = random.Random(9)
    for _ in range(40):
        driver.wait_idle(60)
        people_move(service, game.id, rng)
    driver.stop()
    service.close()
    assert set(Seating(tmp_path).bots(game.id)) == set(BOTS)
    service = TableService(tmp_path)
    driver = BotDriver(service, tmp_path, pace=0, rng=random.Random(4)).start()
    try:
        play_out(service, driver, game.id, 6)
        assert service.game(game.id).is_over
    finally:
        driver.stop()
        service.close()


def test_seats_and_hints_are_kept_in_the_data_folder(tmp_path: Path) -> None:
    seating = Seating(tmp_path)
    assert seating.hints("g1") is True  # on unless the table says no
    seating.seat("g1", BotSeat("Claire", "easy", seconds=0.5, dice=BotDice.TABLE))
    seating.set_hints("g1", False)
    again = Seating(tmp_path)
    assert again.bots("g1") == {"Claire": BotSeat("Claire", "easy", 0.5, BotDice.TABLE)}
    assert again.hints("g1") is False and again.games() == ["g1"]
    assert again.unseat("g1", "Claire") and not again.unseat("g1", "Claire")
    (tmp_path / "bots.json").write_text("not json")
    assert Seating(tmp_path).bots("g1") == {}  # a broken file seats no bot


def test_a_seat_of_a_retired_level_plays_on_at_the_level_that_replaced_it(tmp_path: Path) -> None:
    """An older companion offered "strong"; its seats, read back, are played by the
    standard bot rather than dropped (the game would wait for a player no one is)."""
    (tmp_path / "bots.json").write_text(
        '{"g1": {"bots": {"Claire": {"level": "strong", "seconds": null, "dice": "companion"}}}}'
    )
    assert Seating(tmp_path).bots("g1") == {"Claire": BotSeat("Claire", "standard")}
    with pytest.raises(SeatingError, match="level must be one of easy, standard"):
        BotSeat("Claire", "strong")
