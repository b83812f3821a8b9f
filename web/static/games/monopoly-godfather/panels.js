/* What every Monopoly page shows the same way: each player's balance and deeds, what the
 * table waits for (an auction, a deal, a debt), the last roll and what it caused. Everything
 * is public but a Don card before it is played: the view gives its card only to its holder. */
import { h } from "../../js/dom.js";
import { colourOf, swatch } from "../../js/colours.js";
import { dieFace } from "../../js/dice.js";

export function money(n) {
  return `$${n}`;
}

/* The colour of space `i`'s group (grey for a space of no group). */
export function groupColour(board, i) {
  const group = board.spaces[i] && board.spaces[i].group;
  const found = group ? board.groups.find((g) => g.id === group) : null;
  return found ? found.colour : "#777";
}

/* A deed as a small chip: its group's colour, its name; face down when mortgaged. */
export function deedChip(board, view, i) {
  const held = view.spaces[String(i)] || {};
  const built = held.compound ? " ▣" : held.hideouts ? " " + "▪".repeat(held.hideouts) : "";
  return h("span", { class: "mono-deed-chip" + (held.mortgaged ? " mortgaged" : ""), dataset: { space: String(i) },
    title: held.mortgaged ? "mortgaged" : `rent ${money(held.rent)}` },
  h("span", { class: "mono-band", style: `background:${groupColour(board, i)}` }), board.spaces[i].name + built);
}

/* One side of a deal in words: its deeds (those face down said so), cards and cash. */
export function offerWords(board, offer, view) {
  const parts = offer.spaces.map((i) => board.spaces[i].name + (view.spaces[String(i)].mortgaged ? " (mortgaged)" : ""));
  if (offer.cards.length) parts.push(`${offer.cards.length} Get Out of Jail Free card${offer.cards.length > 1 ? "s" : ""}`);
  if (offer.cash) parts.push(money(offer.cash));
  return parts.join(", ") || "nothing";
}

/* The Don card as the view shows it: its card only for its holder, or once played. */
function donLine(p) {
  const don = p.don || {};
  if (!don.dealt) return null;
  if (don.played) return h("div", { class: "small", dataset: { donCard: don.card } }, `Played ${don.name}: ${don.text}`);
  if (don.card) return h("div", { class: "small", dataset: { donCard: don.card } }, `Your Don card: ${don.name} (secret)`);
  return h("div", { class: "small muted", text: "Don card in hand" });
}

/* One player: cash, fortune, deeds, Jail, cards, the Don card. */
function playerCard(board, view, p, viewer) {
  const tags = [
    view.turn === p.name ? h("span", { class: "chip", text: "to play" }) : null,
    p.in_jail ? h("span", { class: "chip", text: "in Jail" }) : null,
    p.bankrupt ? h("span", { class: "chip down", text: "bankrupt" }) : null,
  ];
  return h("div", { class: "player mono-player" + (p.bankrupt ? " out" : ""), dataset: { player: p.name, cash: String(p.cash) } },
    h("div", { class: "name" }, swatch(colourOf(view.players, p.name)), p.name === viewer ? `${p.name} (you)` : p.name, ...tags),
    h("div", { class: "mono-cash", text: money(p.cash) }),
    h("div", { class: "small muted", text: `worth ${money(p.worth)} · on ${p.space}` }),
    p.deeds.length ? h("div", { class: "mono-deeds" }, p.deeds.map((i) => deedChip(board, view, i))) : null,
    p.jail_cards.length ? h("div", { class: "small", text: `${p.jail_cards.length} Get Out of Jail Free card${p.jail_cards.length > 1 ? "s" : ""}` }) : null,
    donLine(p));
}

export function playersBox(board, view, viewer) {
  return h("div", { class: "players mono-players" }, view.players.map((p) => playerCard(board, view, p, viewer)));
}

/* What the table waits for before the turn goes on, in words (null: nothing). */
export function holdLines(board, view, viewer) {
  const you = (name) => (name === viewer ? "you" : name);
  const out = [];
  const a = view.auction;
  if (a) {
    out.push(`Auction of ${a.lot_name}: ` + (a.high_bidder ? `highest bid ${money(a.high_bid)} by ${you(a.high_bidder)}` : "no bid yet") +
      `; ${you(a.turn)} to bid (${money(a.min_bid)} or more) or pass.`);
  }
  const d = view.deal;
  if (d) {
    out.push(`${d.proposer === viewer ? "You offer" : d.proposer + " offers"} ${you(d.partner)} ${offerWords(board, d.give, view)} ` +
      `for ${offerWords(board, d.take, view)}: waiting for ${you(d.partner)} to answer.`);
  }
  for (const debt of view.debts) {
    out.push(`${debt.debtor === viewer ? "You owe" : debt.debtor + " owes"} ${money(debt.amount)} to ${debt.creditor ? you(debt.creditor) : "the Bank"} (${debt.reason}).`);
  }
  for (const f of view.fees) {
    out.push(`${f.player === viewer ? "You" : f.player} received ${board.spaces[f.space].name} mortgaged: repay it (${money(f.repay)}) or pay ${money(f.interest)} interest.`);
  }
  if (view.placing) out.push(`${you(view.placing.player)} won a ${view.placing.building} at auction, to place on a location.`);
  if (view.lots.length) out.push(`Still to auction: ${view.lots.join(", ")}.`);
  for (const c of view.claims) out.push(`${c.owner} may ask ${c.payer} for ${money(c.amount)} rent (${board.spaces[c.space].name}).`);
  if (view.phase === "order") {
    out.push("Who goes first? " + Object.entries(view.rolloff).map(([n, t]) => `${n}: ${t === null ? "to roll" : t}`).join(", "));
  }
  return out;
}

export function holdBox(board, view, viewer) {
  const lines = holdLines(board, view, viewer);
  return lines.length ? h("div", { class: "mono-hold", id: "hold" }, lines.map((text) => h("p", { text }))) : null;
}

/* The last roll of the dice and everything it caused. */
export function lastRoll(view, { small = false } = {}) {
  if (!view.dice.length && !view.events.length) return h("p", { class: "muted small", text: "No roll yet." });
  return h("div", { class: "mono-roll", id: "last-roll" },
    view.dice.length ? h("div", { class: "dice" }, view.dice.map((f) => dieFace(f, { classes: small ? ["small"] : [] })),
      view.doubles ? h("span", { class: "chip", text: view.doubles > 1 ? `doubles ×${view.doubles}` : "doubles" }) : null) : null,
    h("ul", { class: "mono-events" }, view.events.map((e) => h("li", { class: `ev-${e.kind}`, text: e.text }))));
}

/* The Bank's buildings left, and a shortage when there is one. */
export function bankLine(view) {
  const b = view.bank;
  const short = Object.entries(b.shortage).map(([what, who]) => `${what} shortage: ${who.join(", ")} could build`);
  return h("p", { class: "small muted", id: "bank" },
    `Bank: ${b.hideouts} Hideouts, ${b.compounds} Compounds left` + (short.length ? ` · ${short.join("; ")}` : ""));
}
