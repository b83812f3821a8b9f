/* The Monopoly board, drawn from the printed game's data (GET .../board: the 40 spaces, the
 * colour groups) and a view: each property with its colour band, its owner, Hideouts or a
 * Compound, mortgaged or not; every token on its space (in Jail or just visiting). */
import { s } from "../../js/dom.js";
import { colourOf } from "../../js/colours.js";

const SIDE = 90;     // a space along a side: its width
const CORNER = 130;  // a corner, and the depth of every space
const SIZE = 2 * CORNER + 9 * SIDE;
const BAND = 22;     // a location's colour band, on the side facing the middle
const EDGE = 7;      // the owner's stripe, on the outer side
const LINE_CHARS = { row: 11, column: 17 };

/* Where space `i` is: its box, which side of the board, and where the middle is. Space 0
 * (GO) is the bottom right corner; the spaces go along the bottom to Jail, up the left, along
 * the top and down the right, as printed. */
export function spaceBox(i) {
  const far = SIZE - CORNER;
  const side = Math.floor(i / 10);
  const k = i % 10;
  if (k === 0) return { x: [far, 0, 0, far][side], y: [far, far, 0, 0][side], w: CORNER, h: CORNER, side: "corner" };
  if (side === 0) return { x: far - k * SIDE, y: far, w: SIDE, h: CORNER, side: "bottom" };
  if (side === 1) return { x: 0, y: far - k * SIDE, w: CORNER, h: SIDE, side: "left" };
  if (side === 2) return { x: CORNER + (k - 1) * SIDE, y: 0, w: SIDE, h: CORNER, side: "top" };
  return { x: far, y: CORNER + (k - 1) * SIDE, w: CORNER, h: SIDE, side: "right" };
}

/* The strip of a box along one of its sides, `depth` deep. */
function strip(box, where, depth) {
  switch (where) {
    case "top": return { x: box.x, y: box.y, w: box.w, h: depth };
    case "bottom": return { x: box.x, y: box.y + box.h - depth, w: box.w, h: depth };
    case "left": return { x: box.x, y: box.y, w: depth, h: box.h };
    default: return { x: box.x + box.w - depth, y: box.y, w: depth, h: box.h };
  }
}

const INNER = { bottom: "top", top: "bottom", left: "right", right: "left" };
const OUTER = { bottom: "bottom", top: "top", left: "left", right: "right" };

/* Words broken into lines of about `width` characters. */
function lines(text, width) {
  const out = [];
  for (const word of text.split(/\s+/)) {
    const last = out.length ? out[out.length - 1] : null;
    if (last !== null && (last + " " + word).length <= width) out[out.length - 1] = last + " " + word;
    else out.push(word);
  }
  return out.slice(0, 3);
}

function rect(r, attrs) {
  return s("rect", { x: r.x, y: r.y, width: r.w, height: r.h, ...attrs });
}

/* What is printed under a space's name. */
function printed(sp) {
  if (sp.price) return `$${sp.price}`;
  if (sp.tax) return `pay $${sp.tax}`;
  return "";
}

/* The buildings on a location: a small house per Hideout, one wide block for a Compound. */
function buildings(band, holding) {
  if (!holding || !(holding.hideouts || holding.compound)) return [];
  const across = band.w >= band.h;
  const cx = band.x + band.w / 2, cy = band.y + band.h / 2;
  if (holding.compound) {
    const w = across ? 34 : 14, h = across ? 14 : 34;
    return [rect({ x: cx - w / 2, y: cy - h / 2, w, h }, { class: "compound", fill: "#c62828", stroke: "#000", "stroke-width": 1.5 })];
  }
  const n = holding.hideouts;
  return Array.from({ length: n }, (_, j) => {
    const off = (j - (n - 1) / 2) * 17;
    return rect({ x: (across ? cx + off : cx) - 6, y: (across ? cy : cy + off) - 6, w: 12, h: 12 },
      { class: "hideout", fill: "#2e7d32", stroke: "#000", "stroke-width": 1.2 });
  });
}

/* The tokens on a space, in rows of three, in the lower middle of its box. */
function tokens(box, names, view, index, { jailed = false } = {}) {
  return names.map((name, j) => {
    const col = j % 3, row = Math.floor(j / 3);
    const cx = box.x + box.w / 2 + (col - 1) * 25;
    const cy = box.y + box.h * (jailed ? 0.42 : 0.72) + (row ? (jailed ? 22 : -24) : 0);
    return s("g", { class: "token", "data-player": name, "data-space": String(index), "data-jailed": jailed ? "1" : "0" },
      s("circle", { cx, cy, r: 11, fill: colourOf(view.players, name), stroke: "#000", "stroke-width": 2 }),
      s("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#000",
        stroke: "#fff", "stroke-width": 0.5, text: name.slice(0, 1) }),
      s("title", { text: name + (jailed ? " (in Jail)" : "") }));
  });
}

/* One space: its box, band, name and price, owner, buildings, mortgage. */
function drawSpace(colours, sp, view) {
  const box = spaceBox(sp.index);
  const holding = view ? view.spaces[String(sp.index)] : null;
  const owner = holding ? holding.owner : null;
  const g = s("g", { class: "space", "data-index": String(sp.index), "data-kind": sp.kind,
    "data-owner": owner || "", "data-mortgaged": holding && holding.mortgaged ? "1" : "0",
    "data-hideouts": holding ? String(holding.hideouts) : "0", "data-compound": holding && holding.compound ? "1" : "0" });
  g.append(rect(box, { fill: "#efe7d6", stroke: "#3b332b", "stroke-width": 2 }));
  const corner = box.side === "corner";
  let textTop = box.y + 16;
  if (!corner && sp.group) {
    const band = strip(box, INNER[box.side], BAND);
    g.append(rect(band, { fill: colours[sp.group] || "#888", stroke: "#3b332b", "stroke-width": 1 }));
    g.append(...buildings(band, holding));
    if (INNER[box.side] === "top") textTop += BAND;
  }
  if (!corner && box.side === "top") textTop = box.y + 18;
  if (sp.kind === "jail") textTop = box.y + box.h - 52;  // under the cell of Jail
  const width = corner ? 13 : (box.side === "left" || box.side === "right" ? LINE_CHARS.column : LINE_CHARS.row);
  const words = lines(sp.name, width);
  words.forEach((line, j) => g.append(s("text", { x: box.x + box.w / 2, y: textTop + j * 14 + (corner ? 20 : 0),
    "text-anchor": "middle", "font-size": corner ? 14 : 11.5, "font-weight": 700, fill: "#1b1408", text: line })));
  const price = printed(sp);
  if (price) {
    g.append(s("text", { x: box.x + box.w / 2, y: textTop + words.length * 14 + 2, "text-anchor": "middle",
      "font-size": 11, fill: "#4e4236", text: price }));
  }
  if (owner) {
    g.append(rect(strip(box, OUTER[box.side], EDGE), { class: "owner", fill: colourOf(view.players, owner), stroke: "#000", "stroke-width": 1 }));
  }
  if (holding && holding.mortgaged) {
    g.append(rect(box, { class: "mortgaged", fill: "#000", "fill-opacity": 0.5 }));
    g.append(s("text", { x: box.x + box.w / 2, y: box.y + box.h / 2 + 4, "text-anchor": "middle", "font-size": 11,
      "font-weight": 700, fill: "#ffcc80", text: "MORTGAGED" }));
  }
  const held = owner ? `, ${owner}'s${holding.mortgaged ? " (mortgaged)" : ""}` +
    (holding.compound ? ", a Compound" : holding.hideouts ? `, ${holding.hideouts} Hideout${holding.hideouts > 1 ? "s" : ""}` : "") +
    `, rent $${holding.rent}` : (sp.price ? ", the Bank's" : "");
  g.append(s("title", { text: `${sp.index}. ${sp.name}${price ? " " + price : ""}${held}` }));
  return g;
}

/* The Jail corner's cell, and the tokens in it (the rest are just visiting). */
function jail(view, jailIndex) {
  const box = spaceBox(jailIndex);
  const cell = { x: box.x + box.w - 66, y: box.y, w: 66, h: 66 };
  const inside = view.players.filter((p) => p.in_jail && !p.bankrupt).map((p) => p.name);
  return [rect(cell, { fill: "#f0b27a", stroke: "#3b332b", "stroke-width": 2 }),
    ...[14, 28, 42, 56].map((dx) => s("line", { x1: cell.x + dx, y1: cell.y, x2: cell.x + dx, y2: cell.y + cell.h, stroke: "#3b332b", "stroke-width": 2 })),
    ...tokens({ x: cell.x - 8, y: cell.y, w: cell.w + 16, h: cell.h }, inside, view, jailIndex, { jailed: true })];
}

/* Draw `board` (the printed game) into `svg` with the position of `view` (null: empty). */
export function drawBoard(svg, board, view) {
  svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
  const colours = Object.fromEntries(board.groups.map((g) => [g.id, g.colour]));
  const parts = board.spaces.map((sp) => drawSpace(colours, sp, view));
  parts.push(s("text", { x: SIZE / 2, y: CORNER + 40, "text-anchor": "middle", "font-size": 30, "font-weight": 700,
    fill: "#c9a227", "letter-spacing": 3, text: "MONOPOLY · THE GODFATHER" }));
  if (board.placeholder) {
    parts.push(s("text", { x: SIZE / 2, y: SIZE - CORNER - 16, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
      fill: "#c9a227", text: "PLACEHOLDER NAMES: not the printed board (companion board check --game monopoly-godfather)" }));
  }
  if (view) {
    const jailIndex = board.spaces.findIndex((sp) => sp.kind === "jail");
    const at = {};
    for (const p of view.players) {
      if (p.bankrupt || (p.in_jail && p.position === jailIndex)) continue;
      (at[p.position] ||= []).push(p.name);
    }
    for (const [i, names] of Object.entries(at)) {
      const box = spaceBox(Number(i));
      // Just visiting: beside the cell of Jail, which takes the corner's inner quarter.
      parts.push(...tokens(Number(i) === jailIndex ? { x: box.x, y: box.y - 34, w: 64, h: 110 } : box, names, view, Number(i)));
    }
    if (jailIndex >= 0) parts.push(...jail(view, jailIndex));
  }
  svg.replaceChildren(...parts);
}
