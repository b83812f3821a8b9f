"""A whole 4-player game played through the pages in real headless Chromium.

The host creates the game on the home page and hands out the join links; each player's phone
is its own browser context (its own cookies), a table screen watches. Every die is entered by
tapping faces on the phone of the player who rolled it, and every choice is a button the
phone's resolution builder offers. After every move, each page's DOM is checked: the only dice
drawn for a player are that player's own, or dice the engine has made public. At the end every
event each phone received is checked against the engine's view for that phone. The host's
pairing page is driven the same way, on simulated dice.

Set WEB_SCREENSHOTS=DIR to keep the screenshots (docs/screenshots holds the README's).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from browser_kit import PHONE, RECORD_SSE
from red_dice import SEATS, johnny_rolls_with_a_red_die, play_to_red_rollers

from companion.games.new_don import Claim, MuscleOut, UseFavor, waiting_for
from companion.games.new_don.view import dice_public

DICE = ("roll", "godfather_roll", "vegas_roll")


class Table:
    """The pages of one game and the moves made through them."""

    def __init__(self, server, browser, shots: Path) -> None:
        self.server = server
        self.browser = browser
        self.shots = shots
        self.errors: list[str] = []
        self.contexts = []

    def page(self, **context):
        ctx = self.browser.new_context(**context)
        ctx.add_init_script(RECORD_SSE)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(10_000)
        return page

    def wait_all(self, seq: int) -> None:
        for page in self.all_pages():
            page.wait_for_function("s => document.body.dataset.seq === s", arg=str(seq))

    def all_pages(self):
        return [*self.phones.values(), self.table, self.host]

    def check_dom(self, state) -> None:
        """No page draws a die of another player unless the engine made it public."""
        public = {p.name for i, p in enumerate(state.players) if dice_public(state, i)}
        for name, page in [*self.phones.items(), (None, self.table)]:
            owners = page.eval_on_selector_all(
                "[data-owner]", "els => els.map(e => e.dataset.owner)"
            )
            leaked = {o for o in owners if o != name and o not in public}
            assert not leaked, f"{name}'s page shows hidden dice of {leaked} ({state.phase})"
            if name is not None:
                mine = sorted(
                    page.eval_on_selector_all(
                        "#my-dice [data-owner]", "els => els.map(e => Number(e.dataset.face))"
                    )
                )
                assert mine == sorted(d.face for d in state.players[state.seat(name)].dice)

    def shot(self, page, name: str, full: bool = True) -> None:
        page.screenshot(path=str(self.shots / name), full_page=full)


def pick(rng: random.Random, state, player: str, buttons: list[dict]) -> dict:
    """A choice the way people play (mostly sets), among the buttons the phone shows."""
    groups: dict[str, list[dict]] = {}
    for b in buttons:
        groups.setdefault(b["group"], []).append(b)
    if "claim" in groups or "muscle_out" in groups:
        sets = groups.get("claim", []) + groups.get("muscle_out", [])
        if rng.random() < 0.8:
            return rng.choice(sets)
    if "pass" in groups and state.phase.value == "resolution":
        others = [b for b in buttons if b["group"] != "pass"]
        favors = groups.get("favor", [])
        if favors and rng.random() < 0.3:
            return rng.choice(favors)
        if others and rng.random() < 0.5:
            return rng.choice(others)
        return groups["pass"][0]
    if "reroll" in groups and rng.random() < 0.4:
        return groups["pass"][0]
    return rng.choice(buttons)


def test_a_whole_game_through_the_pages_shows_each_phone_only_its_own_dice(
    server, browser, tmp_path, check_message
):
    shots = tmp_path / "shots"
    shots.mkdir()
    t = Table(server, browser, shots)
    rng = random.Random(7)
    try:
        # The host creates the game on the home page.
        t.host = t.page(viewport={"width": 1100, "height": 900})
        t.host.goto(server.url + "/")
        for i, name in enumerate(["Maria", "Johnny", "Claire", "Vincent"]):
            t.host.fill(f"input[name=player{i}]", name)
        t.host.click("button[type=submit]")
        t.host.wait_for_url("**/host/*")
        game_id = t.host.url.rsplit("/", 1)[1]
        t.host.wait_for_selector("#seats li[data-seat]")
        names = t.host.eval_on_selector_all(
            "#seats li[data-seat]", "els => els.map(e => e.dataset.seat)"
        )
        assert names == ["Maria", "Johnny", "Claire", "Vincent"]
        t.phones = {}
        for name in names:
            # One code on screen at a time; each phone scans its own, and the host page
            # shows the seat as joined.
            t.host.click(f'#seats li[data-seat="{name}"] >> text=Show code')
            link = t.host.get_attribute("#seat-qr a.join-link", "href")
            assert t.host.locator("#seat-qr img").count() == 1
            phone = t.page(**PHONE)
            phone.goto(link)
            phone.wait_for_url(f"**/play/{game_id}")
            assert link.rsplit("/", 1)[1] not in phone.url  # the secret left the address bar
            t.host.wait_for_selector(f'#seats li[data-seat="{name}"][data-joined="1"]')
            t.phones[name] = phone
        assert t.host.locator("#seat-qr img").count() == 0  # no code left to show
        t.table = t.page(viewport={"width": 1280, "height": 900})
        t.table.goto(f"{server.url}/table/{game_id}")
        t.wait_all(0)
        assert "PLACEHOLDER" in t.table.text_content("#board")
        seq = 0
        moves = undos = corrected = 0
        shots_taken: set[str] = set()
        while True:
            state = server.service.game(game_id).state
            if state.is_over:
                break
            w = rng.choice(waiting_for(state))
            phone = t.phones[w.player]
            if w.does in DICE:
                faces = [rng.randint(1, 6) for _ in range(w.dice.count if w.dice else 1)]
                for f in faces:
                    phone.click(f"#dice-entry .faces button[data-face='{f}']")
                phone.click("#dice-entry button.send")
            else:
                buttons = phone.eval_on_selector_all(
                    "#choices button.choice",
                    "els => els.map((e, i) => ({i, group: e.dataset.group, "
                    "action: JSON.parse(e.dataset.action)}))",
                )
                assert buttons, f"{w.player}'s phone offers nothing to {w.does}"
                chosen = pick(rng, state, w.player, buttons)
                if chosen["group"] == "recruit" and rng.random() < 0.5:
                    # The builder way: tap the dice, then the choice for exactly those dice.
                    wanted = list(chosen["action"]["dice"])
                    faces_shown = phone.eval_on_selector_all(
                        "#my-dice button.die-button [data-owner]",
                        "els => els.map(e => Number(e.dataset.face))",
                    )
                    for i, f in enumerate(faces_shown):
                        if f in wanted:
                            wanted.remove(f)
                            phone.click(f"#my-dice button.die-button[data-index='{i}']")
                    picked = phone.locator("#choices button.choice.picked[data-group=recruit]")
                    picked.first.click()
                else:
                    button = phone.locator("#choices button.choice").nth(chosen["i"])
                    if not button.is_visible():
                        button.locator("xpath=ancestor::details[1]/summary").click()
                    button.click()
            deadline = time.monotonic() + 10
            while server.service.game(game_id).seq == seq:
                toast = phone.inner_text("#toast")
                assert time.monotonic() < deadline, f"nothing happened: {toast!r}"
                time.sleep(0.01)
            seq = server.service.game(game_id).seq
            moves += 1
            t.wait_all(seq)
            state = server.service.game(game_id).state
            t.check_dom(state)
            # Now and then a player takes back a move they may take back, from the phone.
            last = server.service.game(game_id).effective[-1][1]
            if phone.locator("#undo").count() and rng.random() < 0.1 and undos < 3:
                phone.click("#undo")
                seq += 1
                t.wait_all(seq)
                undos += 1
                assert server.service.game(game_id).effective[-1][1] is not last
            # Once, the host corrects a die the camera "misread", right after the roll.
            if (
                w.does == "roll"
                and not corrected
                and state.round >= 2
                and state.phase.value == "roll"
            ):
                t.host.select_option("#correct-move", str(seq))
                true_faces = [rng.randint(1, 6) for _ in range(w.dice.count)]
                t.host.fill("#correct-faces", " ".join(map(str, true_faces)))
                t.host.fill("#correct-why", "the camera misread a die")
                t.host.click("#correct")
                seq += 1
                t.wait_all(seq)
                fixed = server.service.game(game_id).state.players[state.seat(w.player)]
                assert not Counter(true_faces) - Counter(d.face for d in fixed.dice)
                corrected = 1
                t.check_dom(server.service.game(game_id).state)
            # Screenshots at moments worth showing.
            state = server.service.game(game_id).state
            if state.phase.value == "resolution" and state.round >= 2 and "res" not in shots_taken:
                resolving = state.name(state.turn)
                if any(isinstance(a, Claim | MuscleOut) for a in _legal(state, resolving)) and any(
                    isinstance(a, UseFavor) for a in _legal(state, resolving)
                ):
                    t.shot(t.phones[resolving], "phone.png", full=False)
                    t.shot(t.phones[resolving], "phone-full.png")
                    shots_taken.add("res")
            if state.phase.value == "offer" and "offer" not in shots_taken:
                t.shot(t.phones[state.name(state.godfather)], "godfather.png", full=False)
                shots_taken.add("offer")
        assert moves > 100 and not t.errors, t.errors
        # The end of the game on every page.
        t.wait_all(server.service.game(game_id).seq)
        assert "Winner:" in t.table.inner_text("#over")
        for phone in t.phones.values():
            assert "Game over" in phone.text_content("#over")
        end = t.page(viewport={"width": 1000, "height": 800})
        end.goto(f"{server.url}/end/{game_id}")
        end.wait_for_selector("table.scores")
        assert "Total" in end.inner_text("#scores")
        assert end.locator(".score-bars .score-row").count() == 4
        t.shot(end, "end.png")
        t.host.wait_for_selector("#export:not([hidden])")
        t.shot(t.host, "host.png")
        # The record is for people at the table: the host's browser gets it, the table
        # screen's (no key, no seat) does not.
        href = t.host.get_attribute("#export a[href$='/record']", "href")
        assert t.table.request.get(server.url + href).status == 401
        record = t.host.request.get(server.url + href)
        assert record.status == 200 and record.text().count("\n") > moves - 5
        # Every event each phone received is that phone's own view.
        events = {e.seq: e for e in server.events if e.game_id == game_id}
        for name, page in [*t.phones.items(), (None, t.table)]:
            got = page.evaluate("window.__sse")
            assert len(got) > moves / 2
            for m in got:
                msg = SimpleNamespace(
                    id=int(m["id"]), event=m["event"], data=json.loads(m["data"]), raw=m["data"]
                )
                check_message(msg, name, events, server.service, game_id)
        assert corrected == 1 and {"res", "offer"} <= shots_taken
    finally:
        keep = os.environ.get("WEB_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for png in shots.glob("*.png"):
                shutil.copy(png, Path(keep) / png.name)
        for ctx in t.contexts:
            ctx.close()


def _legal(state, player):
    from companion.games.new_don import legal_actions

    return legal_actions(state, player)


def test_the_pairing_page_pairs_a_familys_dice_in_the_browser(
    server_factory, browser, tmp_path
) -> None:
    """The host pairs the red family's dice from the pairing page: one tap, the simulated dice
    roll, the page counts them in and shows them paired, and a virtual die says why it cannot
    blink."""
    server = server_factory(tmp_path / "data", DICE="simulated", DICE_ROLL_TIME=0.0)
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    try:
        host = ctx.new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.set_default_timeout(10_000)
        host.goto(server.url + "/")
        for i, name in enumerate(["Maria", "Johnny", "Claire"]):
            host.fill(f"input[name=player{i}]", name)
        host.click("button[type=submit]")
        host.wait_for_url("**/host/*")
        game_id = host.url.rsplit("/", 1)[1]
        host.click(f"a[href='/host/{game_id}/dice']")
        host.wait_for_url(f"**/host/{game_id}/dice")
        assert "broadcast their face" in host.inner_text("#privacy")
        host.wait_for_selector("#owners section[data-owner='vegas']")  # drawn once fetched
        owners = host.eval_on_selector_all(
            "#owners section[data-owner]", "els => els.map(e => e.dataset.owner)"
        )
        assert len(owners) == 4 and owners[-1] == "vegas", owners  # three families, Vegas
        red = owners[0]
        host.click(f"button[data-pair='{red}']")
        host.wait_for_function(
            "() => document.getElementById('pairing-now').textContent.startsWith('Saved: 5 dice')"
        )
        paired = host.locator(f"section[data-owner='{red}'] ul.paired li.die-row")
        assert paired.count() == 5
        ids = host.eval_on_selector_all(
            f"section[data-owner='{red}'] ul.paired li.die-row",
            "els => els.map(e => e.dataset.die)",
        )
        saved = json.loads((tmp_path / "data" / "dice" / "default.json").read_text())
        assert set(ids) <= {
            f"{d['source']}/{d['die']}" for d in saved["dice"] if d["owner"] == red
        }  # saved for the next game
        paired.first.locator("button").click()
        host.wait_for_function("() => document.getElementById('toast').textContent.length > 0")
        assert "only Pixels and GoDice have lights" in host.inner_text("#toast")
        if os.environ.get("WEB_SCREENSHOTS"):
            host.screenshot(
                path=str(Path(os.environ["WEB_SCREENSHOTS"]) / "pairing.png"), full_page=True
            )
        assert not errors, errors
    finally:
        ctx.close()


def test_whose_red_die_is_answered_on_a_phone_and_the_host_page(
    server_factory, browser, tmp_path
) -> None:
    """Johnny and Claire both roll with red dice; a red die lands. The host page offers both
    names, both phones ask "is it yours?": Claire says no, Johnny says yes, and his roll is
    played with it. The host's late answer is refused with the reason, and its card goes."""
    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game(SEATS)
    dice = play_to_red_rollers(server, game.id)
    contexts = []
    errors: list[str] = []

    def page(path: str, **context):
        ctx = browser.new_context(**context)
        contexts.append(ctx)
        p = ctx.new_page()
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.set_default_timeout(10_000)
        p.goto(server.url + path)
        p.wait_for_function("() => document.body.dataset.seq !== undefined")
        return p

    try:
        host = page(
            f"/host/{game.id}",
            viewport={"width": 1100, "height": 900},
            extra_http_headers={"X-Host-Key": game.host_key},
        )
        phones = {
            name: page(
                f"/play/{game.id}",
                **PHONE,
                extra_http_headers={"X-Player-Token": game.seats[name].token},
            )
            for name in ("Johnny", "Claire")
        }
        johnny_rolls_with_a_red_die(dice)

        names = host.locator("#whose section.whose button")
        names.first.wait_for()
        assert sorted(names.all_inner_texts()) == ["Claire's", "Johnny's"]
        assert "whose is it" in host.inner_text("#whose")
        for phone in phones.values():
            phone.locator("#whose-mine").wait_for()
            assert "is it yours?" in phone.inner_text("section.whose")
        phones["Claire"].click("text=Not mine")
        phones["Claire"].locator("section.whose").wait_for(state="detached")
        if os.environ.get("WEB_SCREENSHOTS"):
            shots = Path(os.environ["WEB_SCREENSHOTS"])
            host.screenshot(path=str(shots / "whose-host.png"))
            phones["Johnny"].screenshot(path=str(shots / "whose-phone.png"))
        seq = server.service.game(game.id).seq
        phones["Johnny"].click("#whose-mine")
        phones["Johnny"].wait_for_function(  # the reply, and the roll it completed
            "s => Number(document.body.dataset.seq) > s && document.getElementById('toast')"
            ".textContent === 'The red die counts for Johnny.'",
            arg=seq,
        )
        assert phones["Johnny"].locator("section.whose").count() == 0
        last = server.service.game(game.id).events[-1]
        assert last.payload == {"type": "roll", "player": "Johnny", "faces": [2, 2, 2, 2, 2, 6]}

        host.click("#whose button[data-player='Claire']")
        host.wait_for_function(
            "() => document.getElementById('toast').textContent.includes('not waiting')"
        )
        assert host.locator("#whose section.whose").count() == 0
        assert server.service.game(game.id).events[-1].payload == last.payload
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_host_starts_a_missed_roll_again(server_factory, browser, tmp_path) -> None:
    """Two of Maria's five dice were read, then the rest went unseen: the host page lists who
    is rolling, and "Start Maria's roll again" throws away what was read so far (the dice
    layer's void), so her roll starts from nothing."""
    from companion.dice.reading import DieReading, DieState

    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game()
    for name, face in zip(["Maria", "Johnny", "Claire", "Vincent"], (6, 4, 2, 1), strict=True):
        assert (
            server.act(game, name, {"type": "godfather_roll", "player": name, "face": face}).status
            == 200
        )
    hub = server.app.extensions["companion"].dice.dice.hub
    for i, face in enumerate((3, 5)):
        hub.feed(DieReading("camera:cam0:Maria", f"c{i}", DieState.SETTLED, face=face))
    assert hub.progress("Maria") == (2, 5)
    ctx = browser.new_context(
        viewport={"width": 1100, "height": 900}, extra_http_headers={"X-Host-Key": game.host_key}
    )
    try:
        host = ctx.new_page()
        host.set_default_timeout(10_000)
        host.goto(f"{server.url}/host/{game.id}")
        host.wait_for_selector("#rolling-card:not([hidden]) [data-rolling='Maria']")
        host.once("dialog", lambda d: d.accept())
        host.click("[data-rolling='Maria'] button")
        host.wait_for_function("() => document.getElementById('toast').textContent === 'Done.'")
        assert hub.progress("Maria") == (0, 5)
        assert server.service.game(game.id).seq == 4  # nothing applied, nothing lost
    finally:
        ctx.close()
