"""The JSON API against a real cheroot server on a loopback port: creating games, acting,
refusals with their reasons, credentials, CSRF, undo and corrections, export, OpenAPI."""

from __future__ import annotations

import json
import random

from companion.games.new_don import player_view
from companion.games.new_don.rulebook import RULES
from web.app import create_app

ROLLOFF = [("Maria", 6), ("Johnny", 4), ("Claire", 2), ("Vincent", 1)]


def past_setup(server, game):
    for name, face in ROLLOFF:
        r = server.act(game, name, {"type": "godfather_roll", "player": name, "face": face})
        assert r.status == 200, r.text
    return server.service.game(game.id)


def test_create_game_gives_host_key_cookie_and_join_links(server):
    c = server.client()
    csrf = c.get("/api/csrf").data["csrf"]
    r = c.post(
        "/api/games",
        {
            "players": [{"name": "Maria", "colour": "red"}, "Johnny", "Claire"],
            "board": "3-4",
            "options": {"straights_wrap": True},
        },
        csrf,
    )
    assert r.status == 201, r.text
    gid = r.data["game_id"]
    assert set(r.data["seats"]) == {"Maria", "Johnny", "Claire"}
    assert all(url.startswith(server.url + f"/join/{gid}/") for url in r.data["seats"].values())
    assert f"host_{gid}=" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    game = server.service.game(gid)
    assert game.setup.options.straights_wrap is True
    # The cookie alone now proves the host to this client.
    assert c.get(f"/api/games/{gid}/me").data["host"] is True
    assert c.get(f"/api/games/{gid}/seats").status == 200
    assert server.client().get(f"/api/games/{gid}/seats").status == 401


def test_create_game_refusals_say_why(server):
    c = server.client()
    assert c.post("/api/games", {"players": ["A", "B", "C"]}).status == 403  # no csrf cookie
    csrf = c.get("/api/csrf").data["csrf"]
    r = c.post("/api/games", {"players": ["A", "B", "C"]}, "not-the-token")
    assert r.status == 403 and r.data["error"] == "csrf"
    r = c.post("/api/games", {"players": ["A", "B"]}, csrf)
    assert r.status == 422 and r.data["rule"] == "Setup", r.text
    r = c.post("/api/games", {"players": ["A", "a", "C"]}, csrf)
    assert r.status == 400 and "differ" in r.data["reason"]
    r = c.post("/api/games", {"players": ["A", "B", "C"], "options": {"nope": 1}}, csrf)
    assert r.status == 400 and "unknown house rule" in r.data["reason"]
    r = c.post("/api/games", {"players": ["A", "B", "C"], "board": "/etc/passwd"}, csrf)
    assert r.status == 400 and "board" in r.data["reason"]
    r = c.post("/api/games", None, csrf, raw=b"{not json")
    assert r.status == 400 and "JSON" in r.data["reason"]


def test_cross_origin_post_is_refused_even_with_the_right_token(server):
    game = server.create_game()
    r = server.client().post(
        f"/api/games/{game.id}/actions",
        {"action": {"type": "godfather_roll", "player": "Maria", "face": 3}, "expected_seq": 0},
        game.seats["Maria"].csrf,
        headers={"X-Player-Token": game.seats["Maria"].token, "Origin": "http://evil.example"},
    )
    assert r.status == 403 and "evil.example" in r.data["reason"]
    assert server.service.game(game.id).seq == 0


def test_a_player_acts_only_for_their_own_family(server):
    game = server.create_game()
    # Maria's token and CSRF token, acting for Johnny
    r = server.act(game, "Maria", {"type": "godfather_roll", "player": "Johnny", "face": 3})
    assert r.status == 403 and "cannot act for Johnny" in r.data["reason"]
    # Johnny's token with Maria's CSRF token
    r = server.client().post(
        f"/api/games/{game.id}/actions",
        {"action": {"type": "godfather_roll", "player": "Johnny", "face": 3}, "expected_seq": 0},
        game.seats["Maria"].csrf,
        headers={"X-Player-Token": game.seats["Johnny"].token},
    )
    assert r.status == 403 and r.data["error"] == "csrf"
    # no token at all
    r = server.client().post(
        f"/api/games/{game.id}/actions",
        {"action": {"type": "godfather_roll", "player": "Johnny", "face": 3}, "expected_seq": 0},
        game.seats["Johnny"].csrf,
    )
    assert r.status == 401
    # a token of another game
    other = server.create_game()
    r = server.client().post(
        f"/api/games/{game.id}/actions",
        {"action": {"type": "godfather_roll", "player": "Maria", "face": 3}, "expected_seq": 0},
        other.seats["Maria"].csrf,
        headers={"X-Player-Token": other.seats["Maria"].token},
    )
    assert r.status == 401
    assert server.service.game(game.id).seq == 0


def test_refusals_carry_rule_and_facts_and_map_to_4xx(server):
    game = server.create_game()
    past_setup(server, game)
    seq = server.service.game(game.id).seq
    r = server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3]})
    assert r.status == 422
    assert r.data == {
        "error": "illegal",
        "reason": "Johnny rolls 5 dice, not 2",
        "rule": "Roll",
        # the rule in the rulebook's words, and what to do instead
        "quote": RULES["Roll"].quote,
        "instead": RULES["Roll"].instead,
    }
    assert r.data["quote"].startswith("All players roll their dice simultaneously")
    r = server.act(
        game, "Johnny", {"type": "claim", "player": "Johnny", "neighborhood": "3a", "dice": [3, 3]}
    )
    assert r.status == 422 and r.data["rule"] == "Resolution" and "roll phase" in r.data["reason"]
    r = server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 7]})
    assert r.status == 400 and "1-6" in r.data["reason"] and "quote" not in r.data
    r = server.act(game, "Johnny", {"type": "fly", "player": "Johnny"})
    assert r.status == 400 and "unknown action type" in r.data["reason"]
    r = server.act(
        game,
        "Johnny",
        {"type": "roll", "player": "Johnny", "faces": [1, 2, 3, 4, 5]},
        expected=seq - 1,
    )
    assert r.status == 409 and r.data["error"] == "stale"
    r = server.act(
        game,
        "Johnny",
        {"type": "roll", "player": "Johnny", "faces": [1, 2, 3, 4, 5]},
        expected="four",
    )
    assert r.status == 400 and "expected_seq" in r.data["reason"]
    assert server.service.game(game.id).seq == seq
    assert server.client().get("/api/games/nope").status == 404
    assert server.client().get("/api/games/nope").data["error"] == "not_found"
    assert server.client().get("/api/nothing-here").data["error"] == "not_found"
    r = server.client().request("DELETE", f"/api/games/{game.id}")
    assert r.status == 405 and r.data["error"]


def test_double_tap_is_applied_once_and_keys_are_per_player(server):
    game = server.create_game()
    a = {"type": "godfather_roll", "player": "Maria", "face": 5}
    r1 = server.act(game, "Maria", a, expected=0, key="tap-1")
    r2 = server.act(game, "Maria", a, expected=0, key="tap-1")
    assert r1.status == r2.status == 200
    assert r1.data["duplicate"] is False and r2.data["duplicate"] is True
    assert r1.data["accepted"] == r2.data["accepted"] == 1
    # Johnny using the same key string is a different key: his roll is applied.
    r3 = server.act(
        game, "Johnny", {"type": "godfather_roll", "player": "Johnny", "face": 2}, key="tap-1"
    )
    assert r3.status == 200 and r3.data["duplicate"] is False and r3.data["accepted"] == 2


def test_replies_are_the_callers_own_view(server):
    game = server.create_game()
    state = past_setup(server, game).state
    r = server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 6]})
    assert r.status == 200
    mine = r.data["view"]["players"][1]
    assert [d["face"] for d in mine["dice"]] == [3, 3, 4, 5, 6]
    state = server.service.game(game.id).state
    for name in ("Maria", "Claire", "Vincent"):
        r = server.client().get(f"/api/games/{game.id}", {"X-Player-Token": game.seats[name].token})
        assert r.data["viewer"] == name
        assert r.data["view"] == json.loads(json.dumps(player_view(state, name)))
        assert "dice" not in r.data["view"]["players"][1]
        assert "3-3-4-5-6" not in r.text
    table = server.client().get(f"/api/games/{game.id}?as=table")
    assert table.data["viewer"] is None
    assert all("dice" not in p for p in table.data["view"]["players"])
    assert "Johnny rolls." in [line for e in table.data["log"] for line in e["lines"]]
    # A phone with a player cookie still gets the table view with ?as=table.
    r = server.client().get(
        f"/api/games/{game.id}?as=table", {"X-Player-Token": game.seats["Johnny"].token}
    )
    assert r.data["viewer"] is None and "dice" not in r.data["view"]["players"][1]
    assert server.client().get(f"/api/games/{game.id}?as=player").status == 401


def test_the_host_cannot_move_for_a_player_so_refusals_tell_the_host_nothing(server):
    """The reviewer's oracle: the host submitted reveal_favor for Johnny with each face and
    read which were refused. The host does not move for players at all, so every face gets
    the same 403 before any rule is looked at, and nothing changes."""
    game = server.create_game()
    past_setup(server, game)
    server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 6]})
    seq = server.service.game(game.id).seq
    replies = set()
    for face in range(1, 7):
        r = server.host(
            game,
            "actions",
            {
                "action": {"type": "reveal_favor", "player": "Johnny", "face": face},
                "expected_seq": seq,
            },
        )
        assert r.status == 403 and r.data["error"] == "forbidden", r.text
        replies.add(r.text)
    assert len(replies) == 1
    assert server.service.game(game.id).seq == seq
    # Johnny himself is told exactly why his own move is refused
    r = server.act(game, "Johnny", {"type": "reveal_favor", "player": "Johnny", "face": 1})
    assert r.status == 422 and "1" in r.data["reason"], r.text


def test_undo_correct_and_end_by_host_and_player(server):
    game = server.create_game()
    past_setup(server, game)
    s = server.service
    server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 6]})
    # a roll cannot be taken back by the player
    r = server.client().post(
        f"/api/games/{game.id}/undo",
        {"expected_seq": s.game(game.id).seq},
        game.seats["Johnny"].csrf,
        headers={"X-Player-Token": game.seats["Johnny"].token},
    )
    assert r.status == 403 and "cannot be taken back" in r.data["reason"]
    # the host corrects the misread die (needs a reason)
    roll_seq = s.game(game.id).seq
    fixed = {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 5]}
    r = server.host(
        game,
        "corrections",
        {"target": roll_seq, "action": fixed, "why": " ", "expected_seq": roll_seq},
    )
    assert r.status == 400 and "why" in r.data["reason"]
    r = server.host(
        game,
        "corrections",
        {"target": roll_seq, "action": fixed, "why": "camera misread", "expected_seq": roll_seq},
    )
    assert r.status == 200, r.text
    assert r.data["viewer"] is None and "dice" not in r.data["view"]["players"][1]
    assert [d.face for d in s.game(game.id).state.players[1].dice] == [3, 3, 4, 5, 5]
    # a player cannot correct
    r = server.client().post(
        f"/api/games/{game.id}/corrections",
        {"target": roll_seq, "action": fixed, "why": "x", "expected_seq": s.game(game.id).seq},
        game.seats["Johnny"].csrf,
        headers={"X-Player-Token": game.seats["Johnny"].token},
    )
    assert r.status == 401
    # the host undoes back to the roll
    r = server.host(game, "undo", {"target": roll_seq, "expected_seq": s.game(game.id).seq})
    assert r.status == 200 and s.game(game.id).state.players[1].rolled is False
    # export is for people at the table, and refused while the game is on (it holds every
    # hidden die) ...
    host = {"X-Host-Key": game.host_key}
    assert server.client().get(f"/api/games/{game.id}/record").status == 401
    r = server.client().get(f"/api/games/{game.id}/record", host)
    assert r.status == 409 and "hidden" in r.data["reason"]
    # ... and given once the host ends it
    r = server.host(game, "status", {"status": "finished"})
    assert r.status == 200 and r.data["status"] == "finished" and "scores" in r.data
    assert server.client().get(f"/api/games/{game.id}/record").status == 401
    r = server.client().get(f"/api/games/{game.id}/record", host)
    assert r.status == 200 and '"type": "setup"' in r.text
    assert "corrected move" in r.text and "undid" in r.text
    r = server.act(game, "Maria", {"type": "roll", "player": "Maria", "faces": [1, 2, 3, 4, 5]})
    assert r.status == 409 and r.data["error"] == "closed"


def test_moves_list_for_the_host_hides_the_dice(server):
    game = server.create_game()
    past_setup(server, game)
    server.act(game, "Johnny", {"type": "roll", "player": "Johnny", "faces": [3, 3, 4, 5, 6]})
    r = server.client().get(f"/api/games/{game.id}/moves", {"X-Host-Key": game.host_key})
    assert r.status == 200
    last = r.data["moves"][-1]
    assert last["type"] == "roll" and last["action"]["faces"] == "hidden"
    assert "3-3-4-5-6" not in r.text
    assert server.client().get(f"/api/games/{game.id}/moves").status == 401


def test_tokens_survive_a_restart(tmp_path, server_factory):
    s1 = server_factory(tmp_path / "data")
    game = s1.create_game()
    s1.act(game, "Maria", {"type": "godfather_roll", "player": "Maria", "face": 4})
    s1.running.stop(s1.app)
    s1.app.extensions["companion"].close()
    s2 = server_factory(tmp_path / "data")
    r = s2.act(game, "Johnny", {"type": "godfather_roll", "player": "Johnny", "face": 2})
    assert r.status == 200 and r.data["accepted"] == 2
    r = s2.client().get(f"/api/games/{game.id}/seats", {"X-Host-Key": game.host_key})
    assert r.status == 200


def test_openapi_documents_every_api_route(server):
    spec = server.client().get("/openapi.json").data
    assert spec["openapi"].startswith("3.")
    app = server.app
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = rule.rule.replace("<game_id>", "{game_id}")
        assert path in spec["paths"], f"{path} is not in /openapi.json"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in spec["paths"][path], f"{method} {path} undocumented"


def test_garbage_never_gets_a_500(server):
    game = server.create_game()
    rng = random.Random(4)
    junk = [None, 0, -1, 2**70, "x", [], {}, [1, "a"], {"type": "roll"}, True, 1.5, "\x00"]
    paths = ["actions", "undo", "corrections", "status"]
    for _ in range(200):
        body = {
            k: rng.choice(junk)
            for k in rng.sample(
                ["action", "expected_seq", "key", "as", "target", "why", "status"],
                rng.randint(0, 5),
            )
        }
        if rng.random() < 0.5:
            body["action"] = {
                "type": rng.choice(["roll", "claim", "favor", "bet", "x"]),
                "player": rng.choice(["Maria", "Nobody", 3]),
                rng.choice(["faces", "dice", "spot", "to"]): rng.choice(junk),
            }
        who = rng.choice(["Maria", "host", None])
        headers = {}
        csrf = None
        if who == "host":
            headers["X-Host-Key"] = game.host_key
            csrf = game.host_csrf
            body.setdefault("as", "host")
        elif who:
            headers["X-Player-Token"] = game.seats[who].token
            csrf = game.seats[who].csrf
        r = server.client().post(
            f"/api/games/{game.id}/{rng.choice(paths)}", body, csrf, headers=headers
        )
        assert 200 <= r.status < 500, (body, r.status, r.text)
        assert r.data is not None, r.text
    for path in [
        "/api/games/%00",
        f"/api/games/{game.id}/events?last_event_id=x",
        "/api/games/" + "a" * 3000,
    ]:
        assert 400 <= server.client().get(path).status < 500


def test_app_factory_serves_pages_with_the_test_client(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    try:
        c = app.test_client()
        home = c.get("/")
        assert home.status_code == 200 and b"New game" in home.data
        assert c.get("/table/zzz").status_code == 404
        assert c.get("/openapi.json").status_code == 200
    finally:
        app.extensions["companion"].close()
