"""A whole 5-player game of Ca$h 'n Guns played from its pages in real headless Chromium.

The host creates the game on the home page (the game picked, a house rule set) and hands out
the join codes; each phone is a browser context of its own. The host's browser opens the
table screen, which records what the table sees: the Loot as it is flipped and most of the
guns (tap a gangster, tap their target). A second table screen, a TV holding no key, only
watches. Every other move is a button on the phone of the player who makes it: the Bullet
cards, aims told by the phone, the confirmations the house rule asks for, the Godfather's
privilege, courage, the shares and the Clips' discards.

After every move every page is checked: each phone draws its own secrets (its hand, the card
it put down, its courage, its face-down Loot) as the engine has them and nobody else's, the
table screens none, no courage choice shows anywhere but on its own phone until all are in,
and the guns, wounds and Loot on offer are the engine's. At the end every event each page
received is checked against the engine's view for that page.

WEB_SCREENSHOTS=DIR keeps the screenshots (docs/cash-n-guns.md shows some).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from pathlib import Path

from browser_kit import PHONE, RECORD_SSE

from companion.gamefiles import GameFiles
from companion.games.cash_n_guns import CASH_N_GUNS
from companion.games.cash_n_guns.scoring import Haul
from companion.games.cash_n_guns.state import Phase

NAMES = ["Maria", "Johnny", "Claire", "Vincent", "Sonny"]


def normal(data):
    """What the data looks like after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


# What a page shows, read in one go: whose secrets it draws (data-secret-of), the phone's own
# hand, card down, courage and Loot's worth, each gangster's tile, and the Loot on offer.
SEEN = """() => {
  const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
  const one = (sel, f) => { const e = document.querySelector(sel); return e ? f(e) : null; };
  const data = (e, sel, key) => {
    const x = e.querySelector(sel);
    return x ? x.dataset[key] : null;
  };
  return {
    secrets: all("[data-secret-of]", (e) => e.dataset.secretOf),
    hand: one("#my-hand", (e) => [e.dataset.bang, e.dataset.click]),
    card: all("#my-card", (e) => e.dataset.card),
    courage: all("#my-courage", (e) => e.dataset.courage),
    worth: one("#my-worth", (e) => Number(e.dataset.worth)),
    tiles: all("#gangsters .cng-gangster, #players .cng-gangster", (e) => ({
      name: e.dataset.player, wounds: Number(e.dataset.wounds),
      standing: e.dataset.standing === "1", target: data(e, ".cng-gun[data-target]", "target"),
      courage: data(e, "[data-courage]", "courage")})),
    on_offer: all("#on-offer [data-card]", (e) => e.dataset.card),
  };
}"""
BUTTONS = "els => els.map(e => ({group: e.dataset.group, action: JSON.parse(e.dataset.action)}))"


class Table:
    """The pages of one game, and the moves made through them."""

    def __init__(self, server, browser, shots: Path) -> None:
        self.server = server
        self.browser = browser
        self.shots = shots
        self.errors: list[str] = []
        self.contexts = []
        self.phones = {}
        self.game_id = ""

    def context(self, **options):
        ctx = self.browser.new_context(**options)
        ctx.add_init_script(RECORD_SSE)
        self.contexts.append(ctx)
        return ctx

    def page(self, ctx):
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(10_000)
        return page

    @property
    def game(self):
        return self.server.service.game(self.game_id)

    def pages(self):
        return [*self.phones.values(), self.recorder, self.tv, self.host]

    def settle(self) -> None:
        seq = str(self.game.seq)
        for page in self.pages():
            page.wait_for_function("s => document.body.dataset.seq === s", arg=seq)

    def move(self, page, *selectors: str) -> None:
        """Tap ``selectors`` in turn on ``page``; the last one makes exactly one move."""
        seq = self.game.seq
        for selector in selectors:
            page.click(selector)
        deadline = time.monotonic() + 10
        while self.game.seq == seq:
            assert time.monotonic() < deadline, f"nothing happened: {page.inner_text('#toast')!r}"
            time.sleep(0.01)
        assert self.game.seq == seq + 1
        self.settle()
        self.check(self.game.state)

    def buttons(self, name: str, group: str) -> list[dict]:
        return self.phones[name].eval_on_selector_all(
            f"#cards button.choice[data-group={group}]", BUTTONS
        )

    def tap_choice(self, name: str, group: str, rng: random.Random, pick=None) -> dict:
        """Tap one of the phone's buttons of ``group`` (``pick`` chooses, else at random)."""
        offered = self.buttons(name, group)
        assert offered, f"{name}'s phone offers nothing to {group}"
        chosen = pick(offered) if pick else rng.choice(offered)
        action = json.dumps(chosen["action"], separators=(",", ":"))
        self.move(
            self.phones[name], f"#cards button.choice[data-group={group}][data-action='{action}']"
        )
        return chosen["action"]

    def check(self, state) -> None:
        """Each page shows what its viewer may see, as the engine has it."""
        courage_hidden = state.phase is Phase.COURAGE
        for name, page in self.phones.items():
            seen = page.evaluate(SEEN)
            p = state.players[state.seat(name)]
            assert set(seen["secrets"]) <= {name}, f"{name}'s phone shows {seen['secrets']}"
            assert seen["hand"] == [str(p.bangs), str(p.clicks)], (name, seen["hand"])
            assert seen["card"] == ([p.loaded.value] if p.loaded else []), (name, seen)
            assert seen["courage"] == ([p.courage.value] if courage_hidden and p.courage else []), (
                name,
                seen,
            )
            haul = Haul.of(state.box, p.loot, p.wounds, not p.dead)
            assert seen["worth"] == haul.bills + haul.diamonds + state.box.collection_value(
                haul.paintings
            )
            self.check_tiles(seen["tiles"], state, courage_hidden)
        for page in (self.recorder, self.tv):
            seen = page.evaluate(SEEN)
            assert seen["secrets"] == [] and seen["hand"] is None and seen["card"] == []
            assert seen["courage"] == [] and seen["worth"] is None
            self.check_tiles(seen["tiles"], state, courage_hidden)
            assert seen["on_offer"] == list(state.table)

    @staticmethod
    def check_tiles(tiles, state, courage_hidden: bool) -> None:
        assert [t["name"] for t in tiles] == [p.name for p in state.players]
        for t, p in zip(tiles, state.players, strict=True):
            assert t["wounds"] == p.wounds and t["standing"] == (not p.dead and not p.down)
            if p.gun is not None and not p.dead:
                assert t["target"] == (state.name(p.gun.target) if p.gun.target is not None else "")
            if courage_hidden:
                assert t["courage"] is None, f"{p.name}'s courage shows during the choice"
            elif t["courage"] is not None:
                assert t["courage"] == p.courage.value

    def shot(self, page, name: str, full: bool = True) -> None:
        page.screenshot(path=str(self.shots / name), full_page=full)


def deck_draw(state, rng: random.Random, n: int) -> list[str]:
    """``n`` Loot cards off the top of a shuffled deck: what the Godfather turns over."""
    deck = [c.id for c, left in zip(state.box.cards, state.deck, strict=True) for _ in range(left)]
    rng.shuffle(deck)
    return deck[:n]


def play_loot(t: Table, state, rng: random.Random) -> None:
    godfather = state.name(state.godfather)
    cards = deck_draw(state, rng, state.box.loot_per_turn - state.flipped)
    if state.turn == 1 and state.flipped == 0:
        # The Godfather flips the first two cards himself, one per tap on his phone.
        for card in cards[:2]:
            t.tap_choice(
                godfather,
                "flip",
                rng,
                lambda bs, c=card: next(b for b in bs if b["action"]["cards"] == [c]),
            )
        return
    # The table screen enters the rest: a tap per card, then one move for them all. A card
    # tapped by mistake is taken back first.
    t.recorder.click(f"#record-loot button.cng-deck-card[data-card='{cards[0]}']")
    t.recorder.click("#pending button.cng-pending-card")
    for card in cards:
        t.recorder.click(f"#record-loot button.cng-deck-card[data-card='{card}']")
    assert (
        t.recorder.eval_on_selector_all(
            "#pending [data-card]", "els => els.map(e => e.dataset.card)"
        )
        == cards
    )
    t.move(t.recorder, "#flip-send")


def table_aims(t: Table, aimer: str, target: str | None) -> None:
    """The table screen records a gun: tap the gangster, then their target (or nobody)."""
    tile = "#gangsters button.cng-gangster[data-player='{}']"
    last = tile.format(target) if target is not None else "#aim-nobody"
    t.move(t.recorder, tile.format(aimer), last)


def play_hold_up(t: Table, state, rng: random.Random, waiting) -> None:
    w = rng.choice(waiting)
    if w.does == "aim":
        seat = state.seat(w.player)
        others = [state.name(s) for s in state.alive if s != seat]
        if state.phase is Phase.CHANGE_TARGET:
            others.remove(state.name(state.order[1]))
        target = (
            rng.choice(others) if rng.random() < 0.95 or state.phase is not Phase.HOLD_UP else None
        )
        if rng.random() < 0.7:
            table_aims(t, w.player, target)
        else:
            t.tap_choice(
                w.player,
                "aim",
                rng,
                lambda bs: next(b for b in bs if b["action"]["target"] == target),
            )
    elif w.does == "confirm_aim":
        if rng.random() < 0.85:
            t.tap_choice(w.player, "confirm_aim", rng)
        else:  # the table got it wrong: the phone corrects it (told by the player: confirmed)
            t.tap_choice(w.player, "aim", rng)
    else:
        assert w.does == "privilege"
        t.tap_choice(w.player, "privilege", rng)


def play(t: Table, rng: random.Random) -> dict[str, int]:
    counts = {"moves": 0, "undone": 0, "table_aims": 0, "clips": 0, "orders": 0}
    shots_taken: set[str] = set()
    while not t.game.is_over:
        state = t.game.state
        waiting = CASH_N_GUNS.waiting_for(state)
        seq = t.game.seq
        if state.phase is Phase.LOOT:
            play_loot(t, state, rng)
        elif state.phase is Phase.BULLETS:
            name = rng.choice(waiting).player
            t.tap_choice(name, "load", rng)
            if not counts["undone"] and rng.random() < 0.2:
                t.move(t.phones[name], "#undo")  # a card put down is taken back: the hand
                counts["undone"] += 1  # holds it again (checked after the move)
        elif state.phase in (Phase.HOLD_UP, Phase.CHANGE_TARGET):
            if (
                state.phase is Phase.HOLD_UP
                and waiting[0].does == "privilege"
                and "hold-up" not in shots_taken
            ):
                t.shot(t.recorder, "cng-table-hold-up.png")
                t.shot(t.phones[waiting[0].player], "cng-phone-privilege.png", full=False)
                shots_taken.add("hold-up")
            play_hold_up(t, state, rng, waiting)
        elif state.phase is Phase.COURAGE:
            name = rng.choice(waiting).player
            t.tap_choice(
                name,
                "courage",
                rng,
                lambda bs: (
                    bs[0]
                    if rng.random() < 0.35
                    else next(b for b in bs if b["action"]["choice"] == "banzai")
                ),
            )
        else:
            assert state.phase is Phase.SHARING
            w = waiting[0]
            if "sharing" not in shots_taken and state.turn >= 2:
                t.shot(t.tv, "cng-table.png")
                t.shot(t.phones[w.player], "cng-phone.png", full=False)
                shots_taken.add("sharing")
            if w.does == "discard":
                counts["clips"] += 1
                t.tap_choice(w.player, "discard", rng)
            else:
                t.tap_choice(w.player, "take", rng)
        counts["moves"] += t.game.seq - seq
    after = [e for e in t.server.events if e.game_id == t.game_id and e.kind == "action"]
    counts["table_aims"] = sum(1 for e in after if e.actor == "host" and e.payload["type"] == "aim")
    counts["orders"] = sum(
        1 for e in after if e.payload["type"] == "privilege" and e.payload["order"] is not None
    )
    return counts


def create_and_join(t: Table, server) -> None:
    """The host creates the game on the home page; each phone scans its own code."""
    host_ctx = t.context(viewport={"width": 1100, "height": 900})
    t.host = t.page(host_ctx)
    t.host.goto(server.url + "/")
    t.host.select_option("#game", "cash-n-guns")
    t.host.wait_for_selector("select[data-option=aim_confirmation]", state="attached")
    assert t.host.locator(".seat-row:not([hidden])").count() == 8
    for i, name in enumerate(NAMES):
        t.host.fill(f"input[name=player{i}]", name)
    t.host.click("text=House rules")
    t.host.select_option("select[data-option=aim_confirmation]", '"required"')
    t.host.click("button[type=submit]")
    t.host.wait_for_url("**/host/*")
    t.game_id = t.host.url.rsplit("/", 1)[1]
    assert t.game.rules.id == "cash-n-guns"
    assert t.game.setup.options.aim_confirmation == "required"
    t.host.wait_for_selector("#seats li[data-seat]")
    for name in NAMES:
        t.host.click(f'#seats li[data-seat="{name}"] >> text=Show code')
        link = t.host.get_attribute("#seat-qr a.join-link", "href")
        phone = t.page(t.context(**PHONE))
        phone.goto(link)
        phone.wait_for_url(f"**/play/{t.game_id}")
        t.host.wait_for_selector(f'#seats li[data-seat="{name}"][data-joined="1"]')
        t.phones[name] = phone
    # The host's browser opens the table screen (it records); a TV with no key watches.
    t.recorder = t.page(host_ctx)
    t.recorder.goto(f"{server.url}/table/{t.game_id}")
    t.tv = t.page(t.context(viewport={"width": 1920, "height": 1080}))
    t.tv.goto(f"{server.url}/table/{t.game_id}")


def test_a_whole_five_player_game_of_cash_n_guns_from_the_pages(server, browser, tmp_path):
    shots = tmp_path / "shots"
    shots.mkdir()
    t = Table(server, browser, shots)
    rng = random.Random(11)
    try:
        create_and_join(t, server)
        t.settle()
        t.check(t.game.state)
        t.recorder.wait_for_selector("#record-loot")
        assert t.tv.locator("#record-loot, #record-aims, button.cng-gangster").count() == 0
        assert "host's browser" in t.tv.inner_text("#recording-hint")
        assert "Turn 1 of 8 · 1. Loot · Godfather: Maria" in t.host.inner_text("#phase")
        assert t.tv.inner_text("#turn") == "Waiting: Maria to flip the Loot"

        counts = play(t, rng)

        state = t.game.state
        assert state.is_over and counts["moves"] > 150, counts
        assert counts["undone"] == 1 and counts["table_aims"] > 20, counts
        assert counts["orders"] and counts["clips"], counts  # the orders' and Clips' pages
        assert not t.errors, t.errors
        # The end on every page: the winner, as the engine scores it.
        t.settle()
        winners = CASH_N_GUNS.score(state)["winners"]
        won = "Winner: " + (" and ".join(winners) or "nobody")
        for page in (t.recorder, t.tv):
            assert won in page.inner_text("#over")
            assert page.locator("#record-loot, #record-aims, button.cng-gangster").count() == 0
        for phone in t.phones.values():
            assert "Game over" in phone.text_content("#cards") and won in phone.inner_text("#cards")
        end = t.page(t.context(viewport={"width": 1000, "height": 800}))
        end.goto(f"{server.url}/end/{t.game_id}")
        end.wait_for_selector("#scores table.scores")
        assert won in end.inner_text("#scores")
        assert end.locator("#scores tr[data-player]").count() == 5
        t.shot(t.tv, "cng-table-final.png")
        t.shot(end, "cng-end.png")
        # Every event each page received is its viewer's own view, as the engine makes it.
        events = {e.seq: e for e in server.events if e.game_id == t.game_id}
        first = CASH_N_GUNS.new_game(t.game.setup, GameFiles(CASH_N_GUNS))
        viewers = [*t.phones.items(), (None, t.recorder), (None, t.tv)]
        for name, page in viewers:
            got = page.evaluate("window.__sse")
            assert len(got) >= len(events) - 1, (name, len(got))
            for m in got:
                seq, data = int(m["id"]), json.loads(m["data"])
                ev = events.get(seq)
                assert data["viewer"] == name
                state = ev.state if ev else first
                assert data["view"] == normal(CASH_N_GUNS.player_view(state, name)), seq
                if m["event"] == "update" and ev.kind == "action":
                    assert data["action"] == normal(
                        CASH_N_GUNS.action_view(ev.before, ev.action, name)
                    )
                assert all(c["action"]["player"] == name for c in data["choices"])
    finally:
        keep = os.environ.get("WEB_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for png in shots.glob("*.png"):
                shutil.copy(png, Path(keep) / png.name)
        for ctx in t.contexts:
            ctx.close()
