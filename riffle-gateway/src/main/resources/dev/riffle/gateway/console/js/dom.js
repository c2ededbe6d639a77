// Small DOM helpers: elements built with text content only (never HTML from data).

/** h('a', {href: '#/'}, 'text', child, ...): an element with attributes and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'style') {
      element.style.cssText = value; // through the CSSOM: the page's CSP refuses style attributes
    } else if (name === 'class') {
      element.className = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/**
 * Replaces an element's children as a live refresh does, keeping keyboard focus: when focus was on
 * a link or an element with an id inside it, the new one with the same href or id gets it back, so
 * a keyboard user is not thrown to the top of the page every few seconds.
 */
export function refreshChildren(element, ...children) {
  const focused = document.activeElement;
  let key = null;
  if (focused && focused !== element && element.contains(focused)) {
    if (focused.id) key = '#' + CSS.escape(focused.id);
    else if (focused.getAttribute('href')) key = '[href="' + CSS.escape(focused.getAttribute('href')) + '"]';
  }
  replace(element, ...children);
  if (key) {
    const again = element.querySelector(key);
    if (again) again.focus({ preventScroll: true });
  }
  return element;
}

/** An error as the server said it: its message, and the code beside it. */
export function errorBox(error) {
  const status = error && error.status;
  let prefix = '';
  if (status === 401) prefix = 'Not signed in. Reload the page to enter a user and password. ';
  else if (status === 403) prefix = 'Forbidden. ';
  const code = error && error.code ? h('span', { class: 'code' }, ' (' + error.code + ')') : null;
  return h('div', { class: 'error', role: 'alert' }, prefix, String(error && error.message || error), code);
}

/** Says something to screen readers (and tests) without moving focus. */
export function announce(text) {
  const region = document.getElementById('announce');
  if (region) region.textContent = text;
}

export function formatNumber(n) {
  return n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US');
}

/** A table of plain values: headers and rows of cells (strings, numbers or nodes). */
export function dataTable(caption, headers, rows, { numeric = [] } = {}) {
  return h('table', { class: 'data' },
    caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((header, i) =>
      h('th', { scope: 'col', class: numeric.includes(i) ? 'num' : null }, header)))),
    h('tbody', {}, rows.map(cells => h('tr', {}, cells.map((cell, i) =>
      h('td', { class: numeric.includes(i) ? 'num' : null }, cell))))));
}
