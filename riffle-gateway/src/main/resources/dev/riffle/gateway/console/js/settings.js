// What /console/settings.json says of this gateway: {"mode": "on" | "read-only", "auth": "none" | "basic"}.
export const settings = { mode: 'on', auth: 'none' };

export function readOnly() {
  return settings.mode === 'read-only';
}

/**
 * Whether a statement only reads: its first word (after comments and parentheses) is one of the
 * query keywords. The read-only console runs nothing else; the server is not asked.
 */
export function isQuery(sql) {
  const stripped = sql
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/--[^\n]*/g, ' ')
    .replace(/^[\s(]+/, '');
  const word = (stripped.match(/^[A-Za-z]+/) || [''])[0].toUpperCase();
  return ['SELECT', 'WITH', 'VALUES', 'EXPLAIN', 'DESCRIBE', 'SHOW'].includes(word);
}
