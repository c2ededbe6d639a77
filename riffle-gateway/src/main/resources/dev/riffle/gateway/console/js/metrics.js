// Metrics at a glance, read from GET /metrics (Prometheus text): requests, errors and rows per
// route, and the Arrow memory requests hold now.
import { request } from './api.js';
import { h, replace, errorBox, dataTable, formatNumber } from './dom.js';

const POLL_MS = 5000;

export function metricsPage(main) {
  let stopped = false;
  let timer = null;
  const box = h('div', { id: 'metrics' }, h('p', { class: 'muted' }, 'Loading…'));
  replace(main, h('h1', {}, 'Metrics'),
    h('p', {}, 'From ', h('a', { href: '/metrics' }, '/metrics'), ' (Prometheus), refreshed every 5 s.'), box);
  poll();
  return () => { stopped = true; clearTimeout(timer); };

  async function poll() {
    try {
      const text = await (await request('/metrics', { accept: 'text/plain' })).text();
      if (stopped) return;
      render(parse(text));
    } catch (e) {
      if (!stopped) replace(box, errorBox(e));
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  function render(samples) {
    const sum = (name, filter = () => true) => samples.filter(s => s.name === name && filter(s.labels)).reduce((a, s) => a + s.value, 0);
    const byRoute = new Map();
    for (const s of samples) {
      if (s.name !== 'riffle_gateway_requests_seconds_count' && s.name !== 'riffle_gateway_requests_seconds_sum') continue;
      const key = s.labels.method + ' ' + s.labels.route;
      const entry = byRoute.get(key) || { count: 0, seconds: 0, errors: 0 };
      if (s.name.endsWith('_count')) {
        entry.count += s.value;
        if (Number(s.labels.status) >= 400) entry.errors += s.value;
      } else {
        entry.seconds += s.value;
      }
      byRoute.set(key, entry);
    }
    const errors = samples.filter(s => s.name === 'riffle_gateway_errors_total');
    replace(box,
      h('div', { class: 'cards' },
        card('Requests', sum('riffle_gateway_requests_seconds_count')),
        card('Errors', sum('riffle_gateway_errors_total')),
        card('Rows read', sum('riffle_gateway_rows_total', l => l.direction === 'read')),
        card('Rows written', sum('riffle_gateway_rows_total', l => l.direction === 'written')),
        card('Arrow bytes held now', sum('riffle_gateway_arrow_allocated_bytes'))),
      h('h2', {}, 'Requests by route'),
      dataTable('Requests by route', ['Route', 'Requests', 'Failed', 'Mean latency'],
        [...byRoute.entries()].sort((a, b) => b[1].count - a[1].count).map(([route, e]) => [h('code', {}, route),
          formatNumber(e.count), formatNumber(e.errors), e.count ? (1000 * e.seconds / e.count).toFixed(1) + ' ms' : '–']),
        { numeric: [1, 2, 3] }),
      h('h2', {}, 'Errors by code'),
      errors.length === 0 ? h('p', { class: 'muted' }, 'No errors.')
        : dataTable('Errors by code', ['Code', 'Route', 'Count'], errors.map(s =>
          [h('code', {}, s.labels.code), h('code', {}, s.labels.method + ' ' + s.labels.route), formatNumber(s.value)]),
        { numeric: [2] }));
  }
}

function card(label, value) {
  return h('div', { class: 'card' }, h('div', { class: 'value' }, formatNumber(value)), h('div', { class: 'label' }, label));
}

/** Prometheus text exposition into {name, labels, value} samples (comments skipped). */
export function parse(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/);
    if (!match) continue;
    const labels = {};
    for (const pair of (match[2] || '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2].replace(/\\(.)/g, '$1');
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}
