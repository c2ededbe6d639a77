// A virtualized results table: only the rows in view (plus a margin) are in the DOM, between two
// spacer rows that keep the scroll height of the whole result, so 100,000 rows scroll as smoothly
// as 100. Rows may keep arriving (refresh() after each batch).
import { h } from './dom.js';

const ROW_HEIGHT = 26;  // px, as console.css sets td height
const OVERSCAN = 20;

/**
 * source: { columns: [{name, type}], rowCount(), cell(row, column) -> string or null }.
 * Returns { element, refresh() }.
 */
export function grid(source, { label = 'Results', height = 480 } = {}) {
  const body = h('tbody');
  const table = h('table', { 'aria-label': label, 'aria-rowcount': '1' },
    h('thead', {}, h('tr', { 'aria-rowindex': '1' }, h('th', { scope: 'col' }, '#'),
      source.columns.map(c => h('th', { scope: 'col' }, c.name, c.type ? h('small', {}, c.type) : null)))),
    body);
  const wrap = h('div', { class: 'grid-wrap', tabindex: '0', role: 'region', 'aria-label': label + ' (scrollable)',
    style: `max-height: ${height}px` }, table);
  let scheduled = false;
  let shown = '';

  function render() {
    scheduled = false;
    const total = source.rowCount();
    const headerHeight = table.tHead ? table.tHead.offsetHeight : 0;
    const top = Math.max(0, wrap.scrollTop - headerHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const visible = Math.ceil(height / ROW_HEIGHT) + 2 * OVERSCAN;
    const last = Math.min(total, first + visible);
    const key = first + ':' + last + ':' + total;
    if (key === shown) return;
    shown = key;
    table.setAttribute('aria-rowcount', String(total + 1));
    const rows = [];
    if (first > 0) rows.push(spacer(first * ROW_HEIGHT, source.columns.length + 1));
    for (let r = first; r < last; r++) {
      const cells = [h('td', { class: 'rownum' }, String(r + 1))];
      for (let c = 0; c < source.columns.length; c++) {
        const value = source.cell(r, c);
        cells.push(value === null || value === undefined
          ? h('td', { class: 'null' }, 'null')
          : h('td', { title: value.length > 40 ? value : null }, value));
      }
      rows.push(h('tr', { 'aria-rowindex': String(r + 2) }, cells));
    }
    if (last < total) rows.push(spacer((total - last) * ROW_HEIGHT, source.columns.length + 1));
    body.replaceChildren(...rows);
  }

  function schedule() {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(render);
    }
  }

  wrap.addEventListener('scroll', schedule, { passive: true });
  render();
  return { element: wrap, refresh: schedule };
}

function spacer(pixels, columns) {
  return h('tr', { class: 'spacer', 'aria-hidden': 'true' }, h('td', { colspan: columns, style: `height: ${pixels}px` }));
}

/** A source over JSON rows (objects keyed by column name), as /v1/sql answers in JSON. */
export function jsonRows(columns, rows) {
  return {
    columns,
    rowCount: () => rows.length,
    cell: (r, c) => {
      const value = rows[r][columns[c].name];
      return value === null || value === undefined ? null : typeof value === 'object' ? JSON.stringify(value) : String(value);
    },
  };
}
