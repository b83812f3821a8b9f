/* The families, the tracks and Vegas, as every New Don page shows them. A soldier is a marker:
 * the family's colour with its initials, so two families of like colours still read apart. */
import { h } from "../../js/dom.js";
import { marker } from "../../js/colours.js";
import { donDie } from "./dice.js";

/* The Muscle track: each space with the family on it (any number in the Zero Zone); the
 * Godfather's red 3 marked. */
export function muscleTrack(board, view) {
  const track = board.muscle_track;
  return h("div", { class: "track" }, track.labels.map((label, pos) => {
    const godfather = pos === track.godfather_position;
    const zero = label === "Zero Zone";
    const here = view.players.filter((p) => p.muscle_position === pos);
    return h("div", { class: "space" + (godfather ? " godfather" : "") + (zero ? " zero" : ""),
      title: godfather ? "the Godfather's red 3" : (zero ? "the Zero Zone" : null), dataset: { pos: String(pos) } },
      h("div", { class: "label", text: zero ? "0" : label }),
      h("div", { class: "tokens" }, here.map((p) => marker(view.players, p.name))));
  }));
}

/* The Favor track: each spot's favor, with the soldiers on it. */
export function favorTrack(board, view) {
  return h("table", { class: "favor" }, board.favor_track.map((f) => {
    const spot = String(f.spot);
    return h("tr", {},
      h("th", { text: spot }), h("td", { class: "small", text: f.text }),
      h("td", { class: "tokens" }, view.players.filter((p) => p.favor_tokens[spot]).map((p) =>
        h("span", { class: "favor-count", title: `${p.name}: ${p.favor_tokens[spot]}` },
          marker(view.players, p.name, { classes: "small" }),
          p.favor_tokens[spot] > 1 ? `×${p.favor_tokens[spot]}` : null))));
  }));
}

/* Vegas: who holds each number, and the red dice on the table. */
export function vegasBox(view) {
  return h("div", {},
    h("div", { class: "vegas" }, view.vegas.map((v) => h("span", { class: "vegas-spot", dataset: { spot: String(v.number) } },
      h("b", { text: String(v.number) }), v.holder ? marker(view.players, v.holder, { classes: "small" }) : h("span", { class: "muted", text: "—" })))),
    view.vegas_faces.length ? h("div", { class: "dice", style: "margin-top:.4rem" },
      h("span", { class: "small muted", text: "Red dice: " }),
      view.vegas_faces.map((f) => donDie(f, { small: true, red: true }))) : null);
}

/* Each family as `viewer` sees it: House, muscle, neighborhoods, the favor shown, and any dice
 * the rules have made public (never the viewer's own: their page shows those itself). */
function family(view, p, viewer) {
  const favorShown = p.favor !== null && p.favor !== undefined;
  return h("div", { class: "player", dataset: { player: p.name } },
    h("div", { class: "name" }, marker(view.players, p.name),
      h("span", { class: "who", text: p.name === viewer ? `${p.name} (you)` : p.name, title: p.name }),
      view.godfather === p.name ? h("span", { class: "chip godfather-badge", text: "Godfather" }) : null),
    h("div", { class: "small muted facts" },
      h("span", { text: `House ${p.house}` }), h("span", { class: "fact-muscle", text: ` · Muscle ${p.muscle}` }),
      h("span", { text: ` · ${p.neighborhoods.length} neighborhood${p.neighborhoods.length === 1 ? "" : "s"}` })),
    favorShown && p.name !== viewer ? h("div", { class: "small" }, "Favor shown: ", donDie(p.favor, { small: true })) : null,
    p.favor_revealed && !favorShown ? h("div", { class: "small muted", text: "Favor down (hidden until all are down)" }) : null,
    p.absent.length ? h("div", { class: "small muted", text: `Has no ${p.absent.join(", ")}` }) : null,
    p.dice && p.name !== viewer ? h("div", { class: "dice" }, p.dice.map((d) =>
      donDie(d.face, { small: true, owner: p.name, setsOnly: d.sets_only, extra: d.imaginary }))) : null);
}

export function familiesBox(view, viewer) {
  return h("div", { class: "players" }, view.players.map((p) => family(view, p, viewer)));
}
