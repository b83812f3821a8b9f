/* A New Don's table screen, for a TV across the table: the board map, the running score, the
 * Muscle track, the families, the Favor track and Vegas, whose turn, the log; at the end the
 * final score on top. It sees what the physical table shows: no hidden die. */
import { api } from "../../js/api.js";
import { fill, h, toast } from "../../js/dom.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { drawBoard } from "./board.js";
import { familiesBox, favorTrack, muscleTrack, vegasBox } from "./families.js";
import { scoreChart, scoreTable, winnerLine } from "./scores.js";
import { words } from "./words.js";

const LOG_LINES = 40;  // the table shows the latest moves; the phones and host have the rest

function placeholderBanner(board) {
  return h("div", { class: "placeholder-banner",
    text: `Placeholder board: ${board.placeholder_facts} facts (layout, sets, points) are not from the printed board yet.` });
}

export async function start(page) {
  const board = (await api("GET", `/api/games/${page.game}/board`)).data;
  fill("board-name", board.name);
  if (board.placeholder) fill("placeholder", placeholderBanner(board));

  function render(pic, log) {
    const v = pic.view;
    drawBoard(document.getElementById("board"), board, v);
    showTurn(pic, words);
    fill("standing", winnerLine(v.standing, { running: true }), scoreChart(v.standing, v, board));
    fill("muscle", muscleTrack(board, v));
    fill("favor", favorTrack(board, v));
    fill("vegas", vegasBox(v));
    fill("players", familiesBox(v, null));
    showLog(log.slice(-LOG_LINES));
    const over = Boolean(pic.scores);
    document.getElementById("over").hidden = !over;
    document.body.classList.toggle("game-over", over);
    if (over) {
      fill("end-reason", v.end || "The host ended the game.");
      fill("scores", winnerLine(pic.scores), h("div", { class: "final" }, scoreTable(pic.scores, v), scoreChart(pic.scores, v, board)));
    }
  }

  new Live(`/api/games/${page.game}/events?as=table`, {
    picture: render,
    dice: (d) => toast(d.text, true),  // who is rolling: never how many dice, nor what they show
  }).connect();
}
