/* The board map, drawn from the board data: districts in their colours and points, each
 * neighborhood with its set and occupant, borders and bridges. */
import { s } from "../../js/dom.js";
import { colourOf } from "../../js/colours.js";

const PAD = 48;
const HOOD = { w: 66, h: 54 };

function frame(svg, hoods) {
  const xs = hoods.map((n) => n.at[0]);
  const ys = hoods.map((n) => n.at[1]);
  const box = { minX: Math.min(...xs) - PAD, maxX: Math.max(...xs) + PAD,
    minY: Math.min(...ys) - PAD - 18, maxY: Math.max(...ys) + PAD };
  svg.setAttribute("viewBox", `${box.minX} ${box.minY} ${box.maxX - box.minX} ${box.maxY - box.minY + 22}`);
  return box;
}

/* Each district: a tinted box around its neighborhoods, with its name and points. */
function districts(board, hoods) {
  return board.districts.map((d) => {
    const mine = hoods.filter((n) => n.district === d.face);
    if (!mine.length) return null;
    const x0 = Math.min(...mine.map((n) => n.at[0])) - 40, x1 = Math.max(...mine.map((n) => n.at[0])) + 40;
    const y0 = Math.min(...mine.map((n) => n.at[1])) - 52, y1 = Math.max(...mine.map((n) => n.at[1])) + 38;
    return [
      s("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 14,
        fill: d.colour, "fill-opacity": 0.16, stroke: d.colour, "stroke-width": 2 }),
      s("text", { x: x0 + 10, y: y0 + 16, fill: d.colour, "font-size": 13, "font-weight": 700,
        text: `${d.name} · ${d.points.join("/")} pts` }),
    ];
  });
}

/* Borders between neighborhoods; bridges dashed in gold. */
function borders(board, hoods) {
  const at = Object.fromEntries(hoods.map((n) => [n.id, n.at]));
  const bridges = new Set(board.bridges.map((p) => p.join("|")));
  return board.adjacency.filter(([a, b]) => at[a] && at[b]).map(([a, b]) => {
    const bridge = bridges.has(`${a}|${b}`);
    return s("line", { x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1],
      stroke: bridge ? "#c9a227" : "#6d5f50", "stroke-width": 2, "stroke-dasharray": bridge ? "6 4" : null });
  });
}

/* One neighborhood: its name, its set, and the family holding it. */
function neighborhood(n, edge, view) {
  const holder = view ? view.neighborhoods[n.id] : null;
  const [x, y] = n.at;
  const g = s("g", { class: "hood", "data-id": n.id, "data-holder": holder || "" });
  g.append(s("rect", { x: x - HOOD.w / 2, y: y - HOOD.h / 2, width: HOOD.w, height: HOOD.h, rx: 9, fill: "#f3ece2",
    stroke: edge, "stroke-width": 4 }));
  g.append(s("text", { x, y: y - 10, "text-anchor": "middle", "font-size": 13, "font-weight": 700,
    fill: "#1b1408", text: n.name }));
  g.append(s("text", { x, y: y + 3, "text-anchor": "middle", "font-size": 8.5, fill: "#4e4236",
    text: n.set.replace("any straight with a ", "straight w/ ") }));
  if (holder) {
    g.append(s("circle", { cx: x, cy: y + 15, r: 9, fill: colourOf(view.players, holder), stroke: "#000",
      "stroke-width": 1.5 }));
    g.append(s("text", { x, y: y + 19, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
      fill: "#000", stroke: "#fff", "stroke-width": 0.6, text: holder.slice(0, 1) }));
  }
  g.append(s("title", { text: `${n.name}: ${n.set}${holder ? `, held by ${holder}` : ", empty"}` }));
  return g;
}

/* Draw `board` into `svg`, with the occupants of `view` (the table's or a player's). */
export function drawBoard(svg, board, view) {
  const hoods = board.neighborhoods.filter((n) => n.at);
  const box = frame(svg, hoods);
  const colours = Object.fromEntries(board.districts.map((d) => [d.face, d.colour]));
  svg.replaceChildren(...districts(board, hoods).flat().filter(Boolean), ...borders(board, hoods),
    ...hoods.map((n) => neighborhood(n, colours[n.district], view)));
  if (board.placeholder) {
    svg.append(s("text", { x: box.maxX - 8, y: box.maxY + 16, "text-anchor": "end", "font-size": 13,
      fill: "#c9a227", "font-weight": 700,
      text: "PLACEHOLDER LAYOUT: not the printed board (companion board check)" }));
  }
}
