/* Typing a roll on a phone: tap the face of each die rolled, then send them.
 *
 * The faces tapped so far survive other players' moves; they are dropped when the roll
 * asked for changes or once it is sent.
 */
import { h } from "./dom.js";
import { dieFace } from "./dice.js";

export class DiceEntry {
  /* `redraw()` draws the page again after a tap. */
  constructor(redraw) {
    this.redraw = redraw;
    this.faces = [];
    this.asked = null;
  }

  /* The #dice-entry card for one roll:
   *   ask      what tells this roll from the next one
   *   count    how many dice
   *   prompt   what to roll ("Roll your 5 dice")
   *   faces    the faces these dice have (1-6)
   *   type     data-type of the card, for the game's styles and tests
   *   red      draw the tapped dice red
   *   submit(faces)  sends them; resolves true once taken */
  card({ ask, count, prompt, faces = [1, 2, 3, 4, 5, 6], type = "roll", red = false }, submit) {
    if (this.asked !== ask) { this.faces = []; this.asked = ask; }
    const looks = red ? ["red"] : [];
    return h("section", { class: "card entry", id: "dice-entry", dataset: { count: String(count), type } },
      h("h2", { text: "Dice" }),
      h("p", { text: `${prompt}, then tap the faces you see.` }),
      h("div", { class: "slots" }, Array.from({ length: count }, (_, i) =>
        this.faces[i] ? dieFace(this.faces[i], { classes: looks }) : h("span", { class: "slot" }))),
      h("div", { class: "faces" }, faces.map((f) => h("button", {
        class: "face", dataset: { face: String(f) }, "aria-label": `face ${f}`, disabled: this.faces.length >= count,
        onclick: () => this.tap(f, count),
      }, dieFace(f)))),
      h("div", { class: "actions" },
        h("button", { class: "clear", disabled: !this.faces.length, onclick: () => this.untap() }, "⌫ Undo tap"),
        h("button", { class: "primary send", disabled: this.faces.length !== count,
          onclick: () => this.send(submit) }, "Send roll")));
  }

  tap(face, count) {
    if (this.faces.length < count) { this.faces.push(face); this.redraw(); }
  }

  untap() {
    this.faces.pop();
    this.redraw();
  }

  async send(submit) {
    if (!(await submit(this.faces.slice()))) return;
    this.faces = [];
    this.redraw();
  }
}
