/* Gangster Dice on a player's phone: the roll entered by tapping symbols on a picture of your
 * dice (or rolled by the simulated dice), your dice, your hand, your secret choice (the bid
 * cards and a favor card for each), the token effects you choose, and the table around you.
 * Your hand and your bid are on this phone alone until everyone has chosen. */
import { api, send } from "../../js/api.js";
import { fill, h, toast } from "../../js/dom.js";
import { DiceEntry } from "../../js/dice-entry.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { effectLine, favorBox, favorCard, playersBox, revealBox, scoreTable, tokensBox } from "./parts.js";
import { SYMBOL_NAMES, describe, diceOf, gdDie, symbolIcon } from "./symbols.js";
import { words } from "./words.js";

const COLOURS = ["white", "red", "blue"];
const HEADINGS = {
  character: "Your character card", streets: "The Streets: won again",
  load: "The Investigator: you won it", take: "The Investigator: the round's end",
};
const INTRO = {
  character: "Each player plays one character card (chosen, or dealt with the real cards). Its ability is shown to everyone but not enforced: the table applies it.",
  streets: "You may put one die from your stash on the Streets: its dice count for your bids while you control it.",
  load: "Put all your dice of one colour on the Investigator.",
  take: "There are dice on the Investigator: take one into your stash.",
};

/* Dice listed by colour, white first, as the engine lists them. */
function sorted(colours) {
  return [...colours].sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b));
}

/* Whether the list `have` holds every die of `want` (colours, repeats counted). */
function covers(have, want) {
  const left = [...have];
  return want.every((c) => { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); return true; });
}

export async function start(page) {
  const me = page.player;
  const base = `/api/games/${page.game}`;
  const printed = await api("GET", `${base}/board`);  // what is printed: each die's faces by number
  const dice = printed.ok ? printed.data.components.dice : {};
  let slots = [];        // the colour of each die of the roll asked for, white first
  let rolling = null;    // the dice reader's words on this phone's roll ("3 of 6 dice settled")
  const bidPick = new Map();  // token -> favor, the bid being put together
  let bidOf = "";        // the choices it was put together from
  let swapPick = { give: [], take: [] };
  let swapOf = "";

  const live = new Live(`${base}/events?as=player`, { picture: render, dice: onDice });
  const entry = new DiceEntry(page, live, { drawFace });

  /* A face as the symbol it shows on the die in that slot of the roll (a button: the symbol
   * alone, the same on every die). */
  function drawFace(face, { slot }) {
    const colour = slot === undefined ? "white" : slots[slot] || "white";
    const symbol = dice[colour] ? dice[colour].faces[String(face)] : null;
    if (slot !== undefined) return gdDie(colour, symbol);
    return h("span", { class: "gd-face" }, gdDie("white", symbol, { classes: ["neutral"] }),
      h("span", { class: "small", text: SYMBOL_NAMES[symbol] || symbol }));
  }

  // The dice reader's count of this phone's roll ("3 of 6 dice settled"); its "Roll your
  // dice" is the dice entry's own prompt already.
  function onDice(d) {
    if (d.kind === "problem") toast(d.text);
    else if (d.kind === "counted" || (d.kind === "progress" && d.have)) { rolling = d.text; live.redraw(); }
  }

  const act = (action) => send(`${base}/actions`, { action }, { csrf: page.csrf, live });

  function diceCard(pic, mine) {
    const v = pic.view;
    const givable = v.you ? v.you.givable : mine.stash;
    const kept = COLOURS.filter((c) => mine.stash[c] > givable[c]).map((c) => `${mine.stash[c] - givable[c]} ${c}`);
    return h("section", { class: "card", id: "gd-my-dice" }, h("h2", { text: `Your dice (${mine.dice})` }),
      mine.rolled ? h("div", { class: "dice gd-big", id: "my-dice" }, mine.rolled.map((d) => gdDie(d.colour, d.symbol)))
        : h("div", { class: "dice", id: "my-dice" }, diceOf(mine.stash, { small: false })),
      mine.rolled ? null : h("p", { class: "small muted", text: !mine.dice ? "No dice left in your stash."
        : (pic.dice_wanted || []).length ? "Enter them in this order: white dice first, then red, then blue."
          : `Not rolled yet this round: ${describe(mine.stash)}.` }),
      kept.length ? h("p", { class: "small muted", text: `Received this round, so not yours to give away yet: ${kept.join(", ")}.` }) : null);
  }

  function cardsCard(v) {
    const you = v.you;
    if (!you) return null;
    const mine = v.players.find((p) => p.name === me);
    const down = you.bid ? you.bid.map((b) => `the ${v.tokens.find((t) => t.token === b.token).name} with a ${b.favor}`).join(" and ") : null;
    return h("section", { class: "card", id: "gd-hand" }, h("h2", { text: "Your cards (only you see them)" }),
      h("div", { class: "gd-cards" }, you.hand.map((f) => favorCard(f))),
      you.hand.length ? null : h("p", { class: "small muted", text: v.cards === "physical" ? "No special +4 taken." : "No favor cards in your hand." }),
      you.unknown ? h("p", { class: "small", text: `and ${you.unknown} real favor card${you.unknown === 1 ? "" : "s"} the companion has not seen (you enter the one you play)` }) : null,
      down ? h("p", { class: "gd-down", id: "gd-down" }, "Face down: ", h("b", { text: down })) : null,
      mine && mine.character ? h("p", { class: "small" }, h("b", { text: mine.character.name }), `: ${mine.character.ability} `,
        h("span", { class: "muted", text: "(shown, not enforced: the table applies it)" })) : null);
  }

  /* The secret choice: a favor card for each bid card (two in the 2-player game); each cell
   * shows the score it makes. Nothing leaves the phone until "Play face down". */
  function bidCard(pic, mine) {
    const v = pic.view;
    const bids = pic.choices.filter((c) => c.group === "bid");
    const due = mine.bids_due || 1;
    // The choices as a string, to start afresh when they change (a new round) and not on
    // every picture (a key order that differs between the stream and a reply is no change).
    const sig = `${v.round}:` + bids.map((c) => c.bids.map((b) => `${b.token} ${b.favor}`).join("+")).join("|");
    if (sig !== bidOf) {
      bidOf = sig;
      bidPick.clear();
      const current = bids.find((c) => c.current);
      if (current) current.bids.forEach((b) => bidPick.set(b.token, b.favor));
    }
    const has = (c, t, f) => c.bids.some((b) => b.token === t && b.favor === f);
    const fits = () => bids.some((c) => [...bidPick].every(([t, f]) => has(c, t, f)));
    const exact = bids.find((c) => c.bids.length === bidPick.size && [...bidPick].every(([t, f]) => has(c, t, f)));
    const tap = (t, f) => {
      if (bidPick.get(t) === f) bidPick.delete(t);
      else {
        bidPick.set(t, f);
        for (const other of [...bidPick.keys()]) if (other !== t && !fits()) bidPick.delete(other);
        while (bidPick.size > due) bidPick.delete([...bidPick.keys()].find((k) => k !== t));
      }
      live.redraw();
    };
    const rows = v.tokens.map((t) => {
      const cells = new Map();  // favor -> score
      for (const c of bids) for (const b of c.bids) if (b.token === t.token) cells.set(b.favor, b.score);
      if (!cells.size) return null;
      const shown = mine.symbols ? mine.symbols[t.symbol] : 0;
      return h("div", { class: "gd-bid-row", dataset: { token: t.token } },
        h("div", { class: "gd-bid-token" }, symbolIcon(t.symbol), h("b", { text: t.name }),
          h("span", { class: "small muted", text: ` you show ${shown}` })),
        h("div", { class: "gd-bid-cells" }, [...cells].sort((a, b) => a[0] - b[0]).map(([f, score]) => h("button", {
          class: "gd-bid" + (bidPick.get(t.token) === f ? " picked" : ""), "aria-pressed": bidPick.get(t.token) === f ? "true" : "false",
          dataset: { token: t.token, favor: String(f) }, onclick: () => tap(t.token, f),
        }, favorCard(f, { small: true }), h("span", { class: "gd-makes", text: `= ${score}` })))));
    });
    const current = bids.find((c) => c.current);
    const ask = due === 2 ? "Two bid cards this round (the 2-player game), a favor card on each." : "One bid card, and a favor card on it.";
    return h("section", { class: "card", id: "bid-builder" }, h("h2", { text: "Your secret choice" }),
      h("p", { class: "small", text: `${ask} Your score is the symbols your dice show + the favor card${mine.controls.includes("streets") ? " + the dice on the Streets" : ""}. Nobody sees it until everyone has chosen.` }),
      rows,
      h("p", {}, h("button", { class: "primary", id: "bid-send", disabled: !exact || (exact && exact.current),
        dataset: exact ? { action: JSON.stringify(exact.action) } : {}, onclick: () => exact && act(exact.action),
      }, exact ? (exact.current ? "Face down: " : "Play face down: ") + exact.label : `Choose ${due === 2 ? "two bids" : "a bid"} above`)),
      current ? h("p", { class: "small muted", text: "You may change it until the last player has chosen." }) : null);
  }

  /* The Speakeasy won again: up to three dice from your stash for as many on the token. */
  function swapCard(pic, mine) {
    const v = pic.view;
    const swaps = pic.choices.filter((c) => c.group === "swap");
    const sig = `${v.round}:` + swaps.map((c) => `${c.action.give} for ${c.action.take}`).join("|");
    if (sig !== swapOf) { swapOf = sig; swapPick = { give: [], take: [] }; }
    const key = (list) => sorted(list).join(",");
    const match = swaps.find((c) => key(c.action.give) === key(swapPick.give) && key(c.action.take) === key(swapPick.take));
    const other = { give: "take", take: "give" };
    const can = (side, colour) => swaps.some((c) => covers(c.action[side], [...swapPick[side], colour]) && covers(c.action[other[side]], swapPick[other[side]]));
    const add = (side, colour) => { swapPick[side] = sorted([...swapPick[side], colour]); live.redraw(); };
    const drop = (side, i) => { swapPick[side].splice(i, 1); live.redraw(); };
    const keep = swaps.find((c) => !c.action.give.length);
    const speakeasy = v.tokens.find((t) => t.token === "speakeasy").dice;
    const side = (which, title, pool) => h("div", { class: "gd-swap-side", dataset: { side: which } },
      h("h3", { text: `${title} (${describe(pool)})` }),
      h("div", { class: "choices-row" }, COLOURS.filter((c) => pool[c]).map((c) => h("button", {
        class: "gd-swap-add", dataset: { [which]: c }, disabled: !can(which, c), onclick: () => add(which, c),
      }, gdDie(c, null, { small: true }), ` ${c}`))),
      h("div", { class: "dice gd-picked" }, swapPick[which].map((c, i) => h("button", {
        class: "die-button", "aria-label": `put back a ${c} die`, onclick: () => drop(which, i) }, gdDie(c, null)))));
    return h("section", { class: "card", id: "swap-builder" }, h("h2", { text: "The Speakeasy: won again" }),
      h("p", { class: "small", text: "You may swap up to three dice from your stash for as many of the dice on the Speakeasy. Tap a chosen die to put it back." }),
      side("give", "Give from your stash", v.you ? v.you.givable : mine.stash),
      side("take", "Take from the Speakeasy", speakeasy),
      h("p", { class: "choices-row" },
        h("button", { class: "primary", id: "swap-send", disabled: !match || !match.action.give.length,
          onclick: () => match && act(match.action) }, match && match.action.give.length ? match.label : "Pick as many dice to give as to take"),
        keep ? h("button", { id: "swap-keep", dataset: { action: JSON.stringify(keep.action) }, onclick: () => act(keep.action) }, keep.label) : null));
  }

  function buttonsCard(pic) {
    const group = pic.choices[0].group;
    return h("section", { class: "card", id: "choices" }, h("h2", { text: HEADINGS[group] || "Your move" }),
      INTRO[group] ? h("p", { class: "small", text: INTRO[group] }) : null,
      pic.choices.map((c) => h("button", {
        class: "choice", dataset: { group: c.group, action: JSON.stringify(c.action) }, onclick: () => act(c.action),
      }, c.label, c.ability ? h("span", { class: "why", text: c.ability }) : null)));
  }

  function choiceCard(pic, mine) {
    if (!pic.choices.length || !mine) return null;
    const group = pic.choices[0].group;
    if (group === "bid") return bidCard(pic, mine);
    if (group === "swap") return swapCard(pic, mine);
    return buttonsCard(pic);
  }

  function gameOverCard(pic) {
    return h("section", { class: "card", id: "game-over" }, h("h2", { text: "Game over" }),
      h("p", { text: pic.view.end ? pic.view.end + "." : "The host ended the game." }), scoreTable(pic.scores, pic.view),
      h("p", {}, h("a", { href: `/end/${page.game}`, text: "The score page" })));
  }

  function render(pic, log) {
    const v = pic.view;
    const mine = v.players.find((p) => p.name === me);
    slots = mine ? COLOURS.flatMap((c) => Array(mine.stash[c]).fill(c)) : [];
    if (!(pic.dice_wanted || []).length) rolling = null;
    showTurn(pic, words);
    fill("cards",
      pic.scores ? gameOverCard(pic) : null,
      rolling ? h("section", { class: "card dice-progress", id: "dice-progress" }, h("p", { class: "turn me", text: rolling })) : null,
      entry.card(pic),
      choiceCard(pic, mine),
      mine && !pic.scores ? diceCard(pic, mine) : null,
      pic.scores ? null : cardsCard(v));
    fill("effect", effectLine(v, me));
    fill("tokens", tokensBox(v, me));
    fill("reveal", revealBox(v));
    fill("players", playersBox(v, me));
    fill("favor", favorBox(v));
    showLog(log);
  }

  live.connect();
}
