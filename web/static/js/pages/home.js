/* Home: the owner creates a game (which game, the players clockwise with their colours, the
 * game's setup choices and house rules). */
import { api, send } from "../api.js";
import { fill, h, toast } from "../dom.js";
import { gameModule } from "../games.js";

/* One select per choice (a game's setup choices, or its house rules), its values as JSON. */
function selects(choices, key) {
  return Object.entries(choices).map(([name, o]) => h("div", {},
    h("label", { for: `${key}-${name}`, text: `${name.replaceAll("_", " ")}: ${o.text}` }),
    h("select", { id: `${key}-${name}`, dataset: { [key]: name } },
      o.values.map((v) => h("option", { value: JSON.stringify(v), selected: v === o.default,
        text: (v === null ? "as the rules say" : String(v)) + (v === o.default ? " (default)" : "") })))));
}

/* The players typed in, in seat order: a name, or {name, colour}. */
function players(form) {
  const out = [];
  for (const row of form.querySelectorAll(".seat-row")) {
    const name = row.querySelector("input").value.trim();
    const colour = row.querySelector("select").value;
    if (name && !row.hidden) out.push(colour ? { name, colour } : name);
  }
  return out;
}

/* The new game's setup line: house rules only where they differ from the default, setup
 * choices only where one was made. */
function newGame(form, game) {
  const body = { game: game.id, players: players(form), options: {} };
  for (const sel of form.querySelectorAll("select[data-option]")) {
    const value = JSON.parse(sel.value);
    if (value !== game.options[sel.dataset.option].default) body.options[sel.dataset.option] = value;
  }
  for (const sel of form.querySelectorAll("select[data-setup]")) {
    const value = JSON.parse(sel.value);
    if (value !== null) body[sel.dataset.setup] = value;
  }
  return body;
}

/* Each seat's colour picker offers the colours the game allows: its words' `colours` (Gangster
 * Dice: the bid cards'), or else every colour the page was served with; seat i starts on the
 * i-th. */
async function offerColours(form, game, every) {
  const { words } = await gameModule(game.id, "words");
  if (form.querySelector("#game").value !== game.id) return;  // another game was chosen meanwhile
  const allowed = words.colours || every;
  form.querySelectorAll(".seat-row select").forEach((sel, i) => {
    sel.replaceChildren(...allowed.map((c, j) => h("option", { value: c, selected: j === i % allowed.length, text: c })));
  });
}

export async function start(page) {
  const form = document.getElementById("create");
  if (!form) return;  // not the owner: the page says how to become one
  // Listening from the start: a tap on Create before the games list arrives (a slow Pi) waits
  // for it. The page's button is disabled until this module listens (it is loaded after the
  // page): the bare form would have been submitted (the page reloaded, no game made).
  const ready = api("GET", "/api/rules");
  const create = form.querySelector("button[type=submit]");
  let chosen = () => null;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    create.disabled = true;  // one game per tap, however slow the list or the answer
    await ready;
    const game = chosen();
    if (!game) {
      const { data } = await ready;
      toast(`The list of games could not be loaded: ${data.reason || "reload the page"}`, false);
      create.disabled = false;
      return;
    }
    const made = await send("/api/games", newGame(form, game), { csrf: page.csrf });
    if (made) window.location.href = `/host/${made.game_id}`;
    else create.disabled = false;  // refused (send says why): mend the form and tap again
  });
  create.disabled = false;
  const rules = (await ready).data;
  const picker = document.getElementById("game");
  fill("game", rules.games.map((g) => h("option", { value: g.id, selected: g.id === rules.default, text: g.name })));
  chosen = () => rules.games.find((g) => g.id === picker.value);
  const every = [...form.querySelector(".seat-row select").options].map((o) => o.value);

  function showGame() {
    const g = chosen();
    fill("players-hint", `Players clockwise, ${g.players[0]} to ${g.players[1]}. You will get a QR code for each phone.`);
    form.querySelectorAll(".seat-row").forEach((row, i) => { row.hidden = i >= g.players[1]; });
    fill("setup-choices", selects(g.setup, "setup"));
    fill("options", selects(g.options, "option"));
    offerColours(form, g, every);
  }
  picker.addEventListener("change", showGame);
  showGame();
}
