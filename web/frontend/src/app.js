// The page of `cqldb serve` (issue 39): one board (board.js) the page owns; the explorer
// (the start view: the tree and games of the board's position), the search view (the CQL
// editor, the result list), the game viewer (viewer.js) and the board -> query buttons.
// The URL's '#' holds the view, the position (fen + moves + current move), the filters,
// the query and the open game.
import * as api from './api.js';
import { Board } from './board.js';
import { CqlEditor } from './editor.js';
import { Explorer } from './explorer.js';
import { GameViewer } from './viewer.js';
import { positionOf, fenOf, moveOfUci, play, playSanText, piecesOf, INITIAL_FEN } from './chess.js';
import { patternQuery, positionQuery } from './pattern.js';

const $ = (id) => document.getElementById(id);
const escapeHtml = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const PAGE = 50;
const COLUMNS = ['id', 'white', 'elo', 'black', 'result', 'date', 'event', 'eco', 'plies'];

// The free line of the board (explorer): the root FEN, the moves played from it, and how
// many of them are shown (the cursor); moves after the cursor are kept until another move
// is played there, as lichess does.
const line = { root: INITIAL_FEN, moves: [], cursor: 0 };
// 'line': the board shows the line; 'game': it shows the viewer's node.
let boardSource = 'line';
const state = { view: 'explorer', id: null, sort: '', offset: 0, count: 0, polling: null, openGame: null, editing: false };

const board = new Board($('board'), onBoardMove);
const editor = new CqlEditor($('cql'), $('cql-view'), $('keyword-help'));
const viewer = new GameViewer((node) => { boardSource = 'game'; showPosition(node.fen, node.uci, node.matched, node); });
const explorer = new Explorer($('tree'), $('tree-games'), {
  onMove: (uci) => playUci(uci),
  onGame: (id) => openGame(id, null, currentFen()),
});

// ---------------------------------------------------------------- position and board

function lineFen(k = line.cursor) { return k === 0 ? line.root : line.moves[k - 1].fen; }
function currentFen() { return boardSource === 'game' && viewer.isOpen ? viewer.nodes[viewer.current].fen : lineFen(); }

/** Puts `fen` on the board and everything that follows the position: FEN box, tree, engine. */
function showPosition(fen, lastUci = '', matched = false, node = null) {
  board.show(fen, { lastMove: lastUci, matched });
  if (document.activeElement !== $('fen')) $('fen').value = fen;
  if (document.activeElement !== $('pgn')) $('pgn').value = node ? gameLineText(node) : lineText();
  $('position-info').textContent = node
    ? (node.path === '0' ? 'Start of the game' : `After ${node.number}${node.white ? '.' : '…'} ${node.san}`) + (matched ? ' — matched position' : '')
    : line.cursor ? `After ${moveNumber(line.cursor)} ${line.moves[line.cursor - 1].san}` : '';
  $('board').dataset.path = node ? node.path : String(line.cursor);
  refreshTree();
  refreshEngine();
  updateUrl();
}

function moveNumber(k) {
  const [, turn, , , , full] = line.root.split(' ');
  const plyIndex = (turn === 'b' ? 1 : 0) + (k - 1);
  return `${Number(full || 1) + Math.floor(plyIndex / 2)}${plyIndex % 2 ? '…' : '.'}`;
}

function lineText() {
  const [, turn, , , , full] = line.root.split(' ');
  let text = '';
  line.moves.forEach((m, k) => {
    const plyIndex = (turn === 'b' ? 1 : 0) + k;
    const number = Number(full || 1) + Math.floor(plyIndex / 2);
    if (plyIndex % 2 === 0) text += `${number}. `;
    else if (k === 0) text += `${number}... `;
    text += m.san + ' ';
  });
  return text.trim();
}

/** The moves of the open game from its start to `node` (variations included), numbered. */
function gameLineText(node) {
  const path = [];
  for (let n = node; n && n.prev >= 0; n = viewer.nodes[n.prev]) path.unshift(n);
  return path.map((n, k) => (n.white ? `${n.number}. ` : k === 0 ? `${n.number}... ` : '') + n.san).join(' ');
}

function setLine(root, moves, cursor) {
  line.root = root;
  line.moves = moves;
  line.cursor = cursor ?? moves.length;
  boardSource = 'line';
  showPosition(lineFen(), line.cursor ? line.moves[line.cursor - 1].uci : '');
}

/** A move made on the board (drag or click) or in the tree. */
function onBoardMove(r) {
  if (boardSource === 'game' && viewer.isOpen) {
    const child = viewer.childByUci(r.uci);
    if (child >= 0) { viewer.go(child); return; }
    // off the game: the line becomes the game's moves up to here plus this move
    const path = [];
    for (let i = viewer.current; i > 0; i = viewer.nodes[i].prev) path.unshift(viewer.nodes[i]);
    setLine(viewer.nodes[0].fen, [...path.map((n) => ({ san: n.san, uci: n.uci, fen: n.fen })), { san: r.san, uci: r.uci, fen: r.fen }]);
    return;
  }
  const next = line.moves[line.cursor];
  if (next && next.uci === r.uci) { line.cursor += 1; }
  else { line.moves = line.moves.slice(0, line.cursor); line.moves.push({ san: r.san, uci: r.uci, fen: r.fen }); line.cursor += 1; }
  boardSource = 'line';
  showPosition(lineFen(), r.uci);
}

function playUci(uci) {
  const pos = positionOf(currentFen());
  const move = moveOfUci(pos, uci);
  if (!move) return;
  const r = play(pos, move);
  onBoardMove({ ...r, fen: fenOf(r.pos) });
}

function step(key) {
  if (boardSource === 'game' && viewer.isOpen) { viewer.step(key); return; }
  const to = { back: line.cursor - 1, forward: line.cursor + 1, first: 0, last: line.moves.length }[key];
  if (to === undefined || to < 0 || to > line.moves.length) return;
  line.cursor = to;
  showPosition(lineFen(), to ? line.moves[to - 1].uci : '');
}

// ---------------------------------------------------------------- filters, tree, engine

/** The header filters as POST /api/query and /api/tree take them. */
function filters() {
  const form = $('filters').elements;
  const value = (name) => form[name].value.trim();
  const f = {};
  const player = value('player');
  if (player) f[{ white: 'white', black: 'black' }[value('colour')] || 'player'] = player;
  for (const name of ['year_min', 'year_max', 'elo_min', 'event', 'result']) if (value(name)) f[name] = value(name);
  return f;
}

let treeTimer = null;
function refreshTree() {
  clearTimeout(treeTimer);
  const useResult = state.id && state.count >= 0 && $('tree-scope').checked;
  $('tree-scope-label').hidden = !state.id;
  const scope = { filters: filters(), queryId: useResult ? state.id : null };
  explorer.showGames = state.view === 'explorer';
  $('tree-games').hidden = !explorer.showGames;
  $('tree-note').textContent = useResult ? `over the ${state.count.toLocaleString()} games of the result` :
    Object.keys(scope.filters).length ? 'over the filtered games' : '';
  // Stepping through a game asks for the tree of the position the user stops at, not of each
  // one passed (a tree after the indexed 40 plies replays candidates: 75-220 ms CPU at 344k).
  const fen = currentFen();
  if (boardSource === 'game') treeTimer = setTimeout(() => explorer.show(fen, scope), 150);
  else explorer.show(fen, scope);
}

let engineOn = false, engineRequest = null;
function refreshEngine() {
  if (engineRequest) engineRequest.abort();
  engineRequest = null;
  const box = $('engine-line');
  box.hidden = !engineOn;
  if (!engineOn) return;
  const fen = currentFen();
  let pos;
  try { pos = positionOf(fen); } catch { return; }
  if (pos.isEnd()) { box.textContent = pos.isCheckmate() ? 'Checkmate' : 'No legal move'; return; }
  box.textContent = 'engine: thinking…';
  const request = (engineRequest = new AbortController());
  api.engine(fen, request.signal).then((r) => {
    if (request !== engineRequest || r.cancelled) return;
    const white = pos.turn === 'white' ? 1 : -1;  // scores from White's point of view
    const score = r.kind === 'mate' ? `#${r.value * white}` : ((r.value * white) / 100).toFixed(2).replace(/^(?=\d)/, '+');
    // the principal variation in SAN
    let p = pos, san = [];
    for (const uci of r.pv.split(' ').filter(Boolean).slice(0, 12)) {
      const move = moveOfUci(p, uci);
      if (!move) break;
      const played = play(p, move);
      if (p.turn === 'white') san.push(`${p.fullmoves}.`);
      else if (!san.length) san.push(`${p.fullmoves}…`);
      san.push(played.san);
      p = played.pos;
    }
    box.innerHTML = `<b>${escapeHtml(score)}</b> <span class="meta">depth ${r.depth}</span> ${escapeHtml(san.join(' '))}`;
    box.dataset.fen = fen;
  }).catch((e) => { if (e.name !== 'AbortError' && request === engineRequest) box.textContent = `engine: ${e.error || e}`; });
}

// ---------------------------------------------------------------- views and URL

function setView(view, refresh = true) {
  state.view = view;
  for (const a of document.querySelectorAll('.tabs a')) a.classList.toggle('active', a.dataset.view === view);
  $('search-panel').hidden = view !== 'search';
  document.body.dataset.view = view;
  if (!refresh) return;
  refreshTree();
  updateUrl();
}

function urlParams() {
  const p = new URLSearchParams();
  p.set('view', state.view);
  if (line.root !== INITIAL_FEN) p.set('fen', line.root);
  if (line.moves.length) p.set('moves', line.moves.map((m) => m.uci).join(','));
  if (line.cursor !== line.moves.length) p.set('at', line.cursor);
  for (const el of $('filters').elements) if (el.name && el.value.trim()) p.set(el.name, el.value.trim());
  if (state.view === 'search' || state.id) p.set('cql', editor.text);
  if (state.sort) p.set('sort', state.sort);
  if (state.openGame) {
    p.set('game', state.openGame);
    if (viewer.isOpen) p.set('node', viewer.nodes[viewer.current].path);
  }
  return p;
}
let urlTimer = null;
function updateUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => history.replaceState(null, '', `#${urlParams()}`), 50);
}

// ---------------------------------------------------------------- queries

function showError(e) {
  const box = $('cql-error');
  box.hidden = false;
  box.textContent = e.line ? `line ${e.line}, column ${e.column}: ${e.error}` + (e.expected ? ` (expected ${e.expected})` : '') : (e.error || String(e));
  editor.setError(e.line ? e : null);
}

/** Clears the answer on screen: rows, count, export link, open game of the result. */
function clearAnswer() {
  state.id = null;
  state.count = 0;
  document.querySelector('#results tbody').innerHTML = '';
  $('summary').textContent = '';
  $('page-info').textContent = '';
  $('export').hidden = true;
  $('explain').textContent = '';
  $('prev-page').disabled = $('next-page').disabled = true;
  if (state.openGame) closeGame();
}

async function run() {
  if (state.id && state.polling) await cancel();
  $('cql-error').hidden = true;
  editor.setError(null);
  clearAnswer();
  state.offset = 0;
  if (state.view !== 'search') setView('search');
  let started;
  try {
    started = await api.startQuery({ cql: editor.text, filters: filters(), sort: state.sort, limit: PAGE });
  } catch (e) {
    showError(e);
    refreshTree();
    return;
  }
  state.id = started.id;
  state.count = -1;
  $('run').disabled = true;
  $('cancel').disabled = false;
  await poll(true);
}

/** Asks for the state of the query; while it runs the server holds the request until it
 * finishes (at most 500 ms), so the answer comes as soon as the search ends. */
async function poll(wait = false) {
  let s;
  const id = state.id;
  try {
    s = await api.queryState(id, state.offset, PAGE, state.sort, wait ? 500 : 0);
  } catch (e) {
    finish();
    showError(e);
    return;
  }
  if (id !== state.id) return;
  if (s.state === 'running') {
    const p = s.progress;
    $('progress').hidden = false;
    $('progress').max = p.total || 1;
    $('progress').value = p.searched;
    $('summary').textContent = `searching… ${p.searched.toLocaleString()} / ${p.total.toLocaleString()} games, ${p.matches.toLocaleString()} matches`;
    state.polling = true;
    return poll(true);
  }
  finish();
  if (s.state === 'failed') { showError({ error: s.error }); state.id = null; return; }
  showResult(s);
}

function finish() {
  state.polling = null;
  $('run').disabled = false;
  $('cancel').disabled = true;
  $('progress').hidden = true;
}

async function cancel() {
  if (!state.id) return;
  try { await api.cancelQuery(state.id); } catch { /* already gone */ }
}

function showResult(s) {
  state.count = s.count;
  const st = s.stats;
  $('summary').innerHTML = `<b id="count">${s.count.toLocaleString()}</b> matching game${s.count === 1 ? '' : 's'}` +
    ` of ${st.games.toLocaleString()}, ${st.seconds.toFixed(3)} s${st.cancelled ? ' (cancelled: partial result)' : ''}`;
  $('explain').textContent = s.plan + '\n' + st.explain;
  $('export').hidden = s.count === 0;
  $('export').href = `/api/query/${state.id}/pgn?sort=${encodeURIComponent(state.sort)}`;
  const body = document.querySelector('#results tbody');
  const elo = (a, b) => (a || b ? `${a ?? '?'}/${b ?? '?'}` : '');
  body.innerHTML = s.rows.map((r) => {
    const plies = r.plies.concat(r.variation_plies);
    return `<tr data-id="${r.id}"${r.id === state.openGame ? ' class="open"' : ''}><td data-col="id">${r.id}</td>` +
      `<td data-col="white" title="${escapeHtml(r.white)}">${escapeHtml(r.white)}</td>` +
      `<td data-col="elo">${elo(r.white_elo, r.black_elo)}</td><td data-col="black" title="${escapeHtml(r.black)}">${escapeHtml(r.black)}</td>` +
      `<td data-col="result">${escapeHtml(r.result)}</td><td data-col="date">${escapeHtml(r.date)}</td>` +
      `<td data-col="event" title="${escapeHtml(r.event)}">${escapeHtml(r.event)}</td>` +
      `<td data-col="eco" title="${escapeHtml(r.opening)}">${escapeHtml(r.eco)}</td>` +
      `<td data-col="plies" title="${escapeHtml(plies.join(', '))}">${escapeHtml(plies.slice(0, 4).join(', '))}${plies.length > 4 ? ', …' : ''}</td></tr>`;
  }).join('');
  const last = Math.min(state.offset + PAGE, s.count);
  $('page-info').textContent = s.count ? `${(state.offset + 1).toLocaleString()}–${last.toLocaleString()} of ${s.count.toLocaleString()}` : '';
  $('prev-page').disabled = state.offset === 0;
  $('next-page').disabled = last >= s.count;
  for (const th of document.querySelectorAll('#results th')) {
    const key = state.sort.replace(/^-/, '');
    th.classList.toggle('sorted', th.dataset.sort === key);
    th.classList.toggle('reversed', state.sort.startsWith('-'));
  }
  $('tree-scope').checked = true;
  refreshTree();
  updateUrl();
}

async function page(delta) {
  state.offset = Math.max(0, state.offset + delta);
  await poll();
}

/** Opens game `id` (of query `queryId` when given) at `at` (see GameViewer.open). */
async function openGame(id, queryId, at = 'match') {
  state.openGame = id;
  for (const tr of document.querySelectorAll('#results tbody tr')) tr.classList.toggle('open', Number(tr.dataset.id) === id);
  try {
    await viewer.open(id, queryId, at);
  } catch (e) {
    $('position-info').textContent = e.error || String(e);
  }
  updateUrl();
}

function closeGame() {
  state.openGame = null;
  viewer.close();
  for (const tr of document.querySelectorAll('#results tbody tr.open')) tr.classList.remove('open');
  boardSource = 'line';
  showPosition(lineFen(), line.cursor ? line.moves[line.cursor - 1].uci : '');
}

// ---------------------------------------------------------------- board -> query

function searchPosition() {
  editor.text = positionQuery(currentFen());
  run();
}

function searchPattern() {
  const pos = positionOf(currentFen());
  editor.text = patternQuery(piecesOf(pos), {
    flipColor: $('pat-flip').checked,
    shift: $('pat-shift').checked,
    sideToMove: $('pat-anyside').checked ? null : pos.turn,
  });
  run();
}

/** Edit mode: pieces move freely and leave the board when dragged off it; leaving edit
 * mode makes the edited board (side to move as before) the new root of the line. */
function toggleEdit() {
  state.editing = !state.editing;
  board.editing = state.editing;
  $('edit').classList.toggle('active', state.editing);
  if (state.editing) {
    board.cg.set({ movable: { free: true, color: 'both', dests: undefined }, draggable: { deleteOnDropOff: true } });
    return;
  }
  board.cg.set({ draggable: { deleteOnDropOff: false }, movable: { free: false } });
  const [, turn] = currentFen().split(' ');
  const fen = `${board.cg.getFen()} ${turn} - - 0 1`;
  try {
    positionOf(fen);
    if (viewer.isOpen) closeGame();
    setLine(fen, []);
    $('fen-error').hidden = true;
  } catch (e) {
    $('fen-error').hidden = false;
    $('fen-error').textContent = `${e.message}: the board is kept as it was`;
    showPosition(currentFen());
  }
}

// ---------------------------------------------------------------- wiring

$('first').onclick = () => step('first');
$('back').onclick = () => step('back');
$('forward').onclick = () => step('forward');
$('last').onclick = () => step('last');
$('flip').onclick = () => board.flip();
$('edit').onclick = toggleEdit;
$('engine').onclick = () => { engineOn = !engineOn; $('engine').classList.toggle('active', engineOn); refreshEngine(); };
$('close-game').onclick = closeGame;
$('search-position').onclick = searchPosition;
$('search-pattern').onclick = searchPattern;
document.addEventListener('keydown', (e) => {
  if (e.target.matches('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = { ArrowLeft: 'back', ArrowRight: 'forward', ArrowUp: 'up', ArrowDown: 'down', Home: 'first', End: 'last' };
  if (keys[e.key]) { e.preventDefault(); step(keys[e.key]); }
  else if (e.key === 'f') { e.preventDefault(); board.flip(); }
});
$('fen').addEventListener('change', () => {
  const fen = $('fen').value.trim();
  try {
    positionOf(fen);
    $('fen-error').hidden = true;
    if (viewer.isOpen) closeGame();
    setLine(fen, []);
  } catch (e) {
    $('fen-error').hidden = false;
    $('fen-error').textContent = e.message;
  }
});
$('pgn').addEventListener('change', () => {
  try {
    const root = boardSource === 'game' && viewer.isOpen ? viewer.nodes[0].fen : INITIAL_FEN;
    const moves = playSanText(root, $('pgn').value);
    $('fen-error').hidden = true;
    if (viewer.isOpen) closeGame();
    setLine(root, moves);
  } catch (e) {
    $('fen-error').hidden = false;
    $('fen-error').textContent = e.message;
  }
});
$('filters').addEventListener('change', () => { refreshTree(); updateUrl(); });
$('filters').addEventListener('submit', (e) => { e.preventDefault(); refreshTree(); });
$('tree-scope').addEventListener('change', refreshTree);
for (const a of document.querySelectorAll('.tabs a')) a.onclick = (e) => { e.preventDefault(); setView(a.dataset.view); };

$('run').onclick = run;
$('cancel').onclick = cancel;
$('prev-page').onclick = () => page(-PAGE);
$('next-page').onclick = () => page(PAGE);
$('cql').addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); } });
document.querySelector('#results thead').onclick = (e) => {
  const th = e.target.closest('th[data-sort]');
  if (!th || !state.id) return;
  const key = th.dataset.sort;
  state.sort = state.sort === key ? '-' + key : key;
  state.offset = 0;
  poll();
};
document.querySelector('#results tbody').onclick = (e) => {
  const tr = e.target.closest('tr[data-id]');
  if (tr) openGame(Number(tr.dataset.id), state.id, 'match');
};
$('share').onclick = (e) => {
  e.preventDefault();
  const url = `${location.origin}${location.pathname}#${urlParams()}`;
  history.replaceState(null, '', url);
  navigator.clipboard?.writeText(url).catch(() => {});
  $('share').textContent = 'Link to this query (in the address bar)';
};

// hideable columns of the result table (kept in localStorage)
function applyColumns() {
  const hidden = new Set(JSON.parse(localStorage.getItem('cqldb-hidden-columns') || '[]'));
  $('results').className = [...hidden].map((c) => `hide-${c}`).join(' ');
  $('column-toggles').innerHTML = COLUMNS.map((c) =>
    `<label><input type="checkbox" data-col="${c}"${hidden.has(c) ? '' : ' checked'}> ${document.querySelector(`#results th[data-col="${c}"]`).textContent}</label>`).join('');
}
$('column-toggles').addEventListener('change', (e) => {
  const hidden = new Set(JSON.parse(localStorage.getItem('cqldb-hidden-columns') || '[]'));
  if (e.target.checked) hidden.delete(e.target.dataset.col); else hidden.add(e.target.dataset.col);
  localStorage.setItem('cqldb-hidden-columns', JSON.stringify([...hidden]));
  applyColumns();
});

// A link pasted or edited in the address bar (the page itself only replaces the hash, which
// fires no event): the page starts over from it.
window.addEventListener('hashchange', () => location.reload());

async function init() {
  applyColumns();
  const params = new URLSearchParams(location.hash.slice(1));
  for (const el of $('filters').elements) if (el.name && params.has(el.name)) el.value = params.get(el.name);
  // the position of the URL
  let root = params.get('fen') || INITIAL_FEN, moves = [];
  try {
    positionOf(root);
    let pos = positionOf(root);
    for (const uci of (params.get('moves') || '').split(',').filter(Boolean)) {
      const move = moveOfUci(pos, uci);
      if (!move) break;
      const r = play(pos, move);
      pos = r.pos;
      moves.push({ san: r.san, uci: r.uci, fen: fenOf(pos) });
    }
  } catch { root = INITIAL_FEN; moves = []; }
  const at = params.has('at') ? Math.min(Number(params.get('at')) || 0, moves.length) : moves.length;
  line.root = root; line.moves = moves; line.cursor = at;
  state.view = params.get('view') === 'search' ? 'search' : 'explorer';
  if (params.has('cql')) editor.text = params.get('cql');
  state.sort = params.get('sort') || '';
  setView(state.view, false);
  showPosition(lineFen(), at ? moves[at - 1].uci : '');  // asks for the tree once
  document.body.dataset.ready = '1';  // the board and the tree request are up: the first paint
  const [info, examples, keywords] = await Promise.all([api.info(), api.examples(), api.keywords()]);
  $('db-info').textContent = `${info.database}: ${info.games.toLocaleString()} games${info.allow_write ? '' : ' (read-only)'}`;
  $('engine').hidden = !info.engine;
  editor.setKeywords(keywords);
  const select = $('examples');
  for (const ex of examples) {
    const option = document.createElement('option');
    option.value = ex.cql;
    option.textContent = `${ex.name.replace(/\.cql$/, '')}${ex.title ? ' — ' + ex.title : ''}`;
    select.append(option);
  }
  select.onchange = () => { if (select.value) { editor.text = select.value; select.selectedIndex = 0; } };
  if (params.has('cql') && state.view === 'search') await run();
  const game = Number(params.get('game') || 0);
  if (game) await openGame(game, state.id, params.get('node') || 'match');
  document.body.dataset.loaded = '1';
}
init();
