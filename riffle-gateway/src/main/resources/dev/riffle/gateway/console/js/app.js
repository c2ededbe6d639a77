// The console's router: one page at a time under #/..., each page a function that renders into
// <main> and returns a function that stops its timers when the user leaves.
import { getJson } from './api.js';
import { h, replace, errorBox } from './dom.js';
import { settings } from './settings.js';
import { tablesPage } from './tables.js';
import { tablePage } from './table.js';
import { sqlPage } from './sql.js';
import { tieringPage } from './tiering.js';
import { metricsPage } from './metrics.js';

const main = document.getElementById('main');
let leave = () => {};

const routes = [
  { pattern: /^#?\/?$/, nav: 'tables', page: () => tablesPage(main) },
  { pattern: /^#\/table\/([^/]+)\/([^/]+)$/, nav: 'tables', page: m => tablePage(main, decode(m[1]), decode(m[2])) },
  { pattern: /^#\/sql$/, nav: 'sql', page: () => sqlPage(main) },
  { pattern: /^#\/tiering$/, nav: 'tiering', page: () => tieringPage(main) },
  { pattern: /^#\/metrics$/, nav: 'metrics', page: () => metricsPage(main) },
];

function decode(part) {
  return decodeURIComponent(part);
}

function route() {
  leave();
  leave = () => {};
  const hash = location.hash || '#/';
  for (const candidate of routes) {
    const match = hash.match(candidate.pattern);
    if (match) {
      for (const link of document.querySelectorAll('[data-nav]')) {
        if (link.dataset.nav === candidate.nav) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
      const stop = candidate.page(match);
      leave = typeof stop === 'function' ? stop : () => {};
      return;
    }
  }
  replace(main, h('h1', {}, 'Not found'), h('p', {}, 'No console page at ' + hash + '. ', h('a', { href: '#/' }, 'Tables')));
}

// The skip link moves focus without touching the hash, which names the page.
document.querySelector('.skip').addEventListener('click', event => {
  event.preventDefault();
  main.focus();
});

async function start() {
  try {
    Object.assign(settings, await getJson('/console/settings.json'));
  } catch (e) {
    replace(main, errorBox(e));
    return;
  }
  document.body.dataset.mode = settings.mode;
  const badge = document.getElementById('mode-badge');
  if (settings.mode === 'read-only') {
    badge.textContent = 'read-only';
    badge.title = 'This console hides writes, DDL and non-query SQL (--console read-only)';
    badge.hidden = false;
  }
  window.addEventListener('hashchange', () => {
    route();
    main.focus({ preventScroll: true });
  });
  route();
}

start();
