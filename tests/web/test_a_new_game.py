"""A new game plugs into the platform without a line of the table service, the web API or the
dice hub changing: High Die (tests/helpers/high_die.py), registered here only, is created,
played, rolled on simulated dice, undone, exported, replayed and watched over real HTTP, and
every payload a viewer receives passes the scramble test."""

from __future__ import annotations

import random
import time

import pytest
from high_die import HIGH_DIE
from web_client import SSEStream

from companion import games
from companion.dice.table import TableDice
from companion.records import parse_record, replay
from companion.table import TableService

SETUP = {
    "type": "setup",
    "game": "high-die",
    "players": ["Ann", "Bo", "Cy"],
    "options": {"rounds": 5},
}


@pytest.fixture(autouse=True)
def registered():
    games.register(HIGH_DIE)
    yield
    games.unregister(HIGH_DIE.id)


def play_out(service, game_id, rng):
    """Play to the end through the service: rolls as the dice would send them, calls as
    players."""
    while not service.game(game_id).is_over:
        game = service.game(game_id)
        w = rng.choice(HIGH_DIE.waiting_for(game.state))
        if w.dice is not None:
            service.submit_roll(
                game_id, w.player, (rng.randint(1, 6),), actor="dice", ask=w.dice.ask
            )
        else:
            action = rng.choice(HIGH_DIE.legal_actions(game.state, w.player))
            service.submit(game_id, action, actor=f"player:{w.player}", expected_seq=game.seq)


def test_the_table_service_keeps_a_game_it_has_never_heard_of(tmp_path):
    service = TableService(tmp_path)
    game = service.create_game(SETUP)
    assert game.rules is HIGH_DIE and game.setup.options.rounds == 5
    play_out(service, game.id, random.Random(3))
    game = service.game(game.id)
    assert game.status == "finished" and game.state.round == 6
    # A player takes back a "keep" (the game allows it); a roll cannot be taken back.
    again = service.create_game(SETUP)
    for name in ("Ann", "Bo", "Cy"):
        service.submit_roll(again.id, name, (3,), actor=f"player:{name}")
    seq = service.game(again.id).seq
    service.submit(
        again.id, {"type": "keep", "player": "Ann"}, actor="player:Ann", expected_seq=seq
    )
    service.undo(again.id, actor="player:Ann", expected_seq=seq + 1)
    assert service.game(again.id).state.spoken == (False, False, False)
    # The record names its game, and replays to the same state, after a restart too.
    text = service.disclose(game.id, actor="host")
    assert '"game": "high-die"' in text
    assert replay(parse_record(text), service.files(HIGH_DIE)) == game.state
    service.close()
    reopened = TableService(tmp_path)
    assert reopened.game(game.id).state == game.state
    imported = reopened.import_record(text)
    assert imported.rules is HIGH_DIE and imported.state == game.state
    reopened.close()


def test_a_roll_is_taken_as_the_game_stands_and_rolls_of_different_players_never_conflict(tmp_path):
    service = TableService(tmp_path)
    game = service.create_game(SETUP)
    asks = {w.player: w.dice.ask for w in HIGH_DIE.waiting_for(game.state)}
    for name in ("Cy", "Ann", "Bo"):  # typed at once: each against the game as it stands
        service.submit_roll(game.id, name, (4,), actor=f"player:{name}", ask=asks[name])
    assert service.game(game.id).state.dice == (4, 4, 4)
    from companion.table import Refused

    with pytest.raises(Refused) as err:  # the same roll again: it has been made
        service.submit_roll(game.id, "Ann", (6,), actor="player:Ann", ask=asks["Ann"])
    assert err.value.code == "stale"
    service.close()


def test_simulated_dice_roll_for_a_game_they_have_never_heard_of(tmp_path):
    service = TableService(tmp_path / "games")
    game = service.create_game(SETUP)
    dice = TableDice(
        service, tmp_path / "dice", mode="simulated", roll_time=0.0, tick=0.01, early_grace=0.0
    )
    rng = random.Random(5)
    try:
        dice.follow(game.id)
        deadline = time.monotonic() + 60
        while not service.game(game.id).is_over:
            assert time.monotonic() < deadline, "the game stalled"
            g = service.game(game.id)
            calls = [w for w in HIGH_DIE.waiting_for(g.state) if w.dice is None]
            if not calls:
                time.sleep(0.005)  # only dice are awaited: the simulated dice roll them
                continue
            action = rng.choice(HIGH_DIE.legal_actions(g.state, calls[0].player))
            service.submit(game.id, action, actor=f"player:{calls[0].player}", expected_seq=g.seq)
    finally:
        dice.stop()
    rolled = [e for e in service.game(game.id).events if e.actor == "dice"]
    assert len(rolled) >= 15 and {e.payload["type"] for e in rolled} == {"roll"}
    service.close()


def test_the_web_serves_a_game_it_has_never_heard_of(server):
    c = server.client()
    assert "high-die" in [g["id"] for g in c.get("/api/rules").data["games"]]
    game = server.create_game(["Ann", "Bo", "Cy"], game="high-die", options={"rounds": 1})
    streams = {name: server.stream(game, name) for name in game.seats} | {
        None: server.stream(game, None)
    }
    rng = random.Random(2)
    try:
        for page in (f"/table/{game.id}", f"/end/{game.id}"):
            r = c.get(page)
            assert r.status == 200 and 'data-kind="high-die"' in r.text
        while not server.service.game(game.id).is_over:
            g = server.service.game(game.id)
            w = rng.choice(HIGH_DIE.waiting_for(g.state))
            seat = game.seats[w.player]
            me = {"X-Player-Token": seat.token}
            picture = c.get(f"/api/games/{game.id}", me).data
            if w.dice is not None:
                [wanted] = picture["dice_wanted"]
                r = server.client().post(
                    f"/api/games/{game.id}/dice/roll",
                    {"faces": [rng.randint(1, 6)], "ask": wanted["ask"]},
                    seat.csrf,
                    headers=me,
                )
            else:
                choice = rng.choice(picture["choices"])
                r = server.client().post(
                    f"/api/games/{game.id}/actions",
                    {"action": choice["action"], "expected_seq": g.seq},
                    seat.csrf,
                    headers=me,
                )
            assert r.status == 200, r.text
        final = server.service.game(game.id)
        for viewer, stream in streams.items():
            msg = stream.wait_for(lambda m, s=final.seq: m.id == s and m.event == "update")
            assert msg.data["view"] == HIGH_DIE.player_view(final.state, viewer)
            assert msg.data["scores"]["winners"]
        # Nothing a viewer may not see reached their stream: every update equals the view of
        # the state with everyone else's secrets redrawn.
        events = {e.seq: e for e in server.events if e.game_id == game.id}
        for viewer, stream in streams.items():
            for msg in stream.received:
                if msg.event != "update":
                    continue
                state = events[msg.id].state
                scrambled = HIGH_DIE.scramble(state, viewer, random.Random(msg.id))
                assert msg.data["view"] == HIGH_DIE.player_view(scrambled, viewer)
    finally:
        for stream in streams.values():
            stream.close()


def test_a_stream_for_the_new_game_is_what_any_stream_is(server):
    game = server.create_game(["Ann", "Bo"], game="high-die")
    s = SSEStream(server.url, f"/api/games/{game.id}/events?as=table")
    try:
        first = s.next()
        assert first.event == "view" and first.data["game"] == "high-die"
        assert "die" not in str(first.data["view"]["players"])
    finally:
        s.close()
