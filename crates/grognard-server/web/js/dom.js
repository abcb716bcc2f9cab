// Small DOM helpers. Every text a game's creator or a player wrote (names, chat, log
// lines) goes in as text nodes or attributes, never as markup, so it cannot run script.

export const SVG = 'http://www.w3.org/2000/svg';

/** An HTML element: h('button', {class: 'x', onclick: f}, 'text', child...). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, as `h`. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replaces an element's children. */
export function put(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** The element with this id (throws when the page lacks it: a page bug, not a game's). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id}`);
  return el;
}

/** Reads `#token=...` from the fragment (never sent to the server in a URL). */
export function fragmentToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.get('token') || '';
}
