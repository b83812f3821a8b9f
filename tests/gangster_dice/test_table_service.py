"""Gangster Dice at a live table: the table service keeps it, the dice layer rolls for it, and
both know it only through the game protocol.

With the companion holding the cards, the favor deck waits for a shuffle that no player makes
and no die gives: the table service draws it itself (the game's ``chance_action``) and records
it as the table's move, and nobody else may submit one.
"""

from __future__ import annotations

import random
import time

import pytest

from companion.dice.table import TableDice
from companion.games.gangster_dice import GANGSTER_DICE, Phase, Shuffle
from companion.records import parse_record, replay
from companion.table import Refused, TableService

PLAYERS = [
    {"name": n, "colour": c}
    for n, c in (("Maria", "red"), ("Johnny", "blue"), ("Claire", "green"), ("Vincent", "yellow"))
]


def setup(cards: str = "physical", players: int = 4) -> dict:
    return {"type": "setup", "game": "gangster-dice", "players": PLAYERS[:players], "cards": cards}


def play_out(service: TableService, game_id: str, rng: random.Random) -> None:
    """Rolls as the dice send them (face numbers), choices as the players make them."""
    while not service.game(game_id).is_over:
        game = service.game(game_id)
        assert GANGSTER_DICE.chance_action(game.state, rng) is None  # drawn by the service
        w = rng.choice(GANGSTER_DICE.waiting_for(game.state))
        if w.dice is not None:
            faces = tuple(rng.randint(1, 6) for _ in range(w.dice.count))
            service.submit_roll(game_id, w.player, faces, actor="dice", ask=w.dice.ask)
        else:
            choice = rng.choice(GANGSTER_DICE.choices(game.state, w.player))
            service.submit(
                game_id, choice.action, actor=f"player:{w.player}", expected_seq=game.seq
            )


def test_a_physical_cards_game_is_kept_played_and_exported(tmp_path):
    service = TableService(tmp_path)
    game = service.create_game(setup())
    assert game.rules is GANGSTER_DICE and game.state.phase is Phase.BIDS
    play_out(service, game.id, random.Random(3))
    game = service.game(game.id)
    assert game.status == "finished" and game.state.winners
    text = service.disclose(game.id, actor="host")
    assert replay(parse_record(text), service.files(GANGSTER_DICE)) == game.state
    service.close()
    again = TableService(tmp_path)
    assert again.game(game.id).state == game.state
    again.close()


def test_with_the_companions_cards_the_service_draws_the_shuffle_and_nobody_else_can(tmp_path):
    service = TableService(tmp_path, chance=random.Random(1))
    game = service.create_game(setup("companion", 3))
    [shuffle] = [e for e in game.events if e.kind == "action"]
    assert shuffle.actor == "table" and shuffle.payload["type"] == "shuffle"
    assert game.state.phase is Phase.BIDS and len(game.state.players[0].hand) == 3
    order = tuple(shuffle.payload["order"])
    for actor in ("player:Maria", "host", "dice"):
        with pytest.raises(Refused) as err:
            service.submit(game.id, Shuffle(order), actor=actor, expected_seq=game.seq)
        assert err.value.code == "forbidden" and "chance" in err.value.reason
    play_out(service, game.id, random.Random(4))
    game = service.game(game.id)
    assert game.status == "finished"
    reshuffles = [e for e in game.events if e.payload.get("type") == "shuffle"]
    assert all(e.actor == "table" for e in reshuffles)
    # The record replays exactly, shuffles and all.
    text = service.disclose(game.id, actor="host")
    assert replay(parse_record(text), service.files(GANGSTER_DICE)) == game.state
    service.close()


def test_a_shuffle_awaited_when_the_power_went_is_drawn_at_the_next_start(tmp_path):
    """The game was stored awaiting a shuffle (the process died between the two writes): the
    service draws it when it starts, so the table is never stuck."""
    from companion.table.storage import Storage

    storage = Storage(tmp_path)
    line = GANGSTER_DICE.setup_from_dict(setup("companion", 3)).to_dict()
    storage.create_game("g00001", "2026-11-22T20:00:00.000+00:00", line, "host")
    storage.close()
    service = TableService(tmp_path)
    game = service.game("g00001")
    assert [e.payload["type"] for e in game.events[1:]] == ["shuffle"]
    assert game.state.phase is Phase.BIDS
    service.close()


def test_a_roll_typed_on_a_phone_is_face_numbers_read_as_symbols(tmp_path):
    service = TableService(tmp_path)
    game = service.create_game(setup(players=2))
    w = next(w for w in GANGSTER_DICE.waiting_for(game.state) if w.player == "Maria")
    service.submit_roll(game.id, "Maria", (1, 1, 3, 3, 4, 5), actor="player:Maria", ask=w.dice.ask)
    view = GANGSTER_DICE.player_view(service.game(game.id).state, None)
    assert view["players"][0]["symbols"] == {"gavel": 2, "cocktail": 1, "gun": 2, "finger": 1}
    with pytest.raises(Refused) as err:
        service.submit_roll(game.id, "Johnny", (1, 2), actor="player:Johnny")
    assert err.value.code == "malformed" and "the roll is of 6 dice, not 2" in err.value.reason
    service.close()


def test_simulated_dice_roll_every_stash(tmp_path):
    service = TableService(tmp_path / "games")
    game = service.create_game(setup(players=3))
    assert [d.count for d in GANGSTER_DICE.dice_sets(game.state)] == [24, 24, 24]
    dice = TableDice(
        service, tmp_path / "dice", mode="simulated", roll_time=0.0, tick=0.01, early_grace=0.0
    )
    rng = random.Random(6)
    try:
        dice.follow(game.id)
        deadline = time.monotonic() + 90
        while not service.game(game.id).is_over:
            assert time.monotonic() < deadline, "the game stalled"
            g = service.game(game.id)
            asked = [w for w in GANGSTER_DICE.waiting_for(g.state) if w.dice is None]
            if not asked:
                time.sleep(0.005)  # only dice are awaited: the simulated dice roll them
                continue
            action = rng.choice(GANGSTER_DICE.legal_actions(g.state, asked[0].player))
            try:
                service.submit(
                    game.id, action, actor=f"player:{asked[0].player}", expected_seq=g.seq
                )
            except Refused as exc:
                assert exc.code == "stale"  # a roll landed in between: look again
    finally:
        dice.stop()
    rolls = [e for e in service.game(game.id).events if e.actor == "dice"]
    assert rolls and {e.payload["type"] for e in rolls} == {"roll"}
    service.close()
