/* A New Don on a player's phone: their own dice with where each came from, dice entry, the
 * roll's progress, "is this red die yours?", the resolution builder, undo, the families and
 * the board, the log. */
import { api, send } from "../../js/api.js";
import { canon, fill, fillIf, h } from "../../js/dom.js";
import { DiceEntry } from "../../js/dice-entry.js";
import { Hint } from "../../js/hint.js";
import { Live } from "../../js/live.js";
import { DicePrompts } from "../../js/prompts.js";
import { showLog, showTurn } from "../../js/shell.js";
import { drawBoard } from "./board.js";
import { builder } from "./builder.js";
import { diceWithOrigins, donDie } from "./dice.js";
import { familiesBox } from "./families.js";
import { scoreChart, scoreTable, winnerLine } from "./scores.js";
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

  async function post(path, body, again = null) {
    if (!(await send(`${base}/${path}`, body, { csrf: page.csrf, live, again }))) return;
    selected = [];  // the dice tapped were for the move just made
    live.redraw();
  }
  // A choice everyone makes at once (a favor shown, Vegas dice locked) is sent again when
  // another player's move made it stale, if it is still offered.
  const same = (c) => (pic) => pic.choices.some((x) => canon(x.action) === canon(c.action));
  const act = (c) => post("actions", { action: c.action }, c.simultaneous ? same(c) : null);

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
      h("p", { text: pic.view.end || "The host ended the game." }), winnerLine(pic.scores),
      scoreChart(pic.scores, pic.view, board), scoreTable(pic.scores, pic.view),
      h("p", {}, h("a", { href: `/end/${page.game}`, text: "Scores and chart" })));
  }

  function undoCard() {
    return h("section", { class: "card" }, h("button", { class: "danger", id: "undo", onclick: () => post("undo", {}) }, "Undo my last move"));
  }

  function cards(pic, dice) {
    const faces = selected.map((i) => dice[i] && dice[i].face).filter(Boolean).sort((a, b) => a - b);
    return [
      pic.scores ? null : diceCard(pic, dice),
      builder(pic, faces, act),
      hint.card(pic),
      pic.can_undo ? undoCard() : null,
    ];
  }

  // A phone draws the board's districts one under another, so the map fits its width.
  const narrow = () => window.matchMedia("(max-width: 700px)").matches;

  // The parts of the page drawn apart, so a picture of another player's move leaves the
  // roll being typed exactly as it is (js/dice-entry.js).
  function render(pic, log) {
    showTurn(pic, words);
    fill("over", pic.scores ? gameOverCard(pic) : null);
    fill("prompts", prompts.cards((pic.dice_wanted || []).length > 0));
    entry.show(pic, { red: ["vegas_roll"] });
    const dice = myDice(pic);
    const now = dice.map((d) => d.face).join();
    if (now !== selectedOf) { selected = []; selectedOf = now; }
    // My dice and choices are drawn again only when they change: other players' moves leave
    // the buttons in place, so a tap pressed meanwhile still lands.
    const mine = pic.view.players.find((p) => p.name === me);
    fillIf("cards", [dice, selected, pic.choices, pic.can_undo, Boolean(pic.scores), pic.view.phase,
      pic.view.offer, mine && mine.favor, hint.state()], () => cards(pic, dice));
    fill("standing", pic.scores ? null : [winnerLine(pic.view.standing, { running: true }), scoreChart(pic.view.standing, pic.view, board)]);
    fill("others", familiesBox(pic.view, me));
    if (board) drawBoard(document.getElementById("board"), board, pic.view, { stacked: narrow() });
    showLog(log);
  }

  api("GET", `${base}/board`).then((res) => { board = res.data; live.redraw(); });
  live.connect();
}
