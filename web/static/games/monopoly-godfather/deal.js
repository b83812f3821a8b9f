/* Drafting a deal on a phone (Don't Wait for Your Turn 6): whom with, what each side hands
 * over (cash, unimproved deeds, Get Out of Jail Free cards), sent as one `propose` action.
 *
 * The engine lists no deal among the choices (there are too many): the view says when this
 * player may propose one (`may_deal`) and what each player can hand over (`tradeable`,
 * `jail_cards`, `cash`). The draft lives here, not in the engine, and survives the pictures
 * that arrive while it is typed; whatever the rules forbid in it (a loan, a deed of a group
 * with buildings), the engine refuses with the rule when it is sent. */
import { h } from "../../js/dom.js";
import { groupColour, money, offerWords } from "./panels.js";

function emptySide() {
  return { cash: 0, spaces: [], cards: [] };
}

export class DealDrafter {
  /* `me` is this phone's player; `act(action)` sends an action and resolves to its reply. */
  constructor(me, live, act) {
    this.me = me;
    this.live = live;
    this.act = act;
    this.open = false;
    this.board = null;
    this.view = null;
    this.to = null;
    this.give = emptySide();
    this.take = emptySide();
  }

  /* The #deal card, or null when this player may not propose a deal now. */
  card(board, view) {
    const mine = view.players.find((p) => p.name === this.me);
    const others = view.players.filter((p) => p.name !== this.me && !p.bankrupt);
    if (!mine || !mine.may_deal || !others.length) return null;
    this.board = board;
    this.view = view;
    if (!others.some((p) => p.name === this.to)) { this.to = others[0].name; this.take = emptySide(); }
    const them = others.find((p) => p.name === this.to);
    this.keepOnly(this.give, mine);
    this.keepOnly(this.take, them);
    const details = h("details", { id: "deal-draft", open: this.open },
      // Opened or closed is known at the tap (the toggle event comes later, after a redraw).
      h("summary", { text: "Propose a deal: properties, cash, Get Out of Jail Free cards",
        onclick: (e) => { this.open = !e.target.parentElement.open; } }),
      h("label", { for: "deal-to", class: "small muted", text: "With" }),
      h("select", { id: "deal-to", onchange: (e) => { this.to = e.target.value; this.take = emptySide(); this.live.redraw(); } },
        others.map((p) => h("option", { value: p.name, selected: p.name === this.to, text: `${p.name} (${money(p.cash)})` }))),
      this.side(board, "give", "You give", mine),
      this.side(board, "take", `You take from ${them.name}`, them),
      h("p", { class: "small", id: "deal-summary", text: this.summary() }),
      h("p", { class: "small muted", text: "A deal trades a property or a Get Out of Jail Free card (never a loan); a group's buildings are sold first." }),
      h("button", { class: "primary", id: "deal-send", onclick: () => this.send() }, `Offer it to ${them.name}`));
    return h("section", { class: "card", id: "deal" }, h("h2", { text: "Deal" }), details);
  }

  summary() {
    return `You give ${offerWords(this.board, this.give, this.view)}; you take ${offerWords(this.board, this.take, this.view)}.`;
  }

  /* A tap or a keystroke changed the draft: say it again (no redraw: the field keeps focus). */
  changed() {
    const el = document.getElementById("deal-summary");
    if (el) el.textContent = this.summary();
  }

  /* Drop from a side what its player no longer holds (sold, mortgaged over, dealt away). */
  keepOnly(side, player) {
    side.spaces = side.spaces.filter((i) => player.tradeable.includes(i));
    side.cards = side.cards.filter((c) => player.jail_cards.includes(c));
    side.cash = Math.max(0, Math.min(side.cash, player.cash));
  }

  /* What one player hands over: cash, their tradeable deeds, their cards. */
  side(board, key, title, player) {
    const chosen = this[key];
    const toggle = (list, item) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
    return h("fieldset", { class: "mono-side", dataset: { side: key } },
      h("legend", { text: title }),
      h("label", { class: "small" }, "Cash $ ",
        h("input", { id: `deal-${key}-cash`, type: "number", inputmode: "numeric", min: "0", max: String(player.cash), step: "1",
          value: String(chosen.cash),
          oninput: (e) => { chosen.cash = Math.max(0, Math.floor(Number(e.target.value) || 0)); this.changed(); } }),
        ` of ${money(player.cash)}`),
      player.tradeable.length ? h("div", { class: "mono-checks" }, player.tradeable.map((i) => h("label", { class: "mono-check" },
        h("input", { type: "checkbox", dataset: { space: String(i) }, checked: chosen.spaces.includes(i),
          onchange: () => { chosen.spaces = toggle(chosen.spaces, i); this.changed(); } }),
        h("span", { class: "mono-band", style: `background:${groupColour(board, i)}` }), board.spaces[i].name))) :
        h("p", { class: "small muted", text: "No property that can be traded." }),
      player.jail_cards.map((c) => h("label", { class: "mono-check" },
        h("input", { type: "checkbox", dataset: { card: c }, checked: chosen.cards.includes(c),
          onchange: () => { chosen.cards = toggle(chosen.cards, c); this.changed(); } }),
        "Get Out of Jail Free")));
  }

  async send() {
    const action = { type: "propose", player: this.me, to: this.to, give: { ...this.give }, take: { ...this.take } };
    if (!(await this.act(action))) return;
    this.give = emptySide();
    this.take = emptySide();
    this.open = false;
    this.live.redraw();
  }
}
