// Chess rules for the page, from chessops: positions from FEN, legal moves, SAN and UCI in
// the spelling the server uses (castling as the king's two-square move, e1g1).
import { Chess, castlingSide, normalizeMove } from 'chessops/chess';
import { parseFen, makeFen, INITIAL_FEN } from 'chessops/fen';
import { parseSan, makeSan } from 'chessops/san';
import { parseUci, makeSquare, kingCastlesTo } from 'chessops/util';
import { chessgroundDests } from 'chessops/compat';

export { INITIAL_FEN };

/** The position of `fen`; throws Error with the reason when it is not a legal position. */
export function positionOf(fen) {
  const setup = parseFen(fen.trim());
  if (setup.isErr) throw new Error(`not a FEN: ${setup.error.message}`);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error(`not a legal position: ${pos.error.message}`);
  return pos.value;
}

export const fenOf = (pos) => makeFen(pos.toSetup());

/** The FEN without the two move counters (positions compare equal by it). */
export const epdOf = (fen) => fen.split(' ').slice(0, 4).join(' ');

/** The move `uci` ("e2e4", "e1g1", "e7e8q") in `pos`, normalized; undefined when illegal. */
export function moveOfUci(pos, uci) {
  const parsed = parseUci(uci);
  if (!parsed) return undefined;
  const move = normalizeMove(pos, parsed);
  return pos.isLegal(move) ? move : undefined;
}

/** `move` of `pos` as the server writes UCI: castling as the king's move (e1g1). */
export function uciOf(pos, move) {
  const side = castlingSide(pos, move);
  const to = side ? kingCastlesTo(pos.turn, side) : move.to;
  return makeSquare(move.from) + makeSquare(to) + (move.promotion ? move.promotion[0] : '');
}

/** Plays `move` on a copy of `pos`; returns { pos, san, uci }. */
export function play(pos, move) {
  const san = makeSan(pos, move);
  const uci = uciOf(pos, move);
  const next = pos.clone();
  next.play(move);
  return { pos: next, san, uci };
}

/** The SAN moves of `text` ("1.e4 c5 2.Nf3", numbers, results and comments skipped) played
 * from `fen`; returns the list of {san, uci, fen}; throws Error naming the first bad move. */
export function playSanText(fen, text) {
  let pos = positionOf(fen);
  const moves = [];
  const tokens = text.replace(/\{[^}]*\}/g, ' ').replace(/\([^)]*\)/g, ' ').split(/\s+/)
    .map((t) => t.replace(/^\d+\.(\.\.)?/, '').replace(/[!?]+$/, ''))
    .filter((t) => t && !/^(1-0|0-1|1\/2-1\/2|\*|\$\d+)$/.test(t));
  for (const token of tokens) {
    const move = parseSan(pos, token);
    if (!move) throw new Error(`'${token}' is not a legal move after ${moves.length} moves`);
    const r = play(pos, move);
    pos = r.pos;
    moves.push({ san: r.san, uci: r.uci, fen: fenOf(pos) });
  }
  return moves;
}

/** chessground's `dests` (legal moves by origin square) of `pos`. */
export const destsOf = (pos) => chessgroundDests(pos);

/** The pieces of `pos` as [{color: 'white'|'black', role: 'king'..., square: 'e1'}]. */
export function piecesOf(pos) {
  const list = [];
  for (const square of pos.board.occupied) {
    const piece = pos.board.get(square);
    list.push({ color: piece.color, role: piece.role, square: makeSquare(square) });
  }
  return list;
}
