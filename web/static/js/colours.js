/* The seat colours (the closed list in companion/protocol/seats.py), as the pages draw them. */
import { h } from "./dom.js";

const PALETTE = {
  red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835", black: "#222",
  white: "#f5f5f5", purple: "#8e24aa", orange: "#fb8c00", pink: "#ec407a", brown: "#795548",
};
// A seat without a colour gets one by its place at the table.
const BY_SEAT = ["#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00"];
const UNKNOWN = "#888";

/* The colour of a seat colour's name ("red"), or grey. */
export function paint(colour) {
  return (colour && PALETTE[colour.toLowerCase()]) || UNKNOWN;
}

/* A player's colour: their seat's, else one by their place in `players` ({name, colour}). */
export function colourOf(players, name) {
  const i = players.findIndex((p) => p.name === name);
  const c = i >= 0 ? players[i].colour : null;
  if (c && PALETTE[c.toLowerCase()]) return PALETTE[c.toLowerCase()];
  return BY_SEAT[Math.max(0, i) % BY_SEAT.length];
}

/* A small square of colour before a name. */
export function swatch(colour) {
  return h("span", { class: "swatch", style: `background:${colour}` });
}

/* Black or white, whichever reads better on `colour` (a #rrggbb). */
export function inkOn(colour) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour || "");
  if (!m) return "#fff";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.55 ? "#111" : "#fff";
}

/* Each name's shortest start that no other name at the table shares ("Ma", "Mi" for Maria
 * and Michael; "J" for Johnny alone): with the colour, a marker anyone can read. */
export function initialsOf(names) {
  const out = {};
  for (const name of names) {
    let n = 1;
    while (n < 3 && names.some((o) => o !== name && o.slice(0, n).toLowerCase() === name.slice(0, n).toLowerCase())) n += 1;
    out[name] = name.slice(0, n);
  }
  return out;
}

/* A player's marker: a disc in their colour with their initials. */
export function marker(players, name, { classes = "" } = {}) {
  const colour = colourOf(players, name);
  const initials = initialsOf(players.map((p) => p.name))[name] || name.slice(0, 1);
  return h("span", { class: `marker ${classes}`.trim(), title: name, dataset: { player: name },
    style: `background:${colour};color:${inkOn(colour)}`, text: initials });
}
