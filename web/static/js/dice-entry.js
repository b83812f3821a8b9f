/* Typing a roll on a phone: tap the face of each die rolled, then send them.
 *
 * The rolls a game waits for from this phone come with its picture (`dice_wanted`: does,
 * count, faces, prompt, ask) and go to POST .../dice/roll. A roll names the request it
 * answers (`ask`), not a seq, so other players' moves meanwhile never make it stale; and the
 * faces tapped so far survive them too, until the roll asked for changes or is sent.
 */
import { send } from "./api.js";
import { h } from "./dom.js";
import { dieFace } from "./dice.js";

export class DiceEntry {
  /* `page` is the phone's body dataset (game, csrf, phoneDice), `live` its Live picture.
   * `drawFace(face, {slot, classes})` draws a face the way the game's dice look (by default
   * with pips): `slot` is the die's place in the roll, undefined on a face's button. */
  constructor(page, live, { drawFace = dieFace } = {}) {
    this.page = page;
    this.live = live;
    this.drawFace = drawFace;
    this.faces = [];
    this.asked = null;
  }

  /* The #dice-entry card for the first roll `pic` asks of this phone, or null. `red` lists
   * the kinds of roll (`does`) whose dice are drawn red. */
  card(pic, { red = [] } = {}) {
    const wanted = (pic.dice_wanted || [])[0];
    if (!wanted || pic.status !== "active" || this.page.phoneDice !== "1") return null;
    if (this.asked !== wanted.ask) { this.faces = []; this.asked = wanted.ask; }
    const n = wanted.count;
    const looks = red.includes(wanted.does) ? ["red"] : [];
    const prompt = wanted.prompt || `Roll your ${n} ${n === 1 ? "die" : "dice"}`;
    return h("section", { class: "card entry", id: "dice-entry", dataset: { count: String(n), type: wanted.does } },
      h("h2", { text: "Dice" }),
      h("p", { text: `${prompt}, then tap the faces you see.` }),
      h("div", { class: "slots" }, Array.from({ length: n }, (_, i) =>
        this.faces[i] ? this.drawFace(this.faces[i], { slot: i, classes: looks }) : h("span", { class: "slot" }))),
      h("div", { class: "faces" }, wanted.faces.map((f) => h("button", {
        class: "face", dataset: { face: String(f) }, "aria-label": `face ${f}`, disabled: this.faces.length >= n,
        onclick: () => this.tap(f, n),
      }, this.drawFace(f, {})))),
      h("div", { class: "actions" },
        h("button", { class: "clear", disabled: !this.faces.length, onclick: () => this.untap() }, "⌫ Undo tap"),
        h("button", { class: "primary send", disabled: this.faces.length !== n, onclick: () => this.send(wanted) }, "Send roll")));
  }

  tap(face, count) {
    if (this.faces.length < count) { this.faces.push(face); this.live.redraw(); }
  }

  untap() {
    this.faces.pop();
    this.live.redraw();
  }

  async send(wanted) {
    const done = await send(`/api/games/${this.page.game}/dice/roll`, { faces: this.faces.slice(), ask: wanted.ask },
      { csrf: this.page.csrf, live: this.live, anySeq: true });
    if (!done) return;
    this.faces = [];
    this.live.redraw();
  }
}
