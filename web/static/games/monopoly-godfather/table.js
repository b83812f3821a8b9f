/* Monopoly's table screen: the board with every token, owner, building and mortgage; the last
 * roll and what it caused; every player's balance and deeds; what the table waits for (an
 * auction, a deal, a debt); the Bank's buildings; the log; the final score. It sees what the
 * physical table shows: no Don card before it is played. */
import { api } from "../../js/api.js";
import { fill, h, toast } from "../../js/dom.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { drawBoard } from "./board.js";
import { bankLine, holdBox, lastRoll, playersBox } from "./panels.js";
import { scoreTable } from "./scores.js";
import { words } from "./words.js";

export async function start(page) {
  const board = (await api("GET", `/api/games/${page.game}/board`)).data;
  fill("board-name", board.name);
  if (board.placeholder) {
    fill("placeholder", h("div", { class: "placeholder-banner",
      text: `Placeholder names: ${board.placeholder_facts} facts (location names, card texts, which space is which) are not from the printed game yet.` }));
  }

  function render(pic, log) {
    const v = pic.view;
    drawBoard(document.getElementById("board"), board, v);
    showTurn(pic, words);
    fill("centre", h("h2", { text: "Last roll" }), lastRoll(v), holdBox(board, v, null), bankLine(v));
    fill("players", playersBox(board, v, null));
    showLog(log);
    if (pic.scores) {
      document.getElementById("over").hidden = false;
      fill("end-reason", v.end || "The host ended the game.");
      fill("scores", scoreTable(pic.scores, v));
    }
  }

  new Live(`/api/games/${page.game}/events?as=table`, {
    picture: render,
    dice: (d) => toast(d.text, true),  // "Maria is rolling"
  }).connect();
}
