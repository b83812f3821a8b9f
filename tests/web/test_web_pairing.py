"""The dice on the web: the host pairs a family's dice once per table, a roll's progress
reaches the roller's phone only ("3 of 5 dice settled"), never another phone or the table, and
a red die two players could have rolled is claimed from a phone or the host page."""

from __future__ import annotations

import json
import time

from red_dice import SEATS, johnny_rolls_with_a_red_die, play_to_red_rollers

from companion.games.new_don import Roll, waiting_for


def dice_settled(server, game, timeout: float = 20) -> None:
    """Wait until the simulated dice have made every roll the game wants now."""
    deadline = time.monotonic() + timeout
    while any(
        w.does in ("godfather_roll", "roll", "vegas_roll")
        for w in waiting_for(server.service.game(game.id).state)
    ):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def host_post(server, game, path: str, body: dict):
    return server.client().post(
        f"/api/games/{game.id}/dice/{path}",
        body,
        game.host_csrf,
        headers={"X-Host-Key": game.host_key},
    )


def host_get(server, game):
    return server.client().get(f"/api/games/{game.id}/dice", {"X-Host-Key": game.host_key})


def test_web_pairing_saves_a_familys_dice_for_the_next_game(tmp_path, server_factory):
    data = tmp_path / "data"
    server = server_factory(data, DICE="simulated", DICE_ROLL_TIME=0.0)
    game = server.create_game(
        [{"name": "Maria", "colour": "red"}, {"name": "Johnny", "colour": "blue"}, "Claire"]
    )
    dice_settled(server, game)

    # Host only: no key, and no CSRF token, are refused.
    assert server.client().get(f"/api/games/{game.id}/dice").status == 401
    no_csrf = server.client().post(
        f"/api/games/{game.id}/dice/pairing",
        {"owner": "red"},
        headers={"X-Host-Key": game.host_key},
    )
    assert no_csrf.status == 403
    assert host_post(server, game, "pairing", {"owner": "purple"}).status == 400

    status = host_get(server, game).data
    assert status["mode"] == "simulated" and "broadcast their face" in status["privacy"]
    assert status["sources"] == [
        {"name": "phone entry", "needs": "nothing"},
        {"name": "simulated dice", "needs": "nothing"},
    ]
    assert [o["owner"] for o in status["owners"]] == ["red", "blue", "Claire", "vegas"]

    started = host_post(server, game, "pairing", {"owner": "red"})
    assert started.status == 200, started.text
    deadline = time.monotonic() + 10
    while not (status := host_get(server, game).data)["pairing"]["saved"]:
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
    found = status["pairing"]["found"]
    assert len(found) == 5 and status["pairing"]["done"]
    red = next(o for o in status["owners"] if o["owner"] == "red")
    assert {(d["source"], d["die"]) for d in red["dice"]} == {
        (d["source"], d["die"]) for d in found
    }

    saved = json.loads((data / "dice" / "default.json").read_text())
    owned = {(d["source"], d["die"]) for d in saved["dice"] if d["owner"] == "red"}
    assert {(d["source"], d["die"]) for d in found} <= owned

    # Blinking a virtual die is refused politely; an unknown die is a 404.
    blink = host_post(server, game, "blink", found[0])
    assert blink.status == 200 and blink.data["blinked"] is False
    assert host_post(server, game, "blink", {"source": "pixels", "die": "nope"}).status == 404

    # Pairing the red dice next takes other dice than red's.
    host_post(server, game, "pairing", {"owner": "vegas"})
    deadline = time.monotonic() + 10
    while not (status := host_get(server, game).data)["pairing"]["saved"]:
        assert time.monotonic() < deadline, status
        time.sleep(0.05)
    vegas = {(d["source"], d["die"]) for d in status["pairing"]["found"]}
    assert len(vegas) == 3 and not vegas & {(d["source"], d["die"]) for d in found}

    # The pairing page itself: host only, with the privacy warning.
    page = server.client().get(f"/host/{game.id}/dice", {"X-Host-Key": game.host_key})
    assert page.status == 200 and "broadcast their face in clear text" in page.text
    assert server.client().get(f"/host/{game.id}/dice").status == 401
    host_page = server.client().get(f"/host/{game.id}", {"X-Host-Key": game.host_key})
    assert f"/host/{game.id}/dice" in host_page.text

    # A restarted server knows the table's dice without pairing again.
    server.running.stop(server.app)
    server.app.extensions["companion"].close()
    again = server_factory(data, DICE="simulated", DICE_ROLL_TIME=0.0)
    status = host_get(again, game).data
    by_owner = {o["owner"]: {(d["source"], d["die"]) for d in o["dice"]} for o in status["owners"]}
    assert by_owner["red"] == {(d["source"], d["die"]) for d in found}
    assert by_owner["vegas"] == vegas
    assert status["pairing"] is None


def test_web_pairing_needs_a_dice_reader(server):
    game = server.create_game()
    assert host_get(server, game).status == 409
    assert host_post(server, game, "pairing", {"owner": "vegas"}).status == 409


def test_web_dice_progress_reaches_the_roller_only(tmp_path, server_factory):
    # The dice start with the game: the roll-off lands a roll time after it is created, and
    # each family's first roll is asked for then. Every stream must be open by that moment to
    # see the whole of that roll (one that opens later is sent only the roll's progress), so
    # the roll time is long enough for a loaded machine to open six streams (0.3 s was not,
    # once in CI).
    roll_time = 1.0
    server = server_factory(tmp_path / "data", DICE="simulated", DICE_ROLL_TIME=roll_time)
    created = time.monotonic()
    game = server.create_game()
    streams = {name: server.stream(game, name) for name in game.seats}
    table = server.stream(game, None)
    opened = time.monotonic() - created
    assert opened < roll_time, f"the streams took {opened:.2f} s to open: the test cannot tell"
    # The opening roll-off, then every family's first roll, come off the simulated dice.
    dice_settled(server, game, timeout=30)
    time.sleep(0.3)
    for s in [*streams.values(), table]:
        s.close()

    def dice(stream):
        return [m.data for m in stream.received if m.event == "dice"]

    rolls = [e for e in server.events if e.kind == "action" and e.action.TYPE == "roll"]
    assert {e.action.player for e in rolls} == set(game.seats)
    for name, stream in streams.items():
        mine = dice(stream)
        assert all(m.get("player") == name for m in mine if m["kind"] != "rolling"), mine
        wanted = [m for m in mine if m["kind"] == "roll_wanted" and m["does"] == "roll"]
        assert wanted and wanted[0]["dice"] == 5 and wanted[0]["text"] == "Roll your 5 dice"
        counted = [m for m in mine if m["kind"] == "counted" and m["need"] == 5]
        assert [m["have"] for m in counted][-5:] == [1, 2, 3, 4, 5]
        assert counted[-1]["text"] == "5 of 5 dice settled"
        roll = next(e.action for e in rolls if e.action.player == name)
        assert sorted(m["face"] for m in counted[-5:]) == sorted(roll.faces)
        # Of the others' rolls this phone saw who was rolling, and nothing more.
        others = [m for m in mine if m.get("player") != name]
        assert others and all(set(m) == {"kind", "player", "text"} for m in others)
        assert all(m["kind"] == "rolling" for m in others)
        for m in stream.received:
            if m.event == "dice":
                assert (
                    '"face"' not in m.raw
                    or json.loads(m.raw.split("data: ", 1)[1])["player"] == name
                )
    seen = dice(table)
    assert seen and all(
        m["kind"] == "rolling" and set(m) == {"kind", "player", "text"} for m in seen
    )
    assert {m["player"] for m in seen} == set(game.seats)
    for m in table.received:
        if m.event == "dice":
            assert '"face"' not in m.raw and '"have"' not in m.raw and '"dice"' not in m.raw


def test_web_whose_red_die_is_answered_by_phone_or_host(tmp_path, server_factory):
    """Two players rolling red dice at once: a red die that lands could be either's. The table,
    the host page and those two phones are asked (never its face); the host, or the player
    whose die it is, answers, and it counts for them."""
    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game(SEATS)
    dice = play_to_red_rollers(server, game.id)
    state = server.service.game(game.id).state
    waits = {w.player: w.dice.count for w in waiting_for(state) if w.does == "roll"}
    assert waits["Johnny"] == 6 and waits["Claire"] == 6
    streams = {name: server.stream(game, name) for name in ("Maria", "Johnny", "Claire")}
    table = server.stream(game, None)
    for s in (*streams.values(), table):
        s.wait_for(lambda m: m.event == "view")
    johnny_rolls_with_a_red_die(dice)

    def asked(stream):
        return stream.wait_for(lambda m: m.event == "dice" and m.data["kind"] == "whose_die")

    on_table = asked(table).data
    assert on_table["die"] == {"source": "pixels", "die": "vegas1"}
    assert set(on_table["candidates"]) == {"Johnny", "Claire"} and "face" not in on_table
    assert "Johnny or Claire" in on_table["text"] or "Claire or Johnny" in on_table["text"]
    for name in ("Johnny", "Claire"):
        assert asked(streams[name]).data["text"].endswith("is it yours?")

    def say(name: str | None, body: dict):
        if name is None:
            return server.host(game, "dice/whose", body)
        seat = game.seats[name]
        return server.client().post(
            f"/api/games/{game.id}/dice/whose",
            {"as": "player", **body},
            seat.csrf,
            headers={"X-Player-Token": seat.token},
        )

    red = {"source": "pixels", "die": "vegas1"}
    assert say("Claire", {**red, "player": "Johnny"}).status == 403
    assert say("Maria", red).status == 400  # Maria holds no red die this roll
    assert say(None, {**red, "player": "Sonny"}).status == 400
    assert say(None, {"source": "pixels"}).status == 400
    assert say(None, {"source": "pixels", "die": "vegas2"}).status == 409
    seq = server.service.game(game.id).seq
    answered = say("Johnny", red)  # Johnny: "it's mine"
    assert answered.status == 200, answered.text
    assert answered.data == {"die": red, "player": "Johnny"}
    late = say(None, {**red, "player": "Claire"})  # the host, a moment too late
    assert late.status == 409 and "not waiting" in late.data["reason"]

    # Johnny's six dice are complete: his roll is played, with the red die's 6.
    deadline = time.monotonic() + 10
    while server.service.game(game.id).seq == seq:
        assert time.monotonic() < deadline, "the roll never reached the table"
        time.sleep(0.02)
    last = server.service.game(game.id).events[-1]
    assert last.actor == "dice" and last.payload == Roll("Johnny", (2, 2, 2, 2, 2, 6)).to_dict()
    time.sleep(0.2)
    for s in (*streams.values(), table):
        s.close()
    # Maria's phone was never asked, and no phone or screen but Johnny's saw a face.
    assert not [
        m for m in streams["Maria"].received if m.event == "dice" and m.data["kind"] == "whose_die"
    ]
    for name, s in (*streams.items(), ("table", table)):
        for m in s.received:
            if m.event == "dice" and name != "Johnny":
                assert '"face"' not in m.raw, (name, m.raw)
    # A new game takes the table's dice: the old game's host can no longer answer for them.
    server.create_game(SEATS)
    elsewhere = say(None, {**red, "player": "Johnny"})
    assert elsewhere.status == 409 and "another game" in elsewhere.data["reason"]
