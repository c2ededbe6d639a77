// One table: its definition, each bucket's offsets (earliest, latest, lake) refreshed live, a
// preview of the newest rows, a lookup by key for primary-key tables, and (unless read-only) a
// form that writes rows and a button that drops the table.
import { exactJson, getJson, postJson, request, tablePath } from './api.js';
import { h, replace, errorBox, dataTable, formatNumber, announce } from './dom.js';
import { readOnly } from './settings.js';
import { datalake } from './tables.js';
import { openInEditor } from './sql.js';

const REFRESH_MS = 2000;
const PREVIEW_ROWS = 20;

export function tablePage(main, db, name) {
  const path = tablePath(db, name);
  let stopped = false;
  let timer = null;
  let paused = false;
  let lastLatest = null;
  replace(main, h('h1', {}, db + '.' + name), h('p', { class: 'muted' }, 'Loading…'));

  const offsetsBox = h('div', { id: 'offsets' }, h('p', { class: 'muted' }, 'Loading offsets…'));
  const updated = h('span', { class: 'muted', id: 'offsets-updated' });
  const pause = h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false', onclick: togglePause },
    'Pause live updates');
  const previewBox = h('div', { id: 'preview' }, h('p', { class: 'muted' }, 'Loading rows…'));

  load();
  return () => { stopped = true; clearTimeout(timer); };

  async function load() {
    let info;
    try {
      info = await getJson(path);
    } catch (e) {
      if (!stopped) replace(main, h('h1', {}, db + '.' + name), errorBox(e), h('p', {}, h('a', { href: '#/' }, 'All tables')));
      return;
    }
    if (stopped) return;
    const partitions = info.partition_keys.length ? await getJson(path + '/partitions').catch(e => ({ error: e })) : null;
    if (stopped) return;
    replace(main,
      h('p', {}, h('a', { href: '#/' }, 'Tables'), ' / ', db),
      h('h1', {}, db + '.' + name, h('span', { class: 'tag' }, info.primary_key.length ? 'primary key table' : 'log table'),
        datalake(info)),
      info.comment ? h('p', {}, info.comment) : null,
      h('div', { class: 'toolbar' },
        h('button', { type: 'button', class: 'secondary', onclick: () => openInEditor(`SELECT * FROM ${quoted(db)}.${quoted(name)} LIMIT 100`) },
          'Query in the SQL editor'),
        readOnly() ? null : h('button', { type: 'button', class: 'danger', onclick: () => drop() }, 'Drop table…')),
      h('h2', { id: 'offsets-heading' }, 'Offsets'),
      h('div', { class: 'toolbar' }, pause, updated),
      offsetsBox,
      h('h2', {}, 'Newest rows'),
      previewBox,
      h('h2', {}, 'Columns'),
      columnsTable(info),
      h('h2', {}, 'Layout'),
      dataTable('Layout', ['Setting', 'Value'], [
        ['Buckets', String(info.buckets)],
        ['Bucket key', info.bucket_key.join(', ') || '–'],
        ['Primary key', info.primary_key.join(', ') || '– (log table)'],
        ['Partitioned by', info.partition_keys.join(', ') || '– (not partitioned)'],
        ['Partitions', partitions === null ? '–' : partitions.error ? errorBox(partitions.error)
          : partitions.partitions.map(p => p.name).join(', ') || 'none yet'],
        ['Schema id', String(info.schema_id)],
        ['Created', info.created_at],
      ]),
      h('h2', {}, 'Properties'),
      propertiesTable(info),
      info.primary_key.length ? lookupForm(info) : null,
      readOnly() ? null : writeForm(info));
    refresh();
  }

  function togglePause() {
    paused = !paused;
    pause.setAttribute('aria-pressed', String(paused));
    pause.textContent = paused ? 'Resume live updates' : 'Pause live updates';
    if (!paused) refresh();
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const offsets = await getJson(path + '/offsets');
      if (stopped) return;
      renderOffsets(offsets);
      const latest = JSON.stringify(offsets.buckets.map(b => [b.key, b.latest]));
      if (latest !== lastLatest) {
        lastLatest = latest;
        await preview(offsets);
      }
    } catch (e) {
      if (stopped) return;
      replace(offsetsBox, errorBox(e));
    }
    if (!stopped && !paused) timer = setTimeout(refresh, REFRESH_MS);
  }

  function renderOffsets(offsets) {
    let earliest = 0, latest = 0, lake = 0;
    const rows = offsets.buckets.map(b => {
      earliest += b.earliest || 0;
      latest += b.latest || 0;
      lake += b.lake || 0;
      return [b.key, formatNumber(b.earliest), formatNumber(b.latest), formatNumber(b.lake),
        b.lake === null ? '–' : formatNumber((b.latest || 0) - b.lake)];
    });
    rows.push([h('strong', {}, 'All buckets'), formatNumber(earliest), h('strong', { 'data-total-latest': latest }, formatNumber(latest)),
      offsets.lake_snapshot_id === null ? '–' : formatNumber(lake), '']);
    replace(offsetsBox,
      dataTable('Offsets of each bucket', ['Bucket', 'Earliest', 'Latest', 'Lake', 'Not in the lake'], rows, { numeric: [1, 2, 3, 4] }),
      h('p', { class: 'muted' }, offsets.lake_snapshot_id === null ? 'Not tiered into the lake yet.'
        : 'Lake snapshot ' + offsets.lake_snapshot_id + '.'));
    offsetsBox.dataset.totalLatest = String(latest);
    updated.textContent = 'Updated ' + new Date().toLocaleTimeString('en-GB') + (paused ? ' (paused)' : ', every 2 s');
  }

  async function preview(offsets) {
    const from = {};
    const until = {};
    let any = false;
    for (const b of offsets.buckets) {
      if (b.latest === null || b.earliest === null) continue;
      from[b.key] = Math.max(b.earliest, b.latest - PREVIEW_ROWS);
      until[b.key] = b.latest;
      any = any || b.latest > b.earliest;
    }
    if (!any) {
      replace(previewBox, h('p', { class: 'muted' }, 'No rows in the log yet.'));
      return;
    }
    try {
      const answer = await exactJson(await request(path + '/scan', { method: 'POST', json: { source: 'log', changelog: true,
        from: { offsets: from }, until: { offsets: until }, limit: PREVIEW_ROWS * offsets.buckets.length } }));
      if (stopped) return;
      const rows = answer.rows.sort((a, b) => (millis(b._commit_timestamp) - millis(a._commit_timestamp))
        || (Number(b._log_offset) - Number(a._log_offset)))
        .slice(0, PREVIEW_ROWS);
      const columns = rows.length ? Object.keys(rows[0]).filter(c => c !== '_log_offset' && c !== '_commit_timestamp' && c !== '_change_type') : [];
      replace(previewBox,
        h('p', { class: 'muted' }, `The newest ${rows.length} changes in the log, newest first.`),
        dataTable('Newest rows', ['Committed', 'Change', 'Offset', ...columns], rows.map(r =>
          [new Date(millis(r._commit_timestamp)).toISOString(), r._change_type, String(r._log_offset), ...columns.map(c => show(r[c]))]),
          { numeric: [2] }));
      previewBox.dataset.rows = String(rows.length);
    } catch (e) {
      if (!stopped) replace(previewBox, errorBox(e));
    }
  }

  async function drop() {
    if (!window.confirm(`Drop table ${db}.${name}? Its data is deleted.`)) return;
    try {
      await request(path, { method: 'DELETE' });
      announce(`Dropped ${db}.${name}`);
      location.hash = '#/';
    } catch (e) {
      main.prepend(errorBox(e));
    }
  }
}

function columnsTable(info) {
  return dataTable('Columns', ['Column', 'Type', 'Key', 'Comment'], info.columns.map(c => [
    h('code', {}, c.name), h('code', {}, c.type),
    [info.primary_key.includes(c.name) ? 'primary key' : null, info.bucket_key.includes(c.name) ? 'bucket key' : null,
      info.partition_keys.includes(c.name) ? 'partition key' : null].filter(Boolean).join(', ') || '',
    c.comment || '']));
}

function propertiesTable(info) {
  const entries = [...Object.entries(info.properties || {}), ...Object.entries(info.custom_properties || {})];
  if (entries.length === 0) return h('p', { class: 'muted' }, 'No properties set.');
  return dataTable('Properties', ['Property', 'Value'], entries.sort().map(([k, v]) => [h('code', {}, k), h('code', {}, v)]));
}

/** A primary-key table's row by key: one input per key column, GET .../rows/{first}?others. */
function lookupForm(info) {
  const path = tablePath(info.database, info.name);
  const keys = info.primary_key;
  const inputs = keys.map(k => h('input', { type: 'text', id: 'lookup-' + k, name: k, required: true, autocomplete: 'off' }));
  const result = h('div', { id: 'lookup-result', 'aria-live': 'polite' });
  const form = h('form', { 'aria-labelledby': 'lookup-heading', onsubmit: async event => {
    event.preventDefault();
    const [first, ...others] = keys;
    const query = new URLSearchParams();
    others.forEach((k, i) => query.set(k, inputs[i + 1].value));
    const url = `${path}/rows/${encodeURIComponent(inputs[0].value)}${others.length ? '?' + query : ''}`;
    try {
      const row = await exactJson(await request(url));
      replace(result, dataTable('The row', ['Column', 'Value'], Object.entries(row).map(([k, v]) => [h('code', {}, k), show(v)])));
    } catch (e) {
      replace(result, e.code === 'row_not_found' ? h('p', { class: 'notice' }, e.message) : errorBox(e));
    }
  } },
  h('div', { class: 'row' }, keys.map((k, i) => h('div', { class: 'field' }, h('label', { for: 'lookup-' + k }, k), inputs[i])),
    h('button', { type: 'submit' }, 'Look up')));
  return [h('h2', { id: 'lookup-heading' }, 'Look up a row by key'), form, result];
}

/** Rows as a JSON array, written with POST .../rows (not offered by a read-only console). */
function writeForm(info) {
  const path = tablePath(info.database, info.name);
  const example = JSON.stringify([Object.fromEntries(info.columns.map(c => [c.name, null]))]);
  const text = h('textarea', { id: 'write-rows', class: 'sql', rows: 4, spellcheck: 'false' }, example);
  const result = h('div', { 'aria-live': 'polite' });
  const form = h('form', { 'aria-labelledby': 'write-heading', onsubmit: async event => {
    event.preventDefault();
    let rows;
    try {
      rows = JSON.parse(text.value);
    } catch (e) {
      replace(result, errorBox('The rows are not JSON: ' + e.message));
      return;
    }
    try {
      const answer = await postJson(path + '/rows', rows);
      replace(result, h('p', { class: 'notice' }, `Wrote ${answer.written} rows.`));
    } catch (e) {
      replace(result, errorBox(e));
    }
  } },
  h('div', { class: 'field' }, h('label', { for: 'write-rows' }, 'Rows (a JSON array of objects)'), text),
  h('button', { type: 'submit' }, 'Write rows'));
  return [h('h2', { id: 'write-heading' }, 'Write rows'), form, result];
}

/** A commit timestamp as epoch milliseconds, whether it came as an instant ("...Z") or as a number. */
function millis(value) {
  return typeof value === 'string' && !/^-?\d+$/.test(value) ? Date.parse(value) : Number(value);
}

function show(value) {
  if (value === null || value === undefined) return h('span', { class: 'muted' }, 'null');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function quoted(name) {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : '"' + name.replace(/"/g, '""') + '"';
}
