/* Ca$h 'n Guns' score page: the winner and why the game ended, every player's bills,
 * diamonds, the diamond bonus, paintings, wounds and total, and their Loot (public at the
 * end). */
import { api, refusal } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { gangsters, scoreTable } from "./parts.js";

export async function start(page) {
  const [pic, box] = await Promise.all([
    api("GET", `/api/games/${page.game}?as=table`), api("GET", `/api/games/${page.game}/board`)]);
  if (!pic.ok) { fill("scores", refusal(pic.data)); return; }
  const { scores, view } = pic.data;
  if (!scores) {
    fill("scores", h("p", { text: "The game is not over yet. " }, h("a", { href: `/table/${page.game}`, text: "Table screen" })));
    return;
  }
  fill("scores", scoreTable(scores, view));
  fill("players", gangsters(view, { deadly: box.ok ? box.data.deadly_wounds : 3, showLoot: true }));
}
