/* The phone's "Your move" card: the player's choices (the engine's legal actions for this
 * phone only), grouped the way the rulebook's turn goes.
 *
 * In Resolution, sets are grouped by the dice they use, with every neighborhood each can
 * claim or muscle into; favors that open a new claim or muscle-out come first (★); recruit
 * and bet. Tapping dice narrows the choices to what exactly those dice can do.
 */
import { h } from "../../js/dom.js";

const SHOWN_FAVORS = 4;  // favors that help, shown before "more"
const OPEN_SETS = 3;     // dice groups of sets shown open, not folded

/* The button for one choice; `act(choice)` sends it. */
function choiceButton(c, act, extraClass) {
  return h("button", {
    class: "choice" + (c.helps ? " helps" : "") + (extraClass ? " " + extraClass : ""),
    dataset: { group: c.group, action: JSON.stringify(c.action) },
    onclick: () => act(c),
  }, c.label, c.helps ? h("span", { class: "why", text: "★ " + c.helps }) : null);
}

function folded(summary, buttons, open = false) {
  return h("details", { open }, h("summary", { text: summary }), buttons);
}

function sameDice(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/* A choice that is one tap: show a favor, answer an offer, pick a Favor spot, lock Vegas
 * dice. */
function direct(pic, groups, button) {
  const cs = groups("reveal_favor", "take_favor", "request", "choose_favor_spot", "keep_vegas");
  if (!cs.length) return [];
  const first = cs[0].group;
  const title = first === "reveal_favor" ? "Show a favor to the Godfather (it stays hidden until all are down)"
    : first === "take_favor" || first === "request" ? `The offer to ${pic.view.offer ? pic.view.offer.target : ""}: take the favor, or name a number`
      : first === "keep_vegas" ? "Red Vegas dice: which do you lock at their value? (the rest are rolled)"
        : "Your soldier goes to the Favor track";
  return [h("h3", { text: title }), h("div", { class: "choices-row" }, cs.map((c) => button(c)))];
}

/* What exactly the tapped dice can do. */
function picked(pic, faces, button) {
  if (!faces.length) return [];
  const cs = pic.choices.filter((c) => c.group !== "pass" && c.dice.length && sameDice(c.dice, faces));
  return [h("h3", { text: `With ${faces.join("-")}:` }),
    cs.length ? h("div", {}, cs.map((c) => button(c, "picked")))
      : h("p", { class: "muted small", text: "Nothing takes exactly these dice. Tap dice to change the selection." })];
}

/* Claims and muscle-outs, by the dice each set uses. */
function sets(pic, groups, button) {
  const cs = groups("claim", "muscle_out");
  if (!cs.length) {
    return groups("pass").length && pic.view.phase === "resolution"
      ? [h("p", { class: "muted small", text: "No set of your dice claims or muscles into a neighborhood now." })] : [];
  }
  const byDice = {};
  for (const c of cs) (byDice[c.dice.join("-")] ||= []).push(c);
  const open = Object.keys(byDice).length <= OPEN_SETS;
  return [h("h3", { text: "Claim or muscle in (tap one)" }),
    ...Object.entries(byDice).map(([dice, list]) =>
      folded(`${dice}: ${list.length} neighborhood${list.length > 1 ? "s" : ""}`, list.map((c) => button(c)), open))];
}

/* Favors: those that open a new claim or muscle-out first. */
function favors(groups, button) {
  const cs = groups("favor");
  if (!cs.length) return [];
  const helping = cs.filter((c) => c.helps);
  const others = cs.filter((c) => !c.helps);
  const out = [h("h3", { text: "Favors" })];
  if (helping.length) {
    out.push(h("div", {}, helping.slice(0, SHOWN_FAVORS).map((c) => button(c))));
    if (helping.length > SHOWN_FAVORS) {
      out.push(folded(`More favors that help (${helping.length - SHOWN_FAVORS})`, helping.slice(SHOWN_FAVORS).map((c) => button(c))));
    }
  } else out.push(h("p", { class: "muted small", text: "No favor opens a new neighborhood right now." }));
  if (others.length) out.push(folded(`Other favors (${others.length})`, others.map((c) => button(c))));
  return out;
}

function recruitOrBet(groups, button) {
  const recruit = groups("recruit"), bet = groups("bet");
  if (!recruit.length && !bet.length) return [];
  return [h("h3", { text: "Recruit muscle or bet on Vegas" }),
    h("p", { class: "muted small", text: "Tap dice above to see what they can do, or pick here." }),
    recruit.length ? folded(`Recruit (${recruit.length} ways)`, recruit.map((c) => button(c))) : null,
    bet.length ? folded(`Bet (${bet.length} ways)`, bet.map((c) => button(c))) : null];
}

function rerolls(groups, button) {
  const cs = groups("reroll");
  if (!cs.length) return [];
  return [h("h3", { text: "Free reroll: tap the dice to roll again, or keep them" }),
    folded(`All rerolls (${cs.length})`, cs.map((c) => button(c)))];
}

function pass(groups, button) {
  const cs = groups("pass");
  return cs.length ? [h("div", { style: "margin-top:.6rem" }, cs.map((c) => button(c, "primary")))] : [];
}

/* The #choices card, or null when the player has nothing to choose; `faces` are the dice
 * tapped (sorted), `act(choice)` sends a choice. */
export function builder(pic, faces, act) {
  if (!pic.choices.length) return null;
  const groups = (...g) => pic.choices.filter((c) => g.includes(c.group));
  const button = (c, extraClass) => choiceButton(c, act, extraClass);
  return h("section", { class: "card", id: "choices" }, h("h2", { text: "Your move" }),
    direct(pic, groups, button), picked(pic, faces, button), sets(pic, groups, button),
    favors(groups, button), recruitOrBet(groups, button), rerolls(groups, button), pass(groups, button));
}
