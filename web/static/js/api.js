/* Talking to the companion's API: `api` for any request, `send` for every change.
 *
 * Every change a page makes goes through `send`, so every one is refused the same way: the
 * refusal's reason (and the rule it breaks) as a toast, and a fresh picture when the game
 * moved on under it (409).
 */
import { h, toast } from "./dom.js";
import { ruleQuote } from "./shell.js";

/* One request; never throws. `{ok, status, data}`, status 0 when the companion is out of
 * reach. */
export async function api(method, path, body, csrf) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let res;
  try {
    res = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, data: { reason: "the companion cannot be reached; check the Wi-Fi" } };
  }
  let data;
  try { data = await res.json(); } catch { data = {}; }
  return { ok: res.ok, status: res.status, data };
}

/* A refusal in words: its reason, and the rule it breaks. */
export function refusal(data) {
  return (data.reason || "refused") + (data.rule ? ` (${data.rule})` : "");
}

/* A refusal as a toast shows it: the reason, the rule it breaks in the rulebook's words, and
 * what to do instead (when the game prints its rulebook). */
export function refusalNode(data) {
  if (!data.quote) return refusal(data);
  return h("div", { class: "refusal" },
    h("p", { class: "refused", text: refusal(data) }),
    ruleQuote(data.quote, data.rule),
    data.instead ? h("p", { class: "instead", text: data.instead }) : null);
}

/* A key that makes a double tap apply once (the server keeps keys per player). */
function newKey() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now();
}

let sending = null;  // the change on its way: the picture it was made against, and its end

/* POST a change; the reply's data, or null when it was refused, cancelled or already sending.
 *
 *   csrf     the page's CSRF token (every change needs one)
 *   confirm  a question to ask first; "Cancel" sends nothing
 *   asHost   act with this browser's host key instead of a player's seat
 *   live     the page's Live picture: the change carries a fresh double-tap key and is made
 *            against the picture on screen (expected_seq, unless anySeq: a roll names the
 *            request it answers instead); a stale refusal (409) fetches the picture again,
 *            and the reply's picture is shown at once, before its event arrives
 *   again    for a stale refusal: given the fresh picture, whether to send the same change
 *            again against it (a choice everyone makes at once, still offered); else the
 *            refusal is shown
 *
 * One change at a time: a second tap on the picture the first was made against is a double
 * tap, dropped (on the home page it would create a second game). A tap on a newer picture is
 * not: the change's event can reach the page before the reply to it does, and a player who
 * taps what the new picture offers waits for the first reply, then is sent.
 */
export async function send(path, body, { csrf, confirm, asHost = false, live = null, anySeq = false, again = null } = {}) {
  while (sending) {
    if (!live || live.pic?.seq === sending.seq) return null;
    await sending.done;
  }
  if (confirm && !window.confirm(confirm)) return null;
  const fields = { ...body };
  if (asHost) fields.as = "host";
  if (live) fields.key = newKey();
  let done;
  sending = { seq: live?.pic?.seq, done: new Promise((resolve) => { done = resolve; }) };
  try {
    for (let tries = 0; ; tries += 1) {
      if (live && !anySeq) fields.expected_seq = live.pic.seq;
      const res = await api("POST", path, fields, csrf);
      if (res.ok) {
        if (live) live.show(res.data);
        return res.data;
      }
      if (live && res.status === 409) {
        const fresh = await live.resync();
        if (again && fresh && tries < 3 && again(fresh)) continue;
      }
      toast(refusalNode(res.data));
      return null;
    }
  } finally {
    sending = null;
    done();
  }
}
