// Databases and their tables: each table's kind, keys, buckets, partitioning and lake setting.
// Names come first (one request per database); each table's details follow a few at a time, so a
// cluster with hundreds of tables lists them at once and fills them in.
import { getJson, tablePath } from './api.js';
import { h, replace, errorBox } from './dom.js';

const DESCRIBE_AT_ONCE = 6;
const HEADERS = ['Table', 'Kind', 'Columns', 'Primary key', 'Buckets', 'Partitioned by', 'Datalake'];

export function tablesPage(main) {
  let stopped = false;
  replace(main, h('h1', {}, 'Databases and tables'), h('p', { class: 'muted' }, 'Loading…'));
  load();
  return () => { stopped = true; };

  async function load() {
    let databases;
    try {
      databases = (await getJson('/v1/databases')).databases;
    } catch (e) {
      if (!stopped) replace(main, h('h1', {}, 'Databases and tables'), errorBox(e));
      return;
    }
    const listed = await Promise.all(databases.map(async db => {
      try {
        return { db, tables: (await getJson(`/v1/databases/${encodeURIComponent(db)}/tables`)).tables };
      } catch (error) {
        return { db, error };
      }
    }));
    if (stopped) return;
    const pending = [];
    replace(main, h('h1', {}, 'Databases and tables'),
      databases.length === 0 ? h('p', {}, 'No databases yet.') : null,
      listed.map(entry => section(entry, pending)));
    // A few describes at a time: the gateway (and Fluss) see a steady trickle, not a burst.
    const workers = Array.from({ length: DESCRIBE_AT_ONCE }, async () => {
      while (pending.length && !stopped) await pending.shift()();
    });
    await Promise.all(workers);
  }
}

function section({ db, tables, error }, pending) {
  const id = 'db-' + db.replace(/[^A-Za-z0-9_-]/g, '_');
  const heading = h('h2', { id }, db);
  if (error) return h('section', { 'aria-labelledby': id }, heading, errorBox(error));
  if (tables.length === 0) return h('section', { 'aria-labelledby': id }, heading, h('p', { class: 'muted' }, 'No tables.'));
  const rows = tables.map(name => {
    const cells = HEADERS.slice(1).map((_, i) => h('td', { class: i === 1 ? 'num' : null }, '…'));
    const row = h('tr', { 'data-table': db + '.' + name }, h('td', {},
      h('a', { href: `#/table/${encodeURIComponent(db)}/${encodeURIComponent(name)}`, 'data-table': db + '.' + name }, name)),
    cells);
    pending.push(async () => {
      try {
        const info = await getJson(tablePath(db, name));
        const values = [info.primary_key.length ? 'primary key' : 'log', String(info.columns.length),
          info.primary_key.join(', ') || '–',
          String(info.buckets) + (info.bucket_key.length ? ' by ' + info.bucket_key.join(', ') : ''),
          info.partition_keys.join(', ') || '–', datalake(info)];
        values.forEach((value, i) => replace(cells[i], value));
      } catch (e) {
        replace(cells[0], errorBox(e));
      }
      row.dataset.described = 'true';
    });
    return row;
  });
  return h('section', { 'aria-labelledby': id, 'data-database': db }, heading,
    h('table', { class: 'data' }, h('caption', { class: 'visually-hidden' }, 'Tables of ' + db),
      h('thead', {}, h('tr', {}, HEADERS.map((header, i) => h('th', { scope: 'col', class: i === 2 ? 'num' : null }, header)))),
      h('tbody', {}, rows)));
}

export function datalake(info) {
  const on = (info.properties || {})['table.datalake.enabled'] === 'true';
  return h('span', { class: on ? 'tag on' : 'tag' }, on ? 'datalake on' : 'datalake off');
}
