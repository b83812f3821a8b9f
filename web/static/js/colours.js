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
