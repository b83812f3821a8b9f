/* What the table screen records for the players when it is opened with the host's key (the
 * browser that created the game, or that opened the host's link): the Loot the Godfather
 * flips, and where every foam gun points ("by": "table"; each phone may confirm or correct its
 * own). Only what everyone at the table sees: the game lets the host enter nothing else
 * (its table_may_enter), never a Bullet card nor a courage choice. */
import { send } from "../../js/api.js";
import { h } from "../../js/dom.js";
import { lootCard } from "./parts.js";

const AIMING = ["hold_up", "change_target"];

export class Recorder {
  /* `box` is the game's box (/board): the Loot deck's cards. */
  constructor(page, csrf, live, box) {
    this.base = `/api/games/${page.game}`;
    this.csrf = csrf;
    this.live = live;
    this.box = box;
    this.pending = [];  // Loot card ids tapped, not yet sent
    this.aimer = null;  // the gangster whose gun is being recorded
  }

  async act(action) {
    return send(`${this.base}/actions`, { action }, { csrf: this.csrf, asHost: true, live: this.live });
  }

  /* --- 1. Loot: tap each card as it is turned over, then put them on the table ---------- */

  flipCard(view) {
    if (view.phase !== "loot") { this.pending = []; return null; }
    const room = view.loot.to_flip;
    this.pending = this.pending.slice(0, room);
    const left = (id) => (view.loot.deck[id] || 0) - this.pending.filter((c) => c === id).length;
    const card = (id) => this.box.loot.find((c) => c.card === id);
    return h("section", { class: "card cng-record", id: "record-loot" },
      h("h2", { text: `Flip the Loot for ${view.godfather}` }),
      h("p", { class: "small muted", text: `Tap each card as it is turned over (${room} to go), then put them on the table.` }),
      h("div", { class: "cng-deck" }, this.box.loot.map((c) => h("button", {
        type: "button", class: "cng-deck-card", dataset: { card: c.card },
        disabled: left(c.card) <= 0 || this.pending.length >= room,
        onclick: () => { this.pending.push(c.card); this.live.redraw(); },
      }, lootCard(c), h("small", { text: `${left(c.card)} left` })))),
      h("div", { class: "cng-cards cng-pending", id: "pending" }, this.pending.map((id, i) => h("button", {
        type: "button", class: "cng-pending-card", title: "take it back",
        onclick: () => { this.pending.splice(i, 1); this.live.redraw(); },
      }, lootCard(card(id))))),
      h("p", {}, h("button", { type: "button", class: "primary", id: "flip-send", disabled: !this.pending.length,
        onclick: () => this.flip(view.godfather) },
      this.pending.length ? `Put ${this.pending.length} card${this.pending.length > 1 ? "s" : ""} on the table` : "Put them on the table")));
  }

  async flip(godfather) {
    const cards = this.pending.slice();
    if (!cards.length) return;
    if (await this.act({ type: "flip", player: godfather, cards })) {
      this.pending = [];
      this.live.redraw();
    }
  }

  /* --- 3. Hold-up: tap a gangster, then the one their gun points at --------------------- */

  aiming(view) {
    return AIMING.includes(view.phase);
  }

  /* Whose gun the table may record now: everyone alive, or after the Godfather's order only
   * the player he ordered. */
  mayAim(view, p) {
    if (!p.alive) return false;
    return view.phase === "hold_up" || (view.order && view.order.player === p.name);
  }

  /* Whom `aimer` may be recorded aiming at: another living player (after an order, not the
   * one they had). */
  mayBeTarget(view, aimer, p) {
    return p.alive && p.name !== aimer && !(view.phase === "change_target" && view.order && view.order.away_from === p.name);
  }

  /* A tap on a gangster's tile: pick the gun, or (a gun picked) its target. */
  tap(view, name) {
    const p = view.players.find((x) => x.name === name);
    if (this.aimer === name) this.aimer = null;
    else if (this.aimer && this.mayBeTarget(view, this.aimer, p)) { this.aim(this.aimer, name); return; }
    else if (this.mayAim(view, p)) this.aimer = name;
    this.live.redraw();
  }

  async aim(aimer, target) {
    if (await this.act({ type: "aim", player: aimer, target, by: "table" })) this.aimer = null;
    this.live.redraw();
  }

  /* The line above the tiles: what to tap next. */
  aimBar(view) {
    if (!this.aiming(view)) { this.aimer = null; return null; }
    const p = this.aimer && view.players.find((x) => x.name === this.aimer);
    if (p && !this.mayAim(view, p)) this.aimer = null;
    const text = this.aimer ? `${this.aimer}'s gun points at… tap the target.`
      : view.phase === "change_target" ? `The Godfather ordered ${view.order.player} to aim elsewhere: tap ${view.order.player}, then the new target.`
        : "Record the guns: tap a gangster, then the one they aim at.";
    return h("div", { class: "cng-record cng-aimbar", id: "record-aims", dataset: { aimer: this.aimer || "" } },
      h("p", { class: "turn", text }),
      this.aimer && view.phase === "hold_up" ? h("button", { type: "button", id: "aim-nobody",
        onclick: () => this.aim(this.aimer, null) }, `${this.aimer} was too slow: nobody`) : null,
      this.aimer ? h("button", { type: "button", onclick: () => { this.aimer = null; this.live.redraw(); } }, "Cancel") : null);
  }

  /* The tiles' tap, while guns are being recorded (else none: the tiles are a picture). */
  onTile(view) {
    return this.aiming(view) ? (name) => this.tap(view, name) : null;
  }
}
