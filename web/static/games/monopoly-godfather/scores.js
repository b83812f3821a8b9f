/* The final score: each player's fortune counted the Speed Play way (cash, deeds at their
 * price, mortgaged ones at half, buildings), in the order of their places; the bankrupt last. */
import { h } from "../../js/dom.js";
import { colourOf, swatch } from "../../js/colours.js";
import { money } from "./panels.js";

export function scoreTable(scores, view) {
  const names = Object.keys(scores.fortunes).sort((a, b) => scores.places[a] - scores.places[b]);
  const cell = (text) => h("td", { class: "num", text });
  const bankrupt = new Set(scores.bankrupt);
  return h("div", { class: "mono-scores" },
    h("p", { class: "turn", text: `Winner: ${scores.winners.join(" and ") || "nobody"}` }),
    h("table", { class: "scores" },
      h("tr", {}, ["", "player", "cash", "deeds", "mortgaged", "buildings", "fortune"].map((t, i) =>
        h("th", { class: i > 1 ? "num" : null, text: t }))),
      names.map((n) => {
        const f = scores.fortunes[n];
        return h("tr", { dataset: { player: n } }, cell(String(scores.places[n])),
          h("td", {}, swatch(colourOf(view.players, n)), " ", n, bankrupt.has(n) ? h("span", { class: "chip down", text: "bankrupt" }) : null),
          cell(money(f.cash)), cell(money(f.properties)), cell(money(f.mortgaged)), cell(money(f.buildings)),
          h("td", { class: "num total", text: money(f.total) }));
      })),
    h("p", { class: "small muted", text: how(scores) +
      " A fortune is cash, the deeds at their price (mortgaged ones at half) and the buildings at theirs." }));
}

function how(scores) {
  if (scores.speed_play) return "Speed Play: the game ends at the first bankruptcy, and the richest player still in wins.";
  if (scores.over) return "The last player standing wins; the others are placed by their fortune, the bankrupt last.";
  return "Ended before one player was left: placed by fortune, the bankrupt last.";
}
