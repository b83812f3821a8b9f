"""Two people and two bots play a whole game through the pages, in real headless Chromium.

The host creates the game on the home page, two phones join by their codes, and the host seats
bots in the other two seats from the host page's Bots card (one easy, one standard). The people
tap their dice and their choices on their phones, and now and then ask "What would a bot play?";
the bots play their seats from their own views and roll their own dice, and the table screen
hears each bot move's reason. At the end every event each page received is checked against
the engine's view for that page: no phone ever received a die it may not see.
"""

from __future__ import annotations

import json
import random
import time
from types import SimpleNamespace

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from companion.games.new_don import waiting_for

RECORD = """
(() => {
  window.__sse = [];
  window.__notices = [];
  const Real = window.EventSource;
  function Recording(url, opts) {
    const es = new Real(url, opts);
    for (const type of ["view", "update"]) {
      es.addEventListener(type, (e) => window.__sse.push({event: type, id: e.lastEventId,
                                                          data: e.data}));
    }
    es.addEventListener("notice", (e) => window.__notices.push(JSON.parse(e.data).text));
    return es;
  }
  Recording.prototype = Real.prototype;
  window.EventSource = Recording;
})();
"""
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}
PEOPLE = ("Maria", "Johnny")
BOTS = {"Claire": "easy", "Vincent": "standard"}
DICE = ("roll", "godfather_roll", "vegas_roll")


@pytest.fixture
def bot_server(tmp_path, server_factory):
    return server_factory(tmp_path / "data", BOT_PACE=0.05)


def pick(rng: random.Random, buttons: list[dict]) -> dict:
    """A choice the way people play: mostly sets, sometimes anything else."""
    sets = [b for b in buttons if b["group"] in ("claim", "muscle_out")]
    if sets and rng.random() < 0.8:
        return rng.choice(sets)
    passing = [b for b in buttons if b["group"] == "pass"]
    if passing and rng.random() < 0.4:
        return passing[0]
    return rng.choice(buttons)


def test_two_people_and_two_bots_play_a_whole_game_from_the_pages(
    bot_server, browser, check_message
):
    server = bot_server
    contexts = []
    errors: list[str] = []

    def page(**options):
        ctx = browser.new_context(**options)
        ctx.add_init_script(RECORD)
        contexts.append(ctx)
        p = ctx.new_page()
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.set_default_timeout(20_000)
        return p

    rng = random.Random(5)
    try:
        host = page(viewport={"width": 1100, "height": 1200})
        host.goto(server.url + "/")
        for i, name in enumerate([*PEOPLE, *BOTS]):
            host.fill(f"input[name=player{i}]", name)
        host.click("button[type=submit]")
        host.wait_for_url("**/host/*")
        game_id = host.url.rsplit("/", 1)[1]
        host.wait_for_selector("#seats li[data-seat]")
        phones = {}
        for name in PEOPLE:
            host.click(f'#seats li[data-seat="{name}"] >> text=Show code')
            link = host.get_attribute("#seat-qr a.join-link", "href")
            phone = page(**PHONE)
            phone.goto(link)
            phone.wait_for_url(f"**/play/{game_id}")
            host.wait_for_selector(f'#seats li[data-seat="{name}"][data-joined="1"]')
            phones[name] = phone
        # A phone holds Maria's seat: the Bots card offers no bot for it.
        assert host.locator('#bots li[data-bot-seat="Maria"] button.seat-bot').count() == 0
        for name, level in BOTS.items():
            row = host.locator(f'#bots li[data-bot-seat="{name}"]')
            row.locator("select.bot-level").select_option(level)
            row.locator("button.seat-bot").click()
            host.wait_for_selector(f'#seats li[data-seat="{name}"][data-bot="1"]')
        assert host.locator("#seats li[data-bot='1']").count() == 2
        table = page(viewport={"width": 1280, "height": 900})
        table.goto(f"{server.url}/table/{game_id}")

        service = server.service
        moves = hints = redrawn = 0
        deadline = time.monotonic() + 900
        while not service.game(game_id).is_over:
            assert time.monotonic() < deadline, "the game took too long"
            game = service.game(game_id)
            waits = [w for w in waiting_for(game.state) if w.player in PEOPLE]
            if not waits:
                time.sleep(0.05)  # the bots' turn: they play by themselves
                continue
            w = rng.choice(waits)
            phone = phones[w.player]
            phone.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=game.seq)
            if w.does in DICE:
                if phone.locator("#dice-entry button.send").count() == 0:
                    continue  # the phone is a step behind: look again
                if phone.get_attribute("#dice-entry", "data-tapped") != "0":
                    time.sleep(0.05)  # this roll is being sent (the entry keeps its faces
                    continue  # until the companion answers): look again
                # As many faces as the phone's entry asks (it may be a picture behind).
                for _ in range(int(phone.get_attribute("#dice-entry", "data-count") or 1)):
                    phone.click(f"#dice-entry .faces button[data-face='{rng.randint(1, 6)}']")
                phone.click("#dice-entry button.send")
            else:
                buttons = phone.eval_on_selector_all(
                    "#choices button.choice",
                    "els => els.map((e, i) => ({i, group: e.dataset.group, "
                    "action: JSON.parse(e.dataset.action)}))",
                )
                if not buttons:
                    continue
                if len(buttons) > 1 and hints < 4 and rng.random() < 0.15:
                    # What would a bot play? One of this phone's own choices, and why.
                    phone.click("#hint")
                    phone.wait_for_selector("#hint-text")
                    hinted = json.loads(phone.get_attribute("#hint-text", "data-action"))
                    assert hinted in [b["action"] for b in buttons], hinted
                    assert phone.inner_text("#hint-text b")
                    hints += 1
                chosen = pick(rng, buttons)
                button = phone.locator("#choices button.choice").nth(chosen["i"])
                try:
                    if not button.is_visible():  # in a closed group, or drawn again meanwhile
                        button.locator("xpath=ancestor::details[1]/summary").click(timeout=3_000)
                    button.click(timeout=3_000)
                except PlaywrightTimeoutError:
                    # A bot's move drew this phone's choices again between reading and tapping
                    # them (seen in CI): look again. A phone that never offers them fails below.
                    redrawn += 1
                    assert redrawn <= 20, "the phone's choices kept vanishing before a tap"
                    continue
            end = time.monotonic() + 20
            while service.game(game_id).seq == game.seq and time.monotonic() < end:
                time.sleep(0.02)
            moves += 1
        assert moves > 40 and hints >= 1 and not errors, errors
        final = service.game(game_id).seq
        for p in [*phones.values(), table, host]:
            p.wait_for_function("s => document.body.dataset.seq === s", arg=str(final))
        assert "Winner:" in table.inner_text("#over")
        for phone in phones.values():
            assert "Game over" in phone.text_content("#over")
        # The bots played their own seats: their choices as themselves, their dice rolled
        # by the companion; and the table heard why.
        game_events = [e for e in server.events if e.game_id == game_id]
        for name in BOTS:
            assert any(e.actor == f"player:{name}" for e in game_events)
            assert any(
                e.actor == "dice:bot" and e.payload.get("player") == name for e in game_events
            )
        notices = table.evaluate("window.__notices")
        assert any("(bot) claims" in n or "(bot) muscles" in n for n in notices), notices
        # Every event each page received is that page's own view, no more.
        events = {e.seq: e for e in game_events}
        for name, p in [*phones.items(), (None, table)]:
            for m in p.evaluate("window.__sse"):
                msg = SimpleNamespace(
                    id=int(m["id"]), event=m["event"], data=json.loads(m["data"]), raw=m["data"]
                )
                check_message(msg, name, events, service, game_id)
    finally:
        for ctx in contexts:
            ctx.close()
