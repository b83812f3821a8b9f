/* Ca$h 'n Guns' words for the pages every game shares (see js/shell.js): the host page's
 * phase line and "waiting for" come from here too. The game has no dice: no move is a roll. */

/* The manual's steps, as the phase line names them. */
export const PHASES = {
  loot: "1. Loot", bullets: "2. Bullet cards", hold_up: "3. Hold-up",
  change_target: "4. The Godfather's order", courage: "5. Courage", sharing: "7. Loot sharing",
  over: "the end",
};

const DOES = {
  flip: "flip the Loot", load: "put a Bullet card down", aim: "aim",
  confirm_aim: "confirm the aim recorded", privilege: "use the Godfather's privilege",
  courage: "lie down or shout Banzai!", take: "take a share", discard: "discard a card (Clip)",
};

function phase(pic) {
  const v = pic.view;
  return `Turn ${v.turn} of ${v.turns} · ${PHASES[v.phase] || v.phase}` + (v.godfather ? ` · Godfather: ${v.godfather}` : "");
}

export const words = { phase, does: DOES, rollField: () => null };
