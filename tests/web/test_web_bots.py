"""Bots and hints over the API, against a real server: the host seats bots in seats nobody has
joined, the bots play as their seats, a phone that takes a bot's seat back ends the bot, a
real die can be typed for a bot, and a player's hint comes from their own view (the table can
switch hints off)."""

from __future__ import annotations

import random
import time

import pytest
from web_client import PLAYERS, GameKeys

from companion.bots.knowledge import random_choice
from companion.games.new_don import NEW_DON


@pytest.fixture
def bot_server(tmp_path, server_factory):
    return server_factory(tmp_path / "data", BOT_PACE=0)


def half_table(server, joined=("Maria", "Johnny")) -> tuple[GameKeys, dict[str, str]]:
    """A game whose first two seats have joined; the others' join links, unused."""
    c = server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    r = c.post("/api/games", {"players": PLAYERS}, csrf)
    assert r.status == 201, r.text
    game_id = r.data["game_id"]
    seats = {name: server.sit(game_id, r.data["seats"][name]) for name in joined}
    links = {n: u for n, u in r.data["seats"].items() if n not in joined}
    return GameKeys(game_id, r.data["host_key"], r.data["csrf"], seats), links


def until(check, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_the_host_seats_bots_and_they_play_as_their_seats(bot_server):
    game, links = half_table(bot_server)
    r = bot_server.host(game, "bots", {"player": "Claire", "level": "easy"})
    assert r.status == 200, r.text
    assert next(s for s in r.data["seats"] if s["name"] == "Claire")["bot"]["level"] == "easy"
    assert next(s for s in r.data["seats"] if s["name"] == "Claire")["join"] is None
    r = bot_server.host(game, "bots", {"player": "Vincent", "ms": 50})
    assert r.status == 200 and {b["player"] for b in r.data["bots"]} == {"Claire", "Vincent"}
    assert next(b for b in r.data["bots"] if b["player"] == "Vincent")["budget"] == 0.05
    # The roll-off: the bots roll their own dice at once; the people type theirs.
    until(
        lambda: (
            {e.payload.get("player") for e in bot_server.events if e.actor == "dice:bot"}
            == {"Claire", "Vincent"}
        )
    )
    # Claire's old join link no longer seats a phone beside the bot.
    code = links["Claire"].rsplit("/", 1)[1]
    r = bot_server.client().post(f"/api/games/{game.id}/join", {"code": code})
    assert r.status == 403
    # A phone holds Maria's seat: no bot may take it.
    r = bot_server.host(game, "bots", {"player": "Maria"})
    assert r.status == 409 and r.data["error"] == "seat_taken"


def test_a_whole_game_with_two_people_and_two_bots_over_the_api(bot_server):
    game, _ = half_table(bot_server)
    for bot in ("Claire", "Vincent"):
        assert bot_server.host(game, "bots", {"player": bot, "level": "easy"}).status == 200
    rng = random.Random(3)
    service = bot_server.service
    for _ in range(3000):
        g = service.game(game.id)
        if g.is_over:
            break
        moved = False
        for w in NEW_DON.waiting_for(g.state):
            if w.player not in game.seats:
                continue
            seat = game.seats[w.player]
            if w.dice is not None:
                faces = [rng.randint(1, 6) for _ in range(w.dice.count)]
                r = bot_server.client().post(
                    f"/api/games/{game.id}/dice/roll",
                    {"faces": faces, "ask": w.dice.ask},
                    seat.csrf,
                    headers={"X-Player-Token": seat.token},
                )
            else:
                action = random_choice(NEW_DON, g.state, w.player, rng).to_dict()
                r = bot_server.act(game, w.player, action, expected=g.seq)
            assert r.status in (200, 409), r.text
            moved = True
            break
        if not moved:
            seq = g.seq
            until(lambda seq=seq: service.game(game.id).seq > seq or service.game(game.id).is_over)
    assert service.game(game.id).is_over
    bots = {e.actor for e in bot_server.events if e.actor.startswith("player:")}
    assert bots == {f"player:{n}" for n in PLAYERS}
    r = bot_server.client().get(f"/api/games/{game.id}/bots", headers={"X-Host-Key": game.host_key})
    assert any(x["reason"] for x in r.data["recent"])  # what the bots did, and why


def test_a_phone_that_claims_a_new_code_takes_the_seat_back_from_the_bot(bot_server):
    game, _ = half_table(bot_server)
    assert bot_server.host(game, "bots", {"player": "Claire", "level": "easy"}).status == 200
    r = bot_server.host(game, "seats/code", {"player": "Claire"})
    link = next(s for s in r.data["seats"] if s["name"] == "Claire")
    assert link["join"] is None  # the host page shows no code for a bot's seat...
    r = bot_server.host(game, "bots/remove", {"player": "Claire"})
    assert r.status == 200 and r.data["bots"] == []
    link = next(s for s in r.data["seats"] if s["name"] == "Claire")["join"]
    assert link  # ...until it is handed back to a person, with a new code
    assert bot_server.host(game, "bots", {"player": "Claire"}).status == 200
    keys = bot_server.app.extensions["companion"].keys
    code = keys.new_code(game.id, "Claire")  # a lost-phone code, scanned anyway
    r = bot_server.client().post(f"/api/games/{game.id}/join", {"code": code})
    assert r.status == 200 and r.data["player"] == "Claire"
    assert bot_server.app.extensions["companion"].bots.bots(game.id) == {}


def test_a_real_die_rolled_for_a_bot_is_typed_on_the_host_page(bot_server):
    game, _ = half_table(bot_server)
    r = bot_server.host(game, "bots", {"player": "Claire", "level": "easy", "dice": "table"})
    assert r.status == 200
    c = bot_server.client()
    r = c.get(f"/api/games/{game.id}/bots", headers={"X-Host-Key": game.host_key})
    roll = next(x for x in r.data["rolls"] if x["player"] == "Claire")
    assert roll["count"] == 1
    r = bot_server.host(game, "bots/roll", {"player": "Claire", "faces": [4], "ask": roll["ask"]})
    assert r.status == 200, r.text
    assert any(
        e.actor == "dice:host" and e.payload.get("player") == "Claire" for e in bot_server.events
    )
    r = bot_server.host(game, "bots/roll", {"player": "Maria", "faces": [4]})
    assert r.status == 409 and r.data["error"] == "not_a_bot"
    r = c.get(f"/api/games/{game.id}/bots")
    assert r.status == 401  # the bots are the host's business


def hint_of(server, game, name):
    seat = game.seats[name]
    return server.client().post(
        f"/api/games/{game.id}/hint", {}, seat.csrf, headers={"X-Player-Token": seat.token}
    )


def test_a_player_asks_for_a_hint_for_their_own_choice(server):
    game = server.create_game()
    for name, face in zip(PLAYERS, (6, 4, 2, 1), strict=True):
        server.act(game, name, {"type": "godfather_roll", "player": name, "face": face})
    r = hint_of(server, game, "Johnny")
    assert r.status == 409 and r.data["error"] == "no_choice"  # Johnny must roll first
    for name in PLAYERS:
        seat = game.seats[name]
        pic = (
            server.client()
            .get(f"/api/games/{game.id}", headers={"X-Player-Token": seat.token})
            .data
        )
        want = pic["dice_wanted"][0]
        server.client().post(
            f"/api/games/{game.id}/dice/roll",
            {"faces": [1, 2, 3, 4, 5][: want["count"]], "ask": want["ask"]},
            seat.csrf,
            headers={"X-Player-Token": seat.token},
        )
    seq = server.service.game(game.id).seq
    r = hint_of(server, game, "Johnny")
    assert r.status == 200, r.text
    assert r.data["action"]["type"] == "reveal_favor" and r.data["action"]["player"] == "Johnny"
    pic = (
        server.client()
        .get(f"/api/games/{game.id}", headers={"X-Player-Token": game.seats["Johnny"].token})
        .data
    )
    assert r.data["label"] in {c["label"] for c in pic["choices"]}
    assert server.service.game(game.id).seq == seq  # asking changes nothing
    r = server.client().post(
        f"/api/games/{game.id}/hint",
        {"as": "host"},
        game.host_csrf,
        headers={"X-Host-Key": game.host_key},
    )
    assert r.status == 403
    assert server.host(game, "hints", {"allowed": False}).status == 200
    r = hint_of(server, game, "Johnny")
    assert r.status == 403 and r.data["error"] == "hints_off"
    assert server.host(game, "hints", {"allowed": True}).data["hints"] is True
