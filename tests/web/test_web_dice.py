"""The server's own dice: with ``DICE=simulated`` (what ``./start`` runs) the dice roll by
themselves for the game just created, through the dice layer and the table service."""

from __future__ import annotations

import time

from companion.dice.reading import DieReading, DieState
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


def test_the_host_voids_a_roll_the_dice_missed_part_of(tmp_path, server_factory):
    """Three of Johnny's five dice were counted, then a re-roll went unseen (a Pixels die
    rolled to the same face while its adverts were lost). The host starts his roll again: his
    phone is asked afresh, the table sees he is rolling, and the five dice he rolls now are
    his roll. Only the host, with the CSRF token, may; only for a player with a roll in
    progress."""
    from red_dice import SEATS, land

    from companion.dice.assignment import DieRef
    from companion.games.new_don import GodfatherRoll, Roll

    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game(SEATS)
    for name, face in (("Maria", 6), ("Johnny", 2), ("Claire", 1)):
        server.service.submit(
            game.id,
            GodfatherRoll(name, face),
            actor="host",
            expected_seq=server.service.game(game.id).seq,
        )
    dice = server.app.extensions["companion"].pairing.dice(game.id)
    for i in range(1, 6):
        dice.assignment.assign(DieRef("pixels", f"blue{i}"), "blue")
    for i in range(1, 4):
        land(dice, f"blue{i}", 4)
    assert dice.hub.progress("Johnny") == (3, 5)
    status = server.client().get(f"/api/games/{game.id}/dice", {"X-Host-Key": game.host_key})
    assert status.data["rolling"] == ["Maria", "Johnny", "Claire"]  # who, never how many
    johnny, table = server.stream(game, "Johnny"), server.stream(game, None)
    for s in (johnny, table):
        s.wait_for(lambda m: m.event == "view")

    url = f"/api/games/{game.id}/dice/void"
    assert server.client().post(url, {"player": "Johnny"}, game.host_csrf).status == 401
    no_csrf = server.client().post(url, {"player": "Johnny"}, headers={"X-Host-Key": game.host_key})
    assert no_csrf.status == 403
    seat = game.seats["Johnny"]
    as_player = server.client().post(
        url, {"player": "Johnny"}, seat.csrf, headers={"X-Player-Token": seat.token}
    )
    assert as_player.status == 401  # a player cannot void, not even their own roll
    unknown = server.host(game, "dice/void", {"player": "Sonny"})
    assert unknown.status == 400 and "Maria, Johnny, Claire" in unknown.data["reason"]
    assert dice.hub.progress("Johnny") == (3, 5)

    voided = server.host(game, "dice/void", {"player": "Johnny"})
    assert voided.status == 200, voided.text
    assert voided.data == {"player": "Johnny", "voided": True}
    assert dice.hub.progress("Johnny") == (0, 5)
    asked = johnny.wait_for(lambda m: m.event == "dice" and m.data["kind"] == "roll_wanted")
    assert asked.data["player"] == "Johnny" and asked.data["dice"] == 5
    told = table.wait_for(lambda m: m.event == "dice" and m.data["kind"] == "rolling")
    assert told.data == {"kind": "rolling", "player": "Johnny", "text": "Johnny is rolling"}

    seq = server.service.game(game.id).seq
    for i, face in zip(range(1, 6), (6, 6, 5, 3, 1), strict=True):
        dice.hub.feed(DieReading("pixels", f"blue{i}", DieState.ROLLING, roll=1))
        dice.hub.feed(DieReading("pixels", f"blue{i}", DieState.SETTLED, face=face, roll=2))
    deadline = time.monotonic() + 10
    while server.service.game(game.id).seq == seq:
        assert time.monotonic() < deadline, "the roll never reached the table"
        time.sleep(0.02)
    last = server.service.game(game.id).events[-1]
    assert last.actor == "dice" and last.payload == Roll("Johnny", (6, 6, 5, 3, 1)).to_dict()
    again = server.host(game, "dice/void", {"player": "Johnny"})
    assert again.status == 409 and again.data["error"] == "not_rolling"
    status = server.client().get(f"/api/games/{game.id}/dice", {"X-Host-Key": game.host_key})
    assert status.data["rolling"] == ["Maria", "Claire"]
    for s in (johnny, table):
        s.close()


def test_voiding_a_roll_needs_a_dice_reader(server):
    game = server.create_game()
    refused = server.host(game, "dice/void", {"player": "Maria"})
    assert refused.status == 409 and refused.data["error"] == "no_dice"
