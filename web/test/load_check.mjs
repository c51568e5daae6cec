// Load check of `cqldb serve` (issue 19):
//   node load_check.mjs --cqldb BUILD/cqldb --db DB [--clients 20] [--seconds 30]
// Starts the server on a free loopback port, then CLIENTS clients each run the example
// queries (examples/queries, from /api/examples) over and over for SECONDS: POST the query
// and wait for it, read two pages sorted by date and one game of the result. Prints the
// requests, errors, latencies and the server's resident memory before, after a first round
// and at the end; exits 1 on any error.
import { readFileSync } from 'node:fs';
import { startServer } from './serve.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const clients = Number(args.clients || 20), seconds = Number(args.seconds || 30);
const { server, base } = await startServer(args.cqldb, args.db, ['--max-queries', String(clients)]);
const rssKb = () => Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);

let requests = 0, errors = 0, queries = 0;
const latencies = [];
async function call(path, options) {
  const start = performance.now();
  const response = await fetch(base + path, options);
  const body = await response.text();
  latencies.push(performance.now() - start);
  ++requests;
  if (!response.ok) {
    ++errors;
    console.error(`error: ${response.status} ${path}: ${body.slice(0, 200)}`);
    return null;
  }
  return JSON.parse(body);
}

const examples = await call('/api/examples');
const rssStart = rssKb();
let rssAfterFirst = 0;
const deadline = Date.now() + seconds * 1000;
async function client(n) {
  for (let i = n; Date.now() < deadline; ++i) {
    const example = examples[i % examples.length];
    const state = await call('/api/query', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ cql: example.cql, limit: 20, wait: true }) });
    if (!state) continue;
    if (state.state !== 'done') { ++errors; console.error(`error: ${example.name}: ${state.state} ${state.error || ''}`); continue; }
    ++queries;
    await call(`/api/query/${state.id}?offset=0&limit=50&sort=date`);
    await call(`/api/query/${state.id}?offset=20&limit=50&sort=-elo`);
    if (state.rows.length) await call(`/api/game/${state.rows[0].id}?query=${state.id}`);
    if (n === 0 && !rssAfterFirst && i >= examples.length) rssAfterFirst = rssKb();
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
const elapsed = (performance.now() - started) / 1000;
const rssEnd = rssKb();
server.kill('SIGTERM');
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
console.log(`load check: ${clients} clients, ${elapsed.toFixed(1)} s: ${queries} queries, ${requests} requests ` +
  `(${(requests / elapsed).toFixed(0)}/s), ${errors} errors; latency ms p50 ${pct(0.5)} p95 ${pct(0.95)} max ${pct(1)}`);
console.log(`load check: server RSS ${(rssStart / 1024).toFixed(1)} MB at the start, ${(rssAfterFirst / 1024).toFixed(1)} MB ` +
  `after the first round, ${(rssEnd / 1024).toFixed(1)} MB at the end`);
process.exitCode = errors ? 1 : 0;
