// The game viewer: the board (drawn by the server, /api/board.svg), the move list with
// variations and comments and the matched positions marked, stepping by keys and buttons,
// next/previous match, flip, and the opening tree of the shown position.
import * as api from './api.js';

const $ = (id) => document.getElementById(id);
const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export class GameViewer {
  constructor() {
    this.nodes = [];     // positions in movetext order: {fen, san, uci, path, prev, next, matched, ...}
    this.current = 0;
    this.flipped = false;
    this.game = null;
    this.boardRequest = 0;
    $('first').onclick = () => this.go(0);
    $('back').onclick = () => this.go(this.nodes[this.current].prev);
    $('forward').onclick = () => this.go(this.nodes[this.current].next);
    $('last').onclick = () => this.go(this.lastOfLine());
    $('next-match').onclick = () => this.nextMatch(1);
    $('prev-match').onclick = () => this.nextMatch(-1);
    $('flip').onclick = () => { this.flipped = !this.flipped; this.showBoard(); };
    $('moves').addEventListener('click', (e) => {
      const el = e.target.closest('[data-node]');
      if (el) this.go(Number(el.dataset.node));
    });
    document.addEventListener('keydown', (e) => {
      if (!this.game || e.target.matches('input, textarea, select')) return;
      const keys = { ArrowLeft: () => $('back').click(), ArrowRight: () => $('forward').click(),
                     Home: () => this.go(0), End: () => this.go(this.lastOfLine()) };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
  }

  /** Opens game `id`; `queryId` marks the positions that query matched. */
  async open(id, queryId) {
    const game = await api.game(id, queryId);
    this.game = game;
    const matched = new Set();
    if (game.matched) {
      for (const p of game.matched.plies) matched.add(String(p));
      for (const p of game.matched.variation_plies) matched.add(p);
    }
    this.nodes = [{ fen: game.start_fen, path: '0', prev: -1, next: -1, matched: matched.has('0'), san: '' }];
    const addLine = (moves, from, isVariation) => {
      let prev = from;
      moves.forEach((m, k) => {
        const index = this.nodes.length;
        this.nodes.push({ ...m, prev, next: -1, matched: matched.has(m.path) });
        if (!(isVariation && k === 0)) this.nodes[prev].next = index;
        for (const v of m.variations || []) addLine(v.moves, prev, true);
        prev = index;
      });
    };
    addLine(game.moves, 0, false);
    $('viewer').hidden = false;
    const elo = (e) => (e ? ` (${e})` : '');
    $('game-title').textContent = `${game.id}. ${game.white}${elo(game.white_elo)} – ${game.black}${elo(game.black_elo)}  ${game.result}`;
    $('game-meta').textContent = [game.event, game.site, game.date, game.round && game.round !== '?' ? `round ${game.round}` : '',
      [game.eco, game.opening].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    $('game-pgn').href = `/api/game/${game.id}.pgn` + (queryId ? `?query=${queryId}` : '');
    this.renderMoves(game);
    const firstMatch = this.nodes.findIndex((n) => n.matched);
    this.go(0);
    return firstMatch;
  }

  renderMoves(game) {
    const nodeOf = new Map(this.nodes.map((n, i) => [n.path, i]));
    const line = (moves, comment) => {
      let html = comment ? `<span class="comment">{${escapeHtml(comment)}}</span> ` : '';
      let numberNext = true;
      for (const m of moves) {
        const i = nodeOf.get(m.path);
        const number = m.white ? `${m.number}. ` : numberNext ? `${m.number}… ` : '';
        numberNext = false;
        const nags = (m.nags || []).map((n) => ` $${n}`).join('');
        html += `${number}<span class="mv${this.nodes[i].matched ? ' match' : ''}" data-node="${i}" data-path="${m.path}">${escapeHtml(m.san)}${nags}</span> `;
        if (m.comment) { html += `<span class="comment">{${escapeHtml(m.comment)}}</span> `; numberNext = true; }
        for (const v of m.variations || []) {
          html += `<span class="var">( ${line(v.moves, v.comment_before)})</span> `;
          numberNext = true;
        }
      }
      return html;
    };
    const start = `<span class="mv start${this.nodes[0].matched ? ' match' : ''}" data-node="0">[start]</span> `;
    $('moves').innerHTML = start + line(game.moves, game.comment_before) + escapeHtml(game.result);
  }

  lastOfLine() {
    let i = this.current;
    while (this.nodes[i].next >= 0) i = this.nodes[i].next;
    return i;
  }

  /** Jumps to the next (dir 1) or previous (dir -1) matched position in movetext order. */
  nextMatch(dir) {
    for (let i = this.current + dir; i >= 0 && i < this.nodes.length; i += dir)
      if (this.nodes[i].matched) return this.go(i);
  }

  go(index) {
    if (index === undefined || index < 0 || index >= this.nodes.length) return;
    this.current = index;
    for (const el of document.querySelectorAll('#moves .current')) el.classList.remove('current');
    const el = document.querySelector(`#moves [data-node="${index}"]`);
    if (el) { el.classList.add('current'); el.scrollIntoView({ block: 'nearest' }); }
    const n = this.nodes[index];
    $('position-info').textContent = index === 0 ? 'Start position' :
      `After ${n.number}${n.white ? '.' : '…'} ${n.san} (${n.path.includes('.') ? 'variation ' + n.path : 'ply ' + n.path})` +
      (n.matched ? ' — a matched position' : '');
    this.showBoard();
    this.showTree();
  }

  async showBoard() {
    const n = this.nodes[this.current];
    const board = $('board');
    const request = ++this.boardRequest;
    const response = await fetch(api.boardUrl(n.fen, { flip: this.flipped, move: n.from && n.to ? n.from + n.to : '' }));
    const svg = await response.text();
    if (request !== this.boardRequest) return;  // a later step already asked
    board.innerHTML = svg;
    board.dataset.fen = n.fen;
    board.dataset.path = n.path;
  }

  async showTree() {
    const fen = this.nodes[this.current].fen;
    const body = $('tree-body');
    if (Number(fen.split(' ')[5] || 1) > 20) {  // the position index holds the first 40 plies
      body.textContent = 'The opening tree covers the first 20 moves.';
      return;
    }
    try {
      const tree = await api.tree(fen);
      if (fen !== this.nodes[this.current].fen) return;
      if (!tree.games) { body.textContent = 'No game of the database reaches this position.'; return; }
      const pct = (x, t) => (t ? (100 * x / t).toFixed(0) : 0);
      let html = `<div class="meta">${tree.games} games reach it</div><table><tr><th>Move</th><th>Games</th><th>W / D / B</th><th>Elo</th></tr>`;
      for (const m of tree.moves.slice(0, 12)) {
        html += `<tr><td>${escapeHtml(m.san)}</td><td>${m.games}</td><td><span class="bar" title="${pct(m.white, m.games)}% / ${pct(m.draws, m.games)}% / ${pct(m.black, m.games)}%">` +
          `<span class="w" style="width:${pct(m.white, m.games)}%"></span><span class="d" style="width:${pct(m.draws, m.games)}%"></span>` +
          `<span class="b" style="width:${pct(m.black, m.games)}%"></span></span></td><td>${m.averageRating || ''}</td></tr>`;
      }
      body.innerHTML = html + '</table>';
    } catch (e) {
      body.textContent = e.error || 'no opening tree';
    }
  }
}
