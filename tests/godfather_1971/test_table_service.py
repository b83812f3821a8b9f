"""The Godfather Game (1971) at a live table: the table service keeps it, the dice come as
rolls, and both know the game only through the protocol.

With the companion holding the cards (``cards: companion``), the decks wait for a shuffle
that no player makes and no die gives: the table service draws it itself (the game's
``chance_action``), records it as the table's move, and refuses it from anyone else.
"""

from __future__ import annotations

import random

import pytest

from companion.games.godfather_1971 import GODFATHER_1971, Shuffle, Step
from companion.records import parse_record, replay
from companion.table import Refused, TableService

PLAYERS = [
    {"name": n, "colour": c}
    for n, c in (("Vito", "red"), ("Sollozzo", "blue"), ("Barzini", "green"))
]


def setup(cards: str = "physical", neighborhoods: int = 2) -> dict:
    return {
        "type": "setup",
        "game": "godfather-1971",
        "players": PLAYERS,
        "neighborhoods": neighborhoods,
        "cards": cards,
    }


def play_out(service: TableService, game_id: str, rng: random.Random) -> int:
    """Rolls as the dice send them, moves as the players make them; the moves made."""
    moves = 0
    while not service.game(game_id).is_over:
        game = service.game(game_id)
        assert GODFATHER_1971.chance_action(game.state, rng) is None  # drawn by the service
        [w] = GODFATHER_1971.waiting_for(game.state)
        action = GODFATHER_1971.random_action(game.state, rng)
        if w.dice is not None:
            service.submit_roll(game_id, w.player, action.faces, actor="dice", ask=w.dice.ask)
        else:
            service.submit(game_id, action, actor=f"player:{w.player}", expected_seq=game.seq)
        moves += 1
    return moves


def test_with_the_companions_cards_the_service_draws_the_shuffle_and_nobody_else_can(tmp_path):
    service = TableService(tmp_path, chance=random.Random(1))
    game = service.create_game(setup("companion"))
    [shuffle] = [e for e in game.events if e.kind == "action"]
    assert shuffle.actor == "table" and shuffle.payload["type"] == "shuffle"
    assert game.state.step is Step.ROLL_FOR_FIRST and len(game.state.deck) == 52
    again = Shuffle("Vito", *(tuple(shuffle.payload[d]) for d in ("playing", "good", "bad")))
    for actor in ("player:Vito", "host", "dice"):
        with pytest.raises(Refused) as err:
            service.submit(game.id, again, actor=actor, expected_seq=game.seq)
        assert err.value.code == "forbidden" and "chance" in err.value.reason
    assert play_out(service, game.id, random.Random(4)) > 20
    game = service.game(game.id)
    assert game.status == "finished" and GODFATHER_1971.score(game.state)["winners"]
    assert [e.actor for e in game.events if e.payload.get("type") == "shuffle"] == ["table"]
    assert not any(e.payload.get("type") == "draw" for e in game.events)  # the companion deals
    # The record replays exactly, the shuffle and all.
    text = service.disclose(game.id, actor="host")
    assert replay(parse_record(text), service.files(GODFATHER_1971)) == game.state
    service.close()


def test_a_physical_cards_game_needs_no_chance_and_replays(tmp_path):
    service = TableService(tmp_path, chance=random.Random(2))
    game = service.create_game(setup())
    assert [e.kind for e in game.events] == ["setup"]  # nothing drawn: the table's cards
    play_out(service, game.id, random.Random(5))
    game = service.game(game.id)
    assert game.status == "finished"
    text = service.disclose(game.id, actor="host")
    assert replay(parse_record(text), service.files(GODFATHER_1971)) == game.state
    service.close()
