// The board of the page: chessground (draws, takes drags and clicks) over a chessops
// position (legal moves). The page owns the state: show() sets a position, onMove reports a
// legal move the user made ({pos, san, uci, fen}); a promotion asks which piece.
import { Chessground } from 'chessground';
import { positionOf, destsOf, moveOfUci, play, fenOf } from './chess.js';

export class Board {
  /** Puts a board into `element`; `onMove({pos, san, uci, fen})` is called after a user move. */
  constructor(element, onMove) {
    this.element = element;
    this.onMove = onMove;
    this.pos = positionOf('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    this.editing = false;
    this.cg = Chessground(element, {
      coordinates: true,
      animation: { duration: 150 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (orig, dest) => this.userMove(orig, dest) } },
      premovable: { enabled: false },
      draggable: { showGhost: true },
      drawable: { enabled: true },
    });
  }

  userMove(orig, dest) {
    if (this.editing) return;  // edit mode: chessground moves the pieces freely
    const move = moveOfUci(this.pos, orig + dest);
    if (move) { this.played(move); return; }
    if (!moveOfUci(this.pos, orig + dest + 'q')) { this.show(this.fen); return; }
    // a promotion: the user picks the piece, as on lichess (Escape or a click aside cancels)
    this.choosePromotion(dest, (letter) => {
      const promotion = letter && moveOfUci(this.pos, orig + dest + letter);
      if (promotion) this.played(promotion);
      else this.show(this.fen);
    });
  }

  played(move) {
    const r = play(this.pos, move);
    this.onMove({ ...r, fen: fenOf(r.pos) });
  }

  /** Shows the four pieces a pawn reaching `dest` can become; `done(letter)` gets 'q', 'r',
   * 'b', 'n' or null (cancelled). */
  choosePromotion(dest, done) {
    const color = this.pos.turn;
    const box = document.createElement('div');
    box.className = 'promotion';
    box.innerHTML = ['queen', 'knight', 'rook', 'bishop'].map((role) =>
      `<button type="button" data-letter="${role === 'knight' ? 'n' : role[0]}" title="${role}"><piece class="${role} ${color}"></piece></button>`).join('');
    const finish = (letter) => {
      box.remove();
      document.removeEventListener('keydown', onKey, true);
      done(letter);
    };
    const onKey = (e) => { if (e.key === 'Escape') { e.stopPropagation(); finish(null); } };
    box.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-letter]');
      finish(button ? button.dataset.letter : null);
    });
    document.addEventListener('keydown', onKey, true);
    box.dataset.square = dest;
    this.element.append(box);
  }

  /** Shows `fen` with `lastMove` (UCI, may be empty) highlighted and, when `matched`, the
   * board marked as a matched position. */
  show(fen, { lastMove = '', matched = false } = {}) {
    this.pos = positionOf(fen);
    this.fen = fen;
    const turn = this.pos.turn;
    this.cg.set({
      fen,
      turnColor: turn,
      check: this.pos.isCheck() ? turn : false,
      lastMove: lastMove && lastMove.length >= 4 ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : undefined,
      movable: { color: turn, dests: destsOf(this.pos) },
    });
    this.element.dataset.fen = fen;
    this.element.classList.toggle('matched', matched);
  }

  flip() { this.cg.toggleOrientation(); }
  get orientation() { return this.cg.state.orientation; }
  setShapes(shapes) { this.cg.setAutoShapes(shapes); }
}
