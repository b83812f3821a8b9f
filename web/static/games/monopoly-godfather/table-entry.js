/* What the table may enter for a player on the host page (the game's `table_may_enter`:
 * public facts everyone at the table saw): a Title Deed the Banker dealt face up (Speed
 * Play), the Friends or Enemies card turned up from the real deck, and a roll of the dice.
 * Two taps each: whom or what, then the entry. The host page shows this card under whose
 * turn it is (js/pages/host.js asks the game's words module for HostControls). */
import { api, send } from "../../js/api.js";
import { h } from "../../js/dom.js";
import { dieFace } from "../../js/dice.js";
import { groupColour, money } from "./panels.js";

export class HostControls {
  /* `page` is the host page's body dataset (game, csrf), `live` its Live picture. */
  constructor(page, live) {
    this.page = page;
    this.live = live;
    this.board = null;
    this.dealTo = null;   // the player the next Title Deed goes to
    this.drawn = null;    // the card tapped, waiting for "Enter"
    this.faces = [];      // the dice tapped, for a roll entered here
    this.rollOf = null;   // the roll they are for
    this.rollOpen = false;
    api("GET", `/api/games/${page.game}/board`).then((res) => {
      if (res.ok) { this.board = res.data; live.redraw(); }
    });
  }

  /* The #table-entry card for the picture `pic`, or null when the table has nothing to enter. */
  card(pic) {
    if (!this.board || pic.status !== "active" || pic.scores) return null;
    const waiting = pic.view.waiting || [];
    const parts = [
      this.deeds(pic.view, waiting.filter((w) => w.does === "deeds").map((w) => w.player)),
      this.draw(pic.view, waiting.find((w) => w.does === "draw")),
      this.roll(waiting.find((w) => w.dice)),
    ].filter(Boolean);
    if (!parts.length) return null;
    return h("section", { class: "card mono-entry", id: "table-entry" }, h("h2", { text: "The table enters" }), parts);
  }

  async enter(action) {
    const done = await send(`/api/games/${this.page.game}/actions`, { action },
      { csrf: this.page.csrf, asHost: true, live: this.live });
    if (!done) return;
    this.drawn = null;
    this.faces = [];
    this.live.redraw();
  }

  /* Speed Play: the three Title Deeds dealt to each player, face up. */
  deeds(view, players) {
    if (!players.length) return null;
    if (!players.includes(this.dealTo)) this.dealTo = players[0];
    const unowned = Object.entries(view.spaces).filter(([, s]) => s.owner === null).map(([i]) => Number(i));
    const count = (name) => view.players.find((p) => p.name === name).deeds.length;
    return h("div", { id: "deal-deeds" },
      h("p", { class: "small", text: "Title Deeds dealt: tap the player, then the deed they were dealt." }),
      h("div", { class: "choices-row" }, players.map((name) => h("button", {
        class: "small" + (name === this.dealTo ? " primary" : ""), dataset: { player: name }, "aria-pressed": name === this.dealTo ? "true" : "false",
        onclick: () => { this.dealTo = name; this.live.redraw(); },
      }, `${name} (${count(name)})`))),
      h("div", { class: "mono-grid" }, unowned.map((i) => h("button", {
        class: "mono-pick", dataset: { space: String(i) },
        onclick: () => this.enter({ type: "take_deed", player: this.dealTo, space: i }),
      }, h("span", { class: "mono-band", style: `background:${groupColour(this.board, i)}` }),
      `${this.board.spaces[i].name} ${money(this.board.spaces[i].price)}`))));
  }

  /* The card turned up: tap it, then Enter. */
  draw(view, wait) {
    if (!wait || !view.drawing) return null;
    const held = new Set(view.players.flatMap((p) => p.jail_cards));
    const deck = this.board.cards.filter((c) => c.deck === view.drawing && !held.has(c.id));
    if (!deck.some((c) => c.id === this.drawn)) this.drawn = null;
    const chosen = deck.find((c) => c.id === this.drawn);
    const deckName = view.drawing === "friends" ? "a Friends" : "an Enemies";
    return h("div", { id: "enter-card" },
      h("p", { class: "small", text: `${wait.player} turned up ${deckName} card: tap it, then Enter.` }),
      h("div", { class: "mono-grid" }, deck.map((c) => h("button", {
        class: "mono-pick card-text" + (c.id === this.drawn ? " chosen" : ""), dataset: { card: c.id },
        "aria-pressed": c.id === this.drawn ? "true" : "false",
        onclick: () => { this.drawn = c.id; this.live.redraw(); },
      }, c.text))),
      h("p", {}, h("button", { class: "primary", id: "enter-card-send", disabled: !chosen,
        onclick: () => this.enter({ type: "draw", player: wait.player, card: chosen.id }) },
      chosen ? `Enter: ${chosen.text}` : "Enter the card")));
  }

  /* A roll of the two dice, when the dice reader missed it and the roller's phone is away. */
  roll(wait) {
    if (!wait) return null;
    const key = `${wait.player}/${wait.does}`;
    if (this.rollOf !== key) { this.rollOf = key; this.faces = []; }
    const full = this.faces.length >= 2;
    return h("details", { id: "enter-roll", open: this.rollOpen },
      h("summary", { text: `Enter ${wait.player}'s roll here (if their phone and the dice reader cannot)`,
        onclick: (e) => { this.rollOpen = !e.target.parentElement.open; } }),
      h("div", { class: "dice" }, this.faces.map((f) => dieFace(f, { classes: ["small"] }))),
      h("div", { class: "choices-row" }, [1, 2, 3, 4, 5, 6].map((f) => h("button", {
        class: "face", dataset: { face: String(f) }, "aria-label": `face ${f}`, disabled: full,
        onclick: () => { this.faces.push(f); this.live.redraw(); },
      }, dieFace(f, { classes: ["small"] })))),
      h("p", {},
        h("button", { disabled: !this.faces.length, onclick: () => { this.faces.pop(); this.live.redraw(); } }, "⌫"), " ",
        h("button", { class: "primary", id: "enter-roll-send", disabled: !full,
          onclick: () => this.enter({ type: "roll", player: wait.player, dice: this.faces.slice() }) }, "Enter the roll")));
  }
}
