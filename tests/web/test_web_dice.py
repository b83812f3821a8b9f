"""The server's own dice: with ``DICE=simulated`` (what ``./start`` runs) the dice roll by
themselves for the game just created, through the dice layer and the table service."""

from __future__ import annotations

import time

from companion.games.new_don import waiting_for


def test_simulated_dice_roll_for_the_new_game(tmp_path, server_factory):
    server = server_factory(tmp_path / "data", DICE="simulated", DICE_ROLL_TIME=0.0)
    game = server.create_game()
    deadline = time.monotonic() + 20
    state = server.service.game(game.id).state
    # Setup's roll-off and every family's first roll come off the dice, nobody tapping.
    while any(w.does in ("godfather_roll", "roll") for w in waiting_for(state)):
        assert time.monotonic() < deadline, waiting_for(state)
        time.sleep(0.02)
        state = server.service.game(game.id).state
    assert {w.does for w in waiting_for(state)} == {"reveal_favor"}
    moves = server.service.game(game.id).events[1:]
    assert moves and all(e.actor == "dice" for e in moves)
    # A phone then plays on as usual, against the dice's moves.
    name = waiting_for(state)[0].player
    face = next(p for p in state.players if p.name == name).dice[0].face
    reply = server.act(game, name, {"type": "reveal_favor", "player": name, "face": face})
    assert reply.status == 200, reply.text
