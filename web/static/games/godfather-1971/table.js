/* The Godfather Game (1971) on the table screen: the neighborhoods in play with their pieces,
 * racket markers and enclosed positions, the players' cash and bonuses, the turn as it
 * stands, the last ruling with its picture of why, the log, and the final score. It sees what
 * the physical table shows: no held card. */
import { api } from "../../js/api.js";
import { fill, h, toast } from "../../js/dom.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { hoodsGrid } from "./hoods.js";
import { decksBox, familiesBox, scoreTable, turnBox } from "./players.js";
import { rulingsBox } from "./rulings.js";
import { words } from "./words.js";

function placeholderNote(board) {
  if (!board.placeholders) return null;
  return h("div", { class: "placeholder-banner",
    text: `Placeholder board: ${board.placeholders} facts (the neighborhoods' shapes, the decks) are not from the printed game yet (companion board show --game godfather-1971).` });
}

export async function start(page) {
  const board = (await api("GET", `/api/games/${page.game}/board`)).data;
  fill("placeholder", placeholderNote(board));

  function render(pic, log) {
    const v = pic.view;
    showTurn(pic, words);
    fill("turn-box", turnBox(v));
    fill("hoods", hoodsGrid(board, v));
    fill("players", familiesBox(v, null));
    fill("rulings", rulingsBox(board, v));
    fill("decks", decksBox(v));
    showLog(log);
    if (pic.scores) {
      document.getElementById("over").hidden = false;
      fill("scores", h("p", { class: "muted", text: v.end ? `The end: ${v.end}.` : "The host ended the game." }), scoreTable(pic.scores, v));
    }
  }

  new Live(`/api/games/${page.game}/events?as=table`, {
    picture: render,
    dice: (d) => toast(d.text, true),  // who is rolling; the table's pair of dice is public anyway
  }).connect();
}
