/* Any game's pages from its pictures alone, for a game without views of its own: the
 * players and the public position as names and values, whose turn it is, the viewer's
 * choices as buttons, dice entry for the rolls the game asks this phone for, undo, the log,
 * and the score at the end. The shared templates (table.html, play.html, end.html) hold it.
 */
import { api, refusal, send } from "../js/api.js";
import { fill, h } from "../js/dom.js";
import { colourOf, swatch } from "../js/colours.js";
import { DiceEntry } from "../js/dice-entry.js";
import { Live } from "../js/live.js";
import { DicePrompts } from "../js/prompts.js";
import { plainWords, showLog, showTurn } from "../js/shell.js";

export const words = plainWords;

const OWN_KEYS = ["players", "waiting"];  // parts of a view shown in their own way

/* A value in words: lists joined, objects as "name: value", nothing as a dash. */
function readable(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length ? value.map(readable).join(", ") : "none";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${label(k)}: ${readable(v)}`).join("; ");
  return String(value);
}

function label(key) {
  return key.replaceAll("_", " ");
}

function keyValues(entries) {
  return h("dl", { class: "kv" }, entries.flatMap(([k, v]) => [h("dt", { text: label(k) }), h("dd", { text: readable(v) })]));
}

/* Each player as the viewer may see them: everything their entry in the view holds. */
function playerCard(view, p, viewer) {
  const entry = typeof p === "object" && p !== null ? p : { name: String(p) };
  const rest = Object.entries(entry).filter(([k]) => k !== "name" && k !== "colour");
  return h("div", { class: "player", dataset: { player: entry.name } },
    h("div", { class: "name" }, swatch(colourOf(view.players, entry.name)), entry.name === viewer ? `${entry.name} (you)` : entry.name),
    rest.length ? keyValues(rest) : null);
}

/* The position: the players, then whatever else the view holds. */
function position(view, viewer) {
  const players = Array.isArray(view.players) ? view.players : [];
  const rest = Object.entries(view).filter(([k]) => !OWN_KEYS.includes(k));
  return [
    h("div", { class: "players" }, players.map((p) => playerCard(view, p, viewer))),
    rest.length ? keyValues(rest) : null,
  ];
}

/* "Winner: Ann", and each player's points. */
function scoreCard(scores) {
  const names = Object.keys(scores.totals || {});
  return h("div", {},
    h("p", { class: "turn", text: `Winner: ${(scores.winners || []).join(" and ") || "nobody"}` }),
    h("table", { class: "scores" },
      h("tr", {}, h("th", { text: "player" }), h("th", { class: "num", text: "points" })),
      names.map((n) => h("tr", {}, h("td", { text: n }), h("td", { class: "num", text: String(scores.totals[n]) })))));
}

function table(page) {
  new Live(`/api/games/${page.game}/events?as=table`, {
    picture: (pic, log) => {
      showTurn(pic);
      fill("players", position(pic.view, null));
      showLog(log);
      if (pic.scores) {
        document.getElementById("over").hidden = false;
        fill("scores", scoreCard(pic.scores));
      }
    },
  }).connect();
}

function play(page) {
  const base = `/api/games/${page.game}`;
  const live = new Live(`${base}/events?as=player`, { picture: render, dice: (d) => prompts.take(d) });
  const prompts = new DicePrompts(page, live);
  const entry = new DiceEntry(page, live);
  const post = (path, body) => send(`${base}/${path}`, body, { csrf: page.csrf, live });

  function choicesCard(pic) {
    return h("section", { class: "card", id: "choices" }, h("h2", { text: "Your move" }),
      h("div", { class: "choices-row" }, pic.choices.map((c) => h("button", {
        class: "choice", dataset: { group: c.group, action: JSON.stringify(c.action) },
        onclick: () => post("actions", { action: c.action }),
      }, c.label))));
  }

  function cards(pic) {
    return [
      pic.scores ? h("section", { class: "card" }, h("h2", { text: "Game over" }), scoreCard(pic.scores)) : null,
      ...prompts.cards((pic.dice_wanted || []).length > 0),
      pic.choices.length ? choicesCard(pic) : null,
      pic.can_undo ? h("section", { class: "card" },
        h("button", { class: "danger", id: "undo", onclick: () => post("undo", {}) }, "Undo my last move")) : null,
    ];
  }

  function render(pic, log) {
    showTurn(pic);
    entry.show(pic);
    fill("cards", cards(pic));
    fill("players", position(pic.view, pic.viewer));
    showLog(log);
  }

  live.connect();
}

async function end(page) {
  const res = await api("GET", `/api/games/${page.game}?as=table`);
  if (!res.ok) fill("scores", refusal(res.data));
  else if (!res.data.scores) {
    fill("scores", h("p", { text: "The game is not over yet. " }, h("a", { href: `/table/${page.game}`, text: "Table screen" })));
  } else fill("scores", scoreCard(res.data.scores), h("h3", { text: "The end" }), position(res.data.view, null));
}

export function start(page) {
  return { table, play, end }[page.page](page);
}
