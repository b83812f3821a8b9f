/* A New Don's score page: the score table, the chart, and why the game ended. */
import { api, refusal } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { scoreChart, scoreTable, winnerLine } from "./scores.js";

export async function start(page) {
  const [pic, board] = await Promise.all([
    api("GET", `/api/games/${page.game}?as=table`), api("GET", `/api/games/${page.game}/board`)]);
  if (!pic.ok) { fill("scores", refusal(pic.data)); return; }
  const { scores, view } = pic.data;
  if (!scores) {
    fill("scores", h("p", { text: "The game is not over yet. " }, h("a", { href: `/table/${page.game}`, text: "Table screen" })));
    return;
  }
  fill("scores", winnerLine(scores), scoreChart(scores, view, board.data), scoreTable(scores, view));
  fill("end-reason", view.end || "The host ended the game.");
}
