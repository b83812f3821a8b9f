/* Monopoly's words for the pages every game shares (see js/shell.js), and its controls on the
 * host page: what the table may enter for a player (HostControls, see js/pages/host.js). */
export { HostControls } from "./table-entry.js";

const DOES = {
  roll: "roll the dice", deeds: "take the Title Deeds dealt", don_card: "enter the Don card dealt",
  answer_deal: "answer the deal", bid: "bid or pass", raise_cash: "raise the money owed",
  mortgage_fees: "repay or keep the mortgaged property received", place_building: "place the building won",
  jail: "choose how to leave Jail", buy: "buy or auction", draw: "enter the card drawn", end_turn: "end the turn",
};

function phase(pic) {
  const v = pic.view;
  const speed = v.options && v.options.speed_play ? " · Speed Play" : "";
  if (v.phase === "setup") return "Dealing: Title Deeds and Don cards" + speed;
  if (v.phase === "order") return "Who goes first? Each player rolls" + speed;
  if (v.phase === "over") return `Game over after round ${v.round}` + speed;
  return `Round ${v.round} · ${v.turn}'s turn` + speed;
}

export const words = { phase, does: DOES, rollField: (move) => (move.type === "roll" ? "dice" : null) };
