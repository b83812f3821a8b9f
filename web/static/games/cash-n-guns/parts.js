/* What every Ca$h 'n Guns page draws the same way, from the view alone: the Loot cards, the
 * gangsters (gun, wounds, standing or lying down), the last shots and the final score.
 *
 * A gangster's tile shows only what the table sees, even on its own player's phone: the
 * phone draws its player's secrets (hand, card down, courage, face-down Loot) in cards of its
 * own, each marked `data-secret-of`, so a test can tell that no screen draws another's. */
import { h } from "../../js/dom.js";
import { colourOf, swatch } from "../../js/colours.js";

export function money(dollars) {
  return "$" + Number(dollars || 0).toLocaleString("en-US");
}

const KIND_WORD = { painting: "Painting", "first-aid-kit": "First aid kit", clip: "Clip" };

/* One Loot card: its value large, its kind small (a painting is worth its collection). */
export function lootCard(card, attrs = {}) {
  const valued = card.kind === "bill" || card.kind === "diamond";
  return h("span", { class: `cng-card ${card.kind}`, title: card.label, dataset: { card: card.card }, ...attrs },
    h("b", { text: valued ? money(card.value) : KIND_WORD[card.kind] || card.label }),
    valued ? h("small", { text: card.kind }) : null);
}

/* The Loot on offer, the deck and the New Godfather token. */
export function lootBox(view) {
  const loot = view.loot;
  const token = loot.token === "available" ? "on the table" : `flipped by ${loot.token}`;
  return h("div", { class: "cng-loot" },
    h("div", { class: "cng-cards", id: "on-offer" }, loot.on_offer.length
      ? loot.on_offer.map((c) => lootCard(c))
      : h("span", { class: "muted", text: "No Loot on the table." })),
    h("p", { class: "cng-facts" },
      loot.to_flip ? h("span", { class: "chip", text: `${loot.to_flip} to flip` }) : null, " ",
      h("span", { class: "chip", id: "deck-left", text: `Deck: ${loot.deck_left} cards` }), " ",
      h("span", { class: "chip" + (loot.token === "available" ? "" : " cng-token-taken"), id: "token",
        text: `New Godfather token: ${token}` })));
}

/* Wounds as pips: ● for each, ○ for each left before the deadly one. */
export function woundPips(wounds, deadly) {
  const n = Math.max(deadly, wounds);
  return h("span", { class: "cng-wounds", title: `${wounds} wound${wounds === 1 ? "" : "s"} of ${deadly}` },
    Array.from({ length: n }, (_, i) => h("i", { class: i < wounds ? "hit" : null, text: i < wounds ? "●" : "○" })));
}

function gunLine(view, p) {
  if (!p.alive) return null;
  const gun = p.gun;
  if (!gun) {
    return ["hold_up", "change_target"].includes(view.phase)
      ? h("div", { class: "cng-gun none", text: "No aim recorded yet" }) : null;
  }
  const who = gun.by === "table" ? (gun.confirmed ? "recorded by the table, confirmed" : "recorded by the table")
    : "told by the player";
  return h("div", { class: "cng-gun", dataset: { target: gun.target || "" } },
    h("span", { class: "cng-aim", text: gun.target ? `→ ${gun.target}` : "→ nobody (too slow)" }),
    h("small", { text: who }));
}

function stance(view, p) {
  if (!p.alive) return h("span", { class: "cng-stance dead", text: "Dead" });
  if (view.phase === "courage") return h("span", { class: "cng-stance", text: p.courage_chosen ? "Has chosen" : "Choosing…" });
  if (p.courage && view.shots_turn === view.turn && view.phase !== "loot" && view.phase !== "bullets") {
    return h("span", { class: "cng-stance" + (p.standing ? "" : " down"), dataset: { courage: p.courage },
      text: p.courage === "banzai" ? (p.standing ? "Banzai!" : "Banzai!, hit: down") : "Lay down" });
  }
  return h("span", { class: "cng-stance", text: p.standing ? "Standing" : "Lying down" });
}

/* One gangster as the table sees them. */
export function gangsterTile(view, p, { viewer = null, deadly = 3, onclick = null, selected = false, showLoot = false } = {}) {
  const sharer = view.sharing && view.sharing.sharer === p.name;
  const waited = (view.waiting || []).some((w) => w.player === p.name);
  const attrs = {
    class: "cng-gangster" + (p.alive ? "" : " dead") + (p.standing ? "" : " down") + (sharer ? " sharer" : "")
      + (waited ? " waited" : "") + (selected ? " selected" : ""),
    dataset: { player: p.name, wounds: String(p.wounds), alive: p.alive ? "1" : "0", standing: p.standing ? "1" : "0" },
  };
  const body = [
    h("div", { class: "name" }, swatch(colourOf(view.players, p.name)), p.name === viewer ? `${p.name} (you)` : p.name,
      p.godfather ? h("span", { class: "chip cng-godfather", text: "Godfather" }) : null),
    h("div", { class: "cng-status" }, woundPips(p.wounds, deadly), " ", stance(view, p)),
    gunLine(view, p),
    view.phase === "bullets" && p.alive ? h("div", { class: "small", text: p.card_down ? "Bullet card down" : "Choosing a Bullet card…" }) : null,
    sharer ? h("div", { class: "cng-share", text: "Their share" }) : null,
    h("div", { class: "small muted" }, `${p.cards_in_hand} Bullet card${p.cards_in_hand === 1 ? "" : "s"} · ${p.loot_cards} Loot card${p.loot_cards === 1 ? "" : "s"}`,
      p.haul && p.name !== viewer ? ` · ${money(haulValue(p.haul))}` : null),
    showLoot && p.loot && p.name !== viewer && p.loot.length
      ? h("div", { class: "cng-cards small-cards" }, p.loot.map((c) => lootCard(c))) : null,
  ];
  return onclick ? h("button", { ...attrs, type: "button", onclick, "aria-pressed": selected ? "true" : "false" }, body)
    : h("div", attrs, body);
}

export function gangsters(view, opts = {}) {
  return h("div", { class: "cng-gangsters" }, view.players.map((p) => gangsterTile(view, p, opts)));
}

/* What the Loot a player keeps is worth before the diamond bonus. */
export function haulValue(haul) {
  return haul.bills + haul.diamonds + haul.paintings_value;
}

/* Whose share it is, who stands to share, a Clip's discard; the Godfather's order. */
export function tableNews(view) {
  const lines = [];
  if (view.order && view.phase === "change_target") lines.push(`The Godfather orders ${view.order.player} to stop aiming at ${view.order.away_from}.`);
  const s = view.sharing;
  if (s) {
    if (s.clip) lines.push(`${s.clip} took a Clip and discards a Bullet card.`);
    else if (s.sharer) lines.push(`${s.sharer}'s share: a Loot card, or the New Godfather token.`);
    lines.push(`Standing to share, in turn: ${s.standing.join(", ") || "nobody"}.`);
  }
  return lines.map((text) => h("p", { class: "cng-news", text }));
}

const OUTCOME = {
  lay_down: () => "lay down: the card is discarded unseen",
  target_down: (s) => `${s.target} lay down: no shot`,
  no_target: () => "held nobody up",
};

/* 5. and 6.: who stood, and what became of every card, for the turn it happened in. */
export function shotsBox(view) {
  if (!view.shots.length) return null;
  return h("div", { class: "cng-shots" },
    h("h3", { text: view.shots_turn === view.turn ? "This turn's shots" : `Turn ${view.shots_turn}'s shots` }),
    h("ul", {}, view.shots.map((s) => {
      const what = s.outcome === "fired"
        ? (s.card === "bang" ? `Bang! ${s.target} is hit` : `Click at ${s.target}: nothing`)
        : OUTCOME[s.outcome](s);
      return h("li", { class: s.outcome === "fired" && s.card === "bang" ? "bang" : null, dataset: { shooter: s.shooter } },
        h("b", { text: s.shooter }), s.stood ? " (Banzai!) " : " ", what);
    })));
}

/* The final score, a row per player; the richest living player wins. */
export function scoreTable(scores, view) {
  const names = view.players.map((p) => p.name);
  const cell = (text) => h("td", { class: "num", text });
  const tie = scores.tie_break ? ` (${scores.tie_break})` : "";
  return h("div", { class: "cng-score" },
    h("p", { class: "turn", text: `Winner: ${scores.winners.join(" and ") || "nobody"}${tie}` }),
    h("p", { class: "muted", id: "end-reason", text: view.end ? `The game ended: ${view.end}.` : "The host ended the game." }),
    h("table", { class: "scores" },
      h("tr", {}, ["", "bills", "diamonds", "bonus", "paintings", "wounds", "total"].map((t, i) =>
        h("th", { class: i ? "num" : null, text: t }))),
      names.map((n) => {
        const p = scores.players[n];
        return h("tr", { dataset: { player: n }, class: scores.winners.includes(n) ? "cng-winner" : null },
          h("td", {}, swatch(colourOf(view.players, n)), " ", n, p.alive ? "" : " (dead)"),
          cell(money(p.bills)), cell(`${money(p.diamonds)} (${p.diamond_cards})`),
          cell(p.diamond_bonus ? money(p.diamond_bonus) : "–"),
          cell(`${money(p.paintings_value)} (${p.paintings})`), cell(String(p.wounds)),
          h("td", { class: "num total", text: money(p.total) }));
      })));
}
