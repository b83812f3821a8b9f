/* The Godfather Game (1971) on a player's phone: their cash and held card (this phone alone
 * has it), dice entry for the rolls asked of them, their choices, and the neighborhoods to
 * tap: every position where the engine offers this player a placement (or a piece to remove,
 * give up or sell) is ringed in gold; a tap lists exactly the engine's choices there, so only
 * legal moves are ever offered and the rules stay the engine's. The families, the last ruling
 * with its picture, the log. */
import { api, send } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { DiceEntry } from "../../js/dice-entry.js";
import { Live } from "../../js/live.js";
import { DicePrompts } from "../../js/prompts.js";
import { showLog, showTurn } from "../../js/shell.js";
import { hoodCard, money } from "./hoods.js";
import { familiesBox, handCard, scoreTable, turnBox } from "./players.js";
import { rulingsBox } from "./rulings.js";
import { words } from "./words.js";

/* The positions a choice is about, when it is about the board. */
function spots(c) {
  if (!c.neighborhood) return [];
  return c.positions || (c.position ? [c.position] : []);
}

/* The choices on the board, by neighborhood and position: "midtown|B3" -> choices. A first
 * turn offers a thousand or so placements; they are sorted here once per picture, and a tap
 * shows only those at the position tapped. */
function byPosition(choices) {
  const at = new Map();
  for (const c of choices) {
    for (const p of spots(c)) {
      const key = `${c.neighborhood}|${p}`;
      if (!at.has(key)) at.set(key, []);
      at.get(key).push(c);
    }
  }
  return at;
}

const TITLES = {
  play_card: "Play the card you hold", break_card: "Which Break card did you draw? (face up: the table sees it)",
  draw: "Which card did you draw? (only this phone sees it)", fingerman: "Fingerman", declare: "Declare CONTROL",
  end_turn: "When you are done buying and positioning",
};

export function start(page) {
  const me = page.player;
  const base = `/api/games/${page.game}`;
  let board = null;
  let selected = null;  // {hood, pos}: the position tapped, while it still has choices

  const live = new Live(`${base}/events?as=player`, { picture: render, dice: (d) => prompts.take(d) });
  const prompts = new DicePrompts(page, live);
  const entry = new DiceEntry(page, live);

  async function post(path, body) {
    if (!(await send(`${base}/${path}`, body, { csrf: page.csrf, live }))) return;
    selected = null;
    live.redraw();
  }
  const act = (action) => post("actions", { action });

  function choiceButton(c) {
    return h("button", { class: "choice", dataset: { group: c.group, action: JSON.stringify(c.action) },
      onclick: () => act(c.action) }, c.label);
  }

  /* The choices that are not a tap on the board: the card to play or enter, declare, the end
   * of the Fingerman or of the turn. */
  function actionsCard(pic) {
    const rest = pic.choices.filter((c) => !spots(c).length);
    if (!rest.length) return null;
    const groups = [];
    for (const c of rest) {
      const last = groups[groups.length - 1];
      if (last && last.group === c.group) last.items.push(c);
      else groups.push({ group: c.group, items: [c] });
    }
    return h("section", { class: "card", id: "actions" }, h("h2", { text: "Your move" }),
      groups.flatMap((g) => [h("h3", { text: TITLES[g.group] || g.group.replaceAll("_", " ") }),
        h("div", { class: "choices-row" + (g.items.length > 4 ? " g71-cards" : "") }, g.items.map(choiceButton))]));
  }

  function meCard(pic) {
    const mine = pic.view.players.find((p) => p.name === me);
    if (!mine) return null;
    const placing = pic.choices.some((c) => spots(c).length && c.group.startsWith("place:"));
    const removing = pic.choices.some((c) => spots(c).length && !c.group.startsWith("place:"));
    return h("section", { class: "card", id: "me" },
      h("p", { class: "g71-mine" }, "Your cash: ", h("b", { id: "my-cash", text: money(mine.cash) }),
        mine.debt ? ` (you owe ${money(mine.debt)})` : ""),
      handCard(mine),
      placing ? h("p", { class: "small turn me", text: "Tap a gold-ringed position to buy and position pieces there." }) : null,
      removing ? h("p", { class: "small turn me", text: "Tap a gold-ringed piece to choose it." }) : null);
  }

  function gameOverCard(pic) {
    return h("section", { class: "card" }, h("h2", { text: "Game over" }),
      h("p", { text: pic.view.end ? `The end: ${pic.view.end}.` : "The host ended the game." }), scoreTable(pic.scores, pic.view),
      h("p", {}, h("a", { href: `/end/${page.game}`, text: "The score page" })));
  }

  function undoCard() {
    return h("section", { class: "card" }, h("button", { class: "danger", id: "undo", onclick: () => post("undo", {}) }, "Undo my last move"));
  }

  /* Under a neighborhood: the choices at the position tapped there. */
  function tapped(layout, at) {
    if (!selected || selected.hood !== layout.id) return null;
    const here = at.get(`${layout.id}|${selected.pos}`) || [];
    return h("div", { class: "g71-tapped", id: "tapped" },
      h("div", { class: "g71-tapped-head" }, h("b", { text: `${selected.pos} in ${layout.name}` }),
        h("button", { class: "g71-close", "aria-label": "close", onclick: () => { selected = null; live.redraw(); } }, "✕")),
      here.map(choiceButton));
  }

  function hoods(pic) {
    const at = byPosition(pic.choices);
    if (selected && !at.has(`${selected.hood}|${selected.pos}`)) selected = null;
    return board.neighborhoods.map((layout, i) => {
      const legal = new Set(layout.positions.map((p) => p.name).filter((p) => at.has(`${layout.id}|${p}`)));
      const opts = { legal, selected: selected && selected.hood === layout.id ? selected.pos : null,
        onTap: (pos) => { selected = { hood: layout.id, pos }; live.redraw(); } };
      return hoodCard(layout, pic.view.neighborhoods[i], pic.view, opts, tapped(layout, at));
    });
  }

  function render(pic, log) {
    showTurn(pic, words);
    fill("turn-box", turnBox(pic.view));
    fill("cards",
      pic.scores ? gameOverCard(pic) : null,
      ...prompts.cards((pic.dice_wanted || []).length > 0),
      entry.card(pic),
      meCard(pic),
      actionsCard(pic),
      pic.can_undo ? undoCard() : null);
    if (board) fill("hoods", hoods(pic));
    fill("players", familiesBox(pic.view, me));
    if (board) fill("rulings", rulingsBox(board, pic.view));
    showLog(log);
  }

  api("GET", `${base}/board`).then((res) => { board = res.data; live.redraw(); });
  live.connect();
}
