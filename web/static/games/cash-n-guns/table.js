/* Ca$h 'n Guns' table screen, for a TV across the table: the Loot on offer, the deck and the
 * New Godfather token, every gangster (gun, wounds, standing or lying down), whose share it
 * is, the last shots, the log and the final score. It shows the table's view only: no hand,
 * no card put down, no courage choice until all are in.
 *
 * Opened with the host's key, the same screen records what the table sees for the players:
 * the Loot flipped, and the guns (tap a gangster, then their target); see record.js. */
import { api } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { gangsterTile, lootBox, scoreTable, shotsBox, tableNews } from "./parts.js";
import { Recorder } from "./record.js";
import { words } from "./words.js";

export async function start(page) {
  const base = `/api/games/${page.game}`;
  const [box, me] = await Promise.all([api("GET", `${base}/board`), api("GET", `${base}/me`)]);
  const deadly = box.ok ? box.data.deadly_wounds : 3;
  let recorder = null;

  function render(pic, log) {
    const v = pic.view;
    const rec = recorder && pic.status === "active" && !pic.scores ? recorder : null;
    showTurn(pic, words);
    fill("loot", lootBox(v));
    fill("news", tableNews(v));
    fill("record-flip", rec ? rec.flipCard(v) : null);
    fill("aim-bar", rec ? rec.aimBar(v) : null);
    const tap = rec ? rec.onTile(v) : null;
    fill("gangsters", h("div", { class: "cng-gangsters" }, v.players.map((p) => gangsterTile(v, p, {
      deadly, selected: rec !== null && rec.aimer === p.name, onclick: tap ? () => tap(p.name) : null,
    }))));
    fill("shots", shotsBox(v));
    showLog(log);
    if (pic.scores) {
      document.getElementById("over").hidden = false;
      fill("scores", scoreTable(pic.scores, v));
    }
  }

  const live = new Live(`${base}/events?as=table`, { picture: render });
  if (me.ok && me.data.host) recorder = new Recorder(page, me.data.host_csrf, live, box.data);
  else fill("recording-hint", h("p", { class: "small muted",
    text: "To record the Loot and the guns on this screen, open it in the host's browser (the one that created the game, or opened the host's link)." }));
  live.connect();
}
