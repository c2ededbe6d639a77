// The public HTTP API as the console calls it: same-origin fetches (the browser adds the Basic
// credentials it was given for this origin), and the gateway's error envelope as an ApiError.
export const ARROW = 'application/vnd.apache.arrow.stream';

/** A failed request: the HTTP status and the envelope's code and message, as the server said them. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Sends a request; resolves to the Response when it is 2xx, rejects with an ApiError otherwise. */
export async function request(path, { method = 'GET', json, accept, signal } = {}) {
  const headers = {};
  let body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  }
  if (accept) {
    headers['Accept'] = accept;
  }
  let response;
  try {
    // Against location.origin, never the page's own URL: a page opened as http://user:password@host/
    // keeps those credentials in its URL, and fetch refuses URLs that carry credentials. The browser
    // sends the Basic credentials it was given for this origin by itself.
    response = await fetch(location.origin + path, { method, headers, body, signal, credentials: 'same-origin',
      cache: 'no-store' });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'unreachable', 'The gateway did not answer: ' + e.message);
  }
  if (!response.ok) {
    throw await errorOf(response);
  }
  return response;
}

/** The error a non-2xx response carries: the envelope's code and message when there is one. */
export async function errorOf(response) {
  let code = 'http_' + response.status;
  let message = 'HTTP ' + response.status + (response.statusText ? ' ' + response.statusText : '');
  try {
    const body = await response.json();
    if (body && body.error) {
      code = body.error.code;
      message = body.error.message;
    }
  } catch (ignored) {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, code, message);
}

export async function getJson(path, options) {
  return (await request(path, options)).json();
}

export async function postJson(path, json, options = {}) {
  return (await request(path, { ...options, method: 'POST', json })).json();
}

/**
 * A JSON answer whose numbers stay as the server wrote them (strings of their digits), so a
 * DECIMAL(10, 2) shows 2.50 and a BIGINT past 2^53 keeps its last digits: JavaScript numbers would
 * lose both. Uses JSON.parse's access to the source text.
 */
export async function exactJson(response) {
  const text = await response.text();
  return JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && context && typeof context.source === 'string' ? context.source : value);
}

export function tablePath(db, table) {
  return `/v1/databases/${encodeURIComponent(db)}/tables/${encodeURIComponent(table)}`;
}
