/* The neighborhoods, drawn from the printed board (the game's table data: each position's row
 * and column, and which positions are straight neighbours) and a view's neighborhood: the
 * pieces in their players' colours, the positions a player encloses shaded in that colour,
 * the racket marker and what CONTROL would be worth, and whether it is open, controlled or
 * stalemated.
 *
 * The same drawing serves the table screen, the phones (positions to tap) and the pictures
 * of a ruling (marks: the fence of a capture, the pieces taken, a placement that would break
 * a CONTROL).
 */
import { h, s } from "../../js/dom.js";
import { colourOf } from "../../js/colours.js";

const CELL = 44;
const R = 16;
const MARGIN = 24;
const LIGHT = new Set(["#fdd835", "#f5f5f5"]);  // piece colours that need dark letters
const GOLD = "#c9a227";

function at(p) {
  return [MARGIN + p.column * CELL, MARGIN + p.row * CELL];
}

/* The letter on a player's pieces. */
export function initial(name) {
  return name ? name.slice(0, 1).toUpperCase() : "";
}

function piece(view, owner, x, y, { ghost = false } = {}) {
  const colour = colourOf(view.players, owner);
  return [
    s("circle", { cx: x, cy: y, r: R, fill: colour, stroke: "#000", "stroke-width": 1.5,
      "fill-opacity": ghost ? 0.45 : 1, "stroke-dasharray": ghost ? "4 3" : null }),
    s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
      fill: LIGHT.has(colour) ? "#111" : "#fff", "pointer-events": "none", text: initial(owner) }),
  ];
}

function crossed(x, y) {
  const d = R * 0.7;
  return [x - d, x + d].map((x1, i) => s("line", { x1, y1: y - d, x2: i ? x - d : x + d, y2: y + d,
    stroke: "#ff5252", "stroke-width": 3.5, "stroke-linecap": "round", "pointer-events": "none" }));
}

/* One position: `pieces` and `enclosed` map positions to players; `marks` (a Map of
 * position -> Set of "fence", "placed", "taken:<owner>", "enters:<player>") draws a ruling's
 * picture on it; `legal` and `selected` are for a phone's taps. */
function position(p, ctx) {
  const [x, y] = at(p);
  const { view, pieces, enclosed, marks, legal, selected } = ctx;
  const owner = pieces[p.name] || null;
  const mark = marks.get(p.name) || new Set();
  const g = s("g", { class: "g71-pos" + (legal.has(p.name) ? " legal" : "") + (selected === p.name ? " selected" : ""),
    "data-pos": p.name, "data-owner": owner || "", "data-enclosed": enclosed[p.name] || "" });
  if (enclosed[p.name]) {
    g.append(s("rect", { x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, rx: 6,
      fill: colourOf(view.players, enclosed[p.name]), "fill-opacity": 0.3, class: "enclosed" }));
  }
  const taken = [...mark].find((m) => m.startsWith("taken:"));
  const enters = [...mark].find((m) => m.startsWith("enters:"));
  if (owner) g.append(...piece(view, owner, x, y));
  else if (taken) g.append(...piece(view, taken.slice(6), x, y, { ghost: true }));
  else if (enters) g.append(...piece(view, enters.slice(7), x, y, { ghost: true }));
  else {
    g.append(s("circle", { cx: x, cy: y, r: R, fill: "#2a231d", stroke: "#6d5f50", "stroke-width": 1.5 }));
    g.append(s("text", { x, y: y + 3.5, "text-anchor": "middle", "font-size": 10, fill: "#8d7f70",
      "pointer-events": "none", text: p.name }));
  }
  if (taken) g.append(...crossed(x, y));
  if (mark.has("fence")) {
    g.append(s("circle", { cx: x, cy: y, r: R + 4, fill: "none", stroke: GOLD, "stroke-width": 3, class: "fence" }));
  }
  if (mark.has("placed")) {
    g.append(s("circle", { cx: x, cy: y, r: R + 7, fill: "none", stroke: "#fff", "stroke-width": 2,
      "stroke-dasharray": "5 3", class: "placed" }));
  }
  if (legal.has(p.name)) {
    g.append(s("circle", { cx: x, cy: y, r: R + 3, fill: "none", stroke: selected === p.name ? "#fff" : GOLD,
      "stroke-width": selected === p.name ? 4 : 2.5, class: "ring" }));
  }
  g.append(s("title", { text: p.name + (owner ? `: ${owner}'s piece` : enclosed[p.name] ? `: enclosed by ${enclosed[p.name]}` : ": empty") }));
  return g;
}

/* The SVG of one neighborhood. `layout` is its table data, `hood` the view's neighborhood;
 * options: `pieces` (the board as a ruling saw it, instead of the view's), `marks`, `legal`
 * (positions to tap), `selected`, `onTap(position)`. */
export function hoodSvg(layout, hood, view, opts = {}) {
  const ctx = {
    view,
    pieces: opts.pieces || hood.pieces,
    enclosed: opts.pieces ? {} : hood.enclosed,
    marks: opts.marks || new Map(),
    legal: opts.legal || new Set(),
    selected: opts.selected || null,
  };
  const rows = Math.max(...layout.positions.map((p) => p.row)) + 1;
  const cols = Math.max(...layout.positions.map((p) => p.column)) + 1;
  const svg = s("svg", { class: "g71-hood-svg", viewBox: `0 0 ${2 * MARGIN + (cols - 1) * CELL} ${2 * MARGIN + (rows - 1) * CELL}`,
    role: "img", "aria-label": `${layout.name}: the positions and pieces` });
  const where = Object.fromEntries(layout.positions.map((p) => [p.name, at(p)]));
  for (const [a, b] of layout.straight) {
    svg.append(s("line", { x1: where[a][0], y1: where[a][1], x2: where[b][0], y2: where[b][1],
      stroke: "#4a3f35", "stroke-width": 4, "stroke-linecap": "round" }));
  }
  for (const p of layout.positions) {
    const g = position(p, ctx);
    if (opts.onTap && ctx.legal.has(p.name)) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.addEventListener("click", () => opts.onTap(p.name));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onTap(p.name); });
    }
    svg.append(g);
  }
  return svg;
}

function money(n) {
  return "$" + Number(n).toLocaleString("en-US");
}

/* The racket marker: the racket fixed by the first piece, its piece's price and what CONTROL
 * of it is worth here; before the first piece, what each racket would be worth. */
export function racketMarker(layout, hood) {
  if (hood.racket) {
    const r = hood.racket;
    return h("span", { class: "g71-racket", dataset: { racket: r.id },
      text: `${r.title} · ${r.piece} ${money(r.cost)} · CONTROL ${money(r.value)}` });
  }
  const best = Math.max(...Object.values(layout.values));
  return h("span", { class: "g71-racket open", text: `no racket yet · CONTROL up to ${money(best)}` });
}

/* Open, controlled (by whom) or stalemated; and who holds how many of the majority needed. */
export function hoodStatus(hood, view) {
  if (hood.status === "controlled") {
    return h("span", { class: "chip g71-control", dataset: { controller: hood.controller } },
      h("span", { class: "swatch", style: `background:${colourOf(view.players, hood.controller)}` }), ` CONTROL: ${hood.controller}`);
  }
  if (hood.status === "stalemated") return h("span", { class: "chip", text: "stalemated: closed without CONTROL" });
  const held = Object.entries(hood.held).filter(([, n]) => n).sort((a, b) => b[1] - a[1]);
  return h("span", { class: "small muted" }, `majority ${hood.needs} of ${hood.size}`,
    held.length ? ": " : "", held.flatMap(([name, n], i) => [i ? ", " : "", h("span", { class: "g71-held", dataset: { player: name } },
      h("span", { class: "swatch", style: `background:${colourOf(view.players, name)}` }), ` ${name} ${n}`)]));
}

/* A neighborhood's card: name, racket marker, status, the drawing and anything `below` it. */
export function hoodCard(layout, hood, view, opts = {}, below = null) {
  return h("div", { class: "g71-hood" + (hood.status !== "open" ? " closed" : ""), id: `hood-${layout.id}`,
    dataset: { hood: layout.id, status: hood.status } },
  h("div", { class: "g71-hood-head" }, h("b", { text: layout.name }), " ", racketMarker(layout, hood)),
  h("div", {}, hoodStatus(hood, view)),
  hoodSvg(layout, hood, view, opts),
  below);
}

/* Every neighborhood in play, as the table sees it. */
export function hoodsGrid(board, view) {
  return board.neighborhoods.map((layout, i) => hoodCard(layout, view.neighborhoods[i], view));
}

export { money };
