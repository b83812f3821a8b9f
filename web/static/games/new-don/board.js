/* The board map, drawn from the board data: districts in their colours and points, each
 * neighborhood with its set and occupant, borders and bridges.
 *
 * Two layouts: the board's own (`at` in the board data), and `stacked` for a phone, where each
 * district keeps its shape and the districts go one under another so the map fits a narrow
 * screen at a size it can be read. A held neighborhood is tinted in its holder's colour and
 * carries their marker (colour and initials), large enough to read across the table. */
import { s } from "../../js/dom.js";
import { colourOf, initialsOf, inkOn } from "../../js/colours.js";

const PAD = 48;
const GAP = 30;  // between districts, stacked

/* The size of a neighborhood's box: as large as the spacing of the board lets it be. */
function hoodSize(hoods) {
  let dx = Infinity, dy = Infinity;
  for (const a of hoods) {
    for (const b of hoods) {
      if (a === b) continue;
      if (a.at[1] === b.at[1]) dx = Math.min(dx, Math.abs(a.at[0] - b.at[0]));
      if (a.at[0] === b.at[0]) dy = Math.min(dy, Math.abs(a.at[1] - b.at[1]));
    }
  }
  const w = Math.min(isFinite(dx) ? dx * 0.92 : 70, 80);
  return { w, h: Math.min(isFinite(dy) ? dy * 0.78 : 62, w * 0.95) };
}

/* Where each neighborhood is drawn: the board's own places, or districts stacked. */
function places(board, hoods, stacked) {
  const at = Object.fromEntries(hoods.map((n) => [n.id, n.at]));
  if (!stacked) return at;
  const out = {};
  let y = 0;
  for (const d of board.districts) {
    const mine = hoods.filter((n) => n.district === d.face);
    if (!mine.length) continue;
    const x0 = Math.min(...mine.map((n) => n.at[0])), y0 = Math.min(...mine.map((n) => n.at[1]));
    for (const n of mine) out[n.id] = [n.at[0] - x0, n.at[1] - y0 + y];
    y += Math.max(...mine.map((n) => n.at[1])) - y0 + 2 * PAD + GAP;
  }
  return out;
}

function frame(svg, points) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const box = { minX: Math.min(...xs) - PAD, maxX: Math.max(...xs) + PAD,
    minY: Math.min(...ys) - PAD - 22, maxY: Math.max(...ys) + PAD };
  svg.setAttribute("viewBox", `${box.minX} ${box.minY} ${box.maxX - box.minX} ${box.maxY - box.minY + 24}`);
  return box;
}

/* Each district: a tinted box around its neighborhoods, with its name and points. */
function districts(board, hoods, at, size) {
  return board.districts.map((d) => {
    const mine = hoods.filter((n) => n.district === d.face).map((n) => at[n.id]);
    if (!mine.length) return null;
    const x0 = Math.min(...mine.map((p) => p[0])) - size.w / 2 - 8, x1 = Math.max(...mine.map((p) => p[0])) + size.w / 2 + 8;
    const y0 = Math.min(...mine.map((p) => p[1])) - size.h / 2 - 26, y1 = Math.max(...mine.map((p) => p[1])) + size.h / 2 + 8;
    return [
      s("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 14,
        fill: d.colour, "fill-opacity": 0.16, stroke: d.colour, "stroke-width": 2.5 }),
      s("text", { class: "district-name", x: x0 + 10, y: y0 + 19, fill: d.colour, "font-size": 17, "font-weight": 700,
        text: `${d.name} · ${d.points.join("/")} pts` }),
    ];
  });
}

/* Borders between neighborhoods; bridges dashed in gold. */
function borders(board, at, district, stacked) {
  const bridges = new Set(board.bridges.map((p) => p.join("|")));
  return board.adjacency.filter(([a, b]) => at[a] && at[b]).map(([a, b]) => {
    const bridge = bridges.has(`${a}|${b}`);
    // Stacked, a border between districts crosses the others: drawn faintly.
    const faint = stacked && district[a] !== district[b];
    return s("line", { x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1], "stroke-opacity": faint ? 0.3 : null,
      stroke: bridge ? "#c9a227" : "#6d5f50", "stroke-width": 2, "stroke-dasharray": bridge ? "6 4" : null });
  });
}

/* A set in few words: the district's face is in its name ("pair", "straight w/ 3"). */
function shortSet(set) {
  return set.replace("any straight with a ", "straight w/ ").replace(/ of \ds$/, "");
}

/* One neighborhood: its name, its set, and the family holding it. */
function neighborhood(n, [x, y], size, edge, view, initials) {
  const holder = view ? view.neighborhoods[n.id] : null;
  const { w, h } = size;
  const g = s("g", { class: "hood", "data-id": n.id, "data-holder": holder || "" });
  const colour = holder ? colourOf(view.players, holder) : null;
  g.append(s("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 9, fill: "#f3ece2",
    stroke: edge, "stroke-width": 4 }));
  g.append(s("text", { x, y: y - h / 2 + w * 0.24, "text-anchor": "middle", "font-size": w * 0.22,
    "font-weight": 700, fill: "#1b1408", text: n.name }));
  g.append(s("text", { class: "set", x, y: y - h / 2 + w * 0.4, "text-anchor": "middle", "font-size": w * 0.15,
    fill: "#4e4236", text: shortSet(n.set) }));
  if (holder) {
    // The holder's marker fills the lower half of the box: colour first, then initials.
    const mh = h * 0.46, mw = w - 8;
    g.append(s("rect", { class: "marker", x: x - mw / 2, y: y + h / 2 - mh - 4, width: mw, height: mh, rx: mh / 2,
      fill: colour, stroke: "#000", "stroke-width": 1.5 }));
    g.append(s("text", { class: "marker-text", x, y: y + h / 2 - 4 - mh * 0.25, "text-anchor": "middle",
      "font-size": mh * 0.72, "font-weight": 700, fill: inkOn(colour), text: initials[holder] || holder.slice(0, 1) }));
  }
  g.append(s("title", { text: `${n.name}: ${n.set}${holder ? `, held by ${holder}` : ", empty"}` }));
  return g;
}

/* Draw `board` into `svg`, with the occupants of `view` (the table's or a player's);
 * `stacked` puts the districts one under another (a phone). */
export function drawBoard(svg, board, view, { stacked = false } = {}) {
  const hoods = board.neighborhoods.filter((n) => n.at);
  const size = hoodSize(hoods);
  const at = places(board, hoods, stacked);
  const box = frame(svg, Object.values(at));
  const colours = Object.fromEntries(board.districts.map((d) => [d.face, d.colour]));
  const initials = view ? initialsOf(view.players.map((p) => p.name)) : {};
  svg.classList.toggle("stacked", stacked);
  const district = Object.fromEntries(hoods.map((n) => [n.id, n.district]));
  svg.replaceChildren(...districts(board, hoods, at, size).flat().filter(Boolean), ...borders(board, at, district, stacked),
    ...hoods.map((n) => neighborhood(n, at[n.id], size, colours[n.district], view, initials)));
  if (board.placeholder) {
    svg.append(s("text", { x: stacked ? box.minX + 8 : box.maxX - 8, y: box.maxY + 18, "text-anchor": stacked ? "start" : "end",
      "font-size": 14, fill: "#c9a227", "font-weight": 700,
      text: stacked ? "PLACEHOLDER LAYOUT: not the printed board" : "PLACEHOLDER LAYOUT: not the printed board (companion board check)" }));
  }
}
