/* Monopoly's score page: every fortune, the places, and why the game ended. */
import { api, refusal } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { scoreTable } from "./scores.js";

export async function start(page) {
  const res = await api("GET", `/api/games/${page.game}?as=table`);
  if (!res.ok) { fill("scores", refusal(res.data)); return; }
  const { scores, view } = res.data;
  if (!scores) {
    fill("scores", h("p", { text: "The game is not over yet. " }, h("a", { href: `/table/${page.game}`, text: "Table screen" })));
    return;
  }
  fill("end-reason", view.end || "The host ended the game.");
  fill("scores", scoreTable(scores, view));
}
