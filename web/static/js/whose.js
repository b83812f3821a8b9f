/* A shared die (a red die) that two rolling players could have rolled: whose is it?
 *
 * The host page offers a button per candidate, a candidate's phone asks "yours?". Answered
 * on another screen meanwhile (or counted, or rolled again), the tap is refused with the
 * reason and the card goes.
 */
import { send } from "./api.js";
import { h, toast } from "./dom.js";

/* Which die a `whose_die` message is about. */
export function dieKey(message) {
  return `${message.die.source}/${message.die.die}`;
}

export function whoseCard(message, buttons) {
  return h("section", { class: "card whose", dataset: { die: dieKey(message) } },
    h("p", { class: "turn me", text: message.text }), h("p", {}, buttons));
}

/* Say whose it is, as the host or as the player themself; true once it counts. */
export async function answerWhose(game, csrf, message, player, { asHost = false } = {}) {
  const done = await send(`/api/games/${game}/dice/whose`, { ...message.die, player }, { csrf, asHost });
  if (done) toast(`The ${message.noun || "die"} counts for ${done.player}.`, true);
  return done !== null;
}
