/* The companion's pages: no framework, just the API and one event stream per page.
 *
 * Everything shown comes from the server's picture for this page's viewer (the engine's
 * player_view); the page never guesses at anyone's dice. Text from players (names) is always
 * set with textContent, never as HTML.
 */
"use strict";

const PAGE = document.body.dataset;
const PALETTE = {
  red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835", black: "#222",
  white: "#f5f5f5", purple: "#8e24aa", orange: "#fb8c00", pink: "#ec407a", brown: "#795548",
};
const FALLBACK = ["#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00"];

/* --- small helpers -------------------------------------------------------------------- */

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

function fill(id, ...children) {
  const el = document.getElementById(id);
  if (el) el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  return el;
}

function colourOf(view, name) {
  const i = view.players.findIndex((p) => p.name === name);
  const c = i >= 0 ? view.players[i].colour : null;
  if (c && PALETTE[c.toLowerCase()]) return PALETTE[c.toLowerCase()];
  if (c && /^#[0-9a-f]{3,8}$/i.test(c)) return c;
  return FALLBACK[Math.max(0, i) % FALLBACK.length];
}

function swatch(view, name) {
  return h("span", { class: "swatch", style: `background:${colourOf(view, name)}` });
}

let toastTimer = null;
function toast(text, ok) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = "toast show" + (ok ? " ok" : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = "toast"; }, ok ? 2500 : 7000);
}

function keyFor() {
  return (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
}

async function api(method, path, body, csrf) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let res;
  try {
    res = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    return { ok: false, status: 0, data: { reason: "the companion cannot be reached; check the Wi-Fi" } };
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = {}; }
  return { ok: res.ok, status: res.status, data };
}

function refusal(data) {
  return (data.reason || "refused") + (data.rule ? ` (${data.rule})` : "");
}

/* --- dice ------------------------------------------------------------------------------ */

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[25, 25], [50, 50], [75, 75]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

function dieFace(face, opts = {}) {
  const svg = s("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" },
    ...PIPS[face].map(([x, y]) => s("circle", { cx: x, cy: y, r: 10, fill: "#1b1408" })));
  const cls = ["die", opts.small && "small", opts.red && "red", opts.setsOnly && "sets-only",
    opts.extra && "extra", opts.selected && "selected"].filter(Boolean).join(" ");
  const attrs = { class: cls, role: "img", "aria-label": `die showing ${face}` };
  if (opts.owner) attrs.dataset = { owner: opts.owner, face: String(face) };
  return h("span", attrs, svg);
}

/* Where each of my dice came from, as far as the view says: red Vegas dice I locked, dice a
 * player handed me as Godfather, the extra die of favor 5, dice a Free Reroll touched. */
function diceWithOrigins(me) {
  const locked = [...(me.locked || [])];
  const collected = [...(me.collected || [])];
  return (me.dice || []).map((d) => {
    let origin = "rolled";
    const li = locked.indexOf(d.face);
    const ci = collected.indexOf(d.face);
    if (d.imaginary) origin = "extra die";
    else if (li >= 0) { origin = "Vegas (locked)"; locked.splice(li, 1); }
    else if (ci >= 0) { origin = "handed over"; collected.splice(ci, 1); }
    if (d.sets_only) origin += ", sets only";
    return { ...d, origin, red: origin.startsWith("Vegas") };
  });
}

/* --- the board map (SVG from the board data) --------------------------------------------- */

function drawBoard(svg, board, view) {
  const hoods = board.neighborhoods.filter((n) => n.at);
  const xs = hoods.map((n) => n.at[0]);
  const ys = hoods.map((n) => n.at[1]);
  const pad = 48;
  const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad;
  const minY = Math.min(...ys) - pad - 18, maxY = Math.max(...ys) + pad;
  svg.setAttribute("viewBox", `${minX} ${minY} ${maxX - minX} ${maxY - minY + 22}`);
  svg.replaceChildren();
  const at = Object.fromEntries(hoods.map((n) => [n.id, n.at]));
  for (const d of board.districts) {
    const mine = hoods.filter((n) => n.district === d.face);
    if (!mine.length) continue;
    const x0 = Math.min(...mine.map((n) => n.at[0])) - 40, x1 = Math.max(...mine.map((n) => n.at[0])) + 40;
    const y0 = Math.min(...mine.map((n) => n.at[1])) - 52, y1 = Math.max(...mine.map((n) => n.at[1])) + 38;
    svg.append(s("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 14,
      fill: d.colour, "fill-opacity": 0.16, stroke: d.colour, "stroke-width": 2 }));
    svg.append(s("text", { x: x0 + 10, y: y0 + 16, fill: d.colour, "font-size": 13, "font-weight": 700,
      text: `${d.name} · ${d.points.join("/")} pts` }));
  }
  const bridges = new Set(board.bridges.map((p) => p.join("|")));
  for (const [a, b] of board.adjacency) {
    if (!at[a] || !at[b]) continue;
    svg.append(s("line", { x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1],
      stroke: bridges.has(`${a}|${b}`) ? "#c9a227" : "#6d5f50", "stroke-width": 2,
      "stroke-dasharray": bridges.has(`${a}|${b}`) ? "6 4" : null }));
  }
  const colours = Object.fromEntries(board.districts.map((d) => [d.face, d.colour]));
  for (const n of hoods) {
    const holder = view ? view.neighborhoods[n.id] : null;
    const [x, y] = n.at;
    const g = s("g", { class: "hood", "data-id": n.id, "data-holder": holder || "" });
    g.append(s("rect", { x: x - 33, y: y - 27, width: 66, height: 54, rx: 9, fill: "#f3ece2",
      stroke: colours[n.district], "stroke-width": 4 }));
    g.append(s("text", { x, y: y - 10, "text-anchor": "middle", "font-size": 13, "font-weight": 700,
      fill: "#1b1408", text: n.name }));
    g.append(s("text", { x, y: y + 3, "text-anchor": "middle", "font-size": 8.5, fill: "#4e4236",
      text: n.set.replace("any straight with a ", "straight w/ ") }));
    if (holder) {
      g.append(s("circle", { cx: x, cy: y + 15, r: 9, fill: colourOf(view, holder), stroke: "#000",
        "stroke-width": 1.5 }));
      g.append(s("text", { x, y: y + 19, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
        fill: "#000", stroke: "#fff", "stroke-width": 0.6, text: holder.slice(0, 1) }));
    }
    g.append(s("title", { text: `${n.name}: ${n.set}${holder ? `, held by ${holder}` : ", empty"}` }));
    svg.append(g);
  }
  if (board.placeholder) {
    svg.append(s("text", { x: maxX - 8, y: maxY + 16, "text-anchor": "end", "font-size": 13,
      fill: "#c9a227", "font-weight": 700,
      text: "PLACEHOLDER LAYOUT: not the printed board (companion board check)" }));
  }
}

/* --- tracks, Vegas, Houses, whose turn ----------------------------------------------------- */

const DOES = {
  godfather_roll: "roll for Godfather", vegas_roll: "roll the Vegas dice",
  keep_vegas: "choose Vegas dice to lock", roll: "roll", reveal_favor: "show a favor",
  offer: "make an offer", choose_favor_spot: "pick a Favor spot", reroll: "reroll or keep",
  resolve: "resolve",
};

function whoseTurn(pic) {
  const v = pic.view;
  if (pic.status !== "active") return `The game is ${pic.status}.`;
  if (v.phase === "game_over") return "Game over.";
  const parts = v.waiting.map((w) => (w.player === pic.viewer ? "You" : w.player) + " to " +
    (DOES[w.does] || w.does) + (w.dice ? ` (${w.dice} ${w.dice === 1 ? "die" : "dice"})` : ""));
  return parts.length ? "Waiting: " + parts.join("; ") : "";
}

function phaseLine(pic) {
  const v = pic.view;
  const phase = v.phase.replace("_", " ");
  return `Round ${v.round} · ${phase} phase` + (v.godfather ? ` · Godfather: ${v.godfather}` : "");
}

function muscleTrack(board, view) {
  const labels = board.muscle_track.labels;
  return h("div", { class: "track" }, labels.map((label, pos) => h("div", {
    class: "space" + (pos === board.muscle_track.godfather_position ? " godfather" : ""),
    title: pos === board.muscle_track.godfather_position ? "the Godfather's red 3" : null,
  }, h("div", { text: label === "Zero Zone" ? "0" : label }),
  h("div", { class: "tokens" }, view.players.filter((p) => p.muscle_position === pos)
    .map((p) => h("span", { class: "token", title: p.name, style: `background:${colourOf(view, p.name)}` }))))));
}

function favorTrack(board, view) {
  return h("table", { class: "favor" }, board.favor_track.map((f) => h("tr", {},
    h("th", { text: String(f.spot) }), h("td", { class: "small", text: f.text }),
    h("td", {}, view.players.filter((p) => p.favor_tokens[String(f.spot)])
      .map((p) => h("span", { title: p.name },
        ...Array.from({ length: p.favor_tokens[String(f.spot)] },
          () => h("span", { class: "token", style: `background:${colourOf(view, p.name)}` }))))))));
}

function vegasBox(view) {
  return h("div", {},
    h("div", { class: "choices-row" }, view.vegas.map((v) => h("span", { class: "chip" },
      `${v.number}: `, v.holder ? swatch(view, v.holder) : "—", v.holder ? ` ${v.holder}` : ""))),
    view.vegas_faces.length ? h("div", { class: "dice", style: "margin-top:.4rem" },
      h("span", { class: "small muted", text: "Red dice: " }),
      view.vegas_faces.map((f) => dieFace(f, { small: true, red: true }))) : null);
}

function playersBox(view, viewer) {
  return h("div", { class: "players" }, view.players.map((p) => h("div", {
    class: "player", dataset: { player: p.name } },
  h("div", { class: "name" }, swatch(view, p.name), p.name === viewer ? `${p.name} (you)` : p.name,
    view.godfather === p.name ? h("span", { class: "chip", text: "Godfather" }) : null),
  h("div", { class: "small muted" },
    `House ${p.house} · Muscle ${p.muscle} · ${p.neighborhoods.length} neighborhoods`),
  p.favor !== null && p.favor !== undefined && p.name !== viewer
    ? h("div", { class: "small" }, "Favor shown: ", dieFace(p.favor, { small: true })) : null,
  p.favor_revealed && (p.favor === null || p.favor === undefined)
    ? h("div", { class: "small muted", text: "Favor down (hidden until all are down)" }) : null,
  p.absent.length ? h("div", { class: "small muted", text: `Has no ${p.absent.join(", ")}` }) : null,
  p.dice && p.name !== viewer ? h("div", { class: "dice" }, p.dice.map((d) =>
    dieFace(d.face, { small: true, owner: p.name, setsOnly: d.sets_only, extra: d.imaginary }))) : null,
  )));
}

function logBox(id, entries) {
  const el = fill(id, ...entries.slice().reverse().flatMap((e) => e.lines.map((line) =>
    h("p", { class: e.missed ? "missed" : null, dataset: { seq: String(e.seq) }, text: line }))));
  return el;
}

/* --- the live picture: one EventSource, resync on wake ------------------------------------ */

class Live {
  constructor(path, onPicture) {
    this.path = path;
    this.onPicture = onPicture;
    this.pic = null;
    this.log = [];
    this.es = null;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!this.es || this.es.readyState === 2)) this.connect();
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
      if (es.readyState === 2) setTimeout(() => { if (this.es === es) this.connect(); }, 3000);
    });
    es.addEventListener("view", (e) => {
      const data = JSON.parse(e.data);
      this.log = data.log || [];
      const missed = this.log.filter((x) => x.missed).length;
      if (missed) toast(`While you were away: ${missed} move${missed > 1 ? "s" : ""} (marked in the log)`, true);
      this.show(data);
    });
    es.addEventListener("dice", (e) => { if (this.onDice) this.onDice(JSON.parse(e.data)); });
    es.addEventListener("notice", (e) => {
      const data = JSON.parse(e.data);
      toast(data.text, true);
      if (this.onNotice) this.onNotice(data);
    });
    // This phone's seat was claimed on another phone: stop, and say so instead of the game.
    es.addEventListener("revoked", (e) => {
      this.revoked = true;
      es.close();
      this.status(false);
      const main = document.querySelector("main");
      if (main) main.replaceChildren(h("section", { class: "card" },
        h("p", { class: "turn", text: JSON.parse(e.data).text })));
    });
    es.addEventListener("update", (e) => {
      const data = JSON.parse(e.data);
      if (data.lines && data.lines.length) this.log.push({ seq: data.seq, lines: data.lines });
      this.show(data);
      if (data.kind === "undo" || data.kind === "correction") this.resync();
    });
  }

  async resync() {
    const res = await api("GET", this.path.replace("/events", ""));
    if (res.ok) { this.log = res.data.log || this.log; this.show(res.data); }
  }

  show(pic) {
    // Seqs only grow (an undo is an event too): never let an older picture replace a newer.
    if (this.pic && pic.seq < this.pic.seq) return;
    this.pic = pic;
    document.body.dataset.seq = String(pic.seq);
    this.onPicture(pic, this.log);
  }

  status(up) {
    const el = document.getElementById("live");
    if (!el) return;
    el.textContent = up ? "live" : "reconnecting…";
    el.className = "chip " + (up ? "live" : "down");
  }
}

/* --- table screen ------------------------------------------------------------------------ */

async function tablePage() {
  const id = PAGE.game;
  const boardRes = await api("GET", `/api/games/${id}/board`);
  const board = boardRes.data;
  fill("board-name", board.name);
  if (board.placeholder) {
    fill("placeholder", h("div", { class: "placeholder-banner",
      text: `Placeholder board: ${board.placeholder_facts} facts (layout, sets, points) are not from the printed board yet.` }));
  }
  const live = new Live(`/api/games/${id}/events?as=table`, (pic, log) => {
    const v = pic.view;
    drawBoard(document.getElementById("board"), board, v);
    fill("phase", phaseLine(pic));
    fill("turn", whoseTurn(pic));
    fill("muscle", muscleTrack(board, v));
    fill("favor", favorTrack(board, v));
    fill("vegas", vegasBox(v));
    fill("players", playersBox(v, null));
    logBox("log", log);
    const over = document.getElementById("over");
    if (pic.scores && over) {
      over.hidden = false;
      fill("scores", scoreTable(pic.scores, v), scoreChart(pic.scores, v, board));
    }
  });
  // The table sees who is rolling, never how many dice or what they show.
  live.onDice = (d) => toast(d.text, true);
  live.connect();
}

/* --- end of game: score table and chart ----------------------------------------------------- */

function scoreTable(scores, view) {
  const names = view.players.map((p) => p.name);
  const rows = scores.districts.map((d) => h("tr", {}, h("td", { text: d.district }),
    names.map((n) => h("td", { class: "num", text: d.neighborhoods[n] ? `${d.points[n]} (${d.neighborhoods[n]})` : (d.points[n] ? String(d.points[n]) : "–") }))));
  rows.push(h("tr", {}, h("td", { text: "House" }), names.map((n) =>
    h("td", { class: "num", text: `${scores.house.points[n]} (${scores.house.soldiers[n]})` }))));
  rows.push(h("tr", { class: "total" }, h("td", { text: "Total" }), names.map((n) =>
    h("td", { class: "num", text: String(scores.totals[n]) }))));
  return h("div", {},
    h("p", { class: "turn", text: `Winner: ${scores.winners.join(" and ")}` + (scores.tie_break ? ` (${scores.tie_break})` : "") }),
    h("table", { class: "scores" },
      h("tr", {}, h("th", { text: "points (neighborhoods)" }), names.map((n) => h("th", { class: "num" }, swatch(view, n), " ", n))),
      rows));
}

function scoreChart(scores, view, board) {
  const names = view.players.map((p) => p.name);
  const max = Math.max(1, ...names.map((n) => scores.totals[n]));
  const colours = board ? Object.fromEntries(board.districts.map((d) => [d.name, d.colour])) : {};
  const W = 600, row = 34, left = 90;
  const svg = s("svg", { viewBox: `0 0 ${W} ${names.length * row + 30}`, role: "img", "aria-label": "points per player, by district" });
  names.forEach((n, i) => {
    let x = left;
    const y = 8 + i * row;
    svg.append(s("text", { x: 4, y: y + 18, fill: "#f3ece2", "font-size": 14, text: n }));
    const parts = scores.districts.map((d) => [d.district, d.points[n] || 0, colours[d.district] || "#888"]);
    parts.push(["House", scores.house.points[n] || 0, "#bdbdbd"]);
    for (const [label, pts, colour] of parts) {
      if (!pts) continue;
      const w = (pts / max) * (W - left - 50);
      svg.append(s("rect", { x, y, width: w, height: row - 10, fill: colour, stroke: "#000" },
        s("title", { text: `${label}: ${pts}` })));
      x += w;
    }
    svg.append(s("text", { x: x + 6, y: y + 18, fill: "#f3ece2", "font-size": 14, "font-weight": 700, text: String(scores.totals[n]) }));
  });
  return h("div", { class: "chart" }, svg);
}

async function endPage() {
  const id = PAGE.game;
  const [pic, board] = await Promise.all([api("GET", `/api/games/${id}?as=table`), api("GET", `/api/games/${id}/board`)]);
  if (!pic.ok) { fill("scores", refusal(pic.data)); return; }
  if (!pic.data.scores) {
    fill("scores", h("p", { text: "The game is not over yet. " }, h("a", { href: `/table/${id}`, text: "Table screen" })));
    return;
  }
  fill("scores", scoreTable(pic.data.scores, pic.data.view), scoreChart(pic.data.scores, pic.data.view, board.data));
  fill("end-reason", pic.data.view.end || "The host ended the game.");
}

/* --- the player's phone ------------------------------------------------------------------- */

function phonePage() {
  const id = PAGE.game;
  const me = PAGE.player;
  const csrf = PAGE.csrf;
  let board = null;
  let selected = [];  // indices into my dice
  let entry = [];     // faces tapped in the dice entry
  let entryFor = "";
  let busy = false;

  async function send(path, body) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    const res = await api("POST", `/api/games/${id}/${path}`, { ...body, expected_seq: live.pic.seq, key: keyFor() }, csrf);
    busy = false;
    delete document.body.dataset.busy;
    if (!res.ok) {
      toast(refusal(res.data));
      if (res.status === 409) live.resync();
      return;
    }
    selected = [];
    entry = [];
    live.show(res.data);
  }

  function act(action) { return send("actions", { action }); }

  function choiceButton(c, extraClass) {
    return h("button", {
      class: "choice" + (c.helps ? " helps" : "") + (extraClass ? " " + extraClass : ""),
      dataset: { group: c.group, action: JSON.stringify(c.action) },
      onclick: () => act(c.action),
    }, c.label, c.helps ? h("span", { class: "why", text: "★ " + c.helps }) : null);
  }

  function myDice(pic) {
    const mine = pic.view.players.find((p) => p.name === me);
    return mine ? diceWithOrigins(mine) : [];
  }

  function selectedFaces(dice) {
    return selected.map((i) => dice[i] && dice[i].face).filter(Boolean).sort((a, b) => a - b);
  }

  function sameDice(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }

  function diceRow(dice, selectable) {
    return h("div", { class: "dice", id: "my-dice" }, dice.map((d, i) => {
      const face = dieFace(d.face, { owner: me, red: d.red, setsOnly: d.sets_only, extra: d.imaginary, selected: selected.includes(i) });
      const body = h("div", { class: "die-wrap" }, face, h("div", { class: "die-tag", text: d.origin }));
      return selectable ? h("button", { class: "die-button", dataset: { index: String(i) }, "aria-pressed": selected.includes(i) ? "true" : "false",
        onclick: () => { selected = selected.includes(i) ? selected.filter((x) => x !== i) : [...selected, i]; render(live.pic); } }, body) : body;
    }));
  }

  function diceEntry(w) {
    const key = `${w.does}:${live.pic.seq}`;
    if (entryFor !== key) { entry = []; entryFor = key; }
    const n = w.dice || 1;
    const type = w.does === "godfather_roll" ? "godfather_roll" : w.does === "vegas_roll" ? "vegas_roll" : "roll";
    const what = { godfather_roll: "Roll one die for Godfather", vegas_roll: `Roll the ${n} red Vegas dice`, roll: `Roll your ${n} ${n === 1 ? "die" : "dice"}` }[type];
    const submit = () => {
      const action = type === "godfather_roll" ? { type, player: me, face: entry[0] } : { type, player: me, faces: entry.slice() };
      act(action);
    };
    return h("section", { class: "card entry", id: "dice-entry", dataset: { count: String(n), type } },
      h("h2", { text: "Dice" }),
      h("p", { text: `${what}, then tap the faces you see.` }),
      h("div", { class: "slots" }, Array.from({ length: n }, (_, i) => entry[i] ? dieFace(entry[i], { red: type === "vegas_roll" }) : h("span", { class: "slot" }))),
      h("div", { class: "faces" }, [1, 2, 3, 4, 5, 6].map((f) => h("button", {
        class: "face", dataset: { face: String(f) }, "aria-label": `face ${f}`, disabled: entry.length >= n,
        onclick: () => { if (entry.length < n) { entry.push(f); render(live.pic); } },
      }, dieFace(f)))),
      h("div", { class: "actions" },
        h("button", { class: "clear", disabled: !entry.length, onclick: () => { entry.pop(); render(live.pic); } }, "⌫ Undo tap"),
        h("button", { class: "primary send", disabled: entry.length !== n, onclick: submit }, "Send roll")));
  }

  function builder(pic, dice) {
    const cs = pic.choices;
    if (!cs.length) return null;
    const faces = selectedFaces(dice);
    const groups = (...g) => cs.filter((c) => g.includes(c.group));
    const out = [];
    const direct = groups("reveal_favor", "take_favor", "request", "choose_favor_spot", "keep_vegas");
    if (direct.length) {
      const title = direct[0].group === "reveal_favor" ? "Show a favor to the Godfather (it stays hidden until all are down)"
        : ["take_favor", "request"].includes(direct[0].group) ? `The offer to ${pic.view.offer ? pic.view.offer.target : ""}: take the favor, or name a number`
          : direct[0].group === "keep_vegas" ? "Red Vegas dice: which do you lock at their value? (the rest are rolled)"
            : "Your soldier goes to the Favor track";
      out.push(h("h3", { text: title }), h("div", { class: "choices-row" }, direct.map((c) => choiceButton(c))));
    }
    const sets = groups("claim", "muscle_out");
    const recruit = groups("recruit"), bet = groups("bet"), reroll = groups("reroll");
    const favors = groups("favor");
    const pass = groups("pass");
    const picked = faces.length ? cs.filter((c) => c.group !== "pass" && c.dice.length && sameDice(c.dice, faces)) : [];
    if (faces.length) {
      out.push(h("h3", { text: `With ${faces.join("-")}:` }));
      out.push(picked.length ? h("div", {}, picked.map((c) => choiceButton(c, "picked")))
        : h("p", { class: "muted small", text: "Nothing takes exactly these dice. Tap dice to change the selection." }));
    }
    if (sets.length) {
      const byDice = {};
      for (const c of sets) (byDice[c.dice.join("-")] ||= []).push(c);
      out.push(h("h3", { text: "Claim or muscle in (tap one)" }));
      for (const [k, list] of Object.entries(byDice)) {
        out.push(h("details", { open: Object.keys(byDice).length <= 3 ? true : null },
          h("summary", { text: `${k}: ${list.length} neighborhood${list.length > 1 ? "s" : ""}` }), list.map((c) => choiceButton(c))));
      }
    } else if (pass.length && pic.view.phase === "resolution") {
      out.push(h("p", { class: "muted small", text: "No set of your dice claims or muscles into a neighborhood now." }));
    }
    if (favors.length) {
      const helping = favors.filter((c) => c.helps);
      const others = favors.filter((c) => !c.helps);
      out.push(h("h3", { text: "Favors" }));
      if (helping.length) {
        out.push(h("div", {}, helping.slice(0, 4).map((c) => choiceButton(c))));
        if (helping.length > 4) out.push(h("details", {}, h("summary", { text: `More favors that help (${helping.length - 4})` }), helping.slice(4).map((c) => choiceButton(c))));
      } else out.push(h("p", { class: "muted small", text: "No favor opens a new neighborhood right now." }));
      if (others.length) out.push(h("details", {}, h("summary", { text: `Other favors (${others.length})` }), others.map((c) => choiceButton(c))));
    }
    if (recruit.length || bet.length) {
      out.push(h("h3", { text: "Recruit muscle or bet on Vegas" }),
        h("p", { class: "muted small", text: "Tap dice above to see what they can do, or pick here." }));
      if (recruit.length) out.push(h("details", {}, h("summary", { text: `Recruit (${recruit.length} ways)` }), recruit.map((c) => choiceButton(c))));
      if (bet.length) out.push(h("details", {}, h("summary", { text: `Bet (${bet.length} ways)` }), bet.map((c) => choiceButton(c))));
    }
    if (reroll.length) {
      out.push(h("h3", { text: "Free reroll: tap the dice to roll again, or keep them" }),
        h("details", {}, h("summary", { text: `All rerolls (${reroll.length})` }), reroll.map((c) => choiceButton(c))));
    }
    if (pass.length) out.push(h("div", { style: "margin-top:.6rem" }, pass.map((c) => choiceButton(c, "primary"))));
    return h("section", { class: "card", id: "choices" }, h("h2", { text: "Your move" }), out);
  }

  function render(pic) {
    const v = pic.view;
    const dice = myDice(pic);
    const mine = v.players.find((p) => p.name === me);
    fill("phase", phaseLine(pic));
    const turn = fill("turn", whoseTurn(pic));
    turn.className = "turn" + (v.waiting.some((w) => w.player === me) ? " me" : "");
    const waits = v.waiting.filter((w) => w.player === me && ["roll", "godfather_roll", "vegas_roll"].includes(w.does));
    const cards = [];
    if (pic.scores) {
      cards.push(h("section", { class: "card" }, h("h2", { text: "Game over" }),
        h("p", { text: v.end || "The host ended the game." }), scoreTable(pic.scores, v),
        h("p", {}, h("a", { href: `/end/${id}`, text: "Scores and chart" }))));
    }
    if (whose) {
      cards.push(whoseCard(whose, [
        h("button", { class: "primary", id: "whose-mine", onclick: async () => {
          const d = whose;
          whose = null;
          if (!(await answerWhose(id, csrf, d, "player", me))) whose = d;
          render(live.pic);
        } }, "Yes, it's mine"), " ",
        h("button", { onclick: () => { whose = null; render(live.pic); } }, "Not mine")]));
    }
    if (rolling && waits.length) {
      cards.push(h("section", { class: "card dice-progress", id: "dice-progress" },
        h("p", { class: "turn me", text: rolling.text }),
        rolling.faces && rolling.faces.length ? h("div", { class: "dice" }, rolling.faces.map((f) => dieFace(f, { small: true }))) : null));
    } else if (!waits.length) rolling = null;
    if (pic.status === "active" && waits.length && PAGE.phoneDice === "1") cards.push(diceEntry(waits[0]));
    const selectable = pic.choices.some((c) => c.dice.length);
    if (!pic.scores) cards.push(h("section", { class: "card", id: "dice-card" }, h("h2", { text: "Your dice" }),
      dice.length ? diceRow(dice, selectable) : h("p", { class: "muted", text: "No dice behind your screen." }),
      mine && mine.favor ? h("p", { class: "small" }, "Your favor: ", dieFace(mine.favor, { small: true })) : null));
    const b = builder(pic, dice);
    if (b) cards.push(b);
    if (pic.can_undo) {
      cards.push(h("section", { class: "card" }, h("button", { class: "danger", id: "undo", onclick: () => send("undo", {}) }, "Undo my last move")));
    }
    fill("cards", cards);
    fill("others", playersBox(v, me));
    if (board) drawBoard(document.getElementById("board"), board, v);
    logBox("log", live.log);
  }

  const live = new Live(`/api/games/${id}/events?as=player`, render);
  // Dice progress from the table's dice reader: this phone's own stream only.
  let rolling = null;
  let whose = null;  // a red die that may be this player's: "yours?"
  live.onDice = (d) => {
    if (d.kind === "problem") { toast(d.text); return; }
    if (d.kind === "whose_die") { whose = d; if (live.pic) render(live.pic); return; }
    if (d.kind === "roll_wanted" || d.kind === "progress") rolling = { text: d.text, faces: [] };
    else if (d.kind === "counted") rolling = { text: d.text, faces: [...((rolling && rolling.faces) || []), d.face].slice(-d.need) };
    else return;
    if (live.pic) render(live.pic);
  };
  api("GET", `/api/games/${id}/board`).then((res) => { board = res.data; if (live.pic) render(live.pic); });
  live.connect();
}

/* --- a red die two players could have rolled ------------------------------------------------ */

// A "whose_die" dice message: the host page offers every candidate, a candidate's phone asks
// "yours?". Answered (or refused: counted already, rolled again), the card goes.
function dieKey(d) { return `${d.die.source}/${d.die.die}`; }

function whoseCard(d, buttons) {
  return h("section", { class: "card whose", dataset: { die: dieKey(d) } },
    h("p", { class: "turn me", text: d.text }), h("p", {}, buttons));
}

async function answerWhose(game, csrf, d, role, player) {
  const res = await api("POST", `/api/games/${game}/dice/whose`, { ...d.die, player, as: role }, csrf);
  toast(res.ok ? `The red die counts for ${res.data.player}.` : refusal(res.data), res.ok);
  return res.ok;
}

/* --- host page ------------------------------------------------------------------------------ */

function hostPage() {
  const id = PAGE.game;
  const csrf = PAGE.csrf;
  let moves = [];

  async function send(path, body, confirmText) {
    if (confirmText && !window.confirm(confirmText)) return null;
    const res = await api("POST", `/api/games/${id}/${path}`, { ...body, as: "host", expected_seq: live.pic.seq, key: keyFor() }, csrf);
    if (!res.ok) { toast(refusal(res.data)); if (res.status === 409) live.resync(); return null; }
    toast("Done.", true);
    live.show(res.data);
    loadMoves();
    return res.data;
  }

  async function loadMoves() {
    const res = await api("GET", `/api/games/${id}/moves`);
    if (!res.ok) return;
    moves = res.data.moves;
    const dice = moves.filter((m) => ["roll", "godfather_roll", "vegas_roll"].includes(m.type)).slice(-30).reverse();
    fill("correct-move", dice.map((m) => h("option", { value: String(m.seq), dataset: { type: m.type, player: m.player },
      text: `move ${m.seq}: ${m.lines[0] || m.type}` })));
    fill("undo-move", moves.slice(-40).reverse().map((m) => h("option", { value: String(m.seq), text: `move ${m.seq}: ${m.lines[0] || m.type}` })));
  }

  document.getElementById("undo-last").addEventListener("click", () => send("undo", {}, "Undo the last move?"));
  document.getElementById("undo-to").addEventListener("click", () => {
    const target = Number(document.getElementById("undo-move").value);
    if (target) send("undo", { target }, `Undo move ${target} and every move after it?`);
  });
  document.getElementById("correct").addEventListener("click", () => {
    const sel = document.getElementById("correct-move");
    const opt = sel.selectedOptions[0];
    if (!opt) return;
    const faces = (document.getElementById("correct-faces").value.match(/[1-6]/g) || []).map(Number);
    const why = document.getElementById("correct-why").value;
    const type = opt.dataset.type, player = opt.dataset.player;
    const action = type === "godfather_roll" ? { type, player, face: faces[0] } : { type, player, faces };
    send("corrections", { target: Number(opt.value), action, why });
  });
  // Seats: who has joined; one join code on screen at a time (a code is its player's secret).
  let shown = null;
  async function loadSeats() {
    const res = await api("GET", `/api/games/${id}/seats`);
    if (res.ok) showSeats(res.data.seats);
  }
  function showSeats(seats) {
    const waiting = seats.filter((st) => st.join);
    if (!waiting.some((st) => st.name === shown)) shown = null;
    fill("seats", h("ul", { class: "seat-list" }, seats.map((st) => h("li", { dataset: { seat: st.name, joined: st.joined ? "1" : "0" } },
      h("span", { class: "swatch", style: `background:${PALETTE[st.colour] || "#888"}` }),
      h("b", { text: st.name }), " ",
      h("span", { class: st.joined ? "chip live" : "chip", text: st.joined ? "joined" : "not joined" }), " ",
      st.join ? h("button", { class: st.name === shown ? "choice small" : "small", onclick: () => { shown = st.name; showSeats(seats); } }, "Show code") : null,
      h("button", { class: "small", onclick: async () => {
        const warn = st.joined ? ` The phone holding ${st.name}'s seat now loses it when the new code is scanned.` : "";
        if (!window.confirm(`Give ${st.name} a new code?${warn}`)) return;
        const r = await api("POST", `/api/games/${id}/seats/code`, { player: st.name }, csrf);
        if (!r.ok) { toast(refusal(r.data)); return; }
        shown = st.name;
        showSeats(r.data.seats);
      } }, "New code")))));
    const st = waiting.find((x) => x.name === shown);
    fill("seat-qr", st ? h("figure", { class: "seat-code" },
      h("figcaption", { text: `${st.name}: scan with your phone` }),
      h("img", { src: `/host/${id}/seats/qr?player=${encodeURIComponent(st.name)}&v=${encodeURIComponent(st.join.slice(-8))}`, alt: `join code for ${st.name}` }),
      h("a", { class: "small join-link", href: st.join, text: "link" }),
      h("button", { class: "small", onclick: () => { shown = null; showSeats(seats); } }, "Hide")) : null);
  }
  loadSeats();

  document.getElementById("end-game").addEventListener("click", () => send("status", { status: "finished" }, "End the game now and score it as it stands?"));
  document.getElementById("reopen").addEventListener("click", () => send("status", { status: "active" }));

  const live = new Live(`/api/games/${id}/events?as=table`, (pic, log) => {
    fill("phase", phaseLine(pic));
    fill("turn", whoseTurn(pic));
    fill("status", pic.status);
    document.getElementById("export").hidden = pic.status === "active" && pic.view.phase !== "game_over";
    logBox("log", log);
    if (moves.length === 0 || (moves.length && moves[moves.length - 1].seq < pic.seq)) loadMoves();
  });
  // "Whose red die is this?": a button per player it could be; answered on a phone meanwhile,
  // the tap is refused with the reason and the card goes.
  const whose = new Map();
  function showWhose() {
    fill("whose", [...whose.values()].map((d) => whoseCard(d, d.candidates.map((name) =>
      h("button", { class: "choice", dataset: { player: name }, onclick: async () => {
        whose.delete(dieKey(d));
        showWhose();
        await answerWhose(id, csrf, d, "host", name);
      } }, `${name}'s`)))));
  }
  live.onDice = (d) => {
    if (d.kind === "whose_die") { whose.set(dieKey(d), d); showWhose(); }
  };
  live.onNotice = () => loadSeats();
  live.connect();
}

/* --- join: a phone takes its seat ------------------------------------------------------------ */

async function joinPage() {
  const id = PAGE.game;
  async function claim() {
    document.getElementById("join-again").hidden = true;
    fill("join-status", "Taking your seat…");
    const res = await api("POST", `/api/games/${id}/join`, { code: PAGE.code });
    if (res.ok) { window.location.replace(`/play/${id}`); return; }
    const me = await api("GET", `/api/games/${id}/me`);
    if (me.ok && me.data.player) {  // scanned again on the phone that already holds the seat
      fill("join-status", h("a", { class: "button primary", href: `/play/${id}`, text: `You sit here as ${me.data.player}: open your seat` }));
      return;
    }
    fill("join-status", refusal(res.data));
    document.getElementById("join-again").hidden = res.status !== 0;
  }
  document.getElementById("join-again").addEventListener("click", claim);
  claim();
}

/* --- pairing: which die is whose ------------------------------------------------------------- */

function pairingPage() {
  const id = PAGE.game;
  const csrf = PAGE.csrf;
  let timer = null;

  async function send(path, body) {
    const res = await api("POST", `/api/games/${id}/dice/${path}`, body, csrf);
    if (!res.ok) { toast(refusal(res.data)); return null; }
    return res.data;
  }

  function dieRow(d) {
    return h("li", { class: "die-row", dataset: { die: `${d.source}/${d.die}` } },
      h("span", { text: `${d.source}/${d.die}` + (d.battery != null ? ` · battery ${Math.round(d.battery * 100)}%` : "") }), " ",
      h("button", { class: "small", onclick: async () => {
        const r = await send("blink", { source: d.source, die: d.die });
        if (r) toast(r.blinked ? `${d.die} is blinking` : r.reason, r.blinked);
      } }, "Blink"));
  }

  function show(st) {
    const p = st.pairing;
    if (p) {
      const text = p.saved ? `Saved: ${p.found.length} dice for ${p.owner}.`
        : `${p.owner}: roll your ${p.count} dice now · ${p.found.length} of ${p.count} found`;
      fill("pairing-now", text);
    }
    fill("owners", st.owners.map((o) => {
      const live = p && !p.saved && p.owner === o.owner;
      return h("section", { class: "card", dataset: { owner: o.owner } },
        h("h2", {}, h("span", { class: "swatch", style: `background:${PALETTE[o.owner === "vegas" ? "red" : o.owner] || "#888"}` }), o.label),
        h("p", {}, h("button", { class: live ? "choice" : "", dataset: { pair: o.owner },
          onclick: () => start(o.owner, o.count) }, `Roll your ${o.count === 3 ? "three red" : "five"} dice now`),
          live && p.found.length ? h("button", { onclick: save }, `Keep these ${p.found.length}`) : null),
        live ? h("ul", { class: "found" }, p.found.map(dieRow)) : null,
        h("p", { class: "small muted", text: o.dice.length ? "Paired:" : "No dice paired yet." }),
        h("ul", { class: "paired" }, o.dice.map(dieRow)));
    }));
    clearTimeout(timer);
    if (p && !p.saved) timer = setTimeout(load, 500);  // poll while dice are being rolled
  }

  async function load() {
    const res = await api("GET", `/api/games/${id}/dice`);
    if (res.ok) show(res.data);
  }
  async function start(owner, count) { const r = await send("pairing", { owner, count }); if (r) show(r); }
  async function save() { const r = await send("pairing/save", {}); if (r) show(r); }
  if (document.getElementById("owners")) load();
}

/* --- home: create a game --------------------------------------------------------------------- */

async function homePage() {
  const form = document.getElementById("create");
  if (!form) return;
  const rules = (await api("GET", "/api/rules")).data;
  const picker = document.getElementById("game");
  fill("game", rules.games.map((g) => h("option", { value: g.id, selected: g.id === rules.default ? true : null, text: g.name })));
  const chosen = () => rules.games.find((g) => g.id === picker.value);

  // One select per choice: a game's setup choices (A New Don's board side) and house rules.
  function selects(choices, key) {
    return Object.entries(choices).map(([name, o]) => h("div", {},
      h("label", { for: `${key}-${name}`, text: `${name.replaceAll("_", " ")}: ${o.text}` }),
      h("select", { id: `${key}-${name}`, dataset: { [key]: name } },
        o.values.map((v) => h("option", { value: JSON.stringify(v), selected: v === o.default ? true : null,
          text: (v === null ? "as the rules say" : String(v)) + (v === o.default ? " (default)" : "") })))));
  }
  function showGame() {
    const g = chosen();
    fill("players-hint", `Players clockwise, ${g.players[0]} to ${g.players[1]}. You will get a QR code for each phone.`);
    form.querySelectorAll(".seat-row").forEach((row, i) => { row.hidden = i >= g.players[1]; });
    fill("setup-choices", selects(g.setup, "setup"));
    fill("options", selects(g.options, "option"));
  }
  picker.addEventListener("change", showGame);
  showGame();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const g = chosen();
    const players = [];
    for (const row of form.querySelectorAll(".seat-row")) {
      const name = row.querySelector("input").value.trim();
      const colour = row.querySelector("select").value;
      if (name && !row.hidden) players.push(colour ? { name, colour } : name);
    }
    const body = { game: g.id, players, options: {} };
    for (const sel of form.querySelectorAll("select[data-option]")) {
      const value = JSON.parse(sel.value);
      if (value !== g.options[sel.dataset.option].default) body.options[sel.dataset.option] = value;
    }
    for (const sel of form.querySelectorAll("select[data-setup]")) {
      const value = JSON.parse(sel.value);
      if (value !== null) body[sel.dataset.setup] = value;
    }
    const res = await api("POST", "/api/games", body, PAGE.csrf);
    if (!res.ok) { toast(refusal(res.data)); return; }
    window.location.href = `/host/${res.data.game_id}`;
  });
}

/* --- start the page --------------------------------------------------------------------------- */

({ table: tablePage, play: phonePage, host: hostPage, home: homePage, end: endPage, pairing: pairingPage, join: joinPage }[PAGE.page] || (() => {}))();
