// The SQL editor: a statement through POST /v1/sql, its rows streamed as Arrow and decoded in the
// browser into a virtualized table; EXPLAIN shown as the access path the planner chose; errors as
// the server's message. A read-only console runs queries only.
import { ARROW, postJson, request } from './api.js';
import { h, replace, errorBox, announce, formatNumber } from './dom.js';
import { grid, jsonRows } from './grid.js';
import { ArrowRows } from './arrow-rows.js';
import { isQuery, readOnly } from './settings.js';

const DRAFT = 'riffle.sql.draft';

/** Opens the SQL editor with a statement in it. */
export function openInEditor(sql) {
  sessionStorage.setItem(DRAFT, sql);
  location.hash = '#/sql';
}

export function sqlPage(main) {
  let running = null;
  const editor = h('textarea', { id: 'sql-text', class: 'sql', spellcheck: 'false', autocomplete: 'off',
    'aria-describedby': 'sql-help' }, sessionStorage.getItem(DRAFT) || 'SELECT * FROM fluss.');
  const run = h('button', { type: 'submit', id: 'sql-run' }, 'Run');
  const explain = h('button', { type: 'button', id: 'sql-explain', class: 'secondary', onclick: () => go(true) }, 'Explain');
  const cancel = h('button', { type: 'button', id: 'sql-cancel', class: 'secondary', disabled: true,
    onclick: () => running && running.abort() }, 'Cancel');
  const status = h('p', { id: 'sql-status', class: 'muted', 'aria-live': 'polite' });
  const output = h('div', { id: 'sql-output' });

  editor.addEventListener('keydown', event => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      go(false);
    }
  });
  editor.addEventListener('input', () => sessionStorage.setItem(DRAFT, editor.value));

  replace(main,
    h('h1', {}, 'SQL'),
    h('form', { 'aria-label': 'SQL statement', onsubmit: event => { event.preventDefault(); go(false); } },
      h('div', { class: 'field' }, h('label', { for: 'sql-text' }, 'Statement'), editor),
      h('p', { id: 'sql-help', class: 'muted' },
        'One statement; Ctrl+Enter runs it. Tables are schema.table (a Fluss database is a schema); ',
        h('code', {}, 't$changelog'), ', ', h('code', {}, 't$log'), ' and ', h('code', {}, 't$lake'),
        ' read one side. ',
        readOnly() ? 'This console is read-only: it runs queries (SELECT, WITH, VALUES, EXPLAIN) only.' : ''),
      h('div', { class: 'toolbar' }, run, explain, cancel)),
    status,
    output);
  return () => running && running.abort();

  async function go(asExplain) {
    const sql = editor.value.trim().replace(/;\s*$/, '');
    if (!sql) return;
    if (readOnly() && !isQuery(sql)) {
      replace(output, errorBox({ code: 'read_only_console',
        message: 'This console is read-only: it runs queries only (SELECT, WITH, VALUES, EXPLAIN). Use the HTTP API, riffle sql or a JDBC client to change data or tables.' }));
      status.textContent = '';
      return;
    }
    if (running) running.abort();
    delete status.dataset.rowCount;
    delete status.dataset.updateCount;
    const controller = new AbortController();
    running = controller;
    cancel.disabled = false;
    status.textContent = asExplain ? 'Planning…' : 'Running…';
    replace(output);
    const started = performance.now();
    try {
      if (asExplain) {
        await showPlan(sql, controller.signal);
        status.textContent = 'Planned in ' + elapsed(started);
      } else {
        await runStatement(sql, controller.signal, started);
      }
    } catch (e) {
      if (e.name === 'AbortError') {
        status.textContent = 'Cancelled.';
      } else {
        status.textContent = 'Failed after ' + elapsed(started) + '.';
        replace(output, errorBox(e));
        announce('The statement failed: ' + e.message);
      }
    } finally {
      if (running === controller) {
        running = null;
        cancel.disabled = true;
      }
    }
  }

  async function showPlan(sql, signal) {
    const statement = /^explain\b/i.test(sql) ? sql : 'EXPLAIN PLAN FOR ' + sql;
    const answer = await postJson('/v1/sql', { sql: statement }, { signal });
    const plan = answer.rows.map(row => Object.values(row).join('\n')).join('\n');
    // Calcite writes the term as access=[PointLookup[id=17]] (or access=[LimitScan[100, ...]]).
    const paths = [...new Set([...plan.matchAll(/access=\[?([^\[\],]+)/g)].map(m => m[1].trim()))];
    replace(output,
      h('h2', {}, 'Access path'),
      h('p', { id: 'sql-access-path' }, paths.length ? paths.join(', ') : 'No table read (or a plan without a Fluss scan)'),
      h('h2', {}, 'Plan'),
      h('pre', { class: 'plan', id: 'sql-plan' }, plan));
  }

  async function runStatement(sql, signal, started) {
    const response = await request('/v1/sql', { method: 'POST', json: { sql }, accept: ARROW, signal });
    const type = response.headers.get('Content-Type') || '';
    if (!type.startsWith(ARROW)) {
      const answer = await response.json();
      if ('updateCount' in answer) {
        status.textContent = `${formatNumber(answer.updateCount)} rows changed (${elapsed(started)}).`;
        status.dataset.updateCount = String(answer.updateCount);
        return;
      }
      const view = grid(jsonRows(answer.columns, answer.rows));
      replace(output, view.element);
      finish(answer.rowCount, started);
      return;
    }
    const reader = await window.Arrow.RecordBatchReader.from(response.body);
    await reader.open();
    const rows = new ArrowRows(reader.schema);
    const view = grid(rows, { label: 'Results' });
    replace(output, view.element);
    for await (const batch of reader) {
      rows.add(batch);
      view.refresh();
      status.textContent = `${formatNumber(rows.rowCount())} rows so far…`;
    }
    view.refresh();
    finish(rows.rowCount(), started);
  }

  function finish(count, started) {
    status.textContent = `${formatNumber(count)} ${count === 1 ? 'row' : 'rows'} in ${elapsed(started)}.`;
    status.dataset.rowCount = String(count);
    announce(status.textContent);
  }
}

function elapsed(started) {
  const ms = performance.now() - started;
  return ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(1) + ' s';
}
