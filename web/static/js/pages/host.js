/* The host page: the seats and their join codes, undo, corrections, ending the game, and
 * "whose red die is this?". The host sees what the table sees: no hidden die. */
import { api, send } from "../api.js";
import { fill, h, toast } from "../dom.js";
import { paint, swatch } from "../colours.js";
import { gameModule } from "../games.js";
import { Live } from "../live.js";
import { plainWords, showLog, showTurn } from "../shell.js";
import { answerWhose, dieKey, whoseCard } from "../whose.js";
import { Bots } from "./bots.js";

const CORRECTABLE = 30;  // the last rolls offered for a correction
const UNDOABLE = 40;     // the last moves offered to undo back to

/* Seats: who has joined (or is a bot), and one join code on screen at a time (a code is its
 * player's secret: whoever scans it takes the seat). */
class Seats {
  constructor(page, onShow) {
    this.page = page;
    this.onShow = onShow;  // the bots' card lists the seats too
    this.seats = [];
    this.shown = null;  // whose code is on screen
  }

  async load() {
    const res = await api("GET", `/api/games/${this.page.game}/seats`);
    if (res.ok) this.show(res.data.seats);
  }

  show(seats) {
    this.seats = seats;
    if (!seats.some((st) => st.join && st.name === this.shown)) this.shown = null;
    fill("seats", h("ul", { class: "seat-list" }, seats.map((st) => this.row(st))));
    const st = seats.find((x) => x.join && x.name === this.shown);
    fill("seat-qr", st ? this.code(st) : null);
    this.onShow(seats);
  }

  showCode(name) {
    this.shown = name;
    this.show(this.seats);
  }

  row(st) {
    const chip = st.bot ? `bot · ${st.bot.level}` : st.joined ? "joined" : "not joined";
    return h("li", { dataset: { seat: st.name, joined: st.joined ? "1" : "0", bot: st.bot ? "1" : "0" } },
      swatch(paint(st.colour)), h("b", { text: st.name }), " ",
      h("span", { class: st.joined || st.bot ? "chip live" : "chip", text: chip }), " ",
      st.join ? h("button", { class: st.name === this.shown ? "choice small" : "small", onclick: () => this.showCode(st.name) }, "Show code") : null,
      h("button", { class: "small", onclick: () => this.newCode(st) }, "New code"));
  }

  code(st) {
    const qr = `/host/${this.page.game}/seats/qr?player=${encodeURIComponent(st.name)}&v=${encodeURIComponent(st.join.slice(-8))}`;
    return h("figure", { class: "seat-code" },
      h("figcaption", { text: `${st.name}: scan with your phone` }),
      h("img", { src: qr, alt: `join code for ${st.name}` }),
      h("a", { class: "small join-link", href: st.join, text: "link" }),
      h("button", { class: "small", onclick: () => this.showCode(null) }, "Hide"));
  }

  /* A lost phone: a new code for the seat (the phone holding it loses it once it is used). */
  async newCode(st) {
    const warn = st.joined ? ` The phone holding ${st.name}'s seat now loses it when the new code is scanned.` : "";
    const done = await send(`/api/games/${this.page.game}/seats/code`, { player: st.name },
      { csrf: this.page.csrf, confirm: `Give ${st.name} a new code?${warn}` });
    if (!done) return;
    this.shown = st.name;
    this.show(done.seats);
  }
}

/* The moves in effect, to undo back to or (a roll) to correct. */
class Moves {
  constructor(page) {
    this.page = page;
    this.moves = [];
    this.asked = -1;  // the seq the list was last asked for
    this.words = plainWords;
  }

  /* Fetch the list again if the game moved on since. */
  follow(seq) {
    if (seq > this.asked) { this.asked = seq; this.load(); }
  }

  async load() {
    const res = await api("GET", `/api/games/${this.page.game}/moves`);
    if (!res.ok) return;
    this.moves = res.data.moves;
    this.show();
  }

  show() {
    const option = (m, data) => h("option", { value: String(m.seq), dataset: data, text: `move ${m.seq}: ${m.lines[0] || m.type}` });
    const rolls = this.moves.filter((m) => this.words.rollField(m)).slice(-CORRECTABLE).reverse();
    fill("correct-move", rolls.map((m) => option(m, { type: m.type, player: m.player, field: this.words.rollField(m) })));
    fill("undo-move", this.moves.slice(-UNDOABLE).reverse().map((m) => option(m, {})));
  }

  /* The corrected roll from the chosen move and the faces typed, or null. */
  correction() {
    const opt = document.getElementById("correct-move").selectedOptions[0];
    if (!opt) return null;
    const faces = (document.getElementById("correct-faces").value.match(/[1-6]/g) || []).map(Number);
    const { type, player, field } = opt.dataset;
    return {
      target: Number(opt.value),
      action: { type, player, [field]: field === "face" ? faces[0] : faces },
      why: document.getElementById("correct-why").value,
    };
  }
}

export function start(page) {
  const seats = new Seats(page, (list) => bots.setSeats(list));
  const bots = new Bots(page, (list) => seats.show(list));
  const moves = new Moves(page);
  let words = null;  // see loadWords: the first picture says which game this is
  let controls = null;  // the game's own host controls, if its words module has them
  const whose = new Map();  // dieKey -> whose_die message

  async function hostSend(path, body, confirm) {
    const done = await send(`/api/games/${page.game}/${path}`, body, { csrf: page.csrf, asHost: true, live, confirm });
    if (done) toast("Done.", true);
  }

  function render(pic, log) {
    if (!words) loadWords(pic.game);
    showTurn(pic, words);
    fill("game-controls", controls ? controls.card(pic) : null);
    fill("status", pic.status);
    document.getElementById("export").hidden = pic.status === "active" && !pic.scores;
    showLog(log);
    moves.follow(pic.seq);
    bots.follow(pic.seq);
    showRolling();
  }

  /* The game's own words: the phase line, what each player is waited for, which moves are
   * rolls (to correct). Meanwhile, and for a game without them, the plain ones. A game's words
   * module may also export `HostControls`, a class made with (page, live) whose `card(pic)`
   * is drawn under whose turn it is (an element, or null): what the table enters for a
   * player, where the game's `table_may_enter` allows it (Monopoly: the card drawn). */
  async function loadWords(game) {
    words = plainWords;
    const own = await gameModule(game, "words");
    words = own.words;
    if (own.HostControls) controls = new own.HostControls(page, live);
    moves.words = words;
    moves.show();
    live.redraw();
  }

  // Who is rolling on the table's dice now, each with "start the roll again" (a die that was
  // missed). Asked again on every dice message and every move; none with no dice reader.
  async function showRolling() {
    const res = await api("GET", `/api/games/${page.game}/dice`);
    const names = res.ok ? res.data.rolling || [] : [];
    document.getElementById("rolling-card").hidden = names.length === 0;
    fill("rolling", names.map((name) => h("p", { dataset: { rolling: name } },
      h("b", { text: name }), " ",
      h("button", { class: "small", onclick: () => voidRoll(name) }, `Start ${name}'s roll again`))));
  }

  async function voidRoll(name) {
    // Not a move: the reply is no picture, and the game's seq does not change.
    const done = await send(`/api/games/${page.game}/dice/void`, { player: name },
      { csrf: page.csrf, asHost: true, confirm: `Start ${name}'s roll again? The dice rolled so far are forgotten.` });
    if (done) { toast("Done.", true); showRolling(); }
  }

  // "Whose red die is this?": a button per player it could be.
  function showWhose() {
    fill("whose", [...whose.values()].map((d) => whoseCard(d, d.candidates.map((name) =>
      h("button", { class: "choice", dataset: { player: name }, onclick: () => {
        whose.delete(dieKey(d));
        showWhose();
        answerWhose(page.game, page.csrf, d, name, { asHost: true });
      } }, `${name}'s`)))));
  }

  function wire(id, onclick) {
    document.getElementById(id).addEventListener("click", onclick);
  }
  wire("undo-last", () => hostSend("undo", {}, "Undo the last move?"));
  wire("undo-to", () => {
    const target = Number(document.getElementById("undo-move").value);
    if (target) hostSend("undo", { target }, `Undo move ${target} and every move after it?`);
  });
  wire("correct", () => {
    const fix = moves.correction();
    if (fix) hostSend("corrections", fix);
  });
  wire("end-game", () => hostSend("status", { status: "finished" }, "End the game now and score it as it stands?"));
  wire("reopen", () => hostSend("status", { status: "active" }));

  const live = new Live(`/api/games/${page.game}/events?as=table`, {
    picture: render,
    dice: (d) => {
      if (d.kind === "whose_die") { whose.set(dieKey(d), d); showWhose(); }
      showRolling();
    },
    notice: () => { seats.load(); bots.load(); },  // someone joined, a seat moved, a bot sat down
  });
  seats.load();
  live.connect();
}
