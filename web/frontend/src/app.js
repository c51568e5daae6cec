// The single page of `cqldb serve`: the query form (editor, examples, filters), running a
// query with progress and cancel, the sortable, paged result list, the explain panel, PGN
// export, a link that reproduces the query, and the game viewer (viewer.js).
import * as api from './api.js';
import { CqlEditor } from './editor.js';
import { GameViewer } from './viewer.js';

const $ = (id) => document.getElementById(id);
const escapeHtml = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const PAGE = 50;

const editor = new CqlEditor($('cql'), $('cql-view'), $('keyword-help'));
const viewer = new GameViewer();
const state = { id: null, sort: '', offset: 0, count: 0, polling: null, openGame: null };

function filters() {
  const f = {};
  for (const el of $('filters').elements) if (el.name && el.value.trim()) f[el.name] = el.value.trim();
  return f;
}

/** The page's URL for the current query: #cql=...&sort=...&FILTER=... */
function shareUrl() {
  const params = new URLSearchParams({ cql: editor.text, ...filters() });
  if (state.sort) params.set('sort', state.sort);
  if (state.offset) params.set('offset', state.offset);
  if (state.openGame) params.set('game', state.openGame);
  return `${location.origin}${location.pathname}#${params}`;
}

function showError(e) {
  const box = $('cql-error');
  box.hidden = false;
  box.textContent = e.line ? `line ${e.line}, column ${e.column}: ${e.error}` + (e.expected ? ` (expected ${e.expected})` : '') : (e.error || String(e));
  editor.setError(e.line ? e : null);
}

async function run() {
  if (state.id && state.polling) await cancel();
  $('cql-error').hidden = true;
  editor.setError(null);
  state.offset = 0;
  $('summary').textContent = '';
  let started;
  try {
    started = await api.startQuery({ cql: editor.text, filters: filters(), sort: state.sort, limit: PAGE });
  } catch (e) {
    showError(e);
    return;
  }
  state.id = started.id;
  history.replaceState(null, '', shareUrl());
  $('run').disabled = true;
  $('cancel').disabled = false;
  $('progress').hidden = false;
  $('progress').value = 0;
  poll();
}

async function poll() {
  clearTimeout(state.polling);
  let s;
  try {
    s = await api.queryState(state.id, state.offset, PAGE, state.sort);
  } catch (e) {
    finish();
    showError(e);
    return;
  }
  if (s.state === 'running') {
    const p = s.progress;
    $('progress').max = p.total || 1;
    $('progress').value = p.searched;
    $('summary').textContent = `searching… ${p.searched.toLocaleString()} / ${p.total.toLocaleString()} games, ${p.matches.toLocaleString()} matches`;
    state.polling = setTimeout(poll, 150);
    return;
  }
  finish();
  if (s.state === 'failed') { showError({ error: s.error }); return; }
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
    return `<tr data-id="${r.id}"${r.id === state.openGame ? ' class="open"' : ''}><td>${r.id}</td><td class="player" title="${escapeHtml(r.white)}">${escapeHtml(r.white)}</td>` +
      `<td>${elo(r.white_elo, r.black_elo)}</td><td class="player" title="${escapeHtml(r.black)}">${escapeHtml(r.black)}</td><td>${escapeHtml(r.result)}</td>` +
      `<td>${escapeHtml(r.date)}</td><td class="event" title="${escapeHtml(r.event)}">${escapeHtml(r.event)}</td>` +
      `<td title="${escapeHtml(r.opening)}">${escapeHtml(r.eco)}</td>` +
      `<td>${escapeHtml(plies.slice(0, 6).join(', '))}${plies.length > 6 ? ', …' : ''}</td></tr>`;
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
  history.replaceState(null, '', shareUrl());
}

async function page(delta) {
  state.offset = Math.max(0, state.offset + delta);
  await poll();
}

async function openGame(id) {
  state.openGame = id;
  for (const tr of document.querySelectorAll('#results tbody tr')) tr.classList.toggle('open', Number(tr.dataset.id) === id);
  await viewer.open(id, state.id);
  history.replaceState(null, '', shareUrl());
}

// wiring
$('run').onclick = run;
$('cancel').onclick = cancel;
$('prev-page').onclick = () => page(-PAGE);
$('next-page').onclick = () => page(PAGE);
$('cql').addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); } });
$('filters').addEventListener('submit', (e) => { e.preventDefault(); run(); });
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
  if (tr) openGame(Number(tr.dataset.id));
};
$('share').onclick = (e) => {
  e.preventDefault();
  history.replaceState(null, '', shareUrl());
  navigator.clipboard?.writeText(shareUrl()).catch(() => {});
  $('share').textContent = 'Link to this query (in the address bar)';
};

async function init() {
  const [info, examples, keywords] = await Promise.all([api.info(), api.examples(), api.keywords()]);
  $('db-info').textContent = `${info.database}: ${info.games.toLocaleString()} games${info.allow_write ? '' : ' (read-only)'}`;
  editor.setKeywords(keywords);
  const select = $('examples');
  for (const ex of examples) {
    const option = document.createElement('option');
    option.value = ex.cql;
    option.textContent = `${ex.name.replace(/\.cql$/, '')}${ex.title ? ' — ' + ex.title : ''}`;
    select.append(option);
  }
  select.onchange = () => { if (select.value) { editor.text = select.value; select.selectedIndex = 0; } };
  // a shared link: #cql=...&player=...&sort=...&game=ID
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has('cql')) {
    editor.text = params.get('cql');
    for (const el of $('filters').elements) if (el.name && params.has(el.name)) el.value = params.get(el.name);
    state.sort = params.get('sort') || '';
    const game = Number(params.get('game') || 0);
    const offset = Number(params.get('offset') || 0);
    await run();
    if (offset) { state.offset = offset; }
    if (game) openGame(game);
  }
  document.body.dataset.ready = '1';
}
init();
