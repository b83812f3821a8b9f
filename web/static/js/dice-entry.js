/* Typing a roll on a phone: tap the face of each die rolled, then send them.
 *
 * The rolls a game waits for from this phone come with its picture (`dice_wanted`: does,
 * count, faces, prompt, ask) and go to POST .../dice/roll. A roll names the request it
 * answers (`ask`), not a seq, so other players' moves meanwhile never make it stale.
 *
 * Nothing typed is lost while others play: the entry is its own element, built once per
 * request and left in place while the pictures of other players' moves come and go (a tap
 * pressed while the page redraws still lands on the same button), and the faces tapped so far
 * stay until the roll asked for changes or is sent. A refused send keeps them too.
 *
 * A page either gives the entry a slot of its own (`show`, the entry is kept in an element
 * with that id) or, if it rebuilds its whole tree on every picture, puts `card(pic)` in it:
 * the same element comes back each time, so it keeps its taps either way.
 */
import { send } from "./api.js";
import { h } from "./dom.js";
import { dieFace } from "./dice.js";

/* What the phone says to do, by how the table reads its dice (`companion serve --dice`). */
function howTo(mode) {
  if (mode === "bluetooth") return "your smart dice report themselves, or tap the faces you see.";
  return "then tap the faces you see.";
}

export class DiceEntry {
  /* `page` is the phone's body dataset (game, csrf, phoneDice, diceMode), `live` its Live
   * picture; `show` draws the entry into the element with id `slot`. `drawFace(face, {slot,
   * classes})` draws a face the way the game's dice look (by default with pips): `slot` is the
   * die's place in the roll, undefined on a face's button. */
  constructor(page, live, { slot = "entry", drawFace = dieFace } = {}) {
    this.page = page;
    this.live = live;
    this.slot = slot;
    this.drawFace = drawFace;
    this.faces = [];
    this.asked = null;  // the `ask` of the roll being typed
    this.el = null;     // its card, kept while that roll is asked
    this.sending = false;
  }

  /* The first roll `pic` asks of this phone, or null. Simulated dice roll by themselves. */
  wanted(pic) {
    const wanted = (pic.dice_wanted || [])[0];
    if (!wanted || pic.status !== "active" || this.page.phoneDice !== "1") return null;
    return this.page.diceMode === "simulated" ? null : wanted;
  }

  /* The entry's card for `pic` (the same element while the same roll is asked), or null;
   * `red` lists the kinds of roll (`does`) whose dice are drawn red. Called on every picture:
   * the card is built only when the roll asked for changes. */
  card(pic, { red = [] } = {}) {
    const wanted = this.wanted(pic);
    if (!wanted) {
      this.asked = null;
      this.faces = [];
      this.el = null;
      return null;
    }
    if (this.asked !== wanted.ask || !this.el) {
      this.faces = this.asked === wanted.ask ? this.faces : [];
      this.asked = wanted.ask;
      this.el = this.build(wanted, red.includes(wanted.does) ? ["red"] : []);
    }
    this.update();
    return this.el;
  }

  /* Show the entry for `pic` in the element with id `slot` (or empty it). */
  show(pic, options = {}) {
    const slot = document.getElementById(this.slot);
    const el = this.card(pic, options);
    if (!slot) return;
    if (!el) {
      if (slot.firstChild) slot.replaceChildren();
    } else if (slot.firstChild !== el) {
      slot.replaceChildren(el);
      // A new roll is asked for: bring it into view if the player scrolled away (once).
      if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
    }
  }

  build(wanted, looks) {
    const n = wanted.count;
    const prompt = wanted.prompt || `Roll your ${n} ${n === 1 ? "die" : "dice"}`;
    this.looks = looks;
    this.n = n;
    this.slots = h("div", { class: "slots" });
    this.faceButtons = wanted.faces.map((f) => h("button", {
      class: "face", dataset: { face: String(f) }, "aria-label": `face ${f}`, onclick: () => this.tap(f),
    }, this.drawFace(f, {})));
    this.clear = h("button", { class: "clear", onclick: () => this.untap() }, "⌫ Undo tap");
    this.sendButton = h("button", { class: "primary send", onclick: () => this.send(wanted) }, "Send roll");
    return h("section", { class: "card entry", id: "dice-entry", dataset: { count: String(n), type: wanted.does, ask: wanted.ask } },
      h("h2", { text: "Dice" }),
      h("p", { text: `${prompt}: ${howTo(this.page.diceMode)}` }),
      this.slots,
      h("div", { class: "faces" }, this.faceButtons),
      h("div", { class: "actions" }, this.clear, this.sendButton));
  }

  /* The slots and buttons as the taps so far make them (the buttons stay the same nodes). */
  update() {
    const n = this.n;
    this.slots.replaceChildren(...Array.from({ length: n }, (_, i) =>
      this.faces[i] ? this.drawFace(this.faces[i], { slot: i, classes: this.looks }) : h("span", { class: "slot" })));
    this.el.dataset.tapped = String(this.faces.length);
    for (const b of this.faceButtons) b.disabled = this.faces.length >= n;
    this.clear.disabled = !this.faces.length || this.sending;
    this.sendButton.disabled = this.faces.length !== n || this.sending;
  }

  tap(face) {
    if (this.faces.length < this.n) { this.faces.push(face); this.update(); }
  }

  untap() {
    this.faces.pop();
    this.update();
  }

  async send(wanted) {
    this.sending = true;
    this.update();
    const done = await send(`/api/games/${this.page.game}/dice/roll`, { faces: this.faces.slice(), ask: wanted.ask },
      { csrf: this.page.csrf, live: this.live, anySeq: true });
    this.sending = false;
    if (done) this.faces = [];
    if (this.el) this.update();
  }
}
