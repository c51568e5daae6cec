// The board of the page: chessground (draws, takes drags and clicks) over a chessops
// position (legal moves). The page owns the state: show() sets a position, onMove reports a
// legal move the user made ({pos, san, uci}), promotions become queens unless the user holds
// Alt (knight) or Shift (rook)/Ctrl (bishop).
import { Chessground } from 'chessground';
import { positionOf, destsOf, moveOfUci, play, fenOf } from './chess.js';

export class Board {
  /** Puts a board into `element`; `onMove({pos, san, uci, fen})` is called after a user move. */
  constructor(element, onMove) {
    this.element = element;
    this.onMove = onMove;
    this.pos = positionOf('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    this.modifier = null;
    this.editing = false;
    document.addEventListener('keydown', (e) => { this.modifier = e.altKey ? 'n' : e.shiftKey ? 'r' : e.ctrlKey ? 'b' : null; });
    document.addEventListener('keyup', () => { this.modifier = null; });
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
    let move = moveOfUci(this.pos, orig + dest);
    if (!move) {  // a promotion
      move = moveOfUci(this.pos, orig + dest + (this.modifier || 'q'));
    }
    if (!move) { this.show(fenOf(this.pos)); return; }
    const r = play(this.pos, move);
    this.onMove({ ...r, fen: fenOf(r.pos) });
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
