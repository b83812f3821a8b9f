/* Pairing the dice (host): per family and for a shared pool, "roll your dice now", the dice
 * found as they settle (polled while a pairing runs), keep fewer, and blink a die. A game
 * whose dice no reader can read says why in its words' `pairing`, shown instead. */
import { api, send } from "../api.js";
import { fill, h, toast } from "../dom.js";
import { paint, swatch } from "../colours.js";
import { gameModule } from "../games.js";

const POLL_MS = 500;
const NUMBERS = ["no", "one", "two", "three", "four", "five", "six"];
const POOL_COLOUR = { vegas: "red" };  // a shared pool is drawn in its dice's colour

/* "Roll your five dice now", "Roll your three red dice now". */
function rollNow(o) {
  const colour = POOL_COLOUR[o.owner] ? ` ${POOL_COLOUR[o.owner]}` : "";
  return `Roll your ${NUMBERS[o.count] || o.count}${colour} ${o.count === 1 ? "die" : "dice"} now`;
}

/* The game's reason its dice are not paired (its words' `pairing`), or null. */
async function notPaired(game) {
  const pic = await api("GET", `/api/games/${game}?as=table`);
  if (!pic.ok) return null;
  return (await gameModule(pic.data.game, "words")).words.pairing || null;
}

export async function start(page) {
  if (!document.getElementById("owners")) return;  // this companion reads no dice
  const why = await notPaired(page.game);
  if (why) {
    document.getElementById("mode").closest("section").hidden = true;
    fill("owners", h("section", { class: "card", id: "not-paired" }, h("p", { text: why })));
    return;
  }
  const base = `/api/games/${page.game}/dice`;
  const post = (path, body) => send(`${base}/${path}`, body, { csrf: page.csrf });
  let timer = null;

  async function load() {
    const res = await api("GET", base);
    if (res.ok) show(res.data);
  }

  async function pair(owner, count) {
    const st = await post("pairing", { owner, count });
    if (st) show(st);
  }

  async function keep() {
    const st = await post("pairing/save", {});
    if (st) show(st);
  }

  async function blink(d) {
    const r = await post("blink", { source: d.source, die: d.die });
    if (r) toast(r.blinked ? `${d.die} is blinking` : r.reason, r.blinked);
  }

  function dieRow(d) {
    const battery = d.battery != null ? ` · battery ${Math.round(d.battery * 100)}%` : "";
    return h("li", { class: "die-row", dataset: { die: `${d.source}/${d.die}` } },
      h("span", { text: `${d.source}/${d.die}${battery}` }), " ",
      h("button", { class: "small", onclick: () => blink(d) }, "Blink"));
  }

  /* One family's (or the red dice's) card; `running` is the pairing under way for it. */
  function ownerCard(o, running) {
    return h("section", { class: "card", dataset: { owner: o.owner } },
      h("h2", {}, swatch(paint(POOL_COLOUR[o.owner] || o.owner)), o.label),
      h("p", {},
        h("button", { class: running ? "choice" : "", dataset: { pair: o.owner }, onclick: () => pair(o.owner, o.count) }, rollNow(o)),
        running && running.found.length ? h("button", { onclick: keep }, `Keep these ${running.found.length}`) : null),
      running ? h("ul", { class: "found" }, running.found.map(dieRow)) : null,
      h("p", { class: "small muted", text: o.dice.length ? "Paired:" : "No dice paired yet." }),
      h("ul", { class: "paired" }, o.dice.map(dieRow)));
  }

  function show(st) {
    const p = st.pairing;
    if (p) {
      fill("pairing-now", p.saved ? `Saved: ${p.found.length} dice for ${p.owner}.`
        : `${p.owner}: roll your ${p.count} dice now · ${p.found.length} of ${p.count} found`);
    }
    const running = p && !p.saved ? p : null;
    fill("owners", st.owners.map((o) => ownerCard(o, running && running.owner === o.owner ? running : null)));
    clearTimeout(timer);
    if (running) timer = setTimeout(load, POLL_MS);  // the dice are being rolled
  }

  load();
}
