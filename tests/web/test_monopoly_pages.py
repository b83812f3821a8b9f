"""Monopoly: The Godfather edition through its own pages, in headless Chromium: a 4-player
Speed Play game from the home page to its end, on the table's simulated dice.

The host creates the game on the home page and hands out the join links; each phone is its own
browser context, a table screen watches. The host page enters each Title Deed the Banker deals
(two taps: the player, the deed) and, now and then, the Friends or Enemies card turned up (two
taps: the card, Enter); everything else is a button on the phone of the player who decides: buy
or auction, a bid typed in the amount field, the card drawn, Jail, a mortgage from the deed's
row, a deal drafted on one phone and accepted on the other, and at last a bankruptcy, which
ends a Speed Play game. The dice roll by themselves (``DICE=simulated``, seeded).

Whenever the table waits for a person, every page is checked against the engine: each phone
offers exactly the engine's choices for its player (no more, no fewer), shows its own cash and
its deal drafter only when the rules let it propose; the table screen shows every balance,
token and owner; no page shows a Don card it may not. At the end every event each page
received is checked against the engine's view for that page.

Set WEB_SCREENSHOTS=DIR to keep the screenshots.
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
from companion.games.monopoly import MONOPOLY, Phase
from companion.games.monopoly.cards import drawable
from companion.games.monopoly.legal import legal_actions
from companion.games.monopoly.state import EventKind

PLAYERS = ["Maria", "Johnny", "Claire", "Vincent"]
VICTIM = "Vincent"  # who gives everything away once the rest is shown, and goes bankrupt
SEED = 11
MAX_MOVES = 600
CHOICES = "els => els.map(e => e.dataset.action)"


def normal(data):
    return json.loads(json.dumps(data))


class Table:
    """The pages of one game, and the moves made through them."""

    def __init__(self, server, browser, shots: Path) -> None:
        self.server = server
        self.browser = browser
        self.shots = shots
        self.errors: list[str] = []
        self.contexts = []
        self.phones: dict[str, object] = {}
        self.game_id = ""

    def page(self, **context):
        ctx = self.browser.new_context(**context)
        ctx.add_init_script(RECORD_SSE)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("dialog", lambda d: d.accept())  # "Declare bankruptcy?"
        page.set_default_timeout(10_000)
        return page

    @property
    def game(self):
        return self.server.service.game(self.game_id)

    def all_pages(self):
        return [*self.phones.values(), self.table, self.host]

    def wait_all(self, seq: int) -> None:
        for page in self.all_pages():
            page.wait_for_function("s => document.body.dataset.seq === s", arg=str(seq))

    def moved(self, seq: int, page=None) -> None:
        """Wait until the game is past ``seq``; say what the page toasted if it never is."""
        deadline = time.monotonic() + 10
        while self.game.seq == seq:
            if time.monotonic() > deadline:
                toast = page.inner_text("#toast") if page is not None else ""
                raise AssertionError(f"nothing happened after seq {seq}: {toast!r}")
            time.sleep(0.01)

    def choices(self, name: str, within: str = "#cards") -> list[dict]:
        return [
            json.loads(a)
            for a in self.phones[name].eval_on_selector_all(
                f"{within} button.choice[data-action]", CHOICES
            )
        ]

    def tap(self, name: str, wanted, within: str = "#cards") -> dict:
        """Tap the first button of ``name``'s phone whose action ``wanted(action)`` likes."""
        actions = self.choices(name, within)
        i = next((k for k, a in enumerate(actions) if wanted(a)), None)
        assert i is not None, f"{name}'s phone offers no such button: {actions}"
        self.phones[name].locator(f"{within} button.choice[data-action]").nth(i).click()
        return actions[i]

    def shot(self, page, name: str, full: bool = True) -> None:
        page.screenshot(path=str(self.shots / name), full_page=full)

    def check(self, state) -> None:
        """Every page shows what the engine says, and only what its viewer may see."""
        table = self.table
        cash = dict(
            table.eval_on_selector_all(
                ".mono-player[data-player]",
                "els => els.map(e => [e.dataset.player, e.dataset.cash])",
            )
        )
        assert cash == {p.name: str(p.cash) for p in state.players}
        tokens = dict(
            table.eval_on_selector_all(
                "#board g.token", "els => els.map(e => [e.dataset.player, Number(e.dataset.space)])"
            )
        )
        assert tokens == {p.name: p.position for p in state.players if not p.bankrupt}
        owners = dict(
            table.eval_on_selector_all(
                "#board g.space[data-owner]:not([data-owner=''])",
                "els => els.map(e => [Number(e.dataset.index),"
                " [e.dataset.owner, e.dataset.mortgaged]])",
            )
        )
        assert owners == {
            i: [state.name(h.owner), "1" if h.mortgaged else "0"]
            for i, h in enumerate(state.holdings)
            if h and h.owner is not None
        }
        view = MONOPOLY.player_view(state, None)
        for name, page in [*self.phones.items(), (None, table), (None, self.host)]:
            shown = set(
                page.eval_on_selector_all(
                    "[data-don-card]", "els => els.map(e => e.dataset.donCard)"
                )
            )
            allowed = {p.don for p in state.players if p.don and (p.don_played or p.name == name)}
            assert shown <= allowed, f"{name or 'the table'} sees Don cards {shown - allowed}"
        for name, page in self.phones.items():
            me = state.players[state.seat(name)]
            offered = sorted(json.dumps(a, sort_keys=True) for a in self.choices(name))
            legal = sorted(
                json.dumps(c.action, sort_keys=True) for c in MONOPOLY.choices(state, name)
            )
            assert offered == legal, f"{name}'s phone: {offered} != {legal} {self.errors}"
            if not me.bankrupt:
                assert page.inner_text("#my-cash") == f"${me.cash}"
            may = next(p["may_deal"] for p in view["players"] if p["name"] == name)
            assert (page.locator("#deal").count() == 1) == may, (name, may)


def pick_bid(rng, state, bidder: str) -> int | None:
    """A bid the way people bid (about half the price, rarely more), or None to pass."""
    a = state.auction
    if not isinstance(a.lot, int):
        return None
    price = state.board.spaces[a.lot].price
    cash = state.players[state.seat(bidder)].cash
    low = a.high_bid + 1
    top = min(cash - 50, price * 3 // 4)
    if low > top or (a.high_bid and rng.random() < 0.5):
        return None
    return rng.randint(low, min(top, low + 40))


def test_a_speed_play_game_through_its_pages_to_a_bankruptcy(server_factory, browser, tmp_path):
    server = server_factory(tmp_path / "data", DICE="simulated", DICE_ROLL_TIME=0.02)
    server.app.extensions["companion"].dice.dice.of_kind("simulated")[0].rng = random.Random(SEED)
    shots = tmp_path / "shots"
    shots.mkdir()
    t = Table(server, browser, shots)
    rng = random.Random(SEED)
    try:
        # The host creates the game on the home page: four players, Speed Play.
        t.host = t.page(viewport={"width": 1100, "height": 1000})
        t.host.goto(server.url + "/")
        t.host.select_option("#game", "monopoly-godfather")
        for i, name in enumerate(PLAYERS):
            t.host.fill(f"input[name=player{i}]", name)
        t.host.click("form.create details summary")  # the house rules
        t.host.select_option("#option-speed_play", "true")
        t.host.click("button[type=submit]")
        t.host.wait_for_url("**/host/*")
        t.game_id = t.host.url.rsplit("/", 1)[1]
        assert t.game.rules is MONOPOLY and t.game.state.rules.speed_play
        t.host.wait_for_selector("#seats li[data-seat]")
        for name in PLAYERS:
            t.host.click(f'#seats li[data-seat="{name}"] >> text=Show code')
            link = t.host.get_attribute("#seat-qr a.join-link", "href")
            phone = t.page(**PHONE)
            phone.goto(link)
            phone.wait_for_url(f"**/play/{t.game_id}")
            t.host.wait_for_selector(f'#seats li[data-seat="{name}"][data-joined="1"]')
            t.phones[name] = phone
        t.table = t.page(viewport={"width": 1400, "height": 1000})
        t.table.goto(f"{server.url}/table/{t.game_id}")
        t.wait_all(0)
        assert "PLACEHOLDER" in t.table.text_content("#board")
        assert t.table.locator("#board g.space").count() == 40

        done: dict[str, int] = {
            "auction": 0,
            "bid_typed": 0,
            "deal": 0,
            "mortgage": 0,
            "host_card": 0,
            "phone_card": 0,
            "giveaway": 0,
            "bankrupt": 0,
        }
        moves = 0
        while not t.game.is_over:
            assert moves < MAX_MOVES, f"no end after {moves} moves ({done})"
            game = t.game
            state, seq = game.state, game.seq
            waits = MONOPOLY.waiting_for(state)
            if any(w.dice for w in waits):
                t.moved(seq)  # the simulated dice roll by themselves
                continue
            t.wait_all(seq)
            t.check(state)
            page = move(t, rng, state, waits, done)
            t.moved(seq, page)
            moves += 1
        t.wait_all(t.game.seq)
        final = t.game.state
        assert final.phase is Phase.OVER and [final.name(s) for s in final.out_order] == [VICTIM]
        assert all(done.values()), done
        # What the record holds: a property sold at auction, a deal done, a mortgage, and the
        # deeds and cards the host entered for the players (only those).
        played = {a.TYPE for _, a in t.game.effective}
        assert {"decline", "bid", "propose", "accept", "mortgage", "bankrupt"} <= played
        assert any(
            e.kind is EventKind.AUCTION and e.space is not None and e.amount
            for ev in server.events
            if ev.game_id == t.game_id
            for e in ev.state.events
        )
        by_host = {
            e.payload.get("type") for e in t.game.events if e.kind == "action" and e.actor == "host"
        }
        assert by_host == {"take_deed", "draw"}, by_host
        assert not t.errors, t.errors

        # The end on every page.
        assert "Winner:" in t.table.inner_text("#over")
        for phone in t.phones.values():
            assert "Game over" in phone.text_content("#cards")
        assert t.host.locator("#table-entry").count() == 0
        end = t.page(viewport={"width": 1000, "height": 800})
        end.goto(f"{server.url}/end/{t.game_id}")
        end.wait_for_selector(".mono-scores table.scores")
        places = end.eval_on_selector_all(
            ".mono-scores tr[data-player]", "els => els.map(e => e.dataset.player)"
        )
        scores = MONOPOLY.score(final)
        assert places == sorted(scores["places"], key=scores["places"].get)
        assert places[-1] == VICTIM
        assert f"Winner: {scores['winners'][0]}" in end.inner_text("#scores")
        t.shot(t.table, "monopoly-table-final.png")
        t.shot(t.phones[PLAYERS[0]], "monopoly-phone-final.png")
        t.shot(end, "monopoly-end.png")

        # Every event each page received is that page's own view.
        events = {e.seq: e for e in server.events if e.game_id == t.game_id}
        first = MONOPOLY.new_game(t.game.setup, GameFiles(MONOPOLY))
        for name, page in [*t.phones.items(), (None, t.table)]:
            got = page.evaluate("window.__sse")
            assert len(got) > moves / 2
            for m in got:
                data = json.loads(m["data"])
                at = int(m["id"])
                state = events[at].state if at else first
                assert data["viewer"] == name
                assert data["view"] == normal(MONOPOLY.player_view(state, name)), (name, at)
                if m["event"] == "update":
                    e = events[at]
                    assert data["action"] == normal(MONOPOLY.action_view(e.before, e.action, name))
        assert not t.errors, t.errors
    finally:
        keep = os.environ.get("WEB_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for png in shots.glob("*.png"):
                shutil.copy(png, Path(keep) / png.name)
        for ctx in t.contexts:
            ctx.close()


def move(t: Table, rng: random.Random, state, waits, done: dict[str, int]):
    """Make one move through the pages, the way a table plays; returns the page it was made
    on (to read its refusal if nothing happens)."""
    host = t.host
    if state.phase is Phase.SETUP:
        w = waits[0]
        if w.does == "deeds":
            # The Banker deals a Title Deed face up: the host taps the player, then the deed.
            unowned = [i for i in state.board.properties if state.holding(i).owner is None]
            host.click(f'#deal-deeds button[data-player="{w.player}"]')
            if not state.owned_by(state.seat(w.player)) and w.player == PLAYERS[-1]:
                t.shot(host, "monopoly-host-deeds.png", full=False)
            host.click(f'#deal-deeds button.mono-pick[data-space="{rng.choice(unowned)}"]')
            return host
        card = f"don-{PLAYERS.index(w.player) + 1}"  # each was dealt their own
        t.tap(w.player, lambda a: a["type"] == "don_card" and a["card"] == card)
        return t.phones[w.player]
    w = waits[0]
    me = state.players[state.seat(w.player)]
    phone = t.phones[w.player]
    if w.does == "buy":
        price = state.board.spaces[me.position].price
        buy = done["auction"] and me.cash - price >= 200 and w.player != VICTIM
        if not buy:
            done["auction"] += 1
        t.tap(w.player, lambda a: a["type"] == ("buy" if buy else "decline"))
        if done["auction"] == 1 and not buy:
            t.shot(phone, "monopoly-phone-buy.png", full=False)
    elif w.does == "bid":
        amount = pick_bid(rng, state, w.player)
        if amount is None:
            t.tap(w.player, lambda a: a["type"] == "pass")
        elif not done["bid_typed"] or rng.random() < 0.5:
            phone.fill("#bid-amount", str(amount))
            if not done["bid_typed"]:
                t.shot(phone, "monopoly-phone-auction.png", full=False)
            phone.click("#bid-send")
            done["bid_typed"] += 1
        else:
            t.tap(w.player, lambda a: a["type"] == "bid")
    elif w.does == "draw":
        card = rng.choice(drawable(state)).id
        if done["host_card"] <= done["phone_card"]:
            # The card turned up, entered by the table: tap it, then Enter.
            host.click(f'#enter-card button.mono-pick[data-card="{card}"]')
            if not done["host_card"]:
                t.shot(host, "monopoly-host-card.png", full=False)
            host.click("#enter-card-send")
            done["host_card"] += 1
            return host
        t.tap(w.player, lambda a: a["type"] == "draw" and a["card"] == card)
        done["phone_card"] += 1
    elif w.does == "jail":
        offered = [
            a for a in t.choices(w.player) if a["type"] in ("pay_fine", "use_card", "try_doubles")
        ]
        chosen = rng.choice(offered)
        t.tap(w.player, lambda a: a == chosen)
    elif w.does == "answer_deal":
        if not done["giveaway"]:
            t.shot(phone, "monopoly-phone-deal-answer.png", full=False)
        t.tap(w.player, lambda a: a["type"] in ("accept", "reject"))
    elif w.does == "raise_cash":
        if w.player == VICTIM:
            t.tap(w.player, lambda a: a["type"] == "bankrupt")
            done["bankrupt"] += 1
        else:
            t.tap(w.player, lambda a: a["type"] in ("mortgage", "sell"))
    elif w.does == "mortgage_fees":
        t.tap(w.player, lambda a: a["type"] in ("keep_mortgaged", "unmortgage"))
    elif w.does == "place_building":
        t.tap(w.player, lambda a: a["type"] == "build")
    elif w.does == "end_turn":
        return end_of_turn(t, rng, state, w.player, done)
    else:
        raise AssertionError(f"a move nobody makes: {w}")
    return phone


def end_of_turn(t: Table, rng: random.Random, state, player: str, done: dict[str, int]):
    """The dice are still: a mortgage, a deal, the victim's giveaway, or the end of the turn."""
    if not done["mortgage"] and state.round >= 2:
        # Anyone may mortgage at any time: one of the others, from their deed's row.
        for name in PLAYERS:
            if name not in (player, VICTIM) and any(
                a.TYPE == "mortgage" for a in legal_actions(state, name)
            ):
                t.tap(name, lambda a: a["type"] == "mortgage", within="#my-deeds")
                done["mortgage"] += 1
                return t.phones[name]
    if not done["deal"] and state.round >= 2:
        others = [state.name(s) for s in state.active if state.name(s) not in (player, VICTIM)]
        partner = next((n for n in others if tradeable(state, n)), None)
        me = state.players[state.seat(player)]
        if player != VICTIM and partner and me.cash > 300:
            space = tradeable(state, partner)[0]
            offer = min(me.cash - 100, state.board.spaces[space].price + 40)
            draft_deal(t, player, partner, give_cash=offer, take_spaces=[space])
            t.shot(t.phones[player], "monopoly-phone-deal.png")
            done["deal"] += 1
            return t.phones[player]
    if (
        done["deal"]
        and done["mortgage"]
        and done["auction"]
        and done["host_card"]
        and not done["giveaway"]
    ):
        # The victim hands everything to the player with the dice (a deal must trade a
        # property: theirs go too), and is left with nothing to pay the next rent with.
        partner = player if player != VICTIM else next(n for n in PLAYERS if n != VICTIM)
        v = state.players[state.seat(VICTIM)]
        draft_deal(t, VICTIM, partner, give_cash=v.cash, give_spaces=tradeable(state, VICTIM))
        done["giveaway"] += 1
        return t.phones[VICTIM]
    t.tap(player, lambda a: a["type"] == "end_turn")
    return t.phones[player]


def tradeable(state, name: str) -> list[int]:
    view = MONOPOLY.player_view(state, None)
    return next(p["tradeable"] for p in view["players"] if p["name"] == name)


def draft_deal(
    t: Table, proposer: str, partner: str, *, give_cash: int = 0, give_spaces=(), take_spaces=()
) -> None:
    """Draft a deal on ``proposer``'s phone and send it."""
    phone = t.phones[proposer]
    phone.click("#deal-draft summary")
    phone.select_option("#deal-to", partner)
    for i in give_spaces:
        phone.check(f"#deal fieldset[data-side=give] input[data-space='{i}']")
    for i in take_spaces:
        phone.check(f"#deal fieldset[data-side=take] input[data-space='{i}']")
    phone.fill("#deal-give-cash", str(give_cash))
    phone.click("#deal-send")
