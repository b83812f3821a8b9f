/* Ca$h 'n Guns on a player's phone: their Bullet cards and the card they put down, their
 * gun (aim it, or confirm what the table recorded), the Godfather's privilege, courage, their
 * share of the Loot, the Loot they keep and its worth; the table as everyone sees it; the log.
 *
 * Every button is one of the phone's choices (the game's `choices` for this player). The
 * player's own secrets are drawn in cards marked `data-secret-of` (see parts.js). */
import { api, send } from "../../js/api.js";
import { fill, h } from "../../js/dom.js";
import { Live } from "../../js/live.js";
import { showLog, showTurn } from "../../js/shell.js";
import { gangsters, haulValue, lootBox, lootCard, money, scoreTable, shotsBox, tableNews } from "./parts.js";
import { words } from "./words.js";

// Each group of choices, under what the card says. Aims and confirmations are the gun card's.
const GROUPS = {
  flip: ["Flip the Loot", "One card per tap, as you turn it over (or the table screen enters them)."],
  load: ["Put a Bullet card down", "Secret: only this phone knows which."],
  privilege: ["The Godfather's privilege", "Order one player to aim at someone else, or let every aim stand."],
  courage: ["Courage", "Secret until everyone has chosen: then all are shown at once."],
  take: ["Your share", "Take one Loot card, or the New Godfather token."],
  discard: ["Clip: discard a card", "You took a Bang! from the discard pile: discard another card."],
};
const COURAGE = { banzai: "Banzai! (standing)", lie_down: "Lie down" };

export function start(page) {
  const me = page.player;
  const base = `/api/games/${page.game}`;
  let deadly = 3;
  const live = new Live(`${base}/events?as=player`, { picture: render });
  const post = (path, body) => send(`${base}/${path}`, body, { csrf: page.csrf, live });

  function choice(c, primary = false) {
    return h("button", {
      type: "button", class: "choice" + (primary ? " primary" : ""),
      dataset: { group: c.group, action: JSON.stringify(c.action) },
      onclick: () => post("actions", { action: c.action }),
    }, c.label);
  }

  function moveCards(pic) {
    return Object.entries(GROUPS).map(([group, [title, hint]]) => {
      const mine = pic.choices.filter((c) => c.group === group);
      if (!mine.length) return null;
      return h("section", { class: "card cng-move", dataset: { group } },
        h("h2", { text: title }), h("p", { class: "small muted", text: hint }),
        h("div", { class: group === "flip" ? "choices-row" : null }, mine.map((c) => choice(c))));
    });
  }

  /* Where my gun points (public), with the buttons to aim it or confirm the table's record. */
  function gunCard(pic, mine) {
    const aims = pic.choices.filter((c) => c.group === "aim");
    const confirm = pic.choices.filter((c) => c.group === "confirm_aim");
    if (!mine.alive || (!mine.gun && !aims.length)) return null;
    const gun = mine.gun;
    const said = !gun ? "No aim recorded yet: say where your gun points."
      : `Your gun points at ${gun.target || "nobody"}` + (gun.by === "table"
        ? (gun.confirmed ? " (recorded by the table, confirmed)." : " (recorded by the table: confirm it, or correct it).")
        : ".");
    return h("section", { class: "card cng-gun-card", id: "my-gun" },
      h("h2", { text: "Your gun" }), h("p", { class: "turn" + (confirm.length ? " me" : ""), id: "gun-said", text: said }),
      confirm.map((c) => choice(c, true)),
      aims.length ? h("p", { class: "small muted", text: gun ? "Or correct it:" : "Aim at:" }) : null,
      aims.length ? h("div", { class: "choices-row" }, aims.map((c) => choice(c))) : null);
  }

  /* My Bullet cards, the one I put down, my courage: mine alone. */
  function handCard(view, mine) {
    if (!mine.hand) return null;
    const courage = mine.courage && view.phase === "courage" ? COURAGE[mine.courage] : null;
    return h("section", { class: "card cng-hand", id: "my-hand", dataset: { secretOf: me, bang: String(mine.hand.bang), click: String(mine.hand.click) } },
      h("h2", { text: "Your Bullet cards" }),
      h("div", { class: "cng-bullets" },
        h("span", { class: "cng-bullet bang", text: `Bang! × ${mine.hand.bang}` }),
        h("span", { class: "cng-bullet click", text: `Click × ${mine.hand.click}` })),
      mine.card ? h("p", { id: "my-card", dataset: { card: mine.card }, text: `Face-down in front of you: ${mine.card === "bang" ? "Bang!" : "Click"}` }) : null,
      courage ? h("p", { id: "my-courage", dataset: { courage: mine.courage }, text: `You chose: ${courage} (shown when everyone has chosen)` }) : null);
  }

  /* The Loot I keep and what it is worth (face-down: mine alone, unless the table plays it
   * face-up). */
  function keptCard(view, mine) {
    if (!mine.loot) return null;
    const others = view.players.filter((p) => p.name !== me);
    const secret = others.some((p) => !p.loot);
    const haul = mine.haul;
    return h("section", { class: "card cng-kept", id: "my-loot", dataset: secret ? { secretOf: me } : {} },
      h("h2", { text: "Your loot" }),
      mine.loot.length ? h("div", { class: "cng-cards small-cards" }, mine.loot.map((c) => lootCard(c))) : h("p", { class: "muted", text: "Nothing yet." }),
      h("p", { id: "my-worth", dataset: { worth: String(haulValue(haul)) } },
        h("b", { text: money(haulValue(haul)) }),
        ` so far: bills ${money(haul.bills)}, diamonds ${money(haul.diamonds)} (${haul.diamond_cards}), `
        + `${haul.paintings} painting${haul.paintings === 1 ? "" : "s"} ${money(haul.paintings_value)}. `
        + "The diamond bonus goes to whoever holds the most diamond cards at the end."),
      h("p", { class: "small muted", text: `Wounds: ${mine.wounds} of ${deadly}.` }));
  }

  function cards(pic) {
    const v = pic.view;
    const mine = v.players.find((p) => p.name === me);
    if (!mine) return [];
    return [
      pic.scores ? h("section", { class: "card" }, h("h2", { text: "Game over" }), scoreTable(pic.scores, v),
        h("p", {}, h("a", { href: `/end/${page.game}`, text: "The score page" }))) : null,
      !mine.alive && !pic.scores ? h("section", { class: "card" }, h("p", { class: "turn", text: "You are dead: out of the game. Your loot no longer counts." })) : null,
      ...moveCards(pic),
      gunCard(pic, mine),
      handCard(v, mine),
      keptCard(v, mine),
      pic.can_undo ? h("section", { class: "card" },
        h("button", { type: "button", class: "danger", id: "undo", onclick: () => post("undo", {}) }, "Undo my last move")) : null,
    ];
  }

  function render(pic, log) {
    showTurn(pic, words);
    fill("cards", cards(pic));
    fill("loot", lootBox(pic.view), tableNews(pic.view));
    fill("players", gangsters(pic.view, { viewer: me, deadly }), shotsBox(pic.view));
    showLog(log);
  }

  api("GET", `${base}/board`).then((res) => { if (res.ok) { deadly = res.data.deadly_wounds; live.redraw(); } });
  live.connect();
}
