/* A phone's dice prompts from the table's dice reader, on its own stream only: "Roll your 5
 * dice", "3 of 5 dice settled" with the faces so far, a problem to fix, and "is this red
 * die yours?". */
import { h, toast } from "./dom.js";
import { dieFace } from "./dice.js";
import { answerWhose, whoseCard } from "./whose.js";

export class DicePrompts {
  /* `page` is the phone's body dataset (game, player, csrf); `live` its Live picture. */
  constructor(page, live) {
    this.page = page;
    this.live = live;
    this.rolling = null;  // {text, faces}: this phone's roll as the dice reader counts it
    this.whose = null;    // a `whose_die` message: a shared die that may be this player's
  }

  /* A `dice` message from the stream. */
  take(message) {
    const kind = message.kind;
    if (kind === "problem") { toast(message.text); return; }
    if (kind === "whose_die") this.whose = message;
    else if (kind === "roll_wanted" || kind === "progress") this.rolling = { text: this.say(message.text), faces: [] };
    else if (kind === "counted") {
      const faces = this.rolling ? this.rolling.faces : [];
      this.rolling = { text: this.say(message.text), faces: [...faces, message.face].slice(-message.need) };
    } else return;
    this.live.redraw();
  }

  /* The dice reader's words as this phone says them: simulated dice roll by themselves. */
  say(text) {
    return this.page.diceMode === "simulated" ? `Simulated dice roll for you: ${text.replace(/^Roll your/, "your")}` : text;
  }

  /* The cards to show: "is it yours?", and the roll's progress while this phone is asked to
   * roll (`rollWanted`). */
  cards(rollWanted) {
    if (!rollWanted) this.rolling = null;
    return [this.whose ? this.whoseCard() : null, this.rolling ? this.progressCard() : null];
  }

  whoseCard() {
    return whoseCard(this.whose, [
      h("button", { class: "primary", id: "whose-mine", onclick: () => this.mine() }, "Yes, it's mine"), " ",
      h("button", { onclick: () => { this.whose = null; this.live.redraw(); } }, "Not mine")]);
  }

  async mine() {
    const asked = this.whose;
    this.whose = null;
    if (!(await answerWhose(this.page.game, this.page.csrf, asked, this.page.player))) this.whose = asked;
    this.live.redraw();
  }

  progressCard() {
    return h("section", { class: "card dice-progress", id: "dice-progress" },
      h("p", { class: "turn me", text: this.rolling.text }),
      this.rolling.faces.length ? h("div", { class: "dice" }, this.rolling.faces.map((f) => dieFace(f, { classes: ["small"] }))) : null);
  }
}
