/* The live picture of one game: one EventSource, and a fresh picture after a wake or a gap.
 *
 * The server sends the whole picture on every (re)connect (`view`), then one `update` per
 * change; `dice` messages are live prompts for this viewer, `notice` is news for every
 * screen, and `revoked` ends a phone whose seat was claimed on another phone.
 */
import { api } from "./api.js";
import { h, toast } from "./dom.js";

const CLOSED = 2;  // EventSource.CLOSED
const RETRY_MS = 3000;

export class Live {
  /* `path` is the event stream; `on.picture(pic, log)` draws the page, `on.dice(message)`
   * and `on.notice(message)` are optional. */
  constructor(path, on) {
    this.path = path;
    this.on = on;
    this.pic = null;
    this.log = [];
    this.es = null;
    this.revoked = false;
    // A phone asleep or offline lost its stream: connect again when it is back.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!this.es || this.es.readyState === CLOSED)) this.connect();
    });
    window.addEventListener("online", () => this.connect());
  }

  connect() {
    if (this.es) this.es.close();
    if (this.revoked) return;
    const es = new EventSource(this.path);
    this.es = es;
    es.addEventListener("open", () => this.status(true));
    es.addEventListener("error", () => {
      this.status(false);
      // The browser retries by itself unless the server closed the stream for good.
      if (es.readyState === CLOSED) setTimeout(() => { if (this.es === es) this.connect(); }, RETRY_MS);
    });
    es.addEventListener("view", (e) => this.whole(JSON.parse(e.data)));
    es.addEventListener("update", (e) => this.update(JSON.parse(e.data)));
    es.addEventListener("dice", (e) => { if (this.on.dice) this.on.dice(JSON.parse(e.data)); });
    es.addEventListener("notice", (e) => {
      const data = JSON.parse(e.data);
      toast(data.text, true);
      if (this.on.notice) this.on.notice(data);
    });
    es.addEventListener("revoked", (e) => this.revoke(JSON.parse(e.data).text));
  }

  /* The whole picture and log, on every (re)connect; moves made while away are marked. */
  whole(data) {
    this.log = data.log || [];
    const missed = this.log.filter((x) => x.missed).length;
    if (missed) toast(`While you were away: ${missed} move${missed > 1 ? "s" : ""} (marked in the log)`, true);
    this.show(data);
  }

  update(data) {
    if (data.lines && data.lines.length) this.log.push({ seq: data.seq, lines: data.lines });
    this.show(data);
    // An undo or a correction rewrites the story: fetch the log as it now stands.
    if (data.kind === "undo" || data.kind === "correction") this.resync();
  }

  /* This phone's seat was claimed on another phone: stop, and say so instead of the game. */
  revoke(text) {
    this.revoked = true;
    this.es.close();
    this.status(false);
    const main = document.querySelector("main");
    if (main) main.replaceChildren(h("section", { class: "card" }, h("p", { class: "turn", text })));
  }

  /* Fetch the picture and log as they stand now; the picture, or null. */
  async resync() {
    const res = await api("GET", this.path.replace("/events", ""));
    if (!res.ok) return null;
    this.log = res.data.log || this.log;
    this.show(res.data);
    return this.pic;
  }

  show(pic) {
    // Seqs only grow (an undo is an event too): never let an older picture replace a newer.
    if (this.pic && pic.seq < this.pic.seq) return;
    this.pic = pic;
    document.body.dataset.seq = String(pic.seq);
    this.on.picture(pic, this.log);
  }

  /* Draw the picture on screen again (a tap changed what the page shows around it). */
  redraw() {
    if (this.pic) this.on.picture(this.pic, this.log);
  }

  /* The chip in the bar: live, or reconnecting. */
  status(up) {
    const el = document.getElementById("live");
    if (!el) return;
    el.textContent = up ? "live" : "reconnecting…";
    el.className = "chip " + (up ? "live" : "down");
  }
}
