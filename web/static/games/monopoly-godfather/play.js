/* Monopoly on a player's phone: your cash and deeds, with the buttons each deed has now
 * (build, sell, mortgage, repay); what the table waits for; your move (buy or auction, the
 * card drawn, Jail, a bid of any amount, an answer to a deal, end your turn); the deal
 * drafter; dice entry; undo; every player's balance, the board and the log.
 *
 * Every button is one of the engine's choices for this phone (only what is legal now); the
 * bid field and the deal drafter make the two kinds of action the engine cannot list. */
import { api, send } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { DiceEntry } from "../../js/dice-entry.js";
import { Live } from "../../js/live.js";
import { DicePrompts } from "../../js/prompts.js";
import { showLog, showTurn } from "../../js/shell.js";
import { drawBoard } from "./board.js";
import { DealDrafter } from "./deal.js";
import { bankLine, groupColour, holdBox, lastRoll, money, offerWords, playersBox } from "./panels.js";
import { scoreTable } from "./scores.js";
import { words } from "./words.js";

// Choices drawn on the row of the deed they are about; the rest are "Your move".
const ON_DEEDS = new Set(["build", "sell", "mortgage", "unmortgage"]);
// "Your move", in the order a turn goes.
const ORDER = ["deeds", "jail", "buy", "draw", "bid", "deal", "debt", "mortgage", "build", "rent", "turn", "don"];
const GRID = new Set(["deeds", "draw"]);  // many choices: a grid of small buttons
const HEADS = {
  deeds: "Title Deeds the Banker dealt you (Speed Play): tap each one",
  don: "Your Don card (once a game)", jail: "Leave Jail", buy: "The property you landed on", draw: "The card you drew",
  deal: "The deal", debt: "Out of money", mortgage: "The mortgaged property received", build: "The building you won",
};

export function start(page) {
  const me = page.player;
  const base = `/api/games/${page.game}`;
  let board = null;
  let bid = { key: null, amount: 0 };  // the amount typed, for the auction as it stands

  const live = new Live(`${base}/events?as=player`, { picture: render, dice: (d) => prompts.take(d) });
  const prompts = new DicePrompts(page, live);
  const entry = new DiceEntry(page, live);
  const post = (path, body, confirm) => send(`${base}/${path}`, body, { csrf: page.csrf, live, confirm });
  const act = (action, confirm) => post("actions", { action }, confirm);
  const drafter = new DealDrafter(me, live, act);

  function button(c, extra) {
    const confirm = c.action.type === "bankrupt"
      ? "Declare bankruptcy? You are out of the game, and what you have goes to whom you owe." : undefined;
    const deed = c.action.type === "take_deed" ? h("span", { class: "mono-band", style: `background:${groupColour(board, c.space)}` }) : null;
    const main = c.action.type === "end_turn" || c.action.type === "buy" || c.action.type === "accept";
    return h("button", {
      class: "choice" + (extra ? " " + extra : "") + (main ? " primary" : ""), dataset: { group: c.group, action: JSON.stringify(c.action) },
      onclick: () => act(c.action, confirm),
    }, deed, c.label);
  }

  /* The space a choice is drawn on (a deed row), or null for "Your move". */
  function onDeed(pic, c) {
    if (!ON_DEEDS.has(c.action.type)) return null;
    const fee = pic.view.hold === "fees" && pic.view.fees[0].player === me ? pic.view.fees[0].space : null;
    if (c.action.type === "unmortgage" && c.action.space === fee) return null;  // beside "keep it"
    if (pic.view.hold === "placing") return null;  // the building won is placed from "Your move"
    return c.action.space;
  }

  /* Bidding: any amount from the lowest bid to your cash, a few ready-made, or pass. */
  function bidBox(pic, cs) {
    const a = pic.view.auction;
    const key = `${a.lot}/${a.high_bid}/${a.turn}`;
    if (bid.key !== key) bid = { key, amount: a.min_bid };
    const input = h("input", { id: "bid-amount", type: "number", inputmode: "numeric", min: String(a.min_bid), max: String(a.max_bid),
      step: "1", value: String(bid.amount), "aria-label": "your bid in dollars",
      oninput: (e) => { bid.amount = Math.floor(Number(e.target.value) || 0); } });
    const quick = cs.filter((c) => c.action.type === "bid");
    const pass = cs.filter((c) => c.action.type === "pass");
    return [
      h("p", { class: "small", text: `${a.lot_name}: ` + (a.high_bidder ? `highest bid ${money(a.high_bid)} by ${a.high_bidder}. ` : "no bid yet. ") +
        `Bid ${money(a.min_bid)} to ${money(a.max_bid)}, or pass (you are then out of this auction).` }),
      h("div", { class: "mono-bid" }, h("span", { text: "$" }), input,
        h("button", { class: "primary", id: "bid-send", disabled: a.max_bid < a.min_bid,
          onclick: () => act({ type: "bid", player: me, amount: bid.amount }) }, "Bid")),
      h("div", { class: "choices-row" }, quick.map((c) => button(c)), pass.map((c) => button(c)))];
  }

  function dealTerms(pic) {
    const d = pic.view.deal;
    if (!d || d.partner !== me) return null;
    return h("p", { class: "mono-terms", id: "deal-terms" }, `${d.proposer} offers you `, h("b", { text: offerWords(board, d.give, pic.view) }),
      " for ", h("b", { text: offerWords(board, d.take, pic.view) }), ".");
  }

  /* "Your move": every choice that is not about one of my deeds, grouped as a turn goes. */
  function choicesCard(pic) {
    const cs = pic.choices.filter((c) => onDeed(pic, c) === null);
    if (!cs.length) return null;
    const groups = [...ORDER, ...new Set(cs.map((c) => c.group).filter((g) => !ORDER.includes(g)))];
    const parts = groups.map((g) => {
      const list = cs.filter((c) => c.group === g);
      if (!list.length) return null;
      if (g === "bid") return [h("h3", { text: "Auction" }), ...bidBox(pic, list)];
      return [HEADS[g] ? h("h3", { text: HEADS[g] }) : null, g === "deal" ? dealTerms(pic) : null,
        h("div", { class: GRID.has(g) ? "mono-grid" : "choices-row" }, list.map((c) => button(c, GRID.has(g) ? "mono-pick" : null)))];
    });
    return h("section", { class: "card", id: "choices" }, h("h2", { text: "Your move" }), parts.flat());
  }

  /* One of my deeds: its state, and what can be done with it now. */
  function deedRow(pic, i, buttons) {
    const held = pic.view.spaces[String(i)];
    const state = held.mortgaged ? `mortgaged (repay ${money(held.repay)})`
      : (held.compound ? "a Compound · " : held.hideouts ? `${held.hideouts} Hideout${held.hideouts > 1 ? "s" : ""} · ` : "") + `rent ${money(held.rent)}`;
    return h("li", { class: "mono-deed" + (held.mortgaged ? " mortgaged" : ""), dataset: { space: String(i) } },
      h("div", { class: "mono-deed-name" }, h("span", { class: "mono-band", style: `background:${groupColour(board, i)}` }),
        h("b", { text: board.spaces[i].name }), h("span", { class: "small muted", text: " " + state })),
      buttons.length ? h("div", { class: "choices-row" }, buttons.map((c) => button(c, "small"))) : null);
  }

  /* My money: cash, what I am worth and could raise, my cards, my deeds with their buttons. */
  function mineCard(pic) {
    const p = pic.view.players.find((x) => x.name === me);
    if (!p) return null;
    const byDeed = {};
    for (const c of pic.choices) {
      const i = onDeed(pic, c);
      if (i !== null) (byDeed[i] ||= []).push(c);
    }
    const don = p.don && p.don.card ? h("p", { class: "small", dataset: { donCard: p.don.card } },
      p.don.played ? `Don card played: ${p.don.name}` : `Your Don card (secret): ${p.don.name}. ${p.don.text}`) : null;
    return h("section", { class: "card", id: "mine" }, h("h2", { text: "Your money" }),
      h("p", {}, h("span", { class: "mono-cash", id: "my-cash", text: money(p.cash) }),
        h("span", { class: "small muted", text: ` · worth ${money(p.worth)} · could raise ${money(p.can_raise)} by selling and mortgaging` })),
      p.in_jail ? h("p", { class: "small", text: `In Jail (${p.jail_rolls} tr${p.jail_rolls === 1 ? "y" : "ies"} at doubles)` }) : null,
      p.jail_cards.length ? h("p", { class: "small", text: `${p.jail_cards.length} Get Out of Jail Free card${p.jail_cards.length > 1 ? "s" : ""}` }) : null,
      don,
      p.deeds.length ? h("ul", { class: "mono-deed-list", id: "my-deeds" }, p.deeds.map((i) => deedRow(pic, i, byDeed[i] || [])))
        : h("p", { class: "muted small", text: "No Title Deeds yet." }));
  }

  /* What the table waits for, and the last roll with what it caused. */
  function nowCard(pic) {
    if (pic.view.phase === "setup") return null;
    return h("section", { class: "card", id: "now" }, holdBox(board, pic.view, me), lastRoll(pic.view, { small: true }));
  }

  function gameOverCard(pic) {
    return h("section", { class: "card" }, h("h2", { text: "Game over" }),
      h("p", { text: pic.view.end || "The host ended the game." }), scoreTable(pic.scores, pic.view),
      h("p", {}, h("a", { href: `/end/${page.game}`, text: "The score page" })));
  }

  function cards(pic) {
    return [
      pic.scores ? gameOverCard(pic) : null,
      ...prompts.cards((pic.dice_wanted || []).length > 0),
      entry.card(pic),
      pic.scores ? null : nowCard(pic),
      choicesCard(pic),
      mineCard(pic),
      pic.status === "active" && !pic.scores ? drafter.card(board, pic.view) : null,
      pic.can_undo ? h("section", { class: "card" },
        h("button", { class: "danger", id: "undo", onclick: () => post("undo", {}) }, "Undo my last move")) : null,
    ];
  }

  function render(pic, log) {
    // A picture arrives while a field is typed in: the field is drawn anew, and keeps focus.
    const focused = document.activeElement && document.activeElement.id;
    showTurn(pic, words);
    fill("cards", cards(pic));
    fill("players", playersBox(board, pic.view, me), bankLine(pic.view));
    drawBoard(document.getElementById("board"), board, pic.view);
    showLog(log);
    const again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus();
  }

  api("GET", `${base}/board`).then((res) => {
    board = res.data;
    live.connect();
  });
}
