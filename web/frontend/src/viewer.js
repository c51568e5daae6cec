// The game viewer: the moves of one game with its variations and comments, the positions a
// query matched marked, stepping by keys and buttons (left/right, up/down between the
// variations of a move, Home/End), next/previous match. It draws no board: go() reports
// the shown node to onNode(node) and the page puts it on the board.
import * as api from './api.js';
import { epdOf } from './chess.js';

const $ = (id) => document.getElementById(id);
const escapeHtml = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export class GameViewer {
  /** `onNode(node)` is called with each node shown: {fen, san, uci, path, matched, ...}. */
  constructor(onNode) {
    this.onNode = onNode;
    this.nodes = [];     // positions in movetext order: {fen, san, uci, path, prev, next, children, matched, ...}
    this.current = 0;
    this.game = null;
    $('moves').addEventListener('click', (e) => {
      const el = e.target.closest('[data-node]');
      if (el) this.go(Number(el.dataset.node));
    });
    $('prev-match').onclick = () => this.nextMatch(-1);
    $('next-match').onclick = () => this.nextMatch(1);
  }

  get isOpen() { return this.game !== null; }

  /** Opens game `id`; `queryId` marks the positions that query matched. Shows the node
   * `at`: 'match' (the first matched position, else the start), a FEN whose position the
   * game reaches (the first such node), or a node path. */
  async open(id, queryId, at = 'match') {
    const game = await api.game(id, queryId);
    this.game = game;
    this.queryId = queryId;
    const matched = new Set();
    if (game.matched) {
      for (const p of game.matched.plies) matched.add(String(p));
      for (const p of game.matched.variation_plies) matched.add(p);
    }
    this.nodes = [{ fen: game.start_fen, path: '0', prev: -1, next: -1, children: [], matched: matched.has('0'), san: '', uci: '' }];
    const addLine = (moves, from) => {
      let prev = from;
      moves.forEach((m) => {
        const index = this.nodes.length;
        this.nodes.push({ ...m, prev, next: -1, children: [], matched: matched.has(m.path) });
        if (this.nodes[prev].next < 0) this.nodes[prev].next = index;
        this.nodes[prev].children.push(index);
        for (const v of m.variations || []) addLine(v.moves, prev);
        prev = index;
      });
    };
    addLine(game.moves, 0);
    $('game-panel').hidden = false;
    const elo = (e) => (e ? ` (${e})` : '');
    $('game-title').textContent = `${game.white}${elo(game.white_elo)} – ${game.black}${elo(game.black_elo)}  ${game.result}`;
    $('game-meta').textContent = [`#${game.id}`, game.event, game.site, game.date, game.round && game.round !== '?' ? `round ${game.round}` : '',
      [game.eco, game.opening].filter(Boolean).join(' ')].filter(Boolean).join(' · ');
    $('game-pgn').href = `/api/game/${game.id}.pgn` + (queryId ? `?query=${queryId}` : '');
    $('prev-match').hidden = $('next-match').hidden = !game.matched;
    this.renderMoves(game);
    let start = 0;
    if (at === 'match') start = Math.max(0, this.nodes.findIndex((n) => n.matched));
    else if (typeof at === 'string' && at.includes('/')) {
      const epd = epdOf(at);
      start = Math.max(0, this.nodes.findIndex((n) => epdOf(n.fen) === epd));
    } else if (typeof at === 'string') start = Math.max(0, this.nodes.findIndex((n) => n.path === at));
    this.go(start, 'center');
    return start;
  }

  close() {
    this.game = null;
    this.nodes = [];
    $('game-panel').hidden = true;
    $('moves').innerHTML = '';
  }

  renderMoves(game) {
    const nodeOf = new Map(this.nodes.map((n, i) => [n.path, i]));
    const line = (moves, comment) => {
      let html = comment ? `<span class="comment">${escapeHtml(comment)}</span> ` : '';
      let numberNext = true;
      for (const m of moves) {
        const i = nodeOf.get(m.path);
        const number = m.white ? `<span class="num">${m.number}.</span>` : numberNext ? `<span class="num">${m.number}…</span>` : '';
        numberNext = false;
        const nags = (m.nags || []).map((n) => ` $${n}`).join('');
        html += `${number}<span class="mv${this.nodes[i].matched ? ' match' : ''}" data-node="${i}" data-path="${m.path}">${escapeHtml(m.san)}${nags}</span> `;
        if (m.comment) { html += `<span class="comment">${escapeHtml(m.comment)}</span> `; numberNext = true; }
        for (const v of m.variations || []) {
          html += `<span class="var">(${line(v.moves, v.comment_before)})</span> `;
          numberNext = true;
        }
      }
      return html;
    };
    const start = `<span class="mv start${this.nodes[0].matched ? ' match' : ''}" data-node="0" data-path="0">start</span> `;
    $('moves').innerHTML = start + line(game.moves, game.comment_before) + `<span class="result">${escapeHtml(game.result)}</span>`;
  }

  /** The node reached by playing `uci` from the shown node, or -1. */
  childByUci(uci) {
    const n = this.nodes[this.current];
    return n ? (n.children.find((c) => this.nodes[c].uci === uci) ?? -1) : -1;
  }

  /** Keys: 'back', 'forward', 'first', 'last', 'up', 'down' (the previous/next variation
   * of the shown move). */
  step(key) {
    const n = this.nodes[this.current];
    if (!n) return;
    if (key === 'back') this.go(n.prev);
    else if (key === 'forward') this.go(n.next);
    else if (key === 'first') this.go(0);
    else if (key === 'last') { let i = this.current; while (this.nodes[i].next >= 0) i = this.nodes[i].next; this.go(i); }
    else if (key === 'up' || key === 'down') {
      if (n.prev < 0) return;
      const siblings = this.nodes[n.prev].children;
      const k = siblings.indexOf(this.current) + (key === 'down' ? 1 : -1);
      if (k >= 0 && k < siblings.length) this.go(siblings[k]);
    }
  }

  /** Jumps to the next (dir 1) or previous (dir -1) matched position in movetext order. */
  nextMatch(dir) {
    for (let i = this.current + dir; i >= 0 && i < this.nodes.length; i += dir)
      if (this.nodes[i].matched) return this.go(i);
  }

  go(index, scroll = 'nearest') {
    if (index === undefined || index < 0 || index >= this.nodes.length) return;
    this.current = index;
    for (const el of document.querySelectorAll('#moves .current')) el.classList.remove('current');
    const el = document.querySelector(`#moves [data-node="${index}"]`);
    if (el) {
      el.classList.add('current');
      // scroll the move box only (not the page) so the move is visible
      const box = $('moves');
      const top = el.offsetTop;  // #moves is position: relative
      if (scroll === 'center') box.scrollTop = top - box.clientHeight / 2;
      else if (top < box.scrollTop) box.scrollTop = top - 4;
      else if (top + el.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + el.offsetHeight - box.clientHeight + 4;
    }
    const n = this.nodes[index];
    $('moves').dataset.path = n.path;
    this.onNode(n);
  }
}
