"""Five phones type every roll at the same time, as a table does with `companion serve --dice
phone`, through a whole game in real Chromium.

Whenever the game waits for several rolls (the roll-off, every Roll phase) every roller types
at once: the test presses a face on one phone, then moves on to the others, which tap and
send their own rolls while that press is held, and only then lets go. So every roll is typed
while the other players' rolls land on that phone, and every tap is pressed while its page
receives other moves. After each tap the phone must show exactly the faces tapped so far;
every roll must be accepted the first time with the faces typed; no phone may ever show a
refusal. Favors are shown at once the same way, and Vegas dice locked at once.

WEB_SCREENSHOTS=DIR keeps a phone's screenshot in the middle of typing its roll.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from browser_kit import PHONE

from companion.games.new_don import waiting_for

FIVE = ["Maria", "Johnny", "Claire", "Vincent", "Sonny"]
SIMULTANEOUS = ("reveal_favor", "keep_vegas")

# Every toast that is not good news is a refusal the player saw.
WATCH_REFUSALS = """
(() => {
  window.__refusals = [];
  new MutationObserver(() => {
    const t = document.getElementById("toast");
    if (t && t.classList.contains("show") && !t.classList.contains("ok")) {
      window.__refusals.push(t.textContent);
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["class"]});
})();
"""


class Phones:
    def __init__(self, server, browser, game):
        self.server = server
        self.game = game
        self.contexts = []
        self.pages = {}
        self.posts: list[tuple[str, str, int]] = []
        self.errors: list[str] = []
        self.shots: set[str] = set()
        for name in FIVE:
            ctx = browser.new_context(
                **PHONE, extra_http_headers={"X-Player-Token": game.seats[name].token}
            )
            ctx.add_init_script(WATCH_REFUSALS)
            self.contexts.append(ctx)
            page = ctx.new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            page.on(
                "response",
                lambda r, who=name: (
                    self.posts.append(
                        (who, r.url.rsplit("/", 2)[-2] + "/" + r.url.rsplit("/", 1)[-1], r.status)
                    )
                    if r.request.method == "POST"
                    else None
                ),
            )
            page.goto(f"{server.url}/play/{game.id}")
            page.wait_for_function("() => document.body.dataset.seq !== undefined")
            self.pages[name] = page

    @property
    def state(self):
        return self.server.service.game(self.game.id).state

    @property
    def seq(self):
        return self.server.service.game(self.game.id).seq

    def shot(self, page, name: str) -> None:
        """Keep one screenshot (WEB_SCREENSHOTS=DIR): a phone in the middle of a roll."""
        keep = os.environ.get("WEB_SCREENSHOTS")
        if keep and name not in self.shots:
            self.shots.add(name)
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / name))

    def rolls_applied(self) -> int:
        game = self.server.service.game(self.game.id)
        return sum(game.rules.is_roll(a) for _, a in game.effective)

    def press(self, page, selector):
        """Put a finger down on an element (it is let go later)."""
        page.locator(selector).scroll_into_view_if_needed()
        box = page.locator(selector).bounding_box()
        assert box, selector
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()

    def settle(self, until, what):
        deadline = time.monotonic() + 15
        while not until():
            if time.monotonic() > deadline:
                toasts = {n: p.evaluate("window.__refusals") for n, p in self.pages.items()}
                raise AssertionError(
                    f"{what}: nothing happened; last posts {self.posts[-8:]}, "
                    f"refusals shown {toasts}"
                )
            time.sleep(0.02)


def type_rolls_at_once(phones, rolls, rng, typed):
    """Every roller of ``rolls`` (player -> the Waiting) types and sends at once, each press
    held while the other phones tap and send."""
    plan = {}
    before = phones.rolls_applied()
    for name, w in rolls.items():
        page = phones.pages[name]
        page.wait_for_function(
            "ask => document.getElementById('dice-entry')?.dataset.ask === ask", arg=w.dice.ask
        )
        plan[name] = {
            "faces": [rng.randint(1, 6) for _ in range(w.dice.count)],
            "tapped": 0,
            "held": None,
            "sent": False,
        }
    while any(not p["sent"] or p["held"] for p in plan.values()):
        for name in rng.sample(list(plan), len(plan)):
            p, page = plan[name], phones.pages[name]
            if p["held"] == "face":
                page.mouse.up()
                p["held"] = None
                p["tapped"] += 1
                # The tap landed, and every earlier one is still there: other players' rolls
                # arrived while it was held.
                page.wait_for_function(
                    "n => document.getElementById('dice-entry').dataset.tapped === String(n)",
                    arg=p["tapped"],
                )
                if p["tapped"] == 3 and len(plan) == len(FIVE):
                    phones.shot(page, "phone-typing.png")
            elif p["held"] == "send":
                page.mouse.up()
                p["held"], p["sent"] = None, True
                typed.append((name, sorted(p["faces"])))
            elif p["tapped"] < len(p["faces"]):
                face = p["faces"][p["tapped"]]
                phones.press(page, f"#dice-entry .faces button[data-face='{face}']")
                p["held"] = "face"
            elif not p["sent"]:
                shown = page.eval_on_selector_all("#dice-entry .slots .die", "els => els.length")
                assert shown == len(p["faces"]), f"{name}'s phone lost a tap"
                phones.press(page, "#dice-entry button.send")
                p["held"] = "send"
    phones.settle(lambda: phones.rolls_applied() >= before + len(plan), "the rolls")


def choose_at_once(phones, names, rng):
    """The players ``names`` each press one of their buttons for a choice everyone makes at
    once (a favor shown, Vegas dice locked); each lets go only after the others pressed."""
    held = []
    for name in rng.sample(names, len(names)):
        page = phones.pages[name]
        page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=phones.seq)
        page.wait_for_selector("#choices button.choice", state="attached")
        buttons = page.locator("#choices button.choice")
        i = rng.randrange(buttons.count())
        phones.press(page, f"#choices button.choice >> nth={i}")
        held.append(page)
    for page in held:
        page.mouse.up()
    phones.settle(
        lambda: (
            not any(w.player in names and w.does in SIMULTANEOUS for w in waiting_for(phones.state))
        ),
        "the choices",
    )


def choose(phones, name, rng):
    """One player's choice, the way people play: mostly sets, then end the turn."""
    page = phones.pages[name]
    page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=phones.seq)
    page.wait_for_selector("#choices button.choice", state="attached")
    buttons = page.eval_on_selector_all(
        "#choices button.choice", "els => els.map((e, i) => ({i, group: e.dataset.group}))"
    )
    groups = {b["group"] for b in buttons}
    sets = [b for b in buttons if b["group"] in ("claim", "muscle_out")]
    if sets and rng.random() < 0.8:
        chosen = rng.choice(sets)
    elif "pass" in groups and (rng.random() < 0.6 or groups <= {"pass", "favor"}):
        chosen = next(b for b in buttons if b["group"] == "pass")
    else:
        chosen = rng.choice(buttons)
    button = page.locator("#choices button.choice").nth(chosen["i"])
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    seq = phones.seq
    button.click()
    phones.settle(lambda: phones.seq != seq, f"{name}'s {chosen['group']}")


def test_five_phones_type_every_roll_at_once_through_a_whole_game(
    server_factory, browser, tmp_path
):
    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game(FIVE)
    rng = random.Random(11)
    phones = Phones(server, browser, game)
    typed: list[tuple[str, list[int]]] = []
    at_once = 0
    try:
        while not phones.state.is_over:
            waiting = waiting_for(phones.state)
            rolls = {w.player: w for w in waiting if w.dice is not None}
            together = [w.player for w in waiting if w.does in SIMULTANEOUS]
            if rolls:
                at_once += len(rolls) > 1
                type_rolls_at_once(phones, rolls, rng, typed)
            elif together:
                choose_at_once(phones, together, rng)
            else:
                choose(phones, waiting[0].player, rng)
        # Every roll was taken the first time, with the faces typed, in the order sent per
        # player; no phone ever showed a refusal.
        refused = [p for p in phones.posts if p[2] >= 400]
        assert not [p for p in refused if p[1].endswith("dice/roll")], refused
        record = [
            json.loads(line)
            for line in server.service.export(game.id).splitlines()
            if line.startswith("{")
        ]
        rolled = [
            (a["player"], sorted(a.get("faces") or [a.get("face")]))
            for a in record
            if a["type"] in ("roll", "godfather_roll", "vegas_roll")
        ]
        assert sorted(rolled) == sorted(typed)
        for name in FIVE:
            assert [f for p, f in rolled if p == name] == [f for p, f in typed if p == name]
            assert phones.pages[name].evaluate("window.__refusals") == [], name
        assert at_once >= 4 and len(typed) > 40, (at_once, len(typed))
        assert not phones.errors, phones.errors
    finally:
        for ctx in phones.contexts:
            ctx.close()
