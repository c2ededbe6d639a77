// Tiering: how far each datalake-enabled table's lake is behind its log (GET /v1/tiering), polled;
// the page keeps what it has seen (in this browser tab only) and draws the lag over time.
import { getJson } from './api.js';
import { h, replace, refreshChildren, errorBox, dataTable, formatNumber } from './dom.js';

const POLL_MS = 5000;
const KEEP = 360; // 30 minutes at one sample every 5 s
const COLOURS = ['#1d4e89', '#d1495b', '#00798c', '#edae49', '#66a182', '#8d6a9f', '#30638e', '#b5651d'];
const history = new Map(); // table -> [{at, records, seconds}], kept while the tab is open

export function tieringPage(main) {
  let stopped = false;
  let timer = null;
  const box = h('div', { id: 'tiering' }, h('p', { class: 'muted' }, 'Loading…'));
  const chartBox = h('div', { id: 'tiering-chart' });
  const updated = h('p', { class: 'muted' });
  replace(main, h('h1', {}, 'Tiering'),
    h('p', {}, 'How far each datalake-enabled table\'s lake is behind its log: records not yet tiered, and how long the oldest of them has waited. Refreshed every 5 s.'),
    updated, box, h('h2', {}, 'Lag over time'), chartBox);
  poll();
  return () => { stopped = true; clearTimeout(timer); };

  async function poll() {
    try {
      const status = await getJson('/v1/tiering');
      if (stopped) return;
      const at = Date.parse(status.at) || Date.now();
      for (const t of status.tables) {
        const points = history.get(t.table) || [];
        points.push({ at, records: t.lag_records, seconds: t.lag_seconds });
        if (points.length > KEEP) points.shift();
        history.set(t.table, points);
      }
      render(status);
      updated.textContent = 'Updated ' + new Date(at).toLocaleTimeString('en-GB');
    } catch (e) {
      if (!stopped) replace(box, errorBox(e));
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  function render(status) {
    if (status.tables.length === 0) {
      replace(box, h('p', {}, 'No datalake-enabled tables. Create one with the property table.datalake.enabled = true.'));
      replace(chartBox);
      return;
    }
    refreshChildren(box, dataTable('Tiering lag per table', ['Table', 'Lake snapshot', 'Records behind', 'Seconds behind', 'Tiered / latest per bucket'],
      status.tables.map(t => [
        h('a', { href: `#/table/${encodeURIComponent(t.database)}/${encodeURIComponent(t.name)}` }, t.table),
        t.lake_snapshot_id === null ? 'none yet' : String(t.lake_snapshot_id),
        h('span', { 'data-lag-records': t.lag_records }, formatNumber(t.lag_records)),
        t.lag_seconds.toFixed(1),
        t.buckets.map(b => `${b.key}: ${b.tiered === null ? 0 : b.tiered}/${b.latest}`).join('  ')]),
      { numeric: [2, 3] }));
    const names = status.tables.map(t => t.table);
    replace(chartBox, h('h3', {}, 'Records behind'), chart(names, RECORDS), h('h3', {}, 'Seconds behind'), chart(names, SECONDS));
  }
}

/** What the charts plot: each sample's value, how an axis names it, and what a screen reader hears. */
const SECONDS = { value: p => p.seconds, axis: v => v.toFixed(0) + ' s', noun: 'Seconds behind' };
const RECORDS = { value: p => p.records, axis: v => formatNumber(Math.round(v)), noun: 'Records behind' };

/** An SVG line chart of one measure of lag, one line per table, over the samples kept. */
function chart(tables, measure) {
  const width = 720, height = 220, pad = 36;
  const series = tables.map(t => history.get(t) || []);
  const all = series.flat();
  if (all.length < 2) return h('p', { class: 'muted' }, 'The chart appears after a few samples.');
  const t0 = Math.min(...all.map(p => p.at)), t1 = Math.max(...all.map(p => p.at));
  const max = Math.max(1, ...all.map(measure.value));
  const x = at => pad + (t1 === t0 ? 0 : (at - t0) / (t1 - t0)) * (width - 2 * pad);
  const y = v => height - pad + 10 - (v / max) * (height - 2 * pad);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', measure.noun + ' per table over the last ' + Math.round((t1 - t0) / 1000) + ' s; the table above has the current values');
  const add = (tag, attributes, text) => {
    const element = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, String(v));
    if (text !== undefined) element.textContent = text;
    svg.append(element);
  };
  add('line', { class: 'axis', x1: pad, y1: height - pad + 10, x2: width - pad, y2: height - pad + 10 });
  add('line', { class: 'axis', x1: pad, y1: pad - 10, x2: pad, y2: height - pad + 10 });
  add('text', { x: 2, y: pad - 12 }, measure.axis(max));
  add('text', { x: 2, y: height - pad + 10 }, '0');
  add('text', { x: width - pad - 60, y: height - 8 }, new Date(t1).toLocaleTimeString('en-GB'));
  add('text', { x: pad, y: height - 8 }, new Date(t0).toLocaleTimeString('en-GB'));
  series.forEach((points, i) => {
    if (points.length === 0) return;
    add('polyline', { fill: 'none', stroke: COLOURS[i % COLOURS.length], 'stroke-width': 2,
      points: points.map(p => `${x(p.at).toFixed(1)},${y(measure.value(p)).toFixed(1)}`).join(' ') });
  });
  const legend = h('div', { class: 'legend' }, tables.map((t, i) => {
    const item = h('span', {}, t);
    item.style.setProperty('--swatch', COLOURS[i % COLOURS.length]);
    return item;
  }));
  return [svg, legend];
}
