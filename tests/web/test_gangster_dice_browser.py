"""Gangster Dice played from its own pages in headless Chromium.

A 4-player game with simulated dice and character cards: the host creates it on the home page
(whose colour pickers offer only the bid cards' colours), each phone joins by its link, the
dice roll by themselves, and every other move is made on the phone of the player the game
waits for, the way a player would: a character card's button, a bid put together from its
token and favor card and played face down, the Speakeasy's swap picked die by die, the Streets',
the Investigator's buttons. After every move each page is checked against the engine: the
tokens, who controls them and the dice on them, every stash, each phone's own hand and its bid
face down, the reveal with its scores. At the end every event each page received is the
engine's view for that page, so no hand and no bid reached another screen before the reveal.

A 2-player game follows the variant: two bid cards and two favor cards a round, with every
roll tapped on the phone as symbols on a picture of the player's own dice.

Set WEB_SCREENSHOTS=DIR to keep the screenshots.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from browser_kit import PHONE, RECORD_SSE

from companion.games.gangster_dice import legal_actions, player_view, waiting_for

NAMES = ["Maria", "Johnny", "Claire", "Vincent"]


def normal(data):
    return json.loads(json.dumps(data))


class Table:
    """The pages of one game, the moves made through them, and the checks after each."""

    def __init__(self, server, browser) -> None:
        self.server = server
        self.browser = browser
        self.errors: list[str] = []
        self.contexts: list = []
        self.phones: dict = {}
        self.table = None
        self.game_id = ""
        self.shoot: Path | None = None  # a screenshot of the next roll or bid, before it is sent

    def page(self, **context):
        ctx = self.browser.new_context(**context)
        ctx.add_init_script(RECORD_SSE)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(10_000)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()

    @property
    def game(self):
        return self.server.service.game(self.game_id)

    def settle(self) -> None:
        """Every page shows the game as it is now, once the dice have stopped rolling (the
        simulated dice roll by themselves as soon as a round asks for its rolls)."""
        self.wait_for(
            lambda: (
                not any(
                    w.dice
                    for w in waiting_for(self.game.state)
                    if self.server.app.config.get("DICE") == "simulated"
                )
            )
        )
        seq = str(self.game.seq)
        for page in [*self.phones.values(), self.table]:
            page.wait_for_function("s => document.body.dataset.seq === s", arg=seq)

    def moved(self, player: str, does: str, after: int) -> bool:
        return any(
            e.game_id == self.game_id
            and e.seq > after
            and e.kind == "action"
            and e.payload.get("type") == does
            and e.payload.get("player") == player
            for e in self.server.events
        )

    # --- the moves, made on the phone as a player makes them ----------------------------------

    def roll_by_tapping(self, rng: random.Random, player: str) -> None:
        """Tap a symbol for each die, white dice first: each slot shows that die's colour
        with the symbol tapped."""
        phone = self.phones[player]
        state = self.game.state
        stash = state.players[state.seat(player)].stash
        colours = [c for c in ("white", "red", "blue") for _ in range(getattr(stash, c))]
        labels = phone.eval_on_selector_all(
            "#dice-entry .faces button",
            "els => els.map(e => [e.dataset.face, e.querySelector('.gd-die').dataset.symbol])",
        )
        assert [f for f, _ in labels] == ["1", "2", "3", "4"]
        assert [s for _, s in labels] == ["gavel", "cocktail", "gun", "finger"]  # not pips
        faces = [rng.randint(1, 4) for _ in colours]
        for f in faces:
            phone.click(f"#dice-entry .faces button[data-face='{f}']")
        slots = phone.eval_on_selector_all(
            "#dice-entry .slots .gd-die",
            "els => els.map(e => [e.dataset.colour, e.dataset.symbol])",
        )
        symbols = dict(labels)
        assert slots == [[c, symbols[str(f)]] for c, f in zip(colours, faces, strict=True)]
        self.shot(phone)
        phone.click("#dice-entry button.send")

    def bid(self, rng: random.Random, player: str) -> None:
        """Put a bid together from its cells (a token and a favor card each) and play it."""
        phone = self.phones[player]
        action = rng.choice([a for a in legal_actions(self.game.state, player) if a.TYPE == "bid"])
        for card in action.bids:
            phone.click(
                f"#bid-builder button.gd-bid[data-token='{card.token.value}']"
                f"[data-favor='{card.favor}']"
            )
        send = phone.locator("#bid-send")
        assert json.loads(send.get_attribute("data-action")) == normal(action.to_dict())
        self.shot(phone)
        send.click()

    def shot(self, phone) -> None:
        if self.shoot:
            phone.screenshot(path=str(self.shoot))
            self.shoot = None

    def swap(self, rng: random.Random, player: str) -> None:
        phone = self.phones[player]
        action = rng.choice([a for a in legal_actions(self.game.state, player)])
        if not action.give:
            phone.click("#swap-keep")
            return
        for c in action.give:
            phone.click(f"#swap-builder button[data-give='{c.value}']")
        for c in action.take:
            phone.click(f"#swap-builder button[data-take='{c.value}']")
        phone.click("#swap-send")

    def button(self, rng: random.Random, player: str) -> None:
        """A character card, the Streets, the Investigator: one button each."""
        phone = self.phones[player]
        offered = phone.eval_on_selector_all(
            "#choices button.choice", "els => els.map(e => JSON.parse(e.dataset.action))"
        )
        legal = [a.to_dict() for a in legal_actions(self.game.state, player)]
        key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
        assert sorted(map(key, offered)) == sorted(map(key, legal))
        chosen = rng.randrange(len(offered))
        phone.locator("#choices button.choice").nth(chosen).click()

    def move(self, rng: random.Random, player: str, does: str) -> None:
        seq = self.game.seq
        if does == "roll":
            self.roll_by_tapping(rng, player)
        elif does == "bid":
            self.bid(rng, player)
        elif does == "swap":
            self.swap(rng, player)
        else:
            self.button(rng, player)
        self.wait_for(lambda: self.moved(player, does, seq), player)

    def wait_for(self, done, player: str | None = None) -> None:
        deadline = time.monotonic() + 15
        while not done():
            toast = self.phones[player].inner_text("#toast") if player else ""
            assert time.monotonic() < deadline, f"nothing happened: {toast!r}"
            time.sleep(0.02)

    # --- what each page shows -----------------------------------------------------------

    def check_pages(self) -> None:
        """Each page shows what the engine says, and each phone its own hand and bid only."""
        self.settle()
        state = self.game.state
        table = player_view(state, None)
        for name, page in [(None, self.table), *self.phones.items()]:
            tokens = page.eval_on_selector_all(
                "#tokens .gd-token",
                "els => els.map(e => [e.dataset.token, "
                "e.dataset.controller, e.querySelector('.gd-on') ? "
                "Number(e.querySelector('.gd-on').dataset.dice) : null])",
            )
            assert tokens == [
                [
                    t["token"],
                    t["controller"] or "",
                    sum(t["dice"].values()) if "dice" in t else None,
                ]
                for t in table["tokens"]
            ], name
            stashes = page.eval_on_selector_all(
                "#players .gd-player",
                "els => els.map(e => [e.dataset.player, "
                "Number(e.dataset.dice), e.querySelectorAll('.gd-rolled .gd-die').length])",
            )
            assert stashes == [
                [p["name"], p["dice"], len(p["rolled"] or [])] for p in table["players"]
            ], name
            reveal = table["reveal"]
            shown = page.eval_on_selector_all(
                "#reveal .gd-bids tr[data-player]",
                "els => els.map(e => [e.dataset.player, e.dataset.token, Number(e.dataset.score)])",
            )
            assert shown == (
                [[b["player"], b["token"], b["score"]] for b in reveal["bids"]] if reveal else []
            ), name
            if name is None:
                assert page.locator("#gd-hand, #bid-builder").count() == 0
                continue
            you = player_view(state, name)["you"]
            hand = page.eval_on_selector_all(
                "#gd-hand .gd-cards .gd-card", "els => els.map(e => Number(e.dataset.favor))"
            )
            if not state.is_over:
                assert hand == you["hand"], name
            down = page.locator("#gd-down")
            if you["bid"]:
                for b in you["bid"]:
                    assert f"with a {b['favor']}" in down.inner_text()
            else:
                assert down.count() == 0

    def check_streams(self) -> None:
        """Every event each page received is the engine's view of that page at its seq."""
        states = {e.seq: e.state for e in self.server.events if e.game_id == self.game_id}
        for name, page in [(None, self.table), *self.phones.items()]:
            got = page.evaluate("window.__sse")
            assert got
            for m in got:
                data = json.loads(m["data"])
                assert data["viewer"] == name
                assert data["view"] == normal(player_view(states[data["seq"]], name)), (
                    name,
                    data["seq"],
                )
                if name is not None:
                    assert all(c["action"]["player"] == name for c in data["choices"])


def join_from_the_host_page(t: Table, host, names: list[str]) -> None:
    for name in names:
        host.click(f'#seats li[data-seat="{name}"] >> text=Show code')
        link = host.get_attribute("#seat-qr a.join-link", "href")
        phone = t.page(**PHONE)
        phone.goto(link)
        phone.wait_for_url(f"**/play/{t.game_id}")
        host.wait_for_selector(f'#seats li[data-seat="{name}"][data-joined="1"]')
        t.phones[name] = phone


def shots_dir() -> Path | None:
    keep = os.environ.get("WEB_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        return Path(keep)
    return None


def test_a_four_player_game_from_the_pages_with_simulated_dice(
    server_factory, browser, tmp_path
) -> None:
    server = server_factory(tmp_path / "data", DICE="simulated", DICE_ROLL_TIME=0.0)
    t = Table(server, browser)
    rng = random.Random(11)
    shots = shots_dir()
    try:
        host = t.page(viewport={"width": 1100, "height": 900})
        host.goto(server.url + "/")
        every = host.eval_on_selector(
            "select[name=colour0]", "el => [...el.options].map(o => o.value)"
        )
        host.select_option("#game", "gangster-dice")
        host.wait_for_function(
            "() => document.querySelector('select[name=colour0]').options.length === 4"
        )
        for i in range(4):
            offered = host.eval_on_selector(
                f"select[name=colour{i}]", "el => [...el.options].map(o => o.value)"
            )
            assert offered == ["yellow", "red", "blue", "green"]
            assert host.eval_on_selector(f"select[name=colour{i}]", "el => el.value") == offered[i]
            assert host.locator(f"select[name=colour{i}]").is_visible()
        assert not host.locator("select[name=colour4]").is_visible()  # 2 to 4 players
        for i, name in enumerate(NAMES):
            host.fill(f"input[name=player{i}]", name)
        host.select_option("#setup-characters", json.dumps("on"))
        host.click("button[type=submit]")
        host.wait_for_url("**/host/*")
        t.game_id = host.url.rsplit("/", 1)[1]
        game = t.game
        assert game.rules.id == "gangster-dice" and game.setup.characters
        colours = [p.colour for p in game.state.players]
        assert colours == list(game.state.components.bid_colours) == offered
        assert len(every) > 4  # another game's pickers offer every colour
        # Nothing to pair: these dice show symbols, and the page says so.
        host.goto(f"{server.url}/host/{t.game_id}/dice")
        host.wait_for_selector("#not-paired")
        assert "symbols, not pips" in host.inner_text("#not-paired")
        assert host.locator("#owners section[data-owner]").count() == 0
        host.goto(f"{server.url}/host/{t.game_id}")
        host.wait_for_selector("#seats li[data-seat]")
        join_from_the_host_page(t, host, NAMES)
        t.table = t.page(viewport={"width": 1280, "height": 900})
        t.table.goto(f"{server.url}/table/{t.game_id}")
        t.check_pages()
        assert t.table.locator("#tokens .gd-token").count() == 4
        moves = 0
        seen = set()
        shot = False
        while not t.game.is_over:
            state = t.game.state
            asked = [w for w in waiting_for(state) if w.does != "roll"]
            if not asked:  # only rolls: the simulated dice roll by themselves
                seq = t.game.seq
                t.wait_for(lambda s=seq: t.game.seq > s)
                continue
            w = rng.choice(asked)
            shoot = shots and not shot and w.does == "bid" and t.game.state.round >= 2
            if shoot:
                t.shoot = shots / "gd-phone.png"
            t.move(rng, w.player, w.does)
            moves += 1
            seen.add(w.does)
            t.check_pages()
            if shoot:
                t.table.screenshot(path=str(shots / "gd-table.png"))
                shot = True
        print("moves made on the phones:", moves, sorted(seen))
        assert {"character", "bid"} <= seen and moves > 20
        t.settle()
        assert "Winner:" in t.table.inner_text("#over")
        for phone in t.phones.values():
            assert "Game over" in phone.text_content("#game-over")
        end = t.page(viewport={"width": 1000, "height": 800})
        end.goto(f"{server.url}/end/{t.game_id}")
        end.wait_for_selector(".gd-final table.scores")
        winners = t.game.rules.score(t.game.state)["winners"]
        assert f"Winner: {' and '.join(winners)}" in end.inner_text("#scores")
        t.check_streams()
        assert not t.errors, t.errors
    finally:
        t.close()


def test_a_two_player_game_follows_the_variant_with_rolls_tapped_as_symbols(
    server_factory, browser, tmp_path
) -> None:
    server = server_factory(tmp_path / "data", DICE="phone")
    game = server.create_game(["Maria", "Johnny"], game="gangster-dice")
    t = Table(server, browser)
    t.game_id = game.id
    rng = random.Random(5)
    shots = shots_dir()
    try:
        for name, seat in game.seats.items():
            phone = t.page(**PHONE, extra_http_headers={"X-Player-Token": seat.token})
            phone.goto(f"{server.url}/play/{game.id}")
            t.phones[name] = phone
        t.table = t.page(viewport={"width": 1280, "height": 900})
        t.table.goto(f"{server.url}/table/{game.id}")
        t.check_pages()
        two_bids = 0  # rounds a player put two bid cards down from the phone
        revealed_pairs = 0  # reveals in which a player's two bids were shown side by side
        while not t.game.is_over:
            state = t.game.state
            w = rng.choice(waiting_for(state))
            if w.does == "bid" and state.bids_due(state.seat(w.player)) == 2:
                two_bids += 1
            if shots and w.does == "roll" and state.round == 2:
                t.shoot = shots / "gd-roll.png"
            t.move(rng, w.player, w.does)
            before = state.reveal
            t.check_pages()  # the reveal on every page is the engine's, row for row
            reveal = t.game.state.reveal
            if reveal is not None and reveal is not before:
                per_player = [b.seat for b in reveal.bids]
                if any(per_player.count(seat) == 2 for seat in per_player):
                    revealed_pairs += 1
        assert two_bids > 0 and revealed_pairs > 0
        t.check_streams()
        assert not t.errors, t.errors
    finally:
        t.close()
