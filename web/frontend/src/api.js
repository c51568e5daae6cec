// The JSON API of `cqldb serve` (README "The web interface"), one function per route.

/** GET or POST `path`; resolves to the parsed JSON, rejects with {status, error, line, column}. */
export async function call(path, options = {}) {
  const response = await fetch(path, options);
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text || response.statusText };
  }
  if (!response.ok) throw { status: response.status, ...body };
  return body;
}

export const info = () => call('/api/info');
export const examples = () => call('/api/examples');
export const keywords = () => call('/api/keywords');

/** Starts a query: {cql, filters, sort, limit}; resolves to {id, state}. */
export const startQuery = (request) =>
  call('/api/query', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request) });

/** The state of query `id`, with the rows offset..offset+limit in `sort` order once finished;
 * `waitMs` > 0 waits (on the server) until the query finishes or that time has passed. */
export const queryState = (id, offset, limit, sort, waitMs = 0) =>
  call(`/api/query/${id}?offset=${offset}&limit=${limit}&sort=${encodeURIComponent(sort || '')}` + (waitMs ? `&wait=${waitMs}` : ''));

export const cancelQuery = (id) => call(`/api/query/${id}`, { method: 'DELETE' });

/** Game `id`, with the positions query `queryId` matched (`matched`) when given. */
export const game = (id, queryId) => call(`/api/game/${id}` + (queryId ? `?query=${queryId}` : ''));

function scopeParams(fen, { queryId, filters } = {}) {
  let params = `fen=${encodeURIComponent(fen)}`;
  if (queryId) params += `&query=${queryId}`;
  if (filters && Object.keys(filters).length) params += `&filters=${encodeURIComponent(JSON.stringify(filters))}`;
  return params;
}

/** The opening tree of `fen` over all games, the result `queryId` and/or the header `filters`. */
export const tree = (fen, scope, signal) => call(`/api/tree?${scopeParams(fen, scope)}`, { signal });

/** The games reaching `fen` (same scope as tree), highest rated first: {count, offset, rows}. */
export const treeGames = (fen, scope, offset, limit, signal) =>
  call(`/api/tree/games?${scopeParams(fen, scope)}&offset=${offset}&limit=${limit}`, { signal });

/** The engine line of `fen`: {kind, value, depth, pv, engine} or {cancelled: true}. */
export const engine = (fen, signal) => call(`/api/engine?fen=${encodeURIComponent(fen)}`, { signal });
