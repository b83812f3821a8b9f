/* A New Don on a player's phone: their own dice with where each came from, dice entry, the
 * roll's progress, "is this red die yours?", the resolution builder, undo, the families and
 * the board, the log. */
import { api, send } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { DiceEntry } from "../../js/dice-entry.js";
import { Hint } from "../../js/hint.js";
import { Live } from "../../js/live.js";
import { DicePrompts } from "../../js/prompts.js";
import { showLog, showTurn } from "../../js/shell.js";
import { drawBoard } from "./board.js";
import { builder } from "./builder.js";
import { diceWithOrigins, donDie } from "./dice.js";
import { familiesBox } from "./families.js";
import { scoreTable } from "./scores.js";
import { words } from "./words.js";

export function start(page) {
  const me = page.player;
  const base = `/api/games/${page.game}`;
  let board = null;
  let selected = [];  // indices into my dice, tapped to narrow the choices
  let selectedOf = "";  // the dice they index: other dice (rolled, corrected) drop them

  const live = new Live(`${base}/events?as=player`, { picture: render, dice: (d) => prompts.take(d) });
  const prompts = new DicePrompts(page, live);
  const entry = new DiceEntry(page, live);
  const hint = new Hint(page, live);

  async function post(path, body) {
    if (!(await send(`${base}/${path}`, body, { csrf: page.csrf, live }))) return;
    selected = [];  // the dice tapped were for the move just made
    live.redraw();
  }
  const act = (action) => post("actions", { action });

  function myDice(pic) {
    const mine = pic.view.players.find((p) => p.name === me);
    return mine ? diceWithOrigins(mine) : [];
  }

  function toggle(i) {
    selected = selected.includes(i) ? selected.filter((x) => x !== i) : [...selected, i];
    live.redraw();
  }

  /* My dice; while a choice spends dice, each is a button that selects it. */
  function diceRow(dice, selectable) {
    return h("div", { class: "dice", id: "my-dice" }, dice.map((d, i) => {
      const face = donDie(d.face, { owner: me, red: d.red, setsOnly: d.sets_only, extra: d.imaginary, selected: selected.includes(i) });
      const body = h("div", { class: "die-wrap" }, face, h("div", { class: "die-tag", text: d.origin }));
      return selectable ? h("button", { class: "die-button", dataset: { index: String(i) },
        "aria-pressed": selected.includes(i) ? "true" : "false", onclick: () => toggle(i) }, body) : body;
    }));
  }

  function diceCard(pic, dice) {
    const mine = pic.view.players.find((p) => p.name === me);
    const selectable = pic.choices.some((c) => c.dice.length);
    return h("section", { class: "card", id: "dice-card" }, h("h2", { text: "Your dice" }),
      dice.length ? diceRow(dice, selectable) : h("p", { class: "muted", text: "No dice behind your screen." }),
      mine && mine.favor ? h("p", { class: "small" }, "Your favor: ", donDie(mine.favor, { small: true })) : null);
  }

  function gameOverCard(pic) {
    return h("section", { class: "card" }, h("h2", { text: "Game over" }),
      h("p", { text: pic.view.end || "The host ended the game." }), scoreTable(pic.scores, pic.view),
      h("p", {}, h("a", { href: `/end/${page.game}`, text: "Scores and chart" })));
  }

  function undoCard() {
    return h("section", { class: "card" }, h("button", { class: "danger", id: "undo", onclick: () => post("undo", {}) }, "Undo my last move"));
  }

  function cards(pic) {
    const dice = myDice(pic);
    const now = dice.map((d) => d.face).join();
    if (now !== selectedOf) { selected = []; selectedOf = now; }
    const faces = selected.map((i) => dice[i] && dice[i].face).filter(Boolean).sort((a, b) => a - b);
    return [
      pic.scores ? gameOverCard(pic) : null,
      ...prompts.cards((pic.dice_wanted || []).length > 0),
      entry.card(pic, { red: ["vegas_roll"] }),
      pic.scores ? null : diceCard(pic, dice),
      builder(pic, faces, act),
      hint.card(pic),
      pic.can_undo ? undoCard() : null,
    ];
  }

  function render(pic, log) {
    showTurn(pic, words);
    fill("cards", cards(pic));
    fill("others", familiesBox(pic.view, me));
    if (board) drawBoard(document.getElementById("board"), board, pic.view);
    showLog(log);
  }

  api("GET", `${base}/board`).then((res) => { board = res.data; live.redraw(); });
  live.connect();
}
