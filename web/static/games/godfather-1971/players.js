/* The players as the table sees them (cash, pieces, whether they hold a card, the bonuses
 * running and the Racket Control Values held), the turn as it stands (the card played face
 * up, free pieces, the Breaks roll and card, a Fingerman, a Bad Break still owed), the decks,
 * and the score. A held card is drawn only on its holder's own phone (`handCard`): no other
 * view carries it. */
import { h } from "../../js/dom.js";
import { colourOf, swatch } from "../../js/colours.js";
import { money } from "./hoods.js";

function hoodName(view, id) {
  const n = view.neighborhoods.find((x) => x.id === id);
  return n ? n.name : id;
}

function family(view, p, viewer) {
  const running = p.bonuses.map((b) => `${money(b.amount)} × ${b.turns} (${hoodName(view, b.neighborhood)})`);
  const held = p.credits.map((c) => `${hoodName(view, c.neighborhood)} ${money(c.value)}`);
  return h("div", { class: "player g71-player" + (view.turn && view.turn.player === p.name ? " turn" : ""), dataset: { player: p.name } },
    h("div", { class: "name" }, swatch(colourOf(view.players, p.name)), p.name === viewer ? `${p.name} (you)` : p.name),
    h("div", { class: "g71-cash", dataset: { cash: String(p.cash) }, text: money(p.cash) }),
    h("div", { class: "small muted", text: `${p.pieces} piece${p.pieces === 1 ? "" : "s"} on the board` +
      (p.holds_card ? " · holds a card" : "") }),
    running.length ? h("div", { class: "small g71-bonus", text: `Bonuses: ${running.join(", ")}` }) : null,
    held.length ? h("div", { class: "small", text: `CONTROL: ${held.join(", ")}` }) : null,
    p.debt ? h("div", { class: "small g71-debt", text: `Owes ${money(p.debt)}` }) : null,
    p.penalties.length ? h("div", { class: "small", text: `A piece owed in ${p.penalties.map((x) => hoodName(view, x)).join(", ")}` }) : null);
}

export function familiesBox(view, viewer) {
  return h("div", { class: "players" }, view.players.map((p) => family(view, p, viewer)));
}

/* The turn as the table sees it: the card played face up and what it left to do. */
export function turnBox(view) {
  const t = view.turn;
  if (view.scores) return null;
  if (!t) {
    const rolled = Object.entries(view.rolloff || {}).filter(([, n]) => n !== null);
    return h("p", { class: "small", text: rolled.length ? "Rolls for the first turn: " + rolled.map(([n, v]) => `${n} ${v}`).join(", ") : "" });
  }
  const bits = [];
  if (t.first) bits.push("first turn: one to three pieces in each of two neighborhoods");
  if (t.card) bits.push(`card played: ${t.card.label}`);
  if (t.roll.length) bits.push(`Breaks roll ${t.roll.join(" + ")} = ${t.roll[0] + t.roll[1]}`);
  if (t.break_card) bits.push(t.break_card.label);
  if (t.free) bits.push(`${t.free.count} free ${t.free.piece}${t.free.count === 1 ? "" : "s"} to position`);
  if (t.voided) bits.push(`${t.voided} free piece${t.voided === 1 ? "" : "s"} could go nowhere`);
  if (t.fingers) bits.push(`Fingerman: ${t.fingers} removal${t.fingers === 1 ? "" : "s"} left`);
  if (t.lose) bits.push(`Bad Break: ${t.lose.count} ${t.lose.piece}${t.lose.count === 1 ? "" : "s"} to give up`);
  if (t.owed) bits.push(`Bad Break: ${money(t.owed)} to pay`);
  return h("div", { class: "g71-turn", dataset: { player: t.player } },
    h("div", {}, swatch(colourOf(view.players, t.player)), ` ${t.player}'s turn ${t.number}`),
    bits.length ? h("ul", { class: "small" }, bits.map((b) => h("li", { text: b }))) : null);
}

export function decksBox(view) {
  if (!view.decks) return h("p", { class: "small muted", text: "The table's own cards: each player enters the card they draw." });
  const d = view.decks;
  return h("p", { class: "small", text: `The companion's decks: ${d.playing} playing cards, ${d.good} Good Breaks, ${d.bad} Bad Breaks.` });
}

/* The viewer's own held card: only their phone has it (their view alone carries `hand`). */
export function handCard(me) {
  if (!me || !me.hand) return h("p", { class: "muted small", text: "You hold no card." });
  return h("p", { class: "g71-hand", dataset: { hand: me.hand.code } }, "Your card: ", h("b", { text: me.hand.label }),
    h("span", { class: "small muted", text: " (only this phone shows it)" }));
}

/* The score: each player's cash, the Racket Control Values they hold, any debt, the total. */
export function scoreTable(scores, view) {
  const names = view.players.map((p) => p.name);
  const credit = (n) => scores.credits[n].map((c) => `${c.name} ${money(c.value)}`).join(", ") || "–";
  return h("div", { class: "g71-score" },
    h("p", { class: "turn", text: `Winner: ${scores.winners.join(" and ")}` }),
    h("table", { class: "scores" },
      h("tr", {}, h("th", { text: "player" }), h("th", { class: "num", text: "cash" }), h("th", { text: "Racket Control Values" }),
        h("th", { class: "num", text: "total" })),
      names.map((n) => h("tr", { dataset: { player: n } },
        h("td", {}, swatch(colourOf(view.players, n)), ` ${n}`),
        h("td", { class: "num", text: money(scores.cash[n]) + (scores.debt[n] ? ` − ${money(scores.debt[n])}` : "") }),
        h("td", { class: "small", text: credit(n) }),
        h("td", { class: "num", text: money(scores.totals[n]) })))));
}
