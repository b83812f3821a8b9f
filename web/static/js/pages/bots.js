/* The host page's bots: seat a bot where nobody has joined (its level, its time per move, and
 * who rolls its dice), hand a seat back to a person, type a real die rolled for a bot, switch
 * the players' hints on or off, and read what the bots did and why. A bot plays from its own
 * seat's view only, like a phone. */
import { api, send } from "../api.js";
import { fill, h, toast } from "../dom.js";

export class Bots {
  constructor(page, showSeats) {
    this.page = page;
    this.showSeats = showSeats;  // the seats card, redrawn from a reply's seats
    this.data = null;
    this.seats = [];
    this.asked = -1;  // the seq the bots were last asked for
    document.getElementById("hints-allowed").addEventListener("change", (e) => this.setHints(e.target.checked));
  }

  /* Ask again if the game moved on (a roll owed, a new reason). */
  follow(seq) {
    if (seq > this.asked) { this.asked = seq; this.load(); }
  }

  async load() {
    const res = await api("GET", `/api/games/${this.page.game}/bots`);
    if (res.ok) { this.data = res.data; this.show(); }
  }

  setSeats(seats) {
    this.seats = seats;
    this.show();
  }

  show() {
    if (!this.data) return;
    document.getElementById("hints-allowed").checked = this.data.hints;
    fill("bots", h("ul", { class: "seat-list" }, this.seats.map((st) => this.row(st))));
    fill("bot-rolls", this.data.rolls.map((r) => this.rollRow(r)));
    fill("bot-reasons", this.data.recent.filter((x) => x.reason).slice(-6).reverse().map((x) =>
      h("li", { text: `${x.player} ${x.reason}` })));
  }

  levelSelect(current) {
    return h("select", { class: "bot-level", "aria-label": "level" }, this.data.levels.map((lv) =>
      h("option", { value: lv.name, selected: lv.name === current, title: lv.text, text: lv.name })));
  }

  row(st) {
    const data = { botSeat: st.name };
    if (st.bot) {
      const level = this.levelSelect(st.bot.level);
      const ms = h("input", { class: "bot-ms", type: "number", min: "20", max: "10000", step: "10",
        value: String(Math.round(st.bot.budget * 1000)), "aria-label": "milliseconds per move" });
      const dice = h("select", { class: "bot-dice", "aria-label": "who rolls its dice" },
        h("option", { value: "companion", selected: st.bot.dice === "companion", text: "the companion rolls" }),
        h("option", { value: "table", selected: st.bot.dice === "table", text: "someone rolls a real die" }));
      return h("li", { dataset: data }, h("b", { text: st.name }), " ",
        h("span", { class: "chip live", text: `bot · ${st.bot.level}` }), " ", level, " ", ms, " ms ", dice, " ",
        h("button", { class: "small", onclick: () => this.seat(st.name, level.value, Number(ms.value), dice.value) }, "Save"), " ",
        h("button", { class: "small", onclick: () => this.unseat(st.name) }, "Hand back to a person"));
    }
    if (st.joined) {
      return h("li", { dataset: data }, h("b", { text: st.name }), " ", h("span", { class: "small muted", text: "a phone holds this seat" }));
    }
    const level = this.levelSelect(this.data.default);
    return h("li", { dataset: data }, h("b", { text: st.name }), " ", level, " ",
      h("button", { class: "small seat-bot", onclick: () => this.seat(st.name, level.value) }, "Seat a bot"));
  }

  rollRow(r) {
    const faces = h("input", { inputmode: "numeric", placeholder: `${r.count} faces, e.g. 3 3 4`, "aria-label": `faces rolled for ${r.player}` });
    return h("p", { dataset: { botRoll: r.player } }, `${r.prompt || "Roll"} for ${r.player}: `, faces, " ",
      h("button", { class: "small", onclick: () => this.roll(r, faces.value) }, "Enter the roll"));
  }

  async post(path, body, confirm) {
    const done = await send(`/api/games/${this.page.game}/${path}`, body, { csrf: this.page.csrf, asHost: true, confirm });
    if (!done) return null;
    toast("Done.", true);
    return done;
  }

  async seat(player, level, ms, dice) {
    const body = { player, level };
    if (ms) body.ms = ms;
    if (dice) body.dice = dice;
    const done = await this.post("bots", body);
    if (done) { this.data = done; this.showSeats(done.seats); }
  }

  async unseat(player) {
    const done = await this.post("bots/remove", { player }, `Hand ${player}'s seat back to a person? It gets a new code to scan.`);
    if (done) { this.data = done; this.showSeats(done.seats); }
  }

  async roll(r, text) {
    const faces = (text.match(/[1-6]/g) || []).map(Number);
    if (faces.length !== r.count) { toast(`${r.player} rolls ${r.count} dice: type ${r.count} faces`); return; }
    if (await this.post("bots/roll", { player: r.player, faces, ask: r.ask })) this.load();
  }

  async setHints(allowed) {
    const done = await this.post("hints", { allowed });
    if (done) { this.data = done; this.show(); } else this.show();
  }
}
