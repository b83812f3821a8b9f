/* "What would a bot play?": a player's hint, worked out on the companion from that player's
 * own view only (the table can switch hints off on the host page). Asking changes nothing. */
import { api, refusal } from "./api.js";
import { h, toast } from "./dom.js";

export class Hint {
  constructor(page, live) {
    this.page = page;
    this.live = live;
    this.shown = null;   // the last hint, for the picture (seq) it was asked in
    this.asking = false;
    this.off = false;    // the table said no: the button goes away
  }

  /* What the card shows, for a page that redraws only what changed. */
  state() {
    return [this.asking, this.off, this.shown && this.shown.seq, this.shown && this.shown.action];
  }

  /* The hint card while the viewer has a choice to make, or null. */
  card(pic) {
    if (this.off || pic.status !== "active" || pic.scores || (pic.choices || []).length < 2) return null;
    const fresh = this.shown && this.shown.seq === pic.seq ? this.shown : null;
    return h("section", { class: "card", id: "hint-card" },
      h("button", { class: "small", id: "hint", disabled: this.asking, onclick: () => this.ask() },
        this.asking ? "Thinking…" : "What would a bot play?"),
      fresh ? h("p", { class: "hint", id: "hint-text", dataset: { action: JSON.stringify(fresh.action) } },
        "A bot would play ", h("b", { text: fresh.label }),
        fresh.reason ? `: it ${fresh.reason}.` : ".") : null);
  }

  async ask() {
    this.asking = true;
    this.live.redraw();
    const res = await api("POST", `/api/games/${this.page.game}/hint`, {}, this.page.csrf);
    this.asking = false;
    if (res.ok) this.shown = res.data;
    else {
      toast(refusal(res.data));
      if (res.data.error === "hints_off") this.off = true;
    }
    this.live.redraw();
  }
}
