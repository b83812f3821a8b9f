/* Building the page: elements from data, never from HTML strings.
 *
 * Text from players (names) and from the server is always set with textContent, so a name
 * cannot become markup.
 */

/* An element: h("button", { class: "choice", onclick: go }, "Claim 4B").
 * Attributes that are null, undefined or false are left out; `text` sets textContent,
 * `on<event>` adds a listener, `dataset` fills data-* attributes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";

/* An SVG element, the same way (attributes set as given; `text` sets textContent). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

/* Replace the children of #id (if the page has it); returns the element or null. */
export function fill(id, ...children) {
  const el = document.getElementById(id);
  if (el) el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  return el;
}

/* A value as JSON with every object's keys in order: the same data from any reply, event or
 * fresh picture (whose keys may come in another order) gives the same text. */
export function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

/* Fill #id with `make()` only when `data` differs from what it was drawn from: a picture that
 * changes nothing there leaves its elements (and a tap pressed on one of them) in place. */
export function fillIf(id, data, make) {
  const el = document.getElementById(id);
  const key = canon(data);
  if (!el || el.dataset.key === key) return el;
  el.dataset.key = key;
  return fill(id, make());
}

let toastTimer = null;

/* A short message at the bottom of the screen (text, or an element such as a refusal with
 * its rule): a refusal stays 7 s (12 s with the rule's words), good news 2.5 s; a tap
 * dismisses it. */
export function toast(message, ok) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.replaceChildren(message instanceof Node ? message : document.createTextNode(String(message)));
  el.className = "toast show" + (ok ? " ok" : "");
  el.onclick = () => { el.className = "toast"; };
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = "toast"; }, ok ? 2500 : (message instanceof Node ? 12000 : 7000));
}
