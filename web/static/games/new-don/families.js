/* The families, the tracks and Vegas, as every New Don page shows them. */
import { h } from "../../js/dom.js";
import { colourOf, swatch } from "../../js/colours.js";
import { donDie } from "./dice.js";

function token(view, name, title) {
  return h("span", { class: "token", title, style: `background:${colourOf(view.players, name)}` });
}

export function playerSwatch(view, name) {
  return swatch(colourOf(view.players, name));
}

/* The Muscle track: each space with the families on it; the Godfather's red 3 marked. */
export function muscleTrack(board, view) {
  const track = board.muscle_track;
  return h("div", { class: "track" }, track.labels.map((label, pos) => {
    const godfather = pos === track.godfather_position;
    return h("div", { class: "space" + (godfather ? " godfather" : ""), title: godfather ? "the Godfather's red 3" : null },
      h("div", { text: label === "Zero Zone" ? "0" : label }),
      h("div", { class: "tokens" }, view.players.filter((p) => p.muscle_position === pos).map((p) => token(view, p.name, p.name))));
  }));
}

/* The Favor track: each spot's favor, with the soldiers on it. */
export function favorTrack(board, view) {
  return h("table", { class: "favor" }, board.favor_track.map((f) => {
    const spot = String(f.spot);
    return h("tr", {},
      h("th", { text: spot }), h("td", { class: "small", text: f.text }),
      h("td", {}, view.players.filter((p) => p.favor_tokens[spot]).map((p) => h("span", { title: p.name },
        ...Array.from({ length: p.favor_tokens[spot] }, () => token(view, p.name, null))))));
  }));
}

/* Vegas: who holds each number, and the red dice on the table. */
export function vegasBox(view) {
  return h("div", {},
    h("div", { class: "choices-row" }, view.vegas.map((v) => h("span", { class: "chip" },
      `${v.number}: `, v.holder ? playerSwatch(view, v.holder) : "—", v.holder ? ` ${v.holder}` : ""))),
    view.vegas_faces.length ? h("div", { class: "dice", style: "margin-top:.4rem" },
      h("span", { class: "small muted", text: "Red dice: " }),
      view.vegas_faces.map((f) => donDie(f, { small: true, red: true }))) : null);
}

/* Each family as `viewer` sees it: House, muscle, neighborhoods, the favor shown, and any dice
 * the rules have made public (never the viewer's own: their page shows those itself). */
function family(view, p, viewer) {
  const favorShown = p.favor !== null && p.favor !== undefined;
  return h("div", { class: "player", dataset: { player: p.name } },
    h("div", { class: "name" }, playerSwatch(view, p.name), p.name === viewer ? `${p.name} (you)` : p.name,
      view.godfather === p.name ? h("span", { class: "chip", text: "Godfather" }) : null),
    h("div", { class: "small muted" },
      `House ${p.house} · Muscle ${p.muscle} · ${p.neighborhoods.length} neighborhoods`),
    favorShown && p.name !== viewer ? h("div", { class: "small" }, "Favor shown: ", donDie(p.favor, { small: true })) : null,
    p.favor_revealed && !favorShown ? h("div", { class: "small muted", text: "Favor down (hidden until all are down)" }) : null,
    p.absent.length ? h("div", { class: "small muted", text: `Has no ${p.absent.join(", ")}` }) : null,
    p.dice && p.name !== viewer ? h("div", { class: "dice" }, p.dice.map((d) =>
      donDie(d.face, { small: true, owner: p.name, setsOnly: d.sets_only, extra: d.imaginary }))) : null);
}

export function familiesBox(view, viewer) {
  return h("div", { class: "players" }, view.players.map((p) => family(view, p, viewer)));
}
