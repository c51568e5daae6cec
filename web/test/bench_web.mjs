// Figures of the page's targets (issue 39) on any database, loopback only:
//   node bench_web.mjs --cqldb BUILD/cqldb --db DB [--repeat 5]
// Starts `cqldb serve`, then prints (medians of --repeat runs unless said otherwise):
//   - the tree of each position along 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 (a move
//     click): the server's wall and CPU time (Server-Timing) of the first request, which
//     builds it, and of the others (kept by the server), and the times over HTTP;
//   - the game list of those positions (/api/tree/games, the first page);
//   - a small query (the exact position after 5...a6, the position index) answered over HTTP:
//     POST, then GET ?wait= until done;
//   - the page's assets gzipped.
import { gzipSync } from 'node:zlib';
import { startServer } from './serve.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const repeat = Number(args.repeat || 5);
const { server, base } = await startServer(args.cqldb, args.db);
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const fens = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
  'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
  'rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3',
  'rnbqkbnr/pp2pppp/3p4/2p5/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3',
  'rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4',
  'rnbqkbnr/pp2pppp/3p4/8/3NP3/8/PPP2PPP/RNBQKB1R b KQkq - 0 4',
  'rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5',
  'rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5',
  'rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6',
];
try {
  console.log(`bench_web: ${args.db}, median of ${repeat}; ms`);
  let worstServer = 0, worstCpu = 0;
  for (const fen of fens) {
    const serverMs = [], cpuMs = [], httpMs = [], gamesMs = [];
    let games = 0;
    for (let i = 0; i < repeat; ++i) {
      let t0 = performance.now();
      const r = await fetch(`${base}/api/tree?fen=${encodeURIComponent(fen)}`);
      games = (await r.json()).games;
      httpMs.push(performance.now() - t0);
      const timing = r.headers.get('server-timing') || '';
      serverMs.push(Number(timing.match(/tree;dur=([\d.]+)/)?.[1] || NaN));
      cpuMs.push(Number(timing.match(/cpu;dur=([\d.]+)/)?.[1] || NaN));
      t0 = performance.now();
      await (await fetch(`${base}/api/tree/games?fen=${encodeURIComponent(fen)}&limit=10`)).json();
      gamesMs.push(performance.now() - t0);
    }
    // the first request builds the tree (a move click); the others find it kept (TreeCache)
    worstServer = Math.max(worstServer, serverMs[0]);
    worstCpu = Math.max(worstCpu, cpuMs[0]);
    console.log(`tree ${fen.split(' ')[0].padEnd(58)} ${String(games).padStart(7)} games: built ${serverMs[0].toFixed(1)} ` +
      `(CPU ${cpuMs[0].toFixed(1)}), kept ${median(serverMs.slice(1)).toFixed(1)}; HTTP first ${httpMs[0].toFixed(1)}, ` +
      `again ${median(httpMs.slice(1)).toFixed(1)}; game list ${median(gamesMs).toFixed(1)}`);
  }
  console.log(`tree: worst server time of a move click (tree built) along the line ${worstServer.toFixed(1)} ms, CPU ${worstCpu.toFixed(1)} ms (target <= 50)`);
  const queryMs = [], searchMs = [];
  for (let i = 0; i < repeat; ++i) {
    const t0 = performance.now();
    const started = await (await fetch(`${base}/api/query`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ cql: `(match (position :fen "${fens[fens.length - 1]}"))` }) })).json();
    let s;
    do s = await (await fetch(`${base}/api/query/${started.id}?limit=50&wait=1000`)).json(); while (s.state === 'running');
    queryMs.push(performance.now() - t0);
    searchMs.push(s.stats.seconds * 1000);
  }
  console.log(`query (exact position after 5...a6): search ${median(searchMs).toFixed(1)} ms, answer over HTTP ${median(queryMs).toFixed(1)} ms (target <= 20 for a 2 ms search)`);
  let gz = 0;
  for (const file of ['/', '/assets/app.js', '/assets/app.css']) gz += gzipSync(Buffer.from(await (await fetch(base + file)).arrayBuffer())).length;
  console.log(`assets: ${(gz / 1024).toFixed(1)} KB gzipped (target <= 400)`);
} finally {
  server.kill('SIGTERM');
}
