"""Monopoly is served by the table service unchanged: created from a setup line, played to its
end with the dice submitted as the dice layer submits them and every choice as a player makes
it, undone by a player where the game allows, exported, and replayed to the same table."""

from __future__ import annotations

import random

from companion.games.monopoly import MONOPOLY
from companion.records import parse_record, replay
from companion.table import TableService

SETUP = {
    "type": "setup",
    "game": "monopoly-godfather",
    "players": ["Maria", "Johnny", "Claire", "Vincent"],
    "options": {"speed_play": True},
}


def test_a_speed_play_game_through_the_table_service(tmp_path):
    service = TableService(tmp_path)
    game = service.create_game(SETUP)
    assert game.rules is MONOPOLY
    rng = random.Random(4)
    undone = False
    while not service.game(game.id).is_over:
        game = service.game(game.id)
        action = MONOPOLY.random_action(game.state, rng)
        if MONOPOLY.is_roll(action):
            (wait,) = [w for w in MONOPOLY.waiting_for(game.state) if w.dice is not None]
            service.submit_roll(game.id, wait.player, action.dice, actor="dice", ask=wait.dice.ask)
            continue
        service.submit(game.id, action, actor=f"player:{action.player}", expected_seq=game.seq)
        if not undone and action.TYPE == "buy":  # the first buyer takes the purchase back
            seq = service.game(game.id).seq
            service.undo(game.id, actor=f"player:{action.player}", expected_seq=seq)
            assert service.game(game.id).state == game.state
            undone = True
    assert undone
    game = service.game(game.id)
    assert game.status == "finished" and len(game.state.out_order) == 1
    text = service.disclose(game.id, actor="host")
    assert replay(parse_record(text), service.files(MONOPOLY)) == game.state
    service.close()
