/* The Godfather Game (1971)'s score page: cash, the Racket Control Values each player holds,
 * the totals and the winner, why the game ended, and the neighborhoods as they were left. */
import { api, refusal } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { hoodsGrid } from "./hoods.js";
import { scoreTable } from "./players.js";

export async function start(page) {
  const [pic, board] = await Promise.all([
    api("GET", `/api/games/${page.game}?as=table`), api("GET", `/api/games/${page.game}/board`)]);
  if (!pic.ok) { fill("scores", refusal(pic.data)); return; }
  const { scores, view } = pic.data;
  if (!scores) {
    fill("scores", h("p", { text: "The game is not over yet. " }, h("a", { href: `/table/${page.game}`, text: "Table screen" })));
    return;
  }
  fill("scores", scoreTable(scores, view));
  fill("end-reason", view.end ? `The end: ${view.end}.` : "The host ended the game.");
  if (board.ok) fill("hoods", hoodsGrid(board.data, view));
}
