// The opening explorer (lichess layout): the tree of the board's position (each move with
// its games, White/draw/Black bar, average Elo, performance, last year; the total below) and
// the games reaching the position, highest rated first, a page at a time. Clicking a move
// plays it (onMove(uci)); clicking a game opens it (onGame(id)).
import * as api from './api.js';

const escapeHtml = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const PAGE = 10;

function bar(s) {
  const total = s.white + s.draws + s.black;
  if (!total) return '<div class="bar empty"></div>';
  const pct = (x) => (100 * x) / total;
  const cell = (cls, x) => {
    const p = pct(x);
    return `<span class="${cls}" style="width:${p.toFixed(2)}%">${p >= 12 ? Math.round(p) + '%' : ''}</span>`;
  };
  return `<div class="bar" title="White ${pct(s.white).toFixed(1)}% / draws ${pct(s.draws).toFixed(1)}% / Black ${pct(s.black).toFixed(1)}%">` +
    cell('w', s.white) + cell('d', s.draws) + cell('b', s.black) + '</div>';
}

export class Explorer {
  /** `treeBox` and `gamesBox` are elements; callbacks as above. */
  constructor(treeBox, gamesBox, { onMove, onGame }) {
    this.treeBox = treeBox;
    this.gamesBox = gamesBox;
    this.onMove = onMove;
    this.onGame = onGame;
    this.offset = 0;
    this.request = null;
    this.showGames = true;
    treeBox.addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-uci]');
      if (tr) this.onMove(tr.dataset.uci);
    });
    gamesBox.addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-id]');
      if (tr) { this.onGame(Number(tr.dataset.id)); return; }
      const pager = e.target.closest('button[data-page]');
      if (pager) { this.offset = Math.max(0, this.offset + Number(pager.dataset.page) * PAGE); this.loadGames(); }
    });
  }

  /** Shows the tree (and the games) of `fen` over `scope` ({queryId, filters}). */
  async show(fen, scope) {
    this.fen = fen;
    this.scope = scope;
    this.offset = 0;
    if (this.request) this.request.abort();
    const request = (this.request = new AbortController());
    const started = performance.now();
    const games = this.showGames ? this.loadGames() : Promise.resolve();
    try {
      const tree = await api.tree(fen, scope, request.signal);
      if (request !== this.request) return;
      this.renderTree(tree);
      this.treeBox.dataset.fen = fen;
      this.treeBox.dataset.ms = (performance.now() - started).toFixed(1);
    } catch (e) {
      if (e.name === 'AbortError' || request !== this.request) return;
      this.treeBox.innerHTML = `<div class="error">${escapeHtml(e.error || String(e))}</div>`;
      this.treeBox.dataset.fen = fen;
    }
    await games;
  }

  renderTree(tree) {
    const total = tree.games;
    if (!total) {
      this.treeBox.innerHTML = '<div class="empty-note">No game reaches this position.</div>';
      return;
    }
    const row = (s, first, attrs) =>
      `<tr${attrs}><td class="mv">${first}</td><td class="num">${s.games.toLocaleString()}</td>` +
      `<td class="num pct">${((100 * s.games) / total).toFixed(0)}%</td>` +
      `<td class="num" title="average Elo of the players who made the move">${s.averageRating || ''}</td>` +
      `<td class="num" title="performance of the players who made the move">${s.performance || ''}</td>` +
      `<td class="num">${s.lastYear || ''}</td><td class="barcell">${bar(s)}</td></tr>`;
    let html = '<table class="tree-table"><thead><tr><th>Move</th><th class="num">Games</th><th></th><th class="num">Elo</th>' +
      '<th class="num">Perf</th><th class="num">Last</th><th>White / Draw / Black</th></tr></thead><tbody>';
    for (const m of tree.moves)
      html += row(m, escapeHtml(m.san), ` data-uci="${m.uci}" data-games="${m.games}" title="play ${escapeHtml(m.san)}"`);
    html += '</tbody><tfoot>' + row(tree, 'Σ', ' class="total"') + '</tfoot></table>';
    if (tree.ended) html += `<div class="meta">${tree.ended.toLocaleString()} game${tree.ended === 1 ? ' ends' : 's end'} here.</div>`;
    this.treeBox.innerHTML = html;
    this.treeBox.dataset.total = total;
  }

  async loadGames() {
    const fen = this.fen, offset = this.offset;
    try {
      const page = await api.treeGames(fen, this.scope, offset, PAGE);
      if (fen !== this.fen || offset !== this.offset) return;
      this.renderGames(page);
    } catch (e) {
      if (fen === this.fen) this.gamesBox.innerHTML = `<div class="error">${escapeHtml(e.error || String(e))}</div>`;
    }
  }

  renderGames(page) {
    if (!page.count) { this.gamesBox.innerHTML = ''; return; }
    const elo = (e) => (e ? ` <span class="elo">${e}</span>` : '');
    let html = `<h3>Games <span class="meta">(highest rated first)</span></h3><table class="games-table"><tbody>`;
    for (const r of page.rows) {
      html += `<tr data-id="${r.id}" title="open game ${r.id}"><td class="player">${escapeHtml(r.white)}${elo(r.white_elo)}</td>` +
        `<td class="player">${escapeHtml(r.black)}${elo(r.black_elo)}</td><td class="res">${escapeHtml(r.result)}</td>` +
        `<td>${escapeHtml((r.date || '').slice(0, 4))}</td><td class="event">${escapeHtml(r.event)}</td></tr>`;
    }
    const last = Math.min(page.offset + PAGE, page.count);
    html += `</tbody></table><div class="row pager"><button type="button" data-page="-1"${page.offset ? '' : ' disabled'}>◀</button>` +
      `<span>${(page.offset + 1).toLocaleString()}–${last.toLocaleString()} of ${page.count.toLocaleString()}</span>` +
      `<button type="button" data-page="1"${last < page.count ? '' : ' disabled'}>▶</button></div>`;
    this.gamesBox.innerHTML = html;
  }
}
