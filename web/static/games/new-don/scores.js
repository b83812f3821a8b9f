/* The final score: a table per district (points and neighborhoods), House and total, the
 * winner with any tie-break, and a stacked bar chart. */
import { h, s } from "../../js/dom.js";
import { playerSwatch } from "./families.js";

const CHART = { width: 600, row: 34, left: 90 };

export function scoreTable(scores, view) {
  const names = view.players.map((p) => p.name);
  const cell = (text) => h("td", { class: "num", text });
  const districtCell = (d, n) => cell(d.neighborhoods[n] ? `${d.points[n]} (${d.neighborhoods[n]})` : (d.points[n] ? String(d.points[n]) : "–"));
  return h("div", {},
    h("p", { class: "turn", text: `Winner: ${scores.winners.join(" and ")}` + (scores.tie_break ? ` (${scores.tie_break})` : "") }),
    h("table", { class: "scores" },
      h("tr", {}, h("th", { text: "points (neighborhoods)" }), names.map((n) => h("th", { class: "num" }, playerSwatch(view, n), " ", n))),
      scores.districts.map((d) => h("tr", {}, h("td", { text: d.district }), names.map((n) => districtCell(d, n)))),
      h("tr", {}, h("td", { text: "House" }), names.map((n) => cell(`${scores.house.points[n]} (${scores.house.soldiers[n]})`))),
      h("tr", { class: "total" }, h("td", { text: "Total" }), names.map((n) => cell(String(scores.totals[n]))))));
}

/* One bar per player, a segment per district (in its colour) and the House. */
export function scoreChart(scores, view, board) {
  const names = view.players.map((p) => p.name);
  const max = Math.max(1, ...names.map((n) => scores.totals[n]));
  const colours = board ? Object.fromEntries(board.districts.map((d) => [d.name, d.colour])) : {};
  const { width, row, left } = CHART;
  const svg = s("svg", { viewBox: `0 0 ${width} ${names.length * row + 30}`, role: "img", "aria-label": "points per player, by district" });
  names.forEach((n, i) => {
    let x = left;
    const y = 8 + i * row;
    svg.append(s("text", { x: 4, y: y + 18, fill: "#f3ece2", "font-size": 14, text: n }));
    const parts = scores.districts.map((d) => [d.district, d.points[n] || 0, colours[d.district] || "#888"]);
    parts.push(["House", scores.house.points[n] || 0, "#bdbdbd"]);
    for (const [label, pts, colour] of parts) {
      if (!pts) continue;
      const w = (pts / max) * (width - left - 50);
      svg.append(s("rect", { x, y, width: w, height: row - 10, fill: colour, stroke: "#000" },
        s("title", { text: `${label}: ${pts}` })));
      x += w;
    }
    svg.append(s("text", { x: x + 6, y: y + 18, fill: "#f3ece2", "font-size": 14, "font-weight": 700, text: String(scores.totals[n]) }));
  });
  return h("div", { class: "chart" }, svg);
}
