/* The Godfather Game (1971)'s words for the pages every game shares (see js/shell.js). */

export const DOES = {
  roll_for_first: "roll the dice for the first turn", breaks_roll: "roll for the Breaks of the Game",
  play_card: "play the held card", break_card: "enter the Break card drawn",
  fingerman: "remove pieces (Fingerman)", give_up: "give up a piece", sell: "sell pieces to pay a Bad Break",
  place: "buy and position pieces", draw: "enter the card drawn",
};

const STEPS = {
  roll_for_first: "rolling for the first turn", play_card: "the held card", breaks_roll: "Breaks of the Game",
  break_card: "a Break card", fingerman: "the Fingerman", lose_pieces: "a Bad Break's pieces",
  sell: "paying a Bad Break", penalty: "a challenged declaration", place: "buying and positioning",
  draw: "drawing a card", over: "game over", shuffle: "shuffling",
};

function phase(pic) {
  const v = pic.view;
  const step = STEPS[v.step] || v.step.replaceAll("_", " ");
  return v.turn ? `Turn ${v.turn.number} · ${v.turn.player} · ${step}` : step;
}

export const words = { phase, does: DOES, rollField: (move) => (move.type === "roll" ? "faces" : null) };
