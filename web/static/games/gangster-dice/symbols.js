/* Gangster Dice's symbols and dice as its pages draw them: the gavel (the Lawyer), the
 * cocktail (the Speakeasy), the gun (the Streets) and the pointing finger (the Investigator),
 * on white, red and blue dice. Which symbol a face number shows comes from the game's table
 * data (each die's faces by number), never from here. */
import { h, s } from "../../js/dom.js";

// Each symbol in a 100 x 100 box, filled with the die's ink; `cut` lines are drawn in the
// die's own colour, to show the shape's inner edges.
const SHAPES = {
  gavel: () => [
    s("g", { transform: "rotate(-45 50 50)" },
      s("rect", { x: 26, y: 22, width: 48, height: 18, rx: 3 }),
      s("rect", { x: 16, y: 16, width: 14, height: 30, rx: 4 }),
      s("rect", { x: 70, y: 16, width: 14, height: 30, rx: 4 }),
      s("rect", { x: 45, y: 40, width: 10, height: 54, rx: 4 })),
  ],
  cocktail: () => [
    s("path", { d: "M14 16 H86 L50 56 Z" }),
    s("rect", { x: 47, y: 54, width: 6, height: 26 }),
    s("rect", { x: 30, y: 79, width: 40, height: 8, rx: 3 }),
    s("path", { class: "cut", d: "M24 24 H76", fill: "none", "stroke-width": 4 }),
    s("circle", { cx: 42, cy: 32, r: 6, class: "cut-fill" }),
  ],
  gun: () => [
    s("path", { d: "M10 26 H90 V44 H46 L40 78 Q39 82 35 82 H21 Q16 82 17 77 L24 44 H10 Z" }),
    s("path", { d: "M46 44 V60 H60 V44", fill: "none", stroke: "currentColor", "stroke-width": 5 }),
    s("path", { class: "cut", d: "M14 35 H86", fill: "none", "stroke-width": 3 }),
  ],
  finger: () => [
    s("rect", { x: 38, y: 28, width: 54, height: 15, rx: 7.5 }),
    s("rect", { x: 14, y: 28, width: 40, height: 50, rx: 11 }),
    s("rect", { x: 4, y: 33, width: 12, height: 40, rx: 2 }),
    s("path", { class: "cut", d: "M24 55 H50 M24 66 H50", fill: "none", "stroke-width": 3 }),
  ],
};

export const SYMBOL_NAMES = { gavel: "gavel", cocktail: "cocktail", gun: "gun", finger: "pointing finger" };

/* A symbol on its own (an icon beside a token's name, a bid card). */
export function symbolIcon(symbol, { classes = "" } = {}) {
  const shape = SHAPES[symbol];
  return h("span", { class: `gd-symbol ${classes}`.trim(), role: "img", "aria-label": SYMBOL_NAMES[symbol] || symbol },
    s("svg", { viewBox: "0 0 100 100", "aria-hidden": "true", fill: "currentColor" }, shape ? shape() : []));
}

/* A die of `colour` showing `symbol` (null: a die seen from above, its face not shown). */
export function gdDie(colour, symbol, { small = false, classes = [] } = {}) {
  const shape = symbol && SHAPES[symbol];
  const what = symbol ? `${colour} die showing ${SYMBOL_NAMES[symbol] || symbol}` : `${colour} die`;
  return h("span", {
    class: ["die", "gd-die", colour, small && "small", ...classes].filter(Boolean).join(" "),
    role: "img", "aria-label": what, dataset: { colour, symbol: symbol || "" },
  }, s("svg", { viewBox: "-10 -10 120 120", "aria-hidden": "true", fill: "currentColor" }, shape ? shape() : []));
}

/* Dice by colour ({white: 2, red: 0, blue: 1}) as small blank dice, white first. */
export function diceOf(counts, { small = true } = {}) {
  return ["white", "red", "blue"].flatMap((c) =>
    Array.from({ length: (counts && counts[c]) || 0 }, () => gdDie(c, null, { small })));
}

/* "2 white, 1 blue", or "no dice". */
export function describe(counts) {
  const parts = ["white", "red", "blue"].filter((c) => counts && counts[c]).map((c) => `${counts[c]} ${c}`);
  return parts.length ? parts.join(", ") : "no dice";
}
