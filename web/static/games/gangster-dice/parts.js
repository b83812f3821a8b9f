/* What the table screen and the phones both show of Gangster Dice: the four tokens, the
 * players, the latest reveal with its scores worked out, the favor cards, the final score.
 * All of it from the picture's view for that screen (the engine's player_view): a hand or a
 * bid not yet revealed is never in it. */
import { h } from "../../js/dom.js";
import { colourOf, swatch } from "../../js/colours.js";
import { describe, diceOf, gdDie, symbolIcon } from "./symbols.js";

const TOKEN_TEXT = {
  lawyer: "Won again: a special +4 instead of a draw. Its controller need not take dice off the Investigator.",
  speakeasy: "Won again: swap up to three dice from your stash with the dice on it.",
  streets: "Its dice count for its controller's bids, and it breaks their ties. Won again: put a die from your stash on it.",
  investigator: "Its holder takes a die off it at every round's end. Won by its holder, it moves left; won by another, they put all their dice of a colour on it.",
};

const EFFECT = {
  swap: "is swapping dice with the Speakeasy", streets: "is choosing a die to put on the Streets",
  load: "is choosing a colour to put on the Investigator", take: "is taking a die off the Investigator",
};

/* A player's name with their bid-card colour. */
export function who(view, name, viewer = null) {
  if (!name) return h("span", { class: "muted", text: "nobody" });
  return h("span", { class: "gd-who", dataset: { player: name } },
    swatch(colourOf(view.players, name)), name === viewer ? `${name} (you)` : name);
}

/* "Johnny is swapping dice with the Speakeasy", or null. */
export function effectLine(view, viewer = null) {
  const e = view.effect;
  if (!e) return null;
  return h("p", { class: "gd-effect" + (e.player === viewer ? " me" : ""), id: "gd-effect" },
    who(view, e.player, viewer), ` ${EFFECT[e.does] || e.does}.`);
}

function tokenTile(view, t, viewer) {
  const holder = t.token === "investigator" ? "held by " : "controlled by ";
  const dice = t.dice ? diceOf(t.dice) : [];
  const n = t.dice ? t.dice.white + t.dice.red + t.dice.blue : 0;
  let onIt = null;
  if (t.dice) {
    const plus = t.token === "streets" && n && t.controller ? `: +${n} to ${t.controller}'s bids` : "";
    onIt = h("div", { class: "gd-on", dataset: { dice: String(n) } },
      h("div", { class: "dice" }, dice.length ? dice : h("span", { class: "muted small", text: "no dice on it" })),
      n ? h("span", { class: "small", text: `${describe(t.dice)}${plus}` }) : null);
  }
  return h("div", { class: "gd-token", dataset: { token: t.token, controller: t.controller || "" } },
    h("div", { class: "gd-token-head" }, symbolIcon(t.symbol), h("b", { text: `The ${t.name}` })),
    h("div", { class: "gd-controller" }, h("span", { class: "muted small", text: holder }), who(view, t.controller, viewer)),
    onIt,
    h("p", { class: "small muted gd-token-text", text: TOKEN_TEXT[t.token] || "" }));
}

/* The four influence tokens: who controls each, the dice on it, what it does. */
export function tokensBox(view, viewer = null) {
  return h("div", { class: "gd-tokens" }, view.tokens.map((t) => tokenTile(view, t, viewer)));
}

/* Where a player stands in this round: rolling, choosing, cards down. */
function standing(view, p) {
  if (p.won) return "no dice left: wins";
  if (view.phase !== "bids") return null;
  if (!p.rolled) return "rolling";
  return p.chosen ? "cards down" : "choosing";
}

function rolledRow(p) {
  if (!p.rolled) return null;
  return h("div", { class: "dice gd-rolled", dataset: { player: p.name } },
    p.rolled.map((d) => gdDie(d.colour, d.symbol, { small: true })));
}

function symbolCounts(p) {
  if (!p.symbols) return null;
  return h("div", { class: "gd-counts small" }, Object.entries(p.symbols).filter(([, n]) => n).map(([sym, n]) =>
    h("span", { class: "gd-count", dataset: { symbol: sym } }, symbolIcon(sym), `×${n}`)));
}

function characterLine(p) {
  const c = p.character;
  if (!c) return null;
  return h("details", { class: "gd-character small" },
    h("summary", { text: `${c.name} (${c.favors} favor cards)` }),
    h("p", { text: c.ability }),
    h("p", { class: "muted", text: "Shown, not enforced: the table applies the card, and the host corrects the record where it changed what the companion did." }));
}

function playerCard(view, p, viewer) {
  const state = standing(view, p);
  const received = p.received && (p.received.white + p.received.red + p.received.blue);
  return h("div", { class: "player gd-player" + (p.won ? " won" : ""), dataset: { player: p.name, dice: String(p.dice) } },
    h("div", { class: "name" }, swatch(colourOf(view.players, p.name)), p.name === viewer ? `${p.name} (you)` : p.name,
      p.controls.length ? h("span", { class: "gd-controls" }, p.controls.map((tok) =>
        symbolIcon(view.tokens.find((t) => t.token === tok).symbol, { classes: "small" }))) : null),
    h("div", { class: "gd-stash" }, h("b", { class: "gd-stash-count", text: String(p.dice) }),
      h("span", { class: "small", text: p.dice === 1 ? " die" : " dice" }),
      p.rolled ? null : h("span", { class: "dice gd-stash-dice" }, diceOf(p.stash))),
    rolledRow(p),
    symbolCounts(p),
    h("div", { class: "small muted gd-facts" },
      state ? h("span", { class: "gd-state", dataset: { state }, text: state }) : null,
      h("span", { text: `${p.hand} favor card${p.hand === 1 ? "" : "s"}` }),
      p.fours ? h("span", { text: `${p.fours} special +4${p.fours === 1 ? "" : "s"} taken` }) : null,
      received ? h("span", { text: `received ${describe(p.received)} this round` }) : null),
    characterLine(p));
}

/* Every player: their stash, this round's roll, their cards (how many), what they control. */
export function playersBox(view, viewer = null) {
  return h("div", { class: "players gd-players" }, view.players.map((p) => playerCard(view, p, viewer)));
}

function outcomeLine(view, o) {
  const token = view.tokens.find((t) => t.token === o.token);
  const name = `The ${token.name}`;
  let what;
  if (o.winner) {
    what = [who(view, o.winner), ` wins with ${o.score}`, o.by_streets ? ` (a tie at ${o.score}, broken by the Streets)` : ""];
  } else if (o.score === null) what = ["nobody bid"];
  else what = [`a tie at ${o.score} (${o.tied.join(", ")}): nobody influences it`];
  return h("li", { dataset: { token: o.token, winner: o.winner || "" } }, symbolIcon(token.symbol, { classes: "small" }), h("b", { text: `${name}: ` }), ...what);
}

/* The latest round's bids, revealed at the same instant, with each score worked out
 * (symbols + favor + the Streets' dice), and who influences each token. */
export function revealBox(view) {
  const r = view.reveal;
  if (!r) return h("p", { class: "muted", text: "No cards revealed yet: the bids are turned over once everyone has chosen." });
  const tokenOf = (id) => view.tokens.find((t) => t.token === id);
  return h("div", { class: "gd-reveal", dataset: { round: String(r.round) } },
    h("h3", { text: `Round ${r.round}'s cards` }),
    h("table", { class: "scores gd-bids" },
      h("tr", {}, h("th", { text: "player" }), h("th", { text: "bid" }),
        h("th", { class: "num", text: "score" })),
      r.bids.map((b) => h("tr", { dataset: { player: b.player, token: b.token, score: String(b.score) } },
        h("td", {}, who(view, b.player)),
        h("td", {}, symbolIcon(tokenOf(b.token).symbol, { classes: "small" }), ` ${tokenOf(b.token).name}`),
        h("td", { class: "num" }, `${b.symbols} + ${b.favor}` + (b.streets ? ` + ${b.streets}` : "") + " = ",
          h("b", { class: "gd-score", text: String(b.score) }))))),
    h("p", { class: "small muted", text: "A score: the symbols the dice show + the favor card (+ the dice on the Streets, for its controller)." }),
    h("ul", { class: "gd-outcomes" }, r.tokens.map((o) => outcomeLine(view, o))));
}

/* The favor cards everyone sees: the deck's size, the discard pile, the +4 stack. */
export function favorBox(view) {
  const f = view.favor;
  const deck = f.deck === null ? "real cards: the deck is on the table" : `${f.deck} card${f.deck === 1 ? "" : "s"} in the deck`;
  return h("div", { class: "gd-favor small" },
    h("p", { text: deck + (f.shuffling ? ` (${f.shuffling} being shuffled in)` : "") }),
    h("p", {}, "Discard pile: ", f.discard.length ? h("span", { class: "gd-cards" }, f.discard.map((v) => favorCard(v, { small: true }))) : "empty"),
    h("p", { text: `Special +4s in the stack: ${f.special}` }));
}

/* A favor card showing its value. */
export function favorCard(value, { small = false, classes = [] } = {}) {
  return h("span", { class: ["gd-card", small && "small", value === 4 && "four", ...classes].filter(Boolean).join(" "),
    dataset: { favor: String(value) }, text: value === 4 ? "+4" : String(value) });
}

/* The end: who has no dice left, and each player's dice left (fewer is better). */
export function scoreTable(scores, view) {
  const names = Object.keys(scores.totals || {});
  const winners = scores.winners || [];
  return h("div", { class: "gd-final" },
    h("p", { class: "turn", text: `Winner: ${winners.join(" and ") || "nobody"}` +
      (scores.over ? ` (round ${scores.round})` : " (the game was ended early: the fewest dice lead)") }),
    h("table", { class: "scores" },
      h("tr", {}, h("th", { text: "player" }), h("th", { text: "stash" }), h("th", { class: "num", text: "dice left" })),
      names.map((n) => h("tr", { dataset: { player: n }, class: winners.includes(n) ? "won" : null },
        h("td", {}, who(view, n)),
        h("td", {}, h("span", { class: "dice" }, diceOf(scores.stashes[n]))),
        h("td", { class: "num", text: String(scores.totals[n]) })))));
}
