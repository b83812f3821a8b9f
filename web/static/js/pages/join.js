/* Join: a phone trades its seat's single-use code for its own session, then opens the
 * player's page. Opening the link changes nothing until this script asks, so a link preview
 * cannot use up the code. */
import { api, refusal } from "../api.js";
import { fill, h } from "../dom.js";

export function start(page) {
  const again = document.getElementById("join-again");

  async function claim() {
    again.hidden = true;
    fill("join-status", "Taking your seat…");
    const res = await api("POST", `/api/games/${page.game}/join`, { code: page.code });
    if (res.ok) { window.location.replace(`/play/${page.game}`); return; }
    // The code is spent: perhaps by this very phone, scanning it again.
    const me = await api("GET", `/api/games/${page.game}/me`);
    if (me.ok && me.data.player) {
      fill("join-status", h("a", { class: "button primary", href: `/play/${page.game}`, text: `You sit here as ${me.data.player}: open your seat` }));
      return;
    }
    fill("join-status", refusal(res.data));
    again.hidden = res.status !== 0;  // only a lost connection is worth another try
  }

  again.addEventListener("click", claim);
  claim();
}
