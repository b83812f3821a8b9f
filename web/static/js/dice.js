/* A die drawn with its pips. */
import { h, s } from "./dom.js";

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[25, 25], [50, 50], [75, 75]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

/* A die showing `face`. `owner` marks whose die it is (data-owner, data-face: the tests check
 * that no page draws a die it may not show); `classes` are looks: small, red, selected, or a
 * game's own. */
export function dieFace(face, { owner = null, classes = [] } = {}) {
  const svg = s("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" },
    ...(PIPS[face] || []).map(([x, y]) => s("circle", { cx: x, cy: y, r: 10, fill: "#1b1408" })));
  const attrs = { class: ["die", ...classes.filter(Boolean)].join(" "), role: "img", "aria-label": `die showing ${face}` };
  if (owner) attrs.dataset = { owner, face: String(face) };
  return h("span", attrs, svg);
}
