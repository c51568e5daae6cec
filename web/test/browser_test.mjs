// Browser test of the page of `cqldb serve` (issue 19), run by .ci/run:
//   node browser_test.mjs --cqldb BUILD/cqldb --db SAMPLE_DB --out BUILD/web-screens
// Starts the server on a free loopback port, opens the page in Debian's headless chromium
// (driven by playwright-core), runs an example query and checks the count against
// `cqldb query --format ids`, opens the first game, steps to its first match and compares
// the board's FEN (data-fen) with the API's FEN of that ply; saves query.png and game.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) =>
  (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const cqldb = args.cqldb, db = args.db, out = args.out || 'web-screens';
const browserPath = args.chromium || '/usr/bin/chromium';
const here = dirname(fileURLToPath(import.meta.url));
const queryFile = join(here, '..', '..', 'examples', 'queries', 'underpromotion.cql');
mkdirSync(out, { recursive: true });

function fail(message) {
  console.error(`browser test: FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

const { server, base } = await startServer(cqldb, db);

let browser;
try {
  const expectedIds = execFileSync(cqldb, ['query', '--db', db, queryFile, '--format', 'ids', '--quiet'])
    .toString().trim().split('\n').filter(Boolean);
  browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="1"]');
  await page.fill('#cql', readFileSync(queryFile, 'utf8'));
  await page.click('#run');
  await page.waitForSelector('#count', { timeout: 30000 });
  const count = Number((await page.textContent('#count')).replace(/[^0-9]/g, ''));
  if (count !== expectedIds.length) fail(`page shows ${count} matches, cqldb query --format ids gives ${expectedIds.length}`);
  const firstRow = await page.getAttribute('#results tbody tr', 'data-id');
  if (firstRow !== expectedIds[0]) fail(`first row is game ${firstRow}, expected ${expectedIds[0]}`);
  await page.screenshot({ path: join(out, 'query.png'), fullPage: true });
  console.log(`browser test: query shows ${count} matches (= cqldb query --format ids), first game ${firstRow}`);

  // open the first game, step to its first match, compare the board with the API
  await page.click('#results tbody tr');
  await page.waitForSelector('#board svg');
  const queryId = new URL(await page.getAttribute('#export', 'href'), base).pathname.split('/')[3];
  await page.click('#next-match');
  const game = await (await fetch(`${base}/api/game/${firstRow}?query=${queryId}`)).json();
  const firstMatch = game.matched.plies.length ? String(game.matched.plies[0]) : game.matched.variation_plies[0];
  await page.waitForSelector(`#board[data-path="${firstMatch}"] svg`);
  await page.waitForFunction(() => {
    const board = document.querySelector('#board');
    const svg = board.querySelector('svg');
    return svg && svg.dataset.fen === board.dataset.fen;
  });
  const shownFen = await page.getAttribute('#board svg', 'data-fen');
  const apiFen = game.matched.plies.length ? game.fens[game.matched.plies[0]] : null;
  if (apiFen !== null && shownFen !== apiFen) fail(`board shows ${shownFen}, the API's FEN at ply ${firstMatch} is ${apiFen}`);
  await page.screenshot({ path: join(out, 'game.png'), fullPage: true });
  console.log(`browser test: game ${firstRow} at its first match (ply ${firstMatch}) shows ${shownFen} (= API)`);

  // the error of a bad query comes back with its line and column, underlined
  await page.fill('#cql', '(match\n  (position :matte))');
  await page.click('#run');
  await page.waitForSelector('#cql-error:not([hidden])');
  const errorText = await page.textContent('#cql-error');
  if (!/^line 2, column 13:/.test(errorText)) fail(`error shown as '${errorText}'`);
  if (!(await page.$('#cql-view .err'))) fail('the error is not underlined');
  console.log(`browser test: error shown: ${errorText}`);
  console.log(`browser test: OK; screenshots ${join(out, 'query.png')} and ${join(out, 'game.png')}`);
} finally {
  if (browser) await browser.close();
  server.kill('SIGTERM');
}
