/* The score: a table per district (points and neighborhoods), House and total, the winner with
 * any tie-break, and a bar chart (one bar per family, a segment per district and the House).
 * The engine scores (its tie rule applied); the running score is the view's `standing`. */
import { h } from "../../js/dom.js";
import { marker } from "../../js/colours.js";

const HOUSE = "#bdbdbd";

export function winnerLine(scores, { running = false } = {}) {
  const names = scores.winners.join(" and ");
  const text = running ? (names ? `Leading: ${names}` : "No points yet") : `Winner: ${names}`;
  return h("p", { class: "turn winner", text: text + (scores.tie_break ? ` (${scores.tie_break})` : "") });
}

export function scoreTable(scores, view) {
  const names = view.players.map((p) => p.name);
  const cell = (text) => h("td", { class: "num", text });
  const districtCell = (d, n) => cell(d.neighborhoods[n] ? `${d.points[n]} (${d.neighborhoods[n]})` : (d.points[n] ? String(d.points[n]) : "–"));
  return h("div", { class: "table-scroll" },
    h("table", { class: "scores" },
      h("tr", {}, h("th", { text: "points (neighborhoods)" }), names.map((n) => h("th", { class: "num" }, marker(view.players, n, { classes: "small" }), " ", h("span", { class: "who", text: n })))),
      scores.districts.map((d) => h("tr", {}, h("td", { text: d.district }), names.map((n) => districtCell(d, n)))),
      h("tr", {}, h("td", { text: "House" }), names.map((n) => cell(`${scores.house.points[n]} (${scores.house.soldiers[n]})`))),
      h("tr", { class: "total" }, h("td", { text: "Total" }), names.map((n) => cell(String(scores.totals[n]))))));
}

/* One bar per family in seat order, a segment per district (in its colour) and the House; the
 * leader (or winner) starred. */
export function scoreChart(scores, view, board) {
  const names = view.players.map((p) => p.name);
  const max = Math.max(1, ...names.map((n) => scores.totals[n]));
  const colours = board ? Object.fromEntries(board.districts.map((d) => [d.name, d.colour])) : {};
  return h("div", { class: "score-bars", role: "img", "aria-label": "points per family, by district" }, names.map((n) => {
    const parts = scores.districts.map((d) => [d.district, d.points[n] || 0, colours[d.district] || "#888"]);
    parts.push(["House", scores.house.points[n] || 0, HOUSE]);
    const lead = scores.winners.includes(n) && scores.totals[n] > 0;
    return h("div", { class: "score-row" + (lead ? " lead" : ""), dataset: { player: n, total: String(scores.totals[n]) } },
      marker(view.players, n),
      h("span", { class: "who", text: n, title: n }),
      h("span", { class: "score-bar" }, parts.filter(([, pts]) => pts).map(([label, pts, colour]) =>
        h("span", { class: "seg", title: `${label}: ${pts}`, style: `width:${(pts / max) * 100}%;background:${colour}` }))),
      h("span", { class: "total", text: (lead ? "★ " : "") + String(scores.totals[n]) }));
  }));
}
