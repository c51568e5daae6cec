// Browser test of the page of `cqldb serve` (issues 19, 39), run by .ci/run:
//   node browser_test.mjs --cqldb BUILD/cqldb --db SAMPLE_DB --out BUILD/web-screens
// Starts the server on a free loopback port and drives the page in Debian's headless
// chromium (playwright-core). Each check compares the page with the command line:
//   - play 1.e4 c5 2.Nf3 by dragging pieces; the tree's counts equal `cqldb tree --moves`;
//   - click a tree move; keys (left/right/Home/End, f flips); paste a FEN; type moves;
//   - "search this position" finds the games of `cqldb query --fen`;
//   - "search this pattern" writes a query whose games equal `cqldb query -e` of it;
//   - a result opens at its first match, the move scrolled into view and marked;
//   - a parse error clears the table, the game and the export link;
//   - the result table fits 1280 px; the old example query and its count still work.
// Prints the figures of issue 39's targets (server tree time, query answer over HTTP, first
// paint, gzipped assets) and saves screenshots at 1280x800 and 1920x1080 in OUT.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const cqldb = args.cqldb, db = args.db, out = args.out || 'web-screens';
const browserPath = args.chromium || '/usr/bin/chromium';
const here = dirname(fileURLToPath(import.meta.url));
const queryFile = join(here, '..', '..', 'examples', 'queries', 'underpromotion.cql');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
mkdirSync(out, { recursive: true });

function fail(message) {
  console.error(`browser test: FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}
const log = (message) => console.log(`browser test: ${message}`);
const cli = (...a) => execFileSync(cqldb, a, { maxBuffer: 1 << 26 }).toString();
const cliIds = (...a) => cli('query', '--db', db, ...a, '--format', 'ids', '--quiet').trim().split('\n').filter(Boolean);
const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

const { server, base } = await startServer(cqldb, db);

/** Drags the piece on `from` to `to` ("e2", "e4") on the board, as a user's mouse does. */
async function drag(page, from, to) {
  const box = await page.locator('#board cg-board').boundingBox();
  const flipped = await page.evaluate(() => !!document.querySelector('#board.orientation-black'));
  const at = (sq) => {
    let file = sq.charCodeAt(0) - 97, rank = Number(sq[1]) - 1;
    if (flipped) { file = 7 - file; rank = 7 - rank; }
    return { x: box.x + (file + 0.5) * box.width / 8, y: box.y + (7 - rank + 0.5) * box.height / 8 };
  };
  const a = at(from), b = at(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** Waits until the tree shows `fen` (the request after a move has come back). */
const treeAt = (page, fen) => page.waitForFunction((f) => document.querySelector('#tree').dataset.fen === f, fen);
const boardFen = (page) => page.getAttribute('#board', 'data-fen');
const treeRows = (page) => page.$$eval('#tree tr[data-uci]', (rows) => rows.map((r) => ({ uci: r.dataset.uci, games: Number(r.dataset.games) })));

let browser;
try {
  browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  await page.goto(base + '/');
  await page.waitForSelector('body[data-loaded="1"]');
  await treeAt(page, START);

  // ---- play 1.e4 c5 2.Nf3 by dragging; the tree follows with the counts of `cqldb tree`
  for (const [from, to] of [['e2', 'e4'], ['c7', 'c5'], ['g1', 'f3']]) {
    const before = await boardFen(page);
    await drag(page, from, to);
    await page.waitForFunction((b) => document.querySelector('#board').dataset.fen !== b, before);
  }
  const sicilian = await boardFen(page);
  await treeAt(page, sicilian);
  if (!sicilian.startsWith('rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq')) fail(`after dragging, the board is ${sicilian}`);
  const expectedTree = JSON.parse(cli('tree', '--db', db, '--moves', '1.e4 c5 2.Nf3', '--format', 'json'));
  const shownTree = await treeRows(page);
  const wanted = expectedTree.moves.map((m) => ({ uci: m.uci, games: m.games }));
  if (JSON.stringify(shownTree) !== JSON.stringify(wanted))
    fail(`tree after 1.e4 c5 2.Nf3 shows ${JSON.stringify(shownTree)}, cqldb tree gives ${JSON.stringify(wanted)}`);
  const total = Number(await page.getAttribute('#tree', 'data-total'));
  if (total !== expectedTree.games) fail(`tree total ${total}, cqldb tree ${expectedTree.games}`);
  log(`dragged 1.e4 c5 2.Nf3: tree of ${total} games, ${shownTree.length} moves (= cqldb tree --moves)`);
  await page.screenshot({ path: join(out, 'explorer-1280.png') });

  // ---- click a tree move: it is played
  const firstMove = shownTree[0];
  await page.click(`#tree tr[data-uci="${firstMove.uci}"]`);
  await page.waitForFunction((f) => document.querySelector('#board').dataset.fen !== f, sicilian);
  const afterClick = await boardFen(page);
  await treeAt(page, afterClick);
  const clickedTotal = Number(await page.getAttribute('#tree', 'data-total'));
  if (clickedTotal !== firstMove.games) fail(`after clicking ${firstMove.uci} (${firstMove.games} games) the tree has ${clickedTotal}`);
  const pgnBox = await page.inputValue('#pgn');
  if (!/^1\. e4 c5 2\. Nf3 \S+$/.test(pgnBox)) fail(`moves box shows '${pgnBox}'`);
  log(`clicked tree move ${firstMove.uci}: ${clickedTotal} games, moves box '${pgnBox}'`);

  // ---- the games reaching the position: highest rated first, one opens at the position
  await page.waitForSelector('#tree-games tr[data-id]');
  const listed = await page.$$eval('#tree-games tr[data-id]', (rows) => rows.map((r) => r.dataset.id));
  const apiList = await (await fetch(`${base}/api/tree/games?fen=${encodeURIComponent(afterClick)}&limit=10`)).json();
  if (!sameList(listed, apiList.rows.map((r) => String(r.id)))) fail(`game list [${listed}] differs from /api/tree/games`);
  await page.click('#tree-games tr[data-id]');
  await page.waitForSelector('#game-panel:not([hidden]) #moves .mv.current');
  const epd = (f) => f.split(' ').slice(0, 4).join(' ');
  if (epd(await boardFen(page)) !== epd(afterClick)) fail(`game ${listed[0]} opened at ${await boardFen(page)}, not at the explorer's position`);
  log(`game list: ${listed.length} of ${apiList.count}, game ${listed[0]} opens at the position`);
  await page.click('#close-game');
  await page.waitForSelector('#game-panel', { state: 'hidden' });

  // ---- keys: left/right, Home/End, f flips
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((f) => document.querySelector('#board').dataset.fen === f, sicilian);
  await page.keyboard.press('Home');
  await page.waitForFunction((f) => document.querySelector('#board').dataset.fen === f, START);
  await page.keyboard.press('End');
  await page.waitForFunction((f) => document.querySelector('#board').dataset.fen === f, afterClick);
  await page.keyboard.press('f');
  if (!(await page.$('#board.orientation-black'))) fail('f did not flip the board');
  await page.keyboard.press('f');
  log('keys: ArrowLeft, Home, End step through the line; f flips');

  // ---- a promotion asks for the piece: a7-a8, then the knight
  const promoFen = '4k3/P7/8/8/8/8/8/4K3 w - - 0 1';
  await page.fill('#fen', promoFen);
  await page.press('#fen', 'Enter');
  await page.locator('#fen').blur();
  await page.waitForFunction((f) => document.querySelector('#board').dataset.fen === f, promoFen);
  await drag(page, 'a7', 'a8');
  await page.waitForSelector('#board .promotion');
  await page.click('#board .promotion button[data-letter="n"]');
  await page.waitForFunction(() => document.querySelector('#board').dataset.fen.startsWith('N3k3/8/'));
  if (!(await page.inputValue('#pgn')).includes('a8=N')) fail(`promotion: moves box '${await page.inputValue('#pgn')}'`);
  log('promotion: a7-a8 asked for the piece, a8=N played');

  // ---- paste a FEN
  const fenInput = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  await page.fill('#fen', fenInput);
  await page.press('#fen', 'Enter');
  await page.locator('#fen').blur();
  await treeAt(page, fenInput);
  if ((await boardFen(page)) !== fenInput) fail(`pasted FEN, board shows ${await boardFen(page)}`);
  const fenTree = JSON.parse(cli('tree', '--db', db, '--fen', fenInput, '--format', 'json'));
  if (Number(await page.getAttribute('#tree', 'data-total')) !== fenTree.games) fail('tree of the pasted FEN differs from cqldb tree --fen');
  log(`pasted FEN: ${fenTree.games} games (= cqldb tree --fen)`);

  // ---- "search this position" = cqldb query --fen
  await page.click('#search-position');
  await page.waitForSelector('#count', { timeout: 30000 });
  const posCount = Number((await page.textContent('#count')).replace(/[^0-9]/g, ''));
  const fenIds = cliIds('--fen', fenInput);
  if (posCount !== fenIds.length) fail(`search this position: ${posCount} games, cqldb query --fen ${fenIds.length}`);
  log(`search this position: ${posCount} games (= cqldb query --fen)`);

  // ---- "search this pattern": the query written equals the CLI's answer to it
  await page.fill('#pgn', '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6');
  await page.press('#pgn', 'Tab');
  await page.waitForFunction(() => document.querySelector('#board').dataset.fen.startsWith('r1bqkbnr/1ppp1ppp/p1n5/1B2p3/'));
  await page.check('#pat-flip');
  await page.click('#search-pattern');
  await page.waitForSelector('#count', { timeout: 30000 });
  const patternText = await page.inputValue('#cql');
  if (!/^\(match\s+\(position .*Bb5.*:flipcolor/s.test(patternText)) fail(`pattern query is '${patternText}'`);
  const patternCount = Number((await page.textContent('#count')).replace(/[^0-9]/g, ''));
  const patternIds = cliIds('-e', patternText);
  const shownIds = await page.$$eval('#results tbody tr', (rows) => rows.map((r) => r.dataset.id));
  if (patternCount !== patternIds.length || !sameList(shownIds, patternIds.slice(0, shownIds.length)))
    fail(`search this pattern: page ${patternCount} games [${shownIds.slice(0, 5)}], cqldb ${patternIds.length} [${patternIds.slice(0, 5)}]`);
  log(`search this pattern: ${patternText.replace(/\s+/g, ' ')} -> ${patternCount} games (= cqldb query -e)`);
  // the other toggles: shift, and the side to move (here White's)
  await page.uncheck('#pat-flip');
  await page.check('#pat-shift');
  await page.uncheck('#pat-anyside');
  await page.click('#search-pattern');
  await page.waitForFunction(() => /:shift :wtm/.test(document.querySelector('#cql').value) && document.querySelector('#count'));
  const shiftText = await page.inputValue('#cql');
  const shiftCount = Number((await page.textContent('#count')).replace(/[^0-9]/g, ''));
  if (shiftCount !== cliIds('-e', shiftText).length) fail(`pattern with :shift :wtm: page ${shiftCount} games, cqldb differs`);
  log(`search this pattern with shift, White to move: ${shiftCount} games (= cqldb query -e)`);
  await page.uncheck('#pat-shift');
  await page.check('#pat-anyside');

  // ---- the example query: count and first row as cqldb query (issue 19's check)
  const expectedIds = cliIds(queryFile);
  await page.fill('#cql', readFileSync(queryFile, 'utf8'));
  await page.click('#run');
  await page.waitForSelector('#count', { timeout: 30000 });
  const count = Number((await page.textContent('#count')).replace(/[^0-9]/g, ''));
  if (count !== expectedIds.length) fail(`page shows ${count} matches, cqldb query --format ids gives ${expectedIds.length}`);
  const firstRow = await page.getAttribute('#results tbody tr', 'data-id');
  if (firstRow !== expectedIds[0]) fail(`first row is game ${firstRow}, expected ${expectedIds[0]}`);
  const fits = await page.evaluate(() => { const b = document.querySelector('.results-box'); return b.scrollWidth <= b.clientWidth; });
  if (!fits) fail('the result table does not fit at 1280 px');
  log(`example query: ${count} matches (= cqldb query --format ids), table fits 1280 px`);
  await page.screenshot({ path: join(out, 'search-1280.png') });

  // ---- open a result: at its first match, marked on the board and in the moves, scrolled into view
  await page.click('#results tbody tr');
  await page.waitForSelector('#game-panel:not([hidden]) #moves .mv.current');
  const queryId = new URL(await page.getAttribute('#export', 'href'), base).pathname.split('/')[3];
  const game = await (await fetch(`${base}/api/game/${firstRow}?query=${queryId}`)).json();
  const firstMatch = game.matched.plies.length ? String(game.matched.plies[0]) : game.matched.variation_plies[0];
  const currentPath = await page.getAttribute('#moves .mv.current', 'data-path');
  if (currentPath !== firstMatch) fail(`game ${firstRow} opened at ${currentPath}, its first match is ${firstMatch}`);
  if (!(await page.$('#moves .mv.current.match'))) fail('the current move is not marked as matched');
  if (!(await page.$('#board.matched'))) fail('the board is not marked as a matched position');
  if (game.matched.plies.length && (await boardFen(page)) !== game.fens[game.matched.plies[0]])
    fail(`board shows ${await boardFen(page)}, the API's FEN at ply ${firstMatch} is ${game.fens[game.matched.plies[0]]}`);
  log(`game ${firstRow} opened at its first match (${firstMatch}), marked on board and move list`);
  await page.screenshot({ path: join(out, 'game-1280.png') });

  // game 3024 (annotated, Shirov-Karpov): the mate inside a variation (38. Rg8#, far down the
  // move list) is its first match, scrolled into view
  const variationMates = '(match (position :mate :variationsonly))';
  const mateIds = cliIds('-e', variationMates);
  if (mateIds.includes('3024')) {
    await page.goto(`${base}/#view=search&cql=${encodeURIComponent(variationMates)}&game=3024`);
    await page.waitForSelector('body[data-loaded="1"]');
    await page.waitForSelector('#moves .mv.current');
    const visible = await page.evaluate(() => {
      const box = document.querySelector('#moves'), el = box.querySelector('.mv.current');
      const b = box.getBoundingClientRect(), r = el.getBoundingClientRect();
      return { inside: r.top >= b.top && r.bottom <= b.bottom, path: el.dataset.path, match: el.classList.contains('match') };
    });
    if (!visible.inside || !visible.match) fail(`game 3024: the first match ${visible.path} is not in view (${JSON.stringify(visible)})`);
    log(`game 3024: first match ${visible.path} is in view in the move box`);
  }

  // ---- up/down between variations in an annotated game
  const keysGame = await page.evaluate(() => document.querySelector('#moves [data-path*="."]')?.dataset.path);
  if (keysGame) {
    await page.click(`#moves [data-path="${keysGame}"]`);
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowUp');
    const up = await page.getAttribute('#moves .mv.current', 'data-path');
    if (up === keysGame) fail(`ArrowUp stayed on the variation move ${keysGame}`);
    log(`ArrowUp from variation move ${keysGame} went to ${up}`);
  }

  // ---- a parse error clears the old answer
  await page.fill('#cql', '(match (positon :mate))');
  await page.click('#run');
  await page.waitForSelector('#cql-error:not([hidden])');
  const rowsLeft = await page.$$eval('#results tbody tr', (r) => r.length);
  const exportShown = await page.isVisible('#export');
  const gameShown = await page.isVisible('#game-panel');
  if (rowsLeft || exportShown || gameShown) fail(`after a parse error: ${rowsLeft} rows, export ${exportShown}, game ${gameShown}`);
  if (!(await page.$('#cql-view .err'))) fail('the error is not underlined');
  log(`parse error shown (${(await page.textContent('#cql-error')).slice(0, 60)}…) and the old answer cleared`);
  await page.fill('#cql', '(match\n  (position :matte))');
  await page.click('#run');
  await page.waitForSelector('#cql-error:not([hidden])');
  if (!/^line 2, column 13:/.test(await page.textContent('#cql-error'))) fail('error line/column');

  // ---- screenshots at 1920x1080
  const wide = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  wide.on('pageerror', (e) => fail(`page error: ${e.message}`));
  await wide.goto(`${base}/#view=explorer&moves=e2e4,c7c5,g1f3`);
  await wide.waitForSelector('body[data-loaded="1"]');
  await treeAt(wide, sicilian);
  await wide.screenshot({ path: join(out, 'explorer-1920.png') });
  await wide.goto(`${base}/#view=search&cql=${encodeURIComponent(variationMates)}&game=3024`);
  await wide.waitForSelector('body[data-loaded="1"]');
  await wide.waitForSelector('#moves .mv.current');
  await wide.screenshot({ path: join(out, 'game-1920.png') });

  // ---- targets: first paint from a warm server, server tree time, a small query over HTTP, assets
  const paints = [], fcps = [];
  for (let i = 0; i < 5; ++i) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const t0 = Date.now();
    await p.goto(`${base}/#moves=e2e4,c7c5,g1f3`);
    await p.waitForFunction((f) => document.querySelector('#tree')?.dataset.fen === f, sicilian);
    paints.push(Date.now() - t0);
    // the browser's first contentful paint (Paint Timing), from the navigation's start
    fcps.push(await p.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
    await p.close();
  }
  const treeMs = [];
  for (let i = 0; i < 10; ++i) {
    const t0 = performance.now();
    await (await fetch(`${base}/api/tree?fen=${encodeURIComponent(sicilian)}`)).json();
    treeMs.push(performance.now() - t0);
  }
  const queryMs = [], searchMs = [];
  for (let i = 0; i < 10; ++i) {
    const t0 = performance.now();
    const started = await (await fetch(`${base}/api/query`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ cql: `(match (position :fen "${fenInput}"))` }) })).json();
    const s = await (await fetch(`${base}/api/query/${started.id}?offset=0&limit=50&wait=500`)).json();
    queryMs.push(performance.now() - t0);
    if (s.state !== 'done') fail(`small query ended ${s.state}`);
    searchMs.push(s.stats.seconds * 1000);
  }
  let gz = 0;
  for (const file of ['/', '/assets/app.js', '/assets/app.css']) gz += gzipSync(Buffer.from(await (await fetch(base + file)).arrayBuffer())).length;
  const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(1);
  log(`targets: first contentful paint ${med(fcps)} ms, page to tree shown ${med(paints)} ms, median of 5 (<= 300), tree over HTTP ${med(treeMs)} ms median (sample db), ` +
    `:fen query (search ${med(searchMs)} ms) answered over HTTP in ${med(queryMs)} ms median (<= 20), assets ${(gz / 1024).toFixed(1)} KB gzipped (<= 400)`);
  if (gz > 400 * 1024) fail('assets above 400 KB gzipped');
  log(`OK; screenshots in ${out}: explorer-1280, search-1280, game-1280, explorer-1920, game-1920`);
} finally {
  if (browser) await browser.close();
  server.kill('SIGTERM');
}
