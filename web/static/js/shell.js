/* What every page of a game shows the same way, whatever the game: the phase line, whose
 * turn it is, and the log; the live chip and the toasts are in the base template.
 *
 * A game says it in its own words with a `words` object (its module `words.js`):
 *   phase(pic)  the line above whose turn it is ("Round 2 · offer phase · Godfather: Maria")
 *   does        what each `waiting[].does` means, as "Maria to <does>" ("make an offer")
 *   rollField(move)  for the host's corrections: the action field holding a roll's faces
 *               ("faces" or "face"), or null for a move that is not a roll
 *   colours     (optional) the seat colours its setup allows, for the home page's pickers
 *   pairing     (optional) why its dice cannot be paired, shown on the pairing page instead
 * `plainWords` below serve a game that has none.
 */
import { fill, h } from "./dom.js";

function plainPhase(pic) {
  const v = pic.view;
  const parts = [];
  if (v.round !== undefined) parts.push(`Round ${v.round}`);
  if (typeof v.phase === "string") parts.push(`${v.phase.replaceAll("_", " ")} phase`);
  return parts.join(" · ");
}

function plainRollField(move) {
  if (move.type !== "roll" || !move.action) return null;
  if ("faces" in move.action) return "faces";
  return "face" in move.action ? "face" : null;
}

export const plainWords = { phase: plainPhase, does: {}, rollField: plainRollField };

/* "Waiting: You to make an offer; Johnny to roll (5 dice)", or how the game stands. */
export function whoseTurn(pic, words = plainWords) {
  if (pic.status !== "active") return `The game is ${pic.status}.`;
  if (pic.scores) return "Game over.";
  const parts = (pic.view.waiting || []).map((w) => (w.player === pic.viewer ? "You" : w.player) + " to " +
    (words.does[w.does] || w.does.replaceAll("_", " ")) +
    (w.dice ? ` (${w.dice} ${w.dice === 1 ? "die" : "dice"})` : ""));
  return parts.length ? "Waiting: " + parts.join("; ") : "";
}

/* Whether the game waits for this page's viewer (their phone lights up). */
export function waitsForMe(pic) {
  return pic.viewer !== null && (pic.view.waiting || []).some((w) => w.player === pic.viewer);
}

/* The phase line (#phase) and whose turn (#turn), highlighted when it is the viewer's; and
 * where the page has #help and the game's view a `help` ({title, what, now, rule, quote}),
 * what this phase is and what the viewer may do now, in the rulebook's words. */
export function showTurn(pic, words = plainWords) {
  fill("phase", words.phase(pic));
  const turn = fill("turn", whoseTurn(pic, words));
  if (turn) turn.className = "turn" + (waitsForMe(pic) ? " me" : "");
  fill("help", helpBlock(pic.status === "active" ? pic.view.help : null));
}

/* A rule in the rulebook's words, with where it stands. */
export function ruleQuote(quote, rule) {
  return h("blockquote", { class: "rule" }, quote, h("cite", { text: `The rulebook, ${rule}` }));
}

let helpOpen = false;  // the reader's choice, kept across pictures

function helpBlock(help) {
  if (!help || typeof help !== "object" || !help.title) return null;
  const details = h("details", { class: "help", open: helpOpen },
    h("summary", { text: `${help.title}: what happens now` }),
    h("p", { text: help.what }),
    help.quote ? ruleQuote(help.quote, help.rule) : null);
  details.addEventListener("toggle", () => { helpOpen = details.open; });
  return [help.now ? h("p", { class: "help-now", text: help.now }) : null, details];
}

/* The log (#log), newest first; moves made while this page was away are marked. */
export function showLog(entries) {
  fill("log", ...entries.slice().reverse().flatMap((e) => e.lines.map((line) =>
    h("p", { class: e.missed ? "missed" : null, dataset: { seq: String(e.seq) }, text: line }))));
}
