/* A New Don's words for the pages every game shares (see js/shell.js). */

const DOES = {
  godfather_roll: "roll for Godfather", vegas_roll: "roll the Vegas dice",
  keep_vegas: "choose Vegas dice to lock", roll: "roll", reveal_favor: "show a favor",
  offer: "make an offer", choose_favor_spot: "pick a Favor spot", reroll: "reroll or keep",
  resolve: "resolve",
};

// The dice actions, and the field that holds their faces.
const ROLLS = { roll: "faces", godfather_roll: "face", vegas_roll: "faces" };

function phase(pic) {
  const v = pic.view;
  return `Round ${v.round} · ${v.phase.replace("_", " ")} phase` + (v.godfather ? ` · Godfather: ${v.godfather}` : "");
}

export const words = { phase, does: DOES, rollField: (move) => ROLLS[move.type] || null };
