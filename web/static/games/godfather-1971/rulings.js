/* The last ruling with its picture of why, drawn from the view's rulings alone: a capture
 * with the fence that took it and the pieces taken; CONTROL, or a majority that is not CONTROL
 * yet with the placement an opponent could make to break it (what it would take, what it
 * would leave); a stalemate; a declaration and its fate. */
import { h } from "../../js/dom.js";
import { hoodSvg, money } from "./hoods.js";

function list(names) {
  return names.join(", ");
}

function marker(marks, pos, kind) {
  if (!marks.has(pos)) marks.set(pos, new Set());
  marks.get(pos).add(kind);
}

/* A capture: the mover's placement (ringed), the fence (gold) and the pieces taken (crossed,
 * in their owner's colour), on the neighborhood as the capture left it. */
function capture(r, layout, hood, view) {
  const marks = new Map();
  for (const p of r.placed) marker(marks, p, "placed");
  for (const t of r.taken) {
    for (const p of t.fence) marker(marks, p, "fence");
    for (const p of t.positions) marker(marks, p, `taken:${t.owner}`);
  }
  const text = r.taken.map((t) => `${t.owner}'s ${list(t.positions)}, fenced by ${list(t.fence)}`).join("; ");
  return {
    text: `${r.player} positions ${list(r.placed)} in ${layout.name} and takes ${text}.`,
    svg: hoodSvg(layout, hood, view, { pieces: r.board, marks }),
  };
}

/* A CONTROL check: the board as it stood; if it is not CONTROL yet, the opponent's placement
 * that would break it (ghost pieces, ringed), the fence it would close and what it takes. */
function check(r, layout, hood, view) {
  const c = r.check;
  const head = `${c.player} holds ${c.holds} of ${c.of} positions in ${layout.name} (a majority is ${c.needs})`;
  const marks = new Map();
  if (r.kind === "control") {
    return { text: `${head}, and no opponent can reduce that in one turn: CONTROL, worth ` +
      `${hood.racket ? money(hood.racket.value) : "its Racket Control Value"}.`, svg: hoodSvg(layout, hood, view, { pieces: r.board }) };
  }
  const b = c.breach;
  if (!b) return { text: `${head}: not CONTROL.`, svg: hoodSvg(layout, hood, view, { pieces: r.board }) };
  for (const p of b.enters) { marker(marks, p, `enters:${b.by}`); marker(marks, p, "placed"); }
  for (const p of b.fence) marker(marks, p, "fence");
  for (const p of b.takes) marker(marks, p, `taken:${r.board[p] || c.player}`);
  const moves = b.placements.map((m) => m.join("+")).join(", then ");
  const does = b.takes.length ? `taking ${list(b.takes)}` : `entering ${list(b.enters)}`;
  return {
    text: `${head}, but not CONTROL yet: ${b.by} could play ${moves}, ${does}, leaving ${c.player} ${b.leaves}.`,
    svg: hoodSvg(layout, hood, view, { pieces: r.board, marks }),
  };
}

function plain(r, layout, hood, view) {
  const texts = {
    stalemate: `${layout.name} is stalemated: nobody can position a piece there any more. No CONTROL; the pieces stay.`,
    declared: `${r.player} declares CONTROL of ${layout.name}: conceded unless an opponent plays into it on their next turn.`,
    withheld: `${r.player} plays into the declared territory in ${layout.name}: CONTROL is withheld.`,
    conceded: `Nobody challenged: CONTROL of ${layout.name} is conceded to ${r.player}.`,
  };
  const marks = new Map();
  for (const p of r.placed || []) marker(marks, p, "placed");
  return { text: texts[r.kind] || r.kind, svg: hoodSvg(layout, hood, view, { pieces: r.board || null, marks }) };
}

/* One ruling as a figure: its words and its picture. */
export function rulingFigure(r, board, view) {
  const i = board.neighborhoods.findIndex((n) => n.id === r.neighborhood);
  const layout = board.neighborhoods[i];
  const hood = view.neighborhoods.find((n) => n.id === r.neighborhood);
  const draw = r.kind === "capture" ? capture : r.kind === "control" || r.kind === "not_yet" ? check : plain;
  const { text, svg } = draw(r, layout, hood, view);
  return h("figure", { class: "g71-ruling", dataset: { kind: r.kind, hood: r.neighborhood } },
    svg, h("figcaption", { text }));
}

/* The rulings the latest ruling move made, or a word that there are none yet. */
export function rulingsBox(board, view) {
  if (!view.rulings.length) return [h("p", { class: "muted small", text: "No ruling yet: captures and CONTROL are shown here with why." })];
  return [h("p", { class: "small muted", text: `Move ${view.ruled_at}` }),
    ...view.rulings.map((r) => rulingFigure(r, board, view))];
}
