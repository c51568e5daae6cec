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

/** The state of query `id`, with the rows offset..offset+limit in `sort` order once finished. */
export const queryState = (id, offset, limit, sort) =>
  call(`/api/query/${id}?offset=${offset}&limit=${limit}&sort=${encodeURIComponent(sort || '')}`);

export const cancelQuery = (id) => call(`/api/query/${id}`, { method: 'DELETE' });

/** Game `id`, with the positions query `queryId` matched (`matched`) when given. */
export const game = (id, queryId) => call(`/api/game/${id}` + (queryId ? `?query=${queryId}` : ''));

/** The opening tree of `fen`. */
export const tree = (fen) => call(`/api/tree?fen=${encodeURIComponent(fen)}`);

/** The URL of a board picture. */
export function boardUrl(fen, { flip = false, move = '', marks = '' } = {}) {
  let url = `/api/board.svg?fen=${encodeURIComponent(fen)}`;
  if (flip) url += '&flip=1';
  if (move && move.length === 4) url += `&move=${move}`;
  if (marks) url += `&marks=${encodeURIComponent(marks)}`;
  return url;
}
