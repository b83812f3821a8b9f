/* Gangster Dice's words for the pages every game shares (see js/shell.js). */

const DOES = {
  character: "choose a character card", roll: "roll", bid: "choose a bid and a favor card",
  swap: "swap dice at the Speakeasy", streets: "put a die on the Streets",
  load: "put dice on the Investigator", take: "take a die off the Investigator",
};

const PHASES = {
  setup: "setting up", bids: "rolls and bids", tokens: "the tokens' effects",
  investigator: "the Investigator's die", draw: "drawing favor cards", over: "game over",
};

function phase(pic) {
  const v = pic.view;
  const what = PHASES[v.phase] || v.phase;
  return v.round ? `Round ${v.round} · ${what}` : what;
}

export const words = {
  phase,
  does: DOES,
  // A roll's faces are by die colour ({white: [...], ...}): a mistyped roll is undone by the
  // host and typed again, not corrected as a list of faces.
  rollField: () => null,
  // The bid cards' colours (data/components.toml, [bid_cards]): a seat's colour is its set
  // of bid cards, and the engine refuses any other (the browser test checks the two agree).
  colours: ["yellow", "red", "blue", "green"],
  pairing: "Gangster Dice's dice show symbols, not pips: the camera and the smart dice read "
    + "pips only, so there is nothing to pair for this game. Each player taps the symbols "
    + "they rolled on their phone, or the simulated dice (companion serve --dice simulated) "
    + "roll for them.",
};
